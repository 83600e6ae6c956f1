package org.psdkit.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GeneratedFilesTest {
    @TempDir
    Path dir;

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private List<String> names() throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void aFileTheBenchmarkWroteMayBeReplacedByTheNextRun() throws IOException {
        GeneratedFiles.requireReplaceable(dir, List.of("a.csv", "b.csv"), "--dir"); // nothing there yet
        GeneratedFiles.write(dir, "a.csv", os -> os.write(bytes("x\n1\n")));
        GeneratedFiles.write(dir, "b.csv", os -> os.write(bytes("x\n2\n")));
        GeneratedFiles.requireReplaceable(dir, List.of("a.csv", "b.csv"), "--dir");
        GeneratedFiles.write(dir, "a.csv", os -> os.write(bytes("x\n3\n")));
        GeneratedFiles.requireReplaceable(dir, List.of("a.csv", "b.csv"), "--dir");
        assertEquals("x\n3\n", Files.readString(dir.resolve("a.csv")));
        assertEquals(List.of(GeneratedFiles.MANIFEST, "a.csv", "b.csv"), names(), "no temporary file left");
    }

    @Test
    void aFileOfTheUsersOrOneChangedSinceIsRefused() throws IOException {
        Files.writeString(dir.resolve("mine.csv"), "my data\n");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> GeneratedFiles.requireReplaceable(dir, List.of("other.csv", "mine.csv"), "--dir"));
        assertTrue(e.getMessage().startsWith("--dir " + dir + ": " + dir.resolve("mine.csv") + " exists and was "
                + "not written there by a psdkit benchmark"), e.getMessage());
        // written by a benchmark, then edited (another size), or touched (another time): no longer the benchmark's
        Path a = GeneratedFiles.write(dir, "a.csv", os -> os.write(bytes("x\n1\n")));
        Files.writeString(a, "x\n1\n2\n");
        assertThrows(IllegalArgumentException.class,
                () -> GeneratedFiles.requireReplaceable(dir, List.of("a.csv"), "--dir"));
        Path b = GeneratedFiles.write(dir, "b.csv", os -> os.write(bytes("x\n1\n")));
        Files.setLastModifiedTime(b, FileTime.fromMillis(Files.getLastModifiedTime(b).toMillis() - 5000));
        assertThrows(IllegalArgumentException.class,
                () -> GeneratedFiles.requireReplaceable(dir, List.of("b.csv"), "--dir"));
        // a folder or a symbolic link of that name is not the benchmark's either
        Files.createDirectory(dir.resolve("d.csv"));
        assertThrows(IllegalArgumentException.class,
                () -> GeneratedFiles.requireReplaceable(dir, List.of("d.csv"), "--dir"));
        GeneratedFiles.write(dir, "c.csv", os -> os.write(bytes("x\n1\n")));
        Files.delete(dir.resolve("c.csv"));
        Files.createSymbolicLink(dir.resolve("c.csv"), dir.resolve("mine.csv"));
        assertThrows(IllegalArgumentException.class,
                () -> GeneratedFiles.requireReplaceable(dir, List.of("c.csv"), "--dir"));
        assertEquals("my data\n", Files.readString(dir.resolve("mine.csv")));
    }

    @Test
    void anInterruptedWriteLeavesNoFileAndNoRecord() throws IOException {
        assertThrows(IOException.class, () -> GeneratedFiles.write(dir, "a.csv", os -> {
            os.write(bytes("x\n1\n"));
            throw new IOException("interrupted");
        }));
        assertEquals(List.of(), names());
    }
}
