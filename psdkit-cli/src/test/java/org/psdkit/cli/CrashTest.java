package org.psdkit.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 17, "Crashes": inputs that used to end in a StackOverflowError or OutOfMemoryError trace now give exit 2 and
 * one "psdkit: error:" line, before anything large is allocated, and leave no file behind.
 */
class CrashTest {

    @TempDir
    Path dir;

    private Path boston() throws IOException {
        StringBuilder sb = new StringBuilder("a,b,target\n");
        for (int i = 0; i < 30; i++) {
            sb.append(i % 7).append(',').append(i % 5).append(',').append(i * 0.5).append('\n');
        }
        return Files.writeString(dir.resolve("in.csv"), sb.toString());
    }

    /** Exit 2, exactly one line starting "psdkit: error:", containing every fragment; nothing new in the folder. */
    private void assertRefused(CliRun r, Set<String> before, String... fragments) throws IOException {
        assertEquals(2, r.status(), r.err());
        List<String> lines = r.err().lines().filter(l -> !l.isBlank()).toList();
        assertEquals(1, lines.size(), r.err());
        assertTrue(lines.get(0).startsWith("psdkit: error: "), r.err());
        for (String f : fragments) {
            assertTrue(lines.get(0).contains(f), "missing '" + f + "' in: " + r.err());
        }
        assertEquals(before, listing(), "files left behind");
    }

    private Set<String> listing() throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).collect(Collectors.toCollection(TreeSet::new));
        }
    }

    @Test
    void deeplyNestedKernelIsRefused() throws IOException {
        Path in = boston();
        String kernel = "(".repeat(5000) + "rbf" + ")".repeat(5000);
        Set<String> before = listing();
        CliRun r = CliRun.run("fit", "krr", "--train", in.toString(), "--out", dir.resolve("m.json").toString(),
                "--kernel", kernel);
        assertRefused(r, before, "--kernel", "nested too deeply (limit ");
        // a modest nesting still parses
        CliRun ok = CliRun.run("fit", "krr", "--train", in.toString(), "--out", dir.resolve("m.json").toString(),
                "--kernel", "((((gaussian(sigma=2)))))");
        assertEquals(0, ok.status(), ok.err());
    }

    @Test
    void nestedWeightedKernelIsRefused() throws IOException {
        Path in = boston();
        String kernel = "weighted(1*".repeat(3000) + "rbf" + ")".repeat(3000);
        Set<String> before = listing();
        CliRun r = CliRun.run("fit", "krr", "--train", in.toString(), "--out", dir.resolve("m.json").toString(),
                "--kernel", kernel);
        assertRefused(r, before, "nested too deeply");
    }

    @Test
    void libsvmWithAHugeFeatureIndexIsRefusedBeforeAllocating() throws IOException {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 21; i++) {
            sb.append(i % 2 == 0 ? "+1" : "-1").append(" 1:").append(i * 0.1).append(" 50000000:1\n");
        }
        Path in = Files.writeString(dir.resolve("big.libsvm"), sb.toString());
        Set<String> before = listing();
        CliRun r = CliRun.run("fit", "svm", "--train", in.toString(), "--out", dir.resolve("m.json").toString());
        // with the test JVM's 4 GB heap: 21 x 50,000,000 doubles need 7.8 GB
        assertRefused(r, before, "big.libsvm", "21 rows", "50000000", "needs ~", "GB, the JVM has ",
                "(set PSDKIT_JAVA_OPTS=-Xmx");
    }

    private Path sdpa(String name, int m, String sizes) throws IOException {
        StringBuilder sb = new StringBuilder("\"hostile\n").append(m).append(" =mdim\n")
                .append(sizes.split(" ").length).append(" =nblocks\n").append(sizes).append('\n');
        for (int i = 0; i < m; i++) {
            sb.append(i == 0 ? "" : " ").append(1);
        }
        sb.append("\n0 1 1 1 1\n1 1 1 1 1\n");
        return Files.writeString(dir.resolve(name), sb.toString());
    }

    @Test
    void sdpaBlockTooLargeForAnArray() throws IOException {
        Path in = sdpa("big.dat-s", 1, "200000");
        Set<String> before = listing();
        assertRefused(CliRun.run("sdp", "solve", in.toString()), before, "big.dat-s", "block 1",
                "200000 x 200000", "more than a Java array holds");
    }

    @Test
    void sdpaHugeDiagonalBlock() throws IOException {
        Path in = sdpa("diag.dat-s", 1, "-300000000");
        Set<String> before = listing();
        assertRefused(CliRun.run("sdp", "solve", in.toString(), "--solution", dir.resolve("s.json").toString()),
                before, "diag.dat-s", "needs ~", "GB, the JVM has ", "PSDKIT_JAVA_OPTS=-Xmx");
    }

    @Test
    void sdpaBlockOfMaxInt() throws IOException {
        Path in = sdpa("max.dat-s", 1, "2147483647");
        Set<String> before = listing();
        assertRefused(CliRun.run("sdp", "solve", in.toString()), before, "max.dat-s", "2147483647 x 2147483647");
    }

    @Test
    void sdpaWithTwoHundredThousandConstraints() throws IOException {
        Path in = sdpa("m.dat-s", 200_000, "-2");
        Set<String> before = listing();
        assertRefused(CliRun.run("sdp", "solve", in.toString()), before, "m.dat-s", "Schur complement",
                "m = 200000");
    }

    @Test
    void sdpaWithAHugeNumberOfBlocks() throws IOException {
        Path in = Files.writeString(dir.resolve("blocks.dat-s"), "1\n2000000000\n2 2\n1\n");
        Set<String> before = listing();
        assertRefused(CliRun.run("sdp", "solve", in.toString()), before, "blocks.dat-s", "2000000000 blocks",
                "needs ~");
    }

    @Test
    void errorsAreReportedInOneLine() {
        java.io.StringWriter sw = new java.io.StringWriter();
        java.io.PrintWriter pw = new java.io.PrintWriter(sw);
        assertEquals(Main.EXIT_INTERNAL, Main.reportError(new RuntimeException(new OutOfMemoryError("Java heap space")),
                pw));
        assertEquals(Main.EXIT_INTERNAL, Main.reportError(new StackOverflowError(), pw));
        assertEquals(-1, Main.reportError(new RuntimeException("other"), pw));
        List<String> lines = sw.toString().lines().toList();
        assertEquals(2, lines.size(), sw.toString());
        assertTrue(lines.get(0).startsWith("psdkit: out of memory: Java heap space; the JVM has "), lines.get(0));
        assertTrue(lines.get(1).startsWith("psdkit: internal error: stack overflow"), lines.get(1));
        assertFalse(sw.toString().contains("\tat "));
    }
}
