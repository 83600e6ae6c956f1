package org.psdkit.cli.reproduce;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.psdkit.cli.CliRun;

class TkTable1CliTest {

    @TempDir
    Path dir;

    @Test
    void unknownBandwidthReadingIsRejectedBeforeAnyOutput() {
        Path out = dir.resolve("rows.csv");
        CliRun r = CliRun.run("reproduce", "tk-table1", "--gauss-bandwidth", "gamma", "--data", dir.toString(),
                "--datasets", "liver", "--out", out.toString());
        assertEquals(2, r.status());
        assertTrue(r.err().contains("--gauss-bandwidth"), r.err());
        assertFalse(Files.exists(out));
    }

    @Test
    void betaBandwidthsRunOnASmallSetAndWriteOneRowPerSplit() throws IOException {
        Random rnd = new Random(4);
        StringBuilder sb = new StringBuilder("a,b,label\n");
        for (int i = 0; i < 40; i++) {
            double a = rnd.nextDouble();
            double b = rnd.nextDouble();
            sb.append(a).append(',').append(b).append(',').append(a + 0.2 * rnd.nextGaussian() > 0.5 ? 2 : 1)
                    .append('\n');
        }
        Files.writeString(dir.resolve("liver.csv"), sb.toString());
        Path out = dir.resolve("rows.csv");
        CliRun r = CliRun.run("reproduce", "tk-table1", "--gauss-bandwidth", "beta", "--data", dir.toString(),
                "--datasets", "liver", "--methods", "simplemkl", "--splits", "2", "--out", out.toString(), "--json");
        assertEquals(0, r.status(), r.err());
        java.util.List<String> lines = Files.readAllLines(out);
        assertEquals(3, lines.size());
        assertTrue(lines.get(0).endsWith(",gauss_scaling,cv_accuracy"), lines.get(0));
        // default preparation of the SimpleMKL column: SimpleMKL's own (zscore), recorded per split
        assertTrue(lines.get(1).contains(",zscore,"), lines.get(1));
        assertEquals("zscore", r.json().get("results").get(0).get("gaussScaling").asText());
        double acc = r.json().get("results").get(0).get("accuracy").asDouble();
        assertTrue(acc >= 50 && acc <= 100, "accuracy " + acc);
        // the combined column chooses its Gaussian half's preparation by CV, split by split
        CliRun c = CliRun.run("reproduce", "tk-table1", "--data", dir.toString(), "--datasets", "liver",
                "--methods", "combined", "--splits", "1", "--library-size", "5", "--c-grid", "1",
                "--epsilon-grid", "1", "--out", out.toString(), "--json");
        assertEquals(0, c.status(), c.err());
        assertEquals("cv", c.json().get("results").get(0).get("gaussScaling").asText());
        String row = Files.readAllLines(out).get(1);
        assertTrue(row.contains(",minmax,") || row.contains(",zscore,"), row);
        CliRun bad = CliRun.run("reproduce", "tk-table1", "--gauss-scaling", "unit", "--data", dir.toString(),
                "--datasets", "liver", "--out", dir.resolve("never.csv").toString());
        assertEquals(2, bad.status());
        assertTrue(bad.err().contains("--gauss-scaling"), bad.err());
        assertFalse(Files.exists(dir.resolve("never.csv")));
    }
    /** Issue 30: the short names of docs/reproductions/README.md read their files; SimpleMKL's line has no eps. */
    @Test
    void shortNamesReadTheirFilesAndSimpleMklPrintsNoEpsilon() throws IOException {
        Random rnd = new Random(5);
        StringBuilder sb = new StringBuilder("a,b,label\n");
        for (int i = 0; i < 40; i++) {
            double a = rnd.nextDouble();
            sb.append(a).append(',').append(rnd.nextDouble()).append(',')
                    .append(a + 0.2 * rnd.nextGaussian() > 0.5 ? 2 : 1).append('\n');
        }
        Path data = Files.createDirectories(dir.resolve("data"));
        Files.writeString(data.resolve("heart-statlog.csv"), sb.toString());
        Path out = dir.resolve("rows.csv");
        // the split line is a progress note: shown unless Progress is quiet (a static switch other classes set)
        org.psdkit.cli.Progress.setQuiet(false);
        CliRun r;
        try {
            r = CliRun.run("reproduce", "tk-table1", "--data", data.toString(), "--datasets", "heart",
                    "--methods", "simplemkl", "--splits", "1", "--out", out.toString());
        } finally {
            org.psdkit.cli.Progress.setQuiet(System.getenv("PSDKIT_QUIET") != null);
        }
        assertEquals(0, r.status(), r.err());
        assertTrue(Files.readAllLines(out).get(1).startsWith("heart-statlog,"), Files.readAllLines(out).get(1));
        assertTrue(r.err().contains("heart-statlog split 1/1 SimpleMKL: accuracy"), r.err());
        assertFalse(r.err().contains("eps="), r.err());
        CliRun bad = CliRun.run("reproduce", "tk-table1", "--data", data.toString(), "--datasets", "breast-cancer",
                "--out", dir.resolve("never.csv").toString());
        assertEquals(2, bad.status());
        assertTrue(bad.err().contains("breast-cancer.csv not found; available: heart-statlog (or heart, "
                + "breast-cancer)"), bad.err());
        assertFalse(Files.exists(dir.resolve("never.csv")));
    }
}
