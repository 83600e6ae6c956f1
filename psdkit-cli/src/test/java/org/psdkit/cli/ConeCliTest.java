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
import org.psdkit.data.Dataset;
import org.psdkit.experiments.toy.HeteroscedasticToy;
import org.psdkit.experiments.toy.QuantileToy;
import org.psdkit.linalg.Matrix;

/** fit / predict / eval / cv for the hetero and quantile model types (their golden files: core GoldenModelTest). */
class ConeCliTest {
    @TempDir
    Path dir;

    private Path csv(String name, Dataset d) throws Exception {
        StringBuilder sb = new StringBuilder("x,y\n");
        for (int i = 0; i < d.n(); i++) {
            sb.append(d.x().get(i, 0)).append(',').append(d.y()[i]).append('\n');
        }
        return TestFiles.write(dir, name, sb.toString());
    }

    @Test
    void quantileFitPredictEval() throws Exception {
        Path data = csv("q.csv", QuantileToy.sample(60, 3));
        Path model = dir.resolve("q.json");
        CliRun r = CliRun.run("fit", "quantile", "--train", data.toString(), "--out", model.toString(),
                "--kernel", "gaussian(sigma=0.1)", "--lambda", "0.01", "--gap-tolerance", "1e-3", "--json");
        assertEquals(0, r.status(), r.err());
        JsonNode j = r.json();
        assertEquals("quantile", j.get("model").asText());
        assertEquals("given", j.get("selection").get("by").asText());
        assertEquals(0, j.get("crossings").get("grid").asInt());
        assertTrue(j.get("solver").get("rank").asInt() >= 1, j.toString());
        assertEquals(1e-8, j.get("solver").get("rank_threshold").asDouble(), 0.0);
        assertTrue(j.get("solver").get("anchors").asInt() >= j.get("solver").get("rank").asInt());
        Path pred = dir.resolve("p.csv");
        CliRun p = CliRun.run("predict", "--model", model.toString(), "--data", data.toString(), "--out",
                pred.toString());
        assertEquals(0, p.status(), p.err());
        List<String> lines = Files.readAllLines(pred);
        assertEquals("q0.25,q0.5,q0.75", lines.get(0));
        assertEquals(61, lines.size());
        CliRun e = CliRun.run("eval", "--model", model.toString(), "--data", data.toString(), "--json");
        assertEquals(0, e.status(), e.err());
        JsonNode ej = e.json();
        assertTrue(ej.get("pinball").has("q0.5"));
        double cov = ej.get("coverage").get("q0.75").asDouble();
        assertTrue(cov > 0.5 && cov < 0.95, "coverage " + cov);
        assertEquals(0, ej.get("crossings").get("rows").asInt());
        assertEquals(0, ej.get("crossings").get("grid").asInt());
        // the eval numbers equal the fit's training-set numbers
        assertEquals(j.get("pinball_total").asDouble(), ej.get("pinball_total").asDouble(), 1e-12);
    }

    @Test
    void nystromFlagsOnBothCommands() throws Exception {
        Path data = csv("q.csv", QuantileToy.sample(80, 4));
        for (String cmd : new String[] {"quantile", "hetero"}) {
            Path model = dir.resolve(cmd + "-nys.json");
            CliRun r = CliRun.run("fit", cmd, "--train", data.toString(), "--out", model.toString(),
                    "--kernel", "gaussian(sigma=0.1)", "--lambda", "0.01", "--gap-tolerance", "1e-3",
                    "--anchors", "12", "--anchor-method", "kmeans++", "--seed", "3", "--rank-threshold", "1e-13",
                    "--json");
            assertEquals(0, r.status(), r.err());
            assertTrue(r.err().contains("warning: --rank-threshold"), r.err());
            JsonNode s = r.json().get("solver");
            assertEquals(12, s.get("anchors").asInt(), s.toString());
            assertEquals(1e-13, s.get("rank_threshold").asDouble(), 0.0);
            assertTrue(s.get("rank").asInt() >= 1 && s.get("rank").asInt() <= 12, s.toString());
            CliRun e = CliRun.run("eval", "--model", model.toString(), "--data", data.toString(), "--json");
            assertEquals(0, e.status(), e.err());
            if (cmd.equals("quantile")) {
                assertEquals(0, e.json().get("crossings").get("grid").asInt());
            }
            CliRun bad = CliRun.run("fit", cmd, "--train", data.toString(), "--out",
                    dir.resolve("bad.json").toString(), "--kernel", "gaussian(sigma=0.1)", "--lambda", "0.01",
                    "--anchors", "12", "--method", "ncm");
            assertEquals(2, bad.status());
            assertTrue(bad.err().contains("psdkit: error: --anchors is supported by --method psd only"), bad.err());
            assertFalse(Files.exists(dir.resolve("bad.json")));
        }
    }

    @Test
    void heteroDefaultsChooseByCrossValidation() throws Exception {
        Path data = csv("h.csv", HeteroscedasticToy.sample(40, 5));
        Path model = dir.resolve("h.json");
        CliRun r = CliRun.run("fit", "hetero", "--train", data.toString(), "--out", model.toString(),
                "--folds", "2", "--lambdas", "0.1,0.01", "--json");
        assertEquals(0, r.status(), r.err());
        JsonNode sel = r.json().get("selection");
        assertTrue(sel.get("by").asText().contains("2-fold cross-validation"), sel.toString());
        assertEquals(4 * 2, sel.get("grid").size());
        assertTrue(r.json().get("min_variance").asDouble() > 0);
        Path pred = dir.resolve("p.csv");
        assertEquals(0, CliRun.run("predict", "--model", model.toString(), "--data", data.toString(), "--out",
                pred.toString()).status());
        assertEquals("mean,variance", Files.readAllLines(pred).get(0));
        CliRun e = CliRun.run("eval", "--model", model.toString(), "--data", data.toString(), "--json");
        assertEquals(0, e.status(), e.err());
        assertTrue(e.json().has("nll") && e.json().has("rmse") && e.json().get("min_variance").asDouble() > 0);
    }

    @Test
    void aNystromModelFileRecordsHowItsAnchorsWereChosen() throws Exception {
        Path h = csv("h.csv", HeteroscedasticToy.sample(40, 5));
        Path q = csv("q.csv", QuantileToy.sample(40, 3));
        String[][] fits = {
            {"hetero", h.toString(), "--lambda", "0.01", "--kernel", "gaussian(sigma=0.5)"},
            {"quantile", q.toString(), "--taus", "0.25,0.75", "--lambda", "0.01", "--kernel", "gaussian(sigma=0.5)"},
            {"psd-regression", h.toString(), "--kernel", "gaussian(sigma=0.5)"}};
        for (String[] f : fits) {
            Path model = dir.resolve(f[0] + ".json");
            List<String> args = new java.util.ArrayList<>(List.of("fit", f[0], "--train", f[1], "--out",
                    model.toString(), "--anchors", "15", "--anchor-method", "kmeans++", "--seed", "7"));
            args.addAll(List.of(f).subList(2, f.length));
            CliRun r = CliRun.run(args.toArray(new String[0]));
            assertEquals(0, r.status(), f[0] + ": " + r.err());
            JsonNode opts = org.psdkit.io.ModelFile.JSON.readTree(model.toFile()).get("options");
            assertEquals(15, opts.get("anchors").asInt(), f[0] + ": " + opts);
            assertEquals("kmeans++", opts.get("anchor_method").asText(), f[0] + ": " + opts);
            assertEquals(7, opts.get("anchor_seed").asLong(), f[0] + ": " + opts);
            Path pred = dir.resolve(f[0] + ".csv");
            CliRun p = CliRun.run("predict", "--model", model.toString(), "--data", f[1], "--out", pred.toString());
            assertEquals(0, p.status(), f[0] + ": " + p.err());
        }
        // the PSD density model (its options are strings)
        Path model = dir.resolve("density.json");
        CliRun r = CliRun.run("fit", "density", "--train", h.toString(), "--out", model.toString(), "--no-target",
                "--kernel", "gaussian(sigma=0.7)", "--anchors", "15", "--anchor-method", "kmeans++", "--seed", "7");
        assertEquals(0, r.status(), r.err());
        JsonNode opts = org.psdkit.io.ModelFile.JSON.readTree(model.toFile()).get("options");
        assertEquals("15", opts.get("anchors").asText(), opts.toString());
        assertEquals("kmeans++", opts.get("anchor_method").asText(), opts.toString());
        assertEquals("7", opts.get("anchor_seed").asText(), opts.toString());
        assertEquals(0, CliRun.run("eval", "--model", model.toString(), "--data", h.toString()).status());
    }

    @Test
    void badOptionsExitTwoAndWriteNothing() throws Exception {
        Path data = csv("q.csv", QuantileToy.sample(20, 3));
        Path model = dir.resolve("bad.json");
        CliRun r = CliRun.run("fit", "quantile", "--train", data.toString(), "--out", model.toString(),
                "--taus", "0.5,0.3", "--lambda", "0.01", "--kernel", "gaussian(sigma=0.1)");
        assertEquals(2, r.status());
        assertTrue(r.err().contains("increasing"), r.err());
        assertEquals(2, CliRun.run("fit", "hetero", "--train", data.toString(), "--out", model.toString(),
                "--lambda", "-1").status());
        assertEquals(2, CliRun.run("fit", "quantile", "--train", data.toString(), "--out", model.toString(),
                "--method", "magic").status());
        assertFalse(Files.exists(model));
    }

    @Test
    void cvCommandSupportsBothKinds() throws Exception {
        Path data = csv("h.csv", HeteroscedasticToy.sample(40, 8));
        CliRun r = CliRun.run("cv", "hetero", "--train", data.toString(), "--folds", "2", "--grid",
                "lambda=0.1,0.01", "--kernel", "gaussian(sigma=0.2)", "--json");
        assertEquals(0, r.status(), r.err());
        assertTrue(r.json().has("best"), r.out());
        Path q = csv("q.csv", QuantileToy.sample(40, 8));
        CliRun rq = CliRun.run("cv", "quantile", "--train", q.toString(), "--folds", "2", "--grid",
                "lambda=0.1", "--kernel", "gaussian(sigma=0.2)", "-P", "taus=0.2/0.8", "--json");
        assertEquals(0, rq.status(), rq.err());
        assertTrue(rq.out().contains("pinball"), rq.out());
    }
}
