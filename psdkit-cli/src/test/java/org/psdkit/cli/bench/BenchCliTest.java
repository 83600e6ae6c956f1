package org.psdkit.cli.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.psdkit.cli.CliRun;
import org.psdkit.cli.TestFiles;

/** The bench commands on tiny sizes: their output and option checks (the measurements are tested in psdkit-bench). */
class BenchCliTest {
    @TempDir
    Path dir;

    @Test
    void linalgPrintsTheTableAndNamesTheSkippedBaselines() {
        CliRun r = CliRun.run("bench", "linalg", "--sizes", "20,40", "--workspace-sizes", "10", "--repeats", "1",
                "--baseline-max-n", "20", "--gram-n", "30", "--gram-d", "2");
        assertEquals(0, r.status(), r.err());
        List<String> lines = r.out().lines().toList();
        assertTrue(lines.get(0).startsWith("psdkit bench linalg: OpenBLAS threads"), lines.get(0));
        assertTrue(lines.get(1).startsWith("operation"), lines.get(1));
        // header, column names, 3 ops × 2 sizes, 1 workspace size, 2 Gram rows
        assertEquals(11, lines.size(), r.out());
        assertTrue(r.out().contains("skipped (n > --baseline-max-n 20)"), r.out());
        assertTrue(r.out().contains("max |difference|"), r.out());
    }

    @Test
    void badLinalgOptionsNameTheFlag() {
        CliRun r = CliRun.run("bench", "linalg", "--repeats", "0");
        assertEquals(2, r.status(), r.err());
        assertTrue(r.err().contains("--repeats must be >= 1"), r.err());
        r = CliRun.run("bench", "linalg", "--workspace-sizes", "0");
        assertEquals(2, r.status(), r.err());
        assertTrue(r.err().contains("--workspace-sizes: sizes must be >= 1, got 0"), r.err());
    }

    @Test
    void krrReportsTheRowsWithTheirKeys() {
        Random rnd = new Random(2);
        StringBuilder sb = new StringBuilder("a,b,target\n");
        for (int i = 0; i < 60; i++) {
            double a = rnd.nextGaussian();
            double b = rnd.nextGaussian();
            sb.append(String.format(Locale.ROOT, "%.6f,%.6f,%.6f%n", a, b, Math.sin(a + b)));
        }
        Path data = TestFiles.write(dir, "h.csv", sb.toString());
        CliRun r = CliRun.run("bench", "krr", "--data", data.toString(), "--sizes", "20,40", "--java-max-n", "20",
                "--repeats", "1", "--json");
        assertEquals(0, r.status(), r.err());
        JsonNode j = r.json();
        assertEquals("krr", j.get("benchmark").asText());
        assertEquals(List.of("benchmark", "data", "kernel", "lambda", "blasThreads", "results"), names(j));
        assertEquals(List.of("n", "d", "psdkitSeconds", "gramSeconds", "previousRouteSeconds",
                "speedupVsPreviousRoute", "maxRelDiffVsPreviousRoute", "eigenRouteSeconds", "speedupVsEigenRoute",
                "maxRelDiffVsEigenRoute", "plainJavaCholeskySeconds", "speedupVsPlainJava", "maxRelDiffVsPlainJava"),
                names(j.get("results").get(0)));
        assertFalse(j.get("results").get(1).has("plainJavaCholeskySeconds"), "plain Java only up to --java-max-n");

        r = CliRun.run("bench", "krr", "--data", data.toString(), "--sizes", "61");
        assertEquals(2, r.status(), r.err());
        assertTrue(r.err().contains("--sizes: 61 is not in [2, 60]"), r.err());
    }

    private static List<String> names(JsonNode o) {
        List<String> out = new ArrayList<>();
        o.fieldNames().forEachRemaining(out::add);
        return out;
    }
}
