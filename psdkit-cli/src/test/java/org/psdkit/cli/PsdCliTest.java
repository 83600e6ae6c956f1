package org.psdkit.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PsdCliTest {

    @TempDir
    Path dir;

    Path csv(String name, int n, long seed, double lo, double hi) throws IOException {
        Random r = new Random(seed);
        StringBuilder sb = new StringBuilder("x,y\n");
        for (int i = 0; i < n; i++) {
            double x = lo + (hi - lo) * r.nextDouble();
            double y = Math.max(0, Math.sin(x)) * x * x + 0.2 * r.nextGaussian();
            sb.append(String.format(Locale.ROOT, "%.17g,%.17g%n", x, y));
        }
        Path p = dir.resolve(name);
        Files.writeString(p, sb.toString());
        return p;
    }

    @Test
    void aFitStoppedByItsIterationBudgetWarnsOnStderr() throws IOException {
        Path train = csv("train.csv", 60, 1, -3, 3);
        Path model = dir.resolve("m.json");
        for (String type : new String[] {"psd-regression", "ncm"}) {
            CliRun r = CliRun.run("fit", type, "--train", train.toString(), "--out", model.toString(), "--kernel",
                    "gaussian(sigma=0.5)", "--max-iter", "2", "--tol", "1e-12", "--json");
            assertEquals(0, r.status(), r.err());
            assertTrue(r.err().contains("psdkit fit " + type + ": warning: the solver stopped (max_iterations) after "
                    + "2 iterations") && r.err().contains("raise --max-iter"), type + ": " + r.err());
            assertTrue(Files.exists(model));
            CliRun ok = CliRun.run("fit", type, "--train", train.toString(), "--out", model.toString(), "--kernel",
                    "gaussian(sigma=0.5)", "--json");
            assertEquals(0, ok.status(), ok.err());
            assertFalse(ok.err().contains("warning"), type + ": " + ok.err());
        }
        Path pts = dir.resolve("pts.csv");
        StringBuilder sb = new StringBuilder("x\n");
        Random rnd = new Random(3);
        for (int i = 0; i < 40; i++) {
            sb.append(String.format(Locale.ROOT, "%.17g%n", rnd.nextGaussian()));
        }
        Files.writeString(pts, sb.toString());
        CliRun d = CliRun.run("fit", "density", "--train", pts.toString(), "--no-target", "--out", model.toString(),
                "--kernel", "gaussian(sigma=0.7)", "--max-iter", "2", "--tol", "1e-12", "--json");
        assertEquals(0, d.status(), d.err());
        assertTrue(d.err().contains("psdkit fit psd-density: warning: the solver stopped (not converged) after"),
                d.err());
    }

    @Test
    void fitPsdRegressionReportsSolverFieldsAndEvalReportsMinPrediction() throws IOException {
        Path train = csv("train.csv", 60, 1, -3, 3);
        Path far = csv("far.csv", 200, 2, -300, 300);
        Path model = dir.resolve("m.json");
        CliRun r = CliRun.run("fit", "psd-regression", "--train", train.toString(), "--out", model.toString(),
                "--kernel", "gaussian(sigma=0.5)", "--lambda1", "1e-4", "--lambda2", "1e-4", "--tol", "1e-8",
                "--max-iter", "5000", "--json");
        assertEquals(0, r.status(), r.err());
        JsonNode j = r.json();
        assertEquals("psd-regression", j.get("model").asText());
        for (String f : new String[] {"iterations", "duality_gap", "objective", "seconds", "rank", "rmse"}) {
            assertTrue(j.has(f), "missing " + f + " in " + j);
        }
        assertTrue(j.get("duality_gap").asDouble() <= 1e-8 * j.get("objective").asDouble() * 1.0001);
        assertTrue(j.get("rank").asInt() >= 1);
        assertEquals(1e-8, j.get("rank_threshold").asDouble(), 0.0);
        assertTrue(j.get("anchors").asInt() >= j.get("rank").asInt());
        assertTrue(j.get("factor_rank").asInt() >= 1);
        CliRun e = CliRun.run("eval", "--model", model.toString(), "--data", far.toString(), "--json");
        assertEquals(0, e.status(), e.err());
        assertTrue(e.json().get("min_prediction").asDouble() >= 0, e.out());
        assertTrue(e.json().has("rmse"));
        // the paper's convention reaches the same options
        CliRun p = CliRun.run("fit", "psd-regression", "--train", train.toString(), "--out", model.toString(),
                "--lambda", "1e-3", "--frobenius-ratio", "0.005", "--json");
        assertEquals(0, p.status(), p.err());
        assertEquals(1e-5, p.json().get("lambda2").asDouble(), 1e-18);
        // Nyström: 20 anchors by leverage, seeded
        CliRun ny = CliRun.run("fit", "psd-regression", "--train", train.toString(), "--out", model.toString(),
                "--kernel", "gaussian(sigma=0.5)", "--anchors", "20", "--anchor-method", "leverage", "--seed", "4",
                "--json");
        assertEquals(0, ny.status(), ny.err());
        assertEquals(20, ny.json().get("anchors").asInt());
        assertTrue(ny.json().get("rank").asInt() <= 20);
        CliRun bad = CliRun.run("fit", "psd-regression", "--train", train.toString(), "--out", model.toString(),
                "--anchors", "20", "--anchor-method", "random");
        assertEquals(2, bad.status());
        assertTrue(bad.err().contains("--anchor-method"), bad.err());
    }

    @Test
    void badOptionsExitTwoAndWriteNothing() throws IOException {
        Path train = csv("train.csv", 20, 1, -3, 3);
        Path model = dir.resolve("bad.json");
        CliRun r = CliRun.run("fit", "psd-regression", "--train", train.toString(), "--out", model.toString(),
                "--lambda2", "0");
        assertEquals(2, r.status());
        assertTrue(r.err().contains("--lambda2"), r.err());
        assertFalse(Files.exists(model));
        CliRun r2 = CliRun.run("fit", "psd-regression", "--train", train.toString(), "--out", model.toString(),
                "--lambda", "1", "--lambda1", "1");
        assertEquals(2, r2.status());
        CliRun r3 = CliRun.run("fit", "ncm", "--train", train.toString(), "--out", model.toString(), "--lambda",
                "-1");
        assertEquals(2, r3.status());
        assertTrue(r3.err().contains("--lambda"), r3.err());
        assertFalse(Files.exists(model));
    }

    @Test
    void baselinesFitAndEvaluate() throws IOException {
        Path train = csv("train.csv", 40, 3, -3, 3);
        for (String type : new String[] {"ncm", "pnm", "glm"}) {
            Path model = dir.resolve(type + ".json");
            CliRun r = CliRun.run("fit", type, "--train", train.toString(), "--out", model.toString(), "--kernel",
                    "gaussian(sigma=0.7)", "--lambda", "1e-3", "--max-iter", "400", "--json");
            assertEquals(0, r.status(), r.err());
            assertEquals(type, r.json().get("model").asText());
            assertTrue(r.json().get("iterations").asInt() > 0);
            CliRun e = CliRun.run("eval", "--model", model.toString(), "--data", train.toString(), "--json");
            assertEquals(0, e.status(), e.err());
            assertTrue(e.json().get("r2").asDouble() > 0.8, type + ": " + e.out());
            if (!type.equals("pnm")) {
                assertTrue(e.json().get("min_prediction").asDouble() >= 0, type + ": " + e.out());
            }
        }
    }

    @Test
    void reproduceExample2WritesAFigureAndTable() {
        Path png = dir.resolve("ex2.png");
        CliRun r = CliRun.run("reproduce", "example2", "--n", "10,20", "--ncm-max-iter", "500", "--out", png.toString(), "--json");
        assertEquals(0, r.status(), r.err());
        assertTrue(Files.exists(png));
        JsonNode narrow = r.json().get("narrow");
        assertEquals(2, narrow.size());
        assertTrue(narrow.get(1).get("ncm_max_error").asDouble() > 0.15);
        assertTrue(narrow.get(1).get("psd_max_error").asDouble() < narrow.get(0).get("psd_max_error").asDouble());
    }
}
