package org.psdkit.io;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/** Copies golden model files (test resources under {@code golden/}) to a folder so that they load as files. */
final class GoldenFiles {
    private GoldenFiles() {
    }

    static Path copy(Path dir, String name) {
        Path out = dir.resolve(name);
        try (InputStream in = GoldenFiles.class.getResourceAsStream("/golden/" + name)) {
            if (in == null) {
                throw new IllegalStateException("missing golden file " + name);
            }
            Files.copy(in, out, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }
}
