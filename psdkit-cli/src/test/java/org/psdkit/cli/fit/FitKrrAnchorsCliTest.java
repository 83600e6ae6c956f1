package org.psdkit.cli.fit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.psdkit.cli.CliRun;
import org.psdkit.cli.Progress;
import org.psdkit.cli.TestFiles;

/** {@code fit krr --anchors}: a krr model file that predict and eval load, with the CG report in --json. */
class FitKrrAnchorsCliTest {
    @TempDir
    static Path dir;
    static Path boston;

    @BeforeAll
    static void data() {
        boston = TestFiles.resource(dir, "data/boston.csv");
        Progress.setQuiet(true);
    }

    /** Progress's quiet switch is static: give the classes that run next in this JVM their default back. */
    @org.junit.jupiter.api.AfterAll
    static void loud() {
        Progress.setQuiet(System.getenv("PSDKIT_QUIET") != null);
    }

    @Test
    void anchorsFitSavesAKrrModelAndReportsCg() throws Exception {
        Path model = dir.resolve("nys.json");
        CliRun f = CliRun.run("fit", "krr", "--train", boston.toString(), "--scale", "zscore", "--kernel",
                "gaussian(sigma=2.5)", "--lambda", "0.05", "--center", "--anchors", "100", "--anchor-method",
                "kmeans++", "--seed", "3", "--out", model.toString(), "--json");
        assertEquals(0, f.status(), f.err());
        JsonNode j = f.json();
        assertEquals("krr", j.get("model").asText());
        assertEquals(100, j.get("anchors").asInt());
        assertTrue(j.get("iterations").asInt() > 0);
        assertTrue(j.get("residual").asDouble() <= 1e-6);
        assertTrue(j.get("converged").asBoolean());
        CliRun e = CliRun.run("eval", "--model", model.toString(), "--data", boston.toString(), "--json");
        assertEquals(0, e.status(), e.err());
        assertEquals(j.get("rmse").asDouble(), e.json().get("rmse").asDouble(), 1e-9);
        // same seed: same model file numbers
        Path again = dir.resolve("nys2.json");
        CliRun g = CliRun.run("fit", "krr", "--train", boston.toString(), "--scale", "zscore", "--kernel",
                "gaussian(sigma=2.5)", "--lambda", "0.05", "--center", "--anchors", "100", "--anchor-method",
                "kmeans++", "--seed", "3", "--out", again.toString(), "--json");
        assertEquals(0, g.status(), g.err());
        assertEquals(j.get("rmse").asDouble(), g.json().get("rmse").asDouble(), 0.0);
    }

    @Test
    void badAnchorOptionsExitTwoNamingTheFlag() {
        CliRun r = CliRun.run("fit", "krr", "--train", boston.toString(), "--anchors", "10", "--anchor-method",
                "random", "--out", dir.resolve("x.json").toString());
        assertEquals(2, r.status());
        assertTrue(r.err().contains("--anchor-method"), r.err());
        CliRun s = CliRun.run("fit", "krr", "--train", boston.toString(), "--anchors", "0", "--out",
                dir.resolve("y.json").toString());
        assertEquals(2, s.status());
        assertTrue(s.err().contains("--anchors"), s.err());
        assertTrue(!Files.exists(dir.resolve("y.json")));
    }

    @Test
    void cvWithAnchorsRunsTheLambdaGridOnSharedAnchors() {
        CliRun r = CliRun.run("cv", "krr", "--train", boston.toString(), "--scale", "zscore", "--folds", "3",
                "--kernel", "gaussian(sigma=2.5)", "--grid", "lambda=0.01,0.1,1", "--anchors", "80", "--json");
        assertEquals(0, r.status(), r.err());
        JsonNode j = r.json();
        assertEquals(3, j.get("grid").size());
        assertTrue(j.get("rmse").asDouble() > 0 && j.get("rmse").asDouble() < 10, j.toString());
        // with anchors = all training rows of each fold it is exact KRR: same cv scores
        CliRun a = CliRun.run("cv", "krr", "--train", boston.toString(), "--scale", "zscore", "--folds", "3",
                "--kernel", "gaussian(sigma=2.5)", "--lambda", "0.1", "--anchors", "100000", "--json");
        CliRun e = CliRun.run("cv", "krr", "--train", boston.toString(), "--scale", "zscore", "--folds", "3",
                "--kernel", "gaussian(sigma=2.5)", "--lambda", "0.1", "--json");
        assertEquals(0, a.status(), a.err());
        assertEquals(0, e.status(), e.err());
        assertEquals(e.json().get("rmse").asDouble(), a.json().get("rmse").asDouble(),
                1e-5 * e.json().get("rmse").asDouble());
        CliRun bad = CliRun.run("cv", "krr", "--train", boston.toString(), "--anchors", "2.5");
        assertEquals(2, bad.status());
        assertTrue(bad.err().contains("--anchors"), bad.err());
    }

    /**
     * {@code --storage} picks the CG route (docs/scale.md): each reports its storage, and all solve the same problem
     * to the CG tolerance. Without {@code --anchors}, with an unknown route, or sketch on Spark it exits 2.
     */
    @Test
    void storageChoosesTheCgRouteAndEveryRouteFitsTheSameModel() throws Exception {
        double rmse = Double.NaN;
        for (String[] route : new String[][] {{"float", "float"}, {"recompute", "recompute"}, {"gram", "gram+"},
                {"sketch", "sketch"}}) {
            CliRun f = CliRun.run("fit", "krr", "--train", boston.toString(), "--scale", "zscore", "--kernel",
                    "gaussian(sigma=2.5)", "--lambda", "0.05", "--anchors", "60", "--seed", "2", "--storage",
                    route[0], "--cg-tol", "1e-9", "--max-iter", "500", "--out", dir.resolve("s.json").toString(),
                    "--json");
            assertEquals(0, f.status(), route[0] + ": " + f.err());
            JsonNode j = f.json();
            assertTrue(j.get("storage").asText().startsWith(route[1]), route[0] + " -> " + j.get("storage"));
            assertTrue(j.get("converged").asBoolean(), j.toString());
            if (Double.isNaN(rmse)) {
                rmse = j.get("rmse").asDouble();
            }
            assertEquals(rmse, j.get("rmse").asDouble(), 1e-5 * rmse, route[0]);
        }
        CliRun exact = CliRun.run("fit", "krr", "--train", boston.toString(), "--storage", "gram", "--out",
                dir.resolve("e.json").toString());
        assertEquals(2, exact.status());
        assertTrue(exact.err().contains("--storage gram: applies with --anchors only"), exact.err());
        CliRun bad = CliRun.run("fit", "krr", "--train", boston.toString(), "--anchors", "10", "--storage", "disk",
                "--out", dir.resolve("b.json").toString());
        assertEquals(2, bad.status());
        assertTrue(bad.err().contains("--storage: 'disk' is not auto"), bad.err());
        CliRun spark = CliRun.run("fit", "krr", "--train", boston.toString(), "--anchors", "10", "--storage",
                "sketch", "--engine", "spark", "--out", dir.resolve("p.json").toString());
        assertEquals(2, spark.status());
        assertTrue(spark.err().contains("--storage sketch: single-machine only"), spark.err());
        assertTrue(!Files.exists(dir.resolve("e.json")) && !Files.exists(dir.resolve("b.json"))
                && !Files.exists(dir.resolve("p.json")));
    }
}
