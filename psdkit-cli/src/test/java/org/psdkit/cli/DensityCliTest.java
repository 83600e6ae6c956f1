package org.psdkit.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.psdkit.density.Mixtures;
import org.psdkit.linalg.Matrix;

class DensityCliTest {
    @TempDir
    Path dir;

    private Path csv(String name, Matrix x) throws Exception {
        StringBuilder sb = new StringBuilder("x\n");
        for (int i = 0; i < x.rows(); i++) {
            sb.append(x.get(i, 0)).append('\n');
        }
        Path p = dir.resolve(name);
        Files.writeString(p, sb.toString());
        return p;
    }

    @Test
    void fitReportsTheFeatureSpaceAndWarnsBelowTheRankThresholdFloor() throws Exception {
        Path train = csv("train.csv", Mixtures.fig1().sample(40, 1));
        Path model = dir.resolve("m.json");
        CliRun fit = CliRun.run("fit", "density", "--train", train.toString(), "--no-target", "--kernel",
                "gaussian(sigma=0.7)", "--lambda", "1e-3", "--out", model.toString(), "--json");
        assertEquals(0, fit.status(), fit.err());
        JsonNode j = fit.json();
        assertTrue(j.get("rank").asInt() >= 1 && j.get("rank").asInt() <= 40, j.toString());
        assertEquals(1e-8, j.get("rank_threshold").asDouble(), 0.0);
        assertEquals(40, j.get("anchors").asInt());
        assertEquals("trace", j.get("lambda_scale").asText());
        assertFalse(fit.err().contains("warning"), fit.err());
        CliRun low = CliRun.run("fit", "density", "--train", train.toString(), "--no-target", "--kernel",
                "gaussian(sigma=0.7)", "--lambda", "1e-3", "--rank-threshold", "1e-13", "--tol", "1e-3", "--out",
                model.toString(), "--json");
        assertEquals(0, low.status(), low.err());
        assertTrue(low.err().contains("warning: --rank-threshold"), low.err());
        assertEquals(1e-13, low.json().get("rank_threshold").asDouble(), 0.0);
        assertTrue(low.json().get("rank").asInt() >= j.get("rank").asInt());
        CliRun bad = CliRun.run("fit", "density", "--train", train.toString(), "--no-target", "--rank-threshold",
                "2", "--out", model.toString());
        assertEquals(2, bad.status());
        assertTrue(bad.err().contains("--rank-threshold"), bad.err());
    }

    @Test
    void bothSolversReachTheSameOptimumAndReportTheirName() throws Exception {
        Path train = csv("train.csv", Mixtures.fig1().sample(40, 1));
        Path model = dir.resolve("m.json");
        CliRun primal = CliRun.run("fit", "density", "--train", train.toString(), "--no-target", "--kernel",
                "gaussian(sigma=0.7)", "--lambda", "1e-3", "--tol", "1e-8", "--out", model.toString(), "--json");
        assertEquals(0, primal.status(), primal.err());
        assertEquals("primal-lbfgs", primal.json().get("solver").asText());
        assertTrue(primal.json().get("duality_gap").asDouble() <= 1e-8);
        CliRun dual = CliRun.run("fit", "density", "--train", train.toString(), "--no-target", "--kernel",
                "gaussian(sigma=0.7)", "--lambda", "1e-3", "--tol", "1e-8", "--solver", "dual-fista", "--out",
                model.toString(), "--json");
        assertEquals(0, dual.status(), dual.err());
        assertEquals("dual-fista", dual.json().get("solver").asText());
        assertEquals(dual.json().get("objective").asDouble(), primal.json().get("objective").asDouble(), 1e-7);
        CliRun bad = CliRun.run("fit", "density", "--train", train.toString(), "--no-target", "--solver", "newton",
                "--out", model.toString());
        assertEquals(2, bad.status());
        assertTrue(bad.err().contains("--solver"), bad.err());
    }

    @Test
    void fitPredictEvalSampleRoundTrip() throws Exception {
        Path train = csv("train.csv", Mixtures.fig1().sample(40, 1));
        Path test = csv("test.csv", Mixtures.fig1().sample(200, 2));
        Path model = dir.resolve("m.json");
        CliRun fit = CliRun.run("fit", "density", "--train", train.toString(), "--no-target", "--kernel",
                "gaussian(sigma=0.7)", "--lambda", "1e-3", "--out", model.toString(), "--json");
        assertEquals(0, fit.status(), fit.err());
        JsonNode j = fit.json();
        assertEquals(1.0, j.get("integral").asDouble(), 1e-9);
        assertTrue(j.get("duality_gap").asDouble() <= 1e-6);
        assertEquals(j.get("relative_gap").asDouble(), j.get("duality_gap").asDouble(), 0.0);
        assertTrue(j.get("iterations").asInt() > 0);
        Path pred = dir.resolve("p.csv");
        CliRun pr = CliRun.run("predict", "--model", model.toString(), "--data", test.toString(), "--out",
                pred.toString());
        assertEquals(0, pr.status(), pr.err());
        List<String> lines = Files.readAllLines(pred);
        assertEquals("density", lines.get(0));
        assertEquals(201, lines.size());
        for (String l : lines.subList(1, lines.size())) {
            assertTrue(Double.parseDouble(l) >= 0);
        }
        CliRun ev = CliRun.run("eval", "--model", model.toString(), "--data", test.toString(), "--json");
        assertEquals(0, ev.status(), ev.err());
        JsonNode e = ev.json();
        assertEquals(1.0, e.get("integral").asDouble(), 1e-9);
        assertEquals(0.0, e.get("negative_fraction").asDouble(), 0);
        assertTrue(e.get("loglik").asDouble() > -2 && e.get("loglik").asDouble() < 0);
        Path samples = dir.resolve("s.csv");
        CliRun sa = CliRun.run("sample", "--model", model.toString(), "--n", "50", "--seed", "3", "--out",
                samples.toString());
        assertEquals(0, sa.status(), sa.err());
        assertEquals(51, Files.readAllLines(samples).size());
        assertEquals("x", Files.readAllLines(samples).get(0));
    }

    @Test
    void baselinesFitAndPnmReportsNegativity() throws Exception {
        Path train = csv("train.csv", Mixtures.fig1().sample(40, 1));
        Path grid = dir.resolve("grid.csv");
        StringBuilder sb = new StringBuilder("x\n");
        for (int i = 0; i <= 200; i++) {
            sb.append(-6 + 12.0 * i / 200).append('\n');
        }
        Files.writeString(grid, sb.toString());
        for (String type : new String[] {"ncm-density", "pnm-density", "kde"}) {
            Path model = dir.resolve(type + ".json");
            String[] args = type.equals("kde")
                    ? new String[] {"fit", type, "--train", train.toString(), "--no-target", "--out", model.toString(),
                        "--json"}
                    : new String[] {"fit", type, "--train", train.toString(), "--no-target", "--lambda", "1e-3",
                        "--tol", "1e-5", "--out", model.toString(), "--json"};
            CliRun fit = CliRun.run(args);
            assertEquals(0, fit.status(), type + ": " + fit.err());
            CliRun ev = CliRun.run("eval", "--model", model.toString(), "--data", grid.toString(), "--json");
            assertEquals(0, ev.status(), ev.err());
            double neg = ev.json().get("negative_fraction").asDouble();
            if (type.equals("pnm-density")) {
                assertTrue(neg > 0, "PNM should go negative away from the data");
            } else {
                assertEquals(0.0, neg, 0);
            }
        }
        Path glm = dir.resolve("glm.json");
        CliRun g = CliRun.run("fit", "glm-density", "--train", train.toString(), "--no-target", "--base",
                "box(a=-4,b=4)", "--tol", "1e-4", "--out", glm.toString(), "--json");
        assertEquals(0, g.status(), g.err());
        assertEquals(1.0, g.json().get("integral").asDouble(), 0.05);
    }

    /**
     * A base measure far wider than the data: the 10 000 draws of nu behind the GLM's training normaliser (eq. 33)
     * miss the data, and the fit used to be written with integral ~1e100 and a training log-likelihood of +100 (its
     * model file then failed {@code eval}), later refused (exit 1). It is now divided by the importance-sampling
     * estimate of Z: the report gives log Z, its relative standard error and eq. 33's log Z, the independent
     * {@code integral} is 1 within the errors, and {@code eval} of the model file gives a finite log-likelihood.
     */
    @Test
    void glmDensityOnAWideBaseIsNormalisedByImportanceSampling() throws Exception {
        java.util.SplittableRandom r = new java.util.SplittableRandom(3);
        Matrix x = Matrix.zeros(20, 1);
        for (int i = 0; i < 20; i++) {
            x.set(i, 0, (i % 2 == 0 ? -0.5 : 0.5) + 0.1 * r.nextGaussian());
        }
        Path train = csv("narrow.csv", x);
        Path glm = dir.resolve("glm-wide.json");
        CliRun g = CliRun.run("fit", "glm-density", "--train", train.toString(), "--no-target", "--base",
                "gaussian(mu=0,sd=1000)", "--kernel", "gaussian(sigma=0.05)", "--lambda", "1e-3", "--out",
                glm.toString(), "--json");
        assertEquals(0, g.status(), g.err());
        double rse = g.json().get("log_z_rse").asDouble();
        assertTrue(rse > 0 && rse <= org.psdkit.density.Baselines.GLM_NORMALISER_MAX_RSE, g.out());
        assertTrue(g.json().get("log_z").asDouble() > g.json().get("training_log_z").asDouble() + 100, g.out());
        assertEquals(1.0, g.json().get("integral").asDouble(), 4 * Math.sqrt(2) * rse + 0.01, g.out());
        double trainLoglik = g.json().get("train_loglik").asDouble();
        assertTrue(Double.isFinite(trainLoglik) && trainLoglik < 10, g.out());
        CliRun ev = CliRun.run("eval", "--model", glm.toString(), "--data", train.toString(), "--json");
        assertEquals(0, ev.status(), ev.err());
        assertEquals(trainLoglik, ev.json().get("loglik").asDouble(), 1e-9, ev.out());
    }

    @Test
    void badOptionsExitTwoAndWriteNothing() throws Exception {
        Path train = csv("train.csv", Mixtures.fig1().sample(20, 1));
        Path model = dir.resolve("bad.json");
        String[][] bad = {
            {"fit", "density", "--train", train.toString(), "--no-target", "--base", "gaussian(mu=0)", "--out",
                model.toString()},
            {"fit", "density", "--train", train.toString(), "--no-target", "--kernel", "gaussian(sigma=-1)", "--out",
                model.toString()},
            {"fit", "density", "--train", train.toString(), "--no-target", "--lambda", "-1", "--out",
                model.toString()},
            {"fit", "glm-density", "--train", train.toString(), "--no-target", "--out", model.toString()},
            {"fit", "density", "--train", dir.resolve("missing.csv").toString(), "--no-target", "--out",
                model.toString()},
            {"sample", "--model", dir.resolve("missing.json").toString(), "--n", "5", "--out",
                dir.resolve("s.csv").toString()},
        };
        for (String[] a : bad) {
            CliRun r = CliRun.run(a);
            assertEquals(2, r.status(), String.join(" ", a) + " -> " + r.err());
            assertFalse(Files.exists(model));
        }
    }
}
