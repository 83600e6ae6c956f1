package org.psdkit.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.TaskContext;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.psdkit.cli.CliRun;
import org.psdkit.cli.Progress;
import org.psdkit.spark.submit.SparkMain;

/**
 * {@code psdkit fit krr --engine spark} in local mode, joining the tests' shared session: CSV and Parquet input, the
 * model file that {@code eval} reads, and the errors (bad master URL, a master that does not answer, a missing or
 * non-numeric input, a failed job), {@code bench spark} and {@link SparkMain}. It lives in the launcher module (the
 * command line and the engine together), in the engine's package for its test hooks ({@code SparkEngine.rowsHook}).
 */
class SparkCliTest {
    @TempDir
    static Path dir;
    static Path csv;

    @BeforeAll
    static void data() throws IOException {
        SharedSpark.session();
        Progress.setQuiet(true);
        csv = dir.resolve("train.csv");
        StringBuilder sb = new StringBuilder("a,b,y\n");
        for (double[] r : SparkNystromKrrTest.data(600, 2, 21)) {
            sb.append(r[0]).append(',').append(r[1]).append(',').append(r[2]).append('\n');
        }
        Files.writeString(csv, sb.toString());
    }

    private static CliRun fit(String train, String out, String... extra) {
        List<String> a = new ArrayList<>(List.of("fit", "krr", "--train", train, "--out", out, "--engine", "spark",
                "--kernel", "gaussian(sigma=1)", "--lambda", "1", "--center", "--json"));
        a.addAll(List.of(extra));
        if (!a.contains("--master")) {
            a.addAll(List.of("--master", "local[2]"));
        }
        if (!a.contains("--cg-tol")) {
            a.addAll(List.of("--cg-tol", "1e-4")); // a few Spark jobs per fit, not forty
        }
        if (!a.contains("--anchors")) {
            a.addAll(List.of("--anchors", "30"));
        }
        return CliRun.run(a.toArray(new String[0]));
    }

    @Test
    void csvFitIsAKrrModelThatEvalReads() throws IOException {
        Path model = dir.resolve("csv.json");
        CliRun f = fit(csv.toString(), model.toString());
        assertEquals(0, f.status(), f.err());
        JsonNode j = f.json();
        assertEquals("krr", j.get("model").asText());
        assertEquals("spark", j.get("engine").asText());
        assertEquals(600, j.get("n").asInt());
        assertEquals(2, j.get("d").asInt());
        assertEquals(30, j.get("anchors").asInt());
        assertTrue(j.get("converged").asBoolean(), f.out());
        CliRun e = CliRun.run("eval", "--model", model.toString(), "--data", csv.toString(), "--json");
        assertEquals(0, e.status(), e.err());
        assertEquals(j.get("rmse").asDouble(), e.json().get("rmse").asDouble(), 1e-9);
        assertEquals(j.get("r2").asDouble(), e.json().get("r2").asDouble(), 1e-9);
    }

    @Test
    void parquetFitAndANonNumericParquetColumn() throws IOException {
        StructType schema = new StructType().add("a", DataTypes.DoubleType).add("b", DataTypes.DoubleType)
                .add("y", DataTypes.DoubleType);
        List<Row> rows = new ArrayList<>();
        for (double[] r : SparkNystromKrrTest.data(300, 2, 22)) {
            rows.add(RowFactory.create(r[0], r[1], r[2]));
        }
        Dataset<Row> df = SharedSpark.session().createDataFrame(rows, schema);
        String pq = dir.resolve("train.parquet").toString();
        df.repartition(2).write().parquet(pq);
        CliRun f = fit(pq, dir.resolve("pq.json").toString(), "--target", "y");
        assertEquals(0, f.status(), f.err());
        assertEquals(300, f.json().get("n").asInt());

        StructType s2 = new StructType().add("a", DataTypes.DoubleType).add("c", DataTypes.StringType)
                .add("y", DataTypes.DoubleType);
        String bad = dir.resolve("bad.parquet").toString();
        SharedSpark.session().createDataFrame(List.of(RowFactory.create(1.0, "x", 2.0)), s2).write().parquet(bad);
        CliRun b = fit(bad, dir.resolve("bad.json").toString());
        assertEquals(2, b.status(), b.err());
        assertTrue(b.err().contains("column 'c' is of type string"), b.err());
    }

    @Test
    void badValuesAndMissingFilesAreExitTwoNamingThePathAndColumn() throws IOException {
        Path text = dir.resolve("text.csv");
        Files.writeString(text, "a,b,y\n1,2,3\n4,oops,6\n7,8,9\n");
        CliRun r = fit(text.toString(), dir.resolve("t.json").toString(), "--anchors", "2");
        assertEquals(2, r.status(), r.err());
        assertTrue(r.err().startsWith("psdkit: error: " + text + ": column 'b': 'oops' is not a number"), r.err());
        assertFalse(r.err().contains("\tat "), r.err());
        assertFalse(Files.exists(dir.resolve("t.json")));

        Path nan = dir.resolve("nan.csv");
        Files.writeString(nan, "a,b,y\n1,2,3\n4,5,NaN\n7,8,9\n");
        CliRun n = fit(nan.toString(), dir.resolve("n.json").toString(), "--anchors", "2");
        assertEquals(2, n.status(), n.err());
        assertTrue(n.err().contains("column 'y': NaN is not a finite number"), n.err());

        Path big = dir.resolve("big.csv");
        Files.writeString(big, "a,b,y\n1,2,3\n4,5,1e300\n7,8,9\n");
        CliRun g = fit(big.toString(), dir.resolve("g.json").toString(), "--anchors", "2");
        assertEquals(2, g.status(), g.err());
        assertTrue(g.err().contains("column 'y': 1e300 is beyond +-1e150"), g.err());
        assertFalse(Files.exists(dir.resolve("g.json")));

        Path missing = dir.resolve("nowhere.csv");
        CliRun m = fit(missing.toString(), dir.resolve("m.json").toString());
        assertEquals(2, m.status(), m.err());
        assertTrue(m.err().contains("--train " + missing + ": no such file or directory"), m.err());

        CliRun t = fit(csv.toString(), dir.resolve("t2.json").toString(), "--target", "z");
        assertEquals(2, t.status(), t.err());
        assertTrue(t.err().contains(": --target 'z' names no column"), t.err());

        CliRun many = fit(csv.toString(), dir.resolve("t3.json").toString(), "--anchors", "601");
        assertEquals(2, many.status(), many.err());
        assertTrue(many.err().contains("--anchors must be at most the number of points"), many.err());
    }

    @Test
    void badAndUnreachableMastersAreExitTwo() throws IOException {
        CliRun bad = fit(csv.toString(), dir.resolve("b.json").toString(), "--master", "foo://x");
        assertEquals(2, bad.status(), bad.err());
        assertTrue(bad.err().startsWith("psdkit: error: --master: 'foo://x' is not a Spark master URL"), bad.err());
        int port;
        try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
            port = s.getLocalPort(); // closed again: nothing listens there
        }
        long t0 = System.nanoTime();
        CliRun gone = fit(csv.toString(), dir.resolve("g.json").toString(), "--master", "spark://127.0.0.1:" + port);
        assertEquals(2, gone.status(), gone.err());
        assertTrue(gone.err().contains("--master spark://127.0.0.1:" + port + ": no Spark master answers"),
                gone.err());
        assertTrue(System.nanoTime() - t0 < 2e9 * SparkEngine.MASTER_CONNECT_TIMEOUT_MS / 1000,
                "the unreachable master took too long");
    }

    @Test
    void aFailedJobIsExitOneWithSparksReasonOnOneLine() {
        SparkEngine.rowsHook = rows -> rows.mapPartitions(it -> {
            if (TaskContext.get().partitionId() == 0) {
                throw new IllegalStateException("injected executor failure");
            }
            return it;
        });
        try {
            Path out = dir.resolve("fail.json");
            CliRun r = fit(csv.toString(), out.toString());
            assertEquals(1, r.status(), r.err());
            String[] lines = r.err().strip().split("\n");
            assertEquals(1, lines.length, r.err());
            assertTrue(lines[0].startsWith("psdkit: error: spark job failed: Job aborted due to stage failure"),
                    r.err());
            assertTrue(lines[0].contains("injected executor failure"), r.err());
            assertFalse(Files.exists(out));
        } finally {
            SparkEngine.rowsHook = null;
        }
    }

    @Test
    void densityFitIsAPsdDensityModelFile() throws IOException {
        Path pts = dir.resolve("points.csv");
        StringBuilder sb = new StringBuilder("u,v\n");
        for (double[] r : SparkDensityRowsTest.gaussianRows(200, 2, 31)) {
            sb.append(r[0]).append(',').append(r[1]).append('\n');
        }
        Files.writeString(pts, sb.toString());
        Path model = dir.resolve("density.json");
        CliRun f = CliRun.run("fit", "density", "--train", pts.toString(), "--out", model.toString(), "--engine", "spark",
                "--master", "local[2]", "--anchors", "12", "--kernel", "gaussian(sigma=0.7)", "--lambda", "0.01",
                "--tol", "1e-3", "--max-iter", "4", "--json"); // few Spark jobs: the wiring, not the optimum
        assertEquals(0, f.status(), f.err());
        JsonNode j = f.json();
        assertEquals("psd-density", j.get("model").asText());
        assertEquals("spark", j.get("engine").asText());
        assertEquals(200, j.get("n").asInt());
        assertEquals(12, j.get("anchors").asInt());
        org.psdkit.density.DensityPipeline back = (org.psdkit.density.DensityPipeline) org.psdkit.io.ModelIO.load(
                model);
        org.psdkit.linalg.Matrix x = org.psdkit.linalg.Matrix.of(SparkDensityRowsTest.gaussianRows(200, 2, 31));
        assertEquals(back.meanLogLikelihood(x), j.get("train_loglik").asDouble(), 1e-9);
        assertEquals(1.0, back.inner().integral(), 1e-6);
    }

    /**
     * Uniform anchors drawn with the seed are recorded as the local trainer records its own
     * ({@code anchor_method}, {@code anchor_seed}, strings, through {@code Nystrom.putStringOptions}).
     */
    @Test
    void densityModelFileRecordsHowItsAnchorsWereDrawn() throws IOException {
        Path pts = dir.resolve("points-anchors.csv");
        StringBuilder sb = new StringBuilder("u,v\n");
        for (double[] r : SparkDensityRowsTest.gaussianRows(60, 2, 32)) {
            sb.append(r[0]).append(',').append(r[1]).append('\n');
        }
        Files.writeString(pts, sb.toString());
        Path model = dir.resolve("density-anchors.json");
        CliRun f = CliRun.run("fit", "density", "--train", pts.toString(), "--out", model.toString(), "--engine",
                "spark", "--master", "local[2]", "--anchors", "8", "--seed", "7", "--kernel", "gaussian(sigma=0.7)",
                "--lambda", "0.01", "--max-iter", "1");
        assertEquals(0, f.status(), f.err());
        JsonNode opts = org.psdkit.io.ModelFile.JSON.readTree(model.toFile()).get("options");
        assertEquals("8", opts.get("anchors").asText(), opts.toString());
        assertEquals("uniform", opts.path("anchor_method").asText(), opts.toString());
        assertEquals("7", opts.path("anchor_seed").asText(), opts.toString());
    }

    @Test
    void benchSparkReportsTheRatioAndTheSameCoefficients() throws IOException {
        CliRun b = CliRun.run("bench", "spark", "--n", "400", "--anchors", "20", "--d", "3", "--partitions", "2", "--json");
        assertEquals(0, b.status(), b.err());
        JsonNode round = b.json().get("rounds").get(0);
        assertTrue(round.get("spark_over_local").asDouble() > 0, b.out());
        assertEquals(round.get("local_iterations").asInt(), round.get("spark_iterations").asInt(), b.out());
        assertTrue(round.get("max_rel_diff_alpha").asDouble() < 1e-6, b.out());
    }

    @Test
    void benchSparkTransformScoresThroughTheTransformerAsTheModelPredicts() throws IOException {
        CliRun b = CliRun.run("bench", "spark", "--transform", "--rows", "3000", "--n", "300", "--anchors", "20",
                "--d", "3", "--partitions", "2", "--json");
        assertEquals(0, b.status(), b.err());
        JsonNode j = b.json();
        assertEquals("spark-transform", j.get("benchmark").asText(), b.out());
        assertEquals(3000, j.get("rows").asLong(), b.out());
        assertEquals(20, j.get("anchors").asInt(), b.out());
        assertTrue(j.get("spark_rows_per_second").asDouble() > 0, b.out());
        assertTrue(j.get("local_rows_per_second").asDouble() > 0, b.out());
        assertEquals(1000, j.get("check_rows").asInt(), b.out());
        assertTrue(j.get("max_rel_diff_prediction").asDouble() <= 1e-12, b.out());
    }

    @Test
    void sparkMainDefaultsToTheSparkEngine() throws IOException {
        String before = System.getProperty("psdkit.engine");
        CliRun r;
        try {
            r = CliRun.run(SparkMain::execute, "fit", "krr", "--train", csv.toString(), "--out",
                    dir.resolve("main.json").toString(), "--anchors", "20", "--lambda", "1", "--json");
        } finally {
            if (before == null) {
                System.clearProperty("psdkit.engine");
            }
        }
        assertEquals(0, r.status(), r.err());
        assertEquals("spark", r.json().get("engine").asText());
    }
}
