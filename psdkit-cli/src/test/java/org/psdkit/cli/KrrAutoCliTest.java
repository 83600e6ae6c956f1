package org.psdkit.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.psdkit.io.ModelIO;
import org.psdkit.model.Model;
import org.psdkit.regression.KrrAutoTrainer;

/** {@code fit krr --auto}: the search's model file, report, progress and refused flags (n = 60). */
class KrrAutoCliTest {
    @TempDir
    Path dir;

    private Path data() throws IOException {
        Random r = new Random(9);
        StringBuilder b = new StringBuilder("a,b,y\n");
        for (int i = 0; i < 60; i++) {
            double a = r.nextGaussian();
            double c = r.nextGaussian();
            b.append(String.format(Locale.ROOT, "%.6f,%.6f,%.6f%n", a, c, Math.sin(2 * a) + 0.3 * c
                    + 0.1 * r.nextGaussian()));
        }
        Path train = dir.resolve("t.csv");
        Files.writeString(train, b.toString());
        return train;
    }

    @Test
    void autoWritesAnOrdinaryKrrModelWithTheSearchAndShowsProgress() throws IOException {
        Path train = data();
        Path out = dir.resolve("auto.json");
        boolean wasQuiet = Progress.quiet();
        CliRun run;
        try {
            Progress.setQuiet(false);
            Progress.setEager(true);
            run = CliRun.run("fit", "krr", "--train", train.toString(), "--auto", "--auto-restarts", "2",
                    "--scale", "zscore", "--out", out.toString(), "--json");
        } finally {
            Progress.setEager(false);
            Progress.setQuiet(wasQuiet);
        }
        assertEquals(0, run.status(), run.err());
        assertTrue(run.err().contains("krr --auto: 1 "), run.err());
        assertTrue(run.err().contains("loo rmse"), run.err());
        JsonNode j = run.json();
        Model m = ModelIO.load(out);
        assertEquals("krr", m.type());
        KrrAutoTrainer.Fit d = assertInstanceOf(KrrAutoTrainer.Fit.class, m.diagnostics());
        assertEquals(d.search().evaluations(), j.get("autoEvaluations").asInt());
        assertEquals(d.search().rmse(), j.get("autoRmse").asDouble(), 0.0);
        assertEquals("loo", j.get("autoObjective").asText());
        assertEquals(m.hyperParameters().number("lambda"), j.get("lambda").asDouble(), 0.0);
        assertTrue(j.get("kernel").asText().startsWith("gaussian(sigma="), j.toString());
        CliRun p = CliRun.run("eval", "--model", out.toString(), "--data", train.toString(), "--json");
        assertEquals(0, p.status(), p.err());
    }

    /**
     * {@code --anchors M --auto}: a Nyström krr model with the search in its diagnostics and progress on stderr; the
     * plain {@code --anchors M} fit at the reported sigma and lambda writes the same numbers (uniform anchors).
     */
    @Test
    void nystromAutoIsThePlainNystromFitAtTheChosenPoint() throws IOException {
        Path train = data();
        Path out = dir.resolve("nauto.json");
        boolean wasQuiet = Progress.quiet();
        CliRun run;
        try {
            Progress.setQuiet(false);
            Progress.setEager(true);
            run = CliRun.run("fit", "krr", "--train", train.toString(), "--anchors", "30", "--auto",
                    "--auto-restarts", "2", "--scale", "zscore", "--out", out.toString(), "--json");
        } finally {
            Progress.setEager(false);
            Progress.setQuiet(wasQuiet);
        }
        assertEquals(0, run.status(), run.err());
        assertTrue(run.err().contains("krr --auto: 1 "), run.err());
        assertTrue(run.err().contains("loo rmse"), run.err());
        JsonNode j = run.json();
        assertEquals(30, j.get("anchors").asInt());
        assertEquals("nystrom-cg", j.get("route").asText());
        Model m = ModelIO.load(out);
        org.psdkit.regression.nystrom.NystromKrrAutoTrainer.Fit d = assertInstanceOf(
                org.psdkit.regression.nystrom.NystromKrrAutoTrainer.Fit.class, m.diagnostics());
        assertEquals(d.search().evaluations(), j.get("autoEvaluations").asInt());
        assertEquals(d.search().rmse(), j.get("autoRmse").asDouble(), 0.0);
        Path plain = dir.resolve("plain.json");
        CliRun p = CliRun.run("fit", "krr", "--train", train.toString(), "--anchors", "30", "--kernel",
                j.get("kernel").asText(), "--lambda", Double.toString(j.get("lambda").asDouble()), "--scale", "zscore",
                "--out", plain.toString(), "--json");
        assertEquals(0, p.status(), p.err());
        assertEquals(org.psdkit.io.ModelFile.read(plain).get("numbers"), org.psdkit.io.ModelFile.read(out)
                .get("numbers"));
    }

    @Test
    void badOrMisplacedFlagsExitTwoNamingTheFlag() throws IOException {
        String t = data().toString();
        String o = dir.resolve("x.json").toString();
        String[][] cases = {
            {"--auto", "--lambda", "0.1", "--lambda: not with --auto"},
            {"--ard", "--ard: applies with --auto only"},
            {"--auto-objective", "gcv", "--auto-objective: applies with --auto only"},
            {"--auto", "--auto-restarts", "0", "--auto-restarts must be >= 1"},
            {"--auto", "--auto-rows", "3", "--auto-rows must be >= 10"},
            {"--auto", "--auto-holdout", "1.5", "--auto-holdout"},
            {"--auto", "--auto-objective", "kfold", "--auto-objective must be loo, gcv or holdout"},
            {"--auto", "--kernel", "laplacian(sigma=1)", "--kernel must be gaussian(...)"},
            {"--auto", "--form", "representer", "--form must be standard"},
            {"--auto", "--anchors", "10", "--engine", "spark", "--auto: not with --engine spark"},
            {"--anchors", "10", "--ard", "--ard: applies with --auto only"},
            {"--auto", "--anchors", "10", "--lambda", "0.1", "--lambda: not with --auto"},
            {"--auto", "--anchors", "10", "--auto-rows", "3", "--auto-rows must be >= 10"},
            {"--auto", "--anchors", "10", "--kernel", "laplacian(sigma=1)", "--kernel must be gaussian(...)"},
        };
        for (String[] c : cases) {
            String[] args = new String[c.length - 1 + 6];
            args[0] = "fit";
            args[1] = "krr";
            args[2] = "--train";
            args[3] = t;
            args[4] = "--out";
            args[5] = o;
            System.arraycopy(c, 0, args, 6, c.length - 1);
            CliRun r = CliRun.run(args);
            assertEquals(2, r.status(), String.join(" ", c) + ": " + r.err());
            assertTrue(r.err().contains(c[c.length - 1]), r.err());
            assertTrue(!r.err().contains("Exception"), r.err());
        }
    }
}
