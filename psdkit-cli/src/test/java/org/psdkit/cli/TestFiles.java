package org.psdkit.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/** Copies test resources to a folder so that CLI commands can read them as files. */
public final class TestFiles {
    private TestFiles() {
    }

    public static Path resource(Path dir, String name) {
        Path out = dir.resolve(name.substring(name.lastIndexOf('/') + 1));
        try (InputStream in = TestFiles.class.getResourceAsStream("/" + name)) {
            if (in == null) {
                throw new IllegalStateException("missing test resource " + name);
            }
            Files.copy(in, out, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }

    public static Path write(Path dir, String name, String text) {
        try {
            return Files.writeString(dir.resolve(name), text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
