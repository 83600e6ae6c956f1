package org.psdkit.data;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Output files get the mode of a plain write. Java cannot set the umask, so the reference is a file created in the
 * same folder with {@link Files#createFile} and no explicit mode (0666 &amp; ~umask).
 */
class OutputFilesTest {
    @TempDir
    Path dir;

    private void assumePosix() {
        assumeTrue(Files.getFileAttributeView(dir, PosixFileAttributeView.class) != null, "POSIX file system");
    }

    private static String mode(Path p) throws IOException {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(p));
    }

    @Test
    void newFileGetsTheModeOfAPlainWrite() throws IOException {
        assumePosix();
        String plain = mode(Files.createFile(dir.resolve("plain.txt")));
        Path out = dir.resolve("model.json");
        OutputFiles.writeAtomically(out, "{}".getBytes(StandardCharsets.UTF_8));
        assertEquals(plain, mode(out));
        assertEquals("{}", Files.readString(out));
        // the same through the CSV writer, and no temporary file is left behind
        Path csv = dir.resolve("pred.csv");
        CsvWriter.write(csv, new String[] {"a"}, List.<String[]>of(new String[] {"1"}));
        assertEquals(plain, mode(csv));
        try (Stream<Path> s = Files.list(dir)) {
            assertEquals(List.of("model.json", "plain.txt", "pred.csv"),
                    s.map(p -> p.getFileName().toString()).sorted().toList());
        }
    }

    @Test
    void existingFileKeepsItsMode() throws IOException {
        assumePosix();
        for (String m : new String[] {"rw-r-----", "rw-------", "rw-rw-rw-"}) {
            Path out = dir.resolve("out-" + m + ".csv");
            Files.writeString(out, "old\n");
            Files.setPosixFilePermissions(out, PosixFilePermissions.fromString(m));
            OutputFiles.writeAtomically(out, "new\n".getBytes(StandardCharsets.UTF_8));
            assertEquals(m, mode(out));
            assertEquals("new\n", Files.readString(out));
        }
    }

    @Test
    void missingFolderFailsAndLeavesNothing() throws IOException {
        Path out = dir.resolve("no-such-folder").resolve("x.csv");
        assertThrows(IOException.class, () -> OutputFiles.writeAtomically(out, new byte[] {1}));
        try (Stream<Path> s = Files.list(dir)) {
            assertArrayEquals(new Object[0], s.toArray());
        }
    }

    @Test
    void symbolicLinkIsWrittenThroughAndStaysALink() throws IOException {
        Path sub = Files.createDirectory(dir.resolve("sub"));
        Path real = Files.writeString(sub.resolve("real.csv"), "old\n");
        Path link = Files.createSymbolicLink(dir.resolve("link.csv"), Path.of("sub", "real.csv")); // relative link
        Path chain = Files.createSymbolicLink(dir.resolve("chain.csv"), link);
        OutputFiles.writeAtomically(link, "new\n".getBytes(StandardCharsets.UTF_8));
        assertTrue(Files.isSymbolicLink(link));
        assertEquals("new\n", Files.readString(real));
        OutputFiles.writeAtomically(chain, "newer\n".getBytes(StandardCharsets.UTF_8));
        assertTrue(Files.isSymbolicLink(chain) && Files.isSymbolicLink(link));
        assertEquals("newer\n", Files.readString(real));
        // no temporary file left next to the link or next to the target
        try (Stream<Path> s = Files.list(dir)) {
            assertEquals(List.of("chain.csv", "link.csv", "sub"), s.map(p -> p.getFileName().toString()).sorted().toList());
        }
        try (Stream<Path> s = Files.list(sub)) {
            assertEquals(List.of("real.csv"), s.map(p -> p.getFileName().toString()).toList());
        }
    }

    @Test
    void danglingLinkCreatesItsTarget() throws IOException {
        Path link = Files.createSymbolicLink(dir.resolve("link.csv"), Path.of("later.csv"));
        OutputFiles.writeAtomically(link, "x\n".getBytes(StandardCharsets.UTF_8));
        assertTrue(Files.isSymbolicLink(link));
        assertEquals("x\n", Files.readString(dir.resolve("later.csv")));
    }

    @Test
    void targetComparesRealPaths() throws IOException {
        Path real = Files.writeString(dir.resolve("in.csv"), "a\n");
        Path link = Files.createSymbolicLink(dir.resolve("link.csv"), real);
        Path dirLink = Files.createSymbolicLink(dir.resolve("d"), dir);
        Path t = OutputFiles.target(real);
        assertEquals(t, OutputFiles.target(link));
        assertEquals(t, OutputFiles.target(dir.resolve(".").resolve("in.csv")));
        assertEquals(t, OutputFiles.target(dirLink.resolve("in.csv")));
        // a file that does not exist yet: its real folder plus its name
        assertEquals(t.resolveSibling("new.csv"), OutputFiles.target(dirLink.resolve("new.csv")));
        Path loop = Files.createSymbolicLink(dir.resolve("loop"), dir.resolve("loop"));
        assertThrows(IOException.class, () -> OutputFiles.target(loop));
    }

    /**
     * A named pipe (like {@code /dev/null} or {@code /dev/stdout}, not a regular file) is written directly and stays a
     * pipe. Renaming a temporary file over it replaced it with a regular file; as root, {@code --out /dev/null} did
     * that to the system's {@code /dev/null}.
     */
    @Test
    void aPipeIsWrittenDirectlyAndStaysAPipe() throws Exception {
        assumePosix();
        Path fifo = dir.resolve("pipe");
        Process mk = new ProcessBuilder("mkfifo", fifo.toString()).start();
        assertEquals(0, mk.waitFor(), "mkfifo");
        java.util.concurrent.CompletableFuture<byte[]> read = java.util.concurrent.CompletableFuture.supplyAsync(() -> {
            try {
                return Files.readAllBytes(fifo);
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        OutputFiles.writeAtomically(fifo, "a,b\n1,2\n".getBytes(StandardCharsets.UTF_8));
        assertEquals("a,b\n1,2\n", new String(read.get(30, java.util.concurrent.TimeUnit.SECONDS),
                StandardCharsets.UTF_8));
        assertTrue(Files.exists(fifo) && !Files.isRegularFile(fifo), "still a pipe");
        try (Stream<Path> s = Files.list(dir)) {
            assertEquals(List.of(fifo), s.toList(), "no temporary file");
        }
    }

    /** An existing (empty) folder is refused: a rename would replace an empty folder with the file. */
    @Test
    void aFolderIsRefusedAndKept() throws IOException {
        Path sub = Files.createDirectory(dir.resolve("out.json"));
        IOException e = assertThrows(IOException.class,
                () -> OutputFiles.writeAtomically(sub, "{}".getBytes(StandardCharsets.UTF_8)));
        assertTrue(e.getMessage().contains("is a folder"), e.getMessage());
        assertTrue(Files.isDirectory(sub));
    }

    /**
     * {@code /dev/stdout} on a pipe links to {@code pipe:[…]}, which is no path: its target is the path itself (the
     * test JVM's standard output is a pipe under Maven; nothing is written to it here).
     */
    @Test
    void standardOutputOnAPipeIsItsOwnTarget() throws IOException {
        Path fd1 = Path.of("/proc/self/fd/1");
        assumeTrue(Files.isSymbolicLink(fd1) && Files.readSymbolicLink(fd1).toString().startsWith("pipe:"),
                "standard output is a pipe");
        assertEquals(Path.of("/dev/stdout"), OutputFiles.target(Path.of("/dev/stdout")));
    }

    /**
     * The streaming form writes through a temporary sibling too: content that fails half-way (a full disk, an
     * interrupted generator) leaves the old file as it was and no temporary file.
     */
    @Test
    void streamedContentThatFailsLeavesTheTargetAsItWas() throws IOException {
        Path out = Files.writeString(dir.resolve("data.csv"), "old\n");
        IOException e = assertThrows(IOException.class, () -> OutputFiles.writeAtomically(out, os -> {
            os.write("x1,y\n1,".getBytes(StandardCharsets.UTF_8));
            throw new IOException("disk full");
        }));
        assertEquals("disk full", e.getMessage());
        assertEquals("old\n", Files.readString(out));
        OutputFiles.writeAtomically(out, os -> os.write("x1,y\n1,2\n".getBytes(StandardCharsets.UTF_8)));
        assertEquals("x1,y\n1,2\n", Files.readString(out));
        try (Stream<Path> s = Files.list(dir)) {
            assertEquals(List.of("data.csv"), s.map(p -> p.getFileName().toString()).toList());
        }
    }
}
