package org.psdkit.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.psdkit.data.CsvReader;
import org.psdkit.data.Dataset;
import org.psdkit.data.Scaler;
import org.psdkit.kernel.GaussianKernel;
import org.psdkit.linalg.Linalg;
import org.psdkit.linalg.Matrix;
import org.psdkit.model.Metrics;

/** fit → predict → eval through the CLI, against an independent dense solve. */
class CliRoundTripTest {
    @TempDir
    static Path dir;
    static Path boston;

    @BeforeAll
    static void data() {
        boston = TestFiles.resource(dir, "data/boston.csv");
        Progress.setQuiet(true);
    }

    /**
     * The foundation check: on boston.csv with z-scored features and a Gaussian kernel, `fit krr` + `predict`
     * reproduce a direct dense solve of (K + λI)α = y (LU, explicit loops for K and z-scores) to 1e−8 relative.
     */
    @Test
    void krrOnBostonEqualsDirectDenseSolve() throws Exception {
        Path model = dir.resolve("krr.json");
        Path pred = dir.resolve("krr-pred.csv");
        CliRun f = CliRun.run("fit", "krr", "--train", boston.toString(), "--scale", "zscore", "--kernel",
                "gaussian(sigma=2.5)", "--lambda", "0.05", "--out", model.toString(), "--json");
        assertEquals(0, f.status(), f.err());
        JsonNode j = f.json();
        assertEquals("krr", j.get("model").asText());
        assertEquals(506, j.get("n").asInt());
        assertEquals(13, j.get("d").asInt());
        assertTrue(j.has("seconds") && j.has("rmse") && j.has("mae") && j.has("r2"));
        CliRun p = CliRun.run("predict", "--model", model.toString(), "--data", boston.toString(), "--out",
                pred.toString());
        assertEquals(0, p.status(), p.err());
        assertEquals("", p.out());
        List<String> lines = Files.readAllLines(pred);
        assertEquals("prediction", lines.get(0));
        assertEquals(507, lines.size());

        // independent computation
        Dataset raw = CsvReader.read(boston, CsvReader.Options.regression());
        int n = raw.n();
        int d = raw.d();
        double[][] z = new double[n][d];
        for (int c = 0; c < d; c++) {
            double mean = 0;
            for (int i = 0; i < n; i++) {
                mean += raw.x().get(i, c);
            }
            mean /= n;
            double var = 0;
            for (int i = 0; i < n; i++) {
                var += Math.pow(raw.x().get(i, c) - mean, 2);
            }
            double sd = Math.sqrt(var / n);
            for (int i = 0; i < n; i++) {
                z[i][c] = (raw.x().get(i, c) - mean) / sd;
            }
        }
        Matrix a = Matrix.zeros(n, n);
        for (int i = 0; i < n; i++) {
            for (int k = 0; k < n; k++) {
                double s = 0;
                for (int c = 0; c < d; c++) {
                    s += (z[i][c] - z[k][c]) * (z[i][c] - z[k][c]);
                }
                a.set(i, k, Math.exp(-s / (2 * 2.5 * 2.5)) + (i == k ? 0.05 : 0));
            }
        }
        Matrix kk = a.copy();
        kk.addToDiagonal(-0.05);
        double[] alpha = Linalg.solve(a, Matrix.column(raw.y())).col(0);
        double[] direct = kk.times(alpha);
        double num = 0;
        double den = 0;
        for (int i = 0; i < n; i++) {
            double v = Double.parseDouble(lines.get(i + 1));
            num = Math.max(num, Math.abs(v - direct[i]));
            den = Math.max(den, Math.abs(direct[i]));
        }
        assertTrue(num / den < 1e-8, "max relative difference " + num / den);

        CliRun e = CliRun.run("eval", "--model", model.toString(), "--data", boston.toString(), "--json");
        assertEquals(0, e.status(), e.err());
        assertEquals(Metrics.rmse(raw.y(), direct), e.json().get("rmse").asDouble(), 1e-8);
    }

    @Test
    void ridgePrimalAndDualFilesPredictAlike() throws Exception {
        Path m1 = dir.resolve("r1.json");
        Path m2 = dir.resolve("r2.json");
        assertEquals(0, CliRun.run("fit", "ridge", "--train", boston.toString(), "--scale", "minmax", "--lambda",
                "0.5", "--out", m1.toString()).status());
        assertEquals(0, CliRun.run("fit", "ridge", "--train", boston.toString(), "--scale", "minmax", "--lambda",
                "0.5", "--form", "dual", "--out", m2.toString()).status());
        LoadedModel a = LoadedModel.load(m1);
        LoadedModel b = LoadedModel.load(m2);
        Dataset raw = CsvReader.read(boston, CsvReader.Options.regression());
        double[] pa = a.predict(raw.x()).col(0);
        double[] pb = b.predict(raw.x()).col(0);
        for (int i = 0; i < pa.length; i++) {
            assertEquals(pa[i], pb[i], 1e-9 * Math.max(1, Math.abs(pa[i])));
        }
        // the stored scaler is the one fitted on the training data
        Scaler s = Scaler.fit(Scaler.Kind.MINMAX, raw.x());
        assertEquals(s, ((org.psdkit.model.Pipeline<?>) a.model()).header().scaler());
    }

    @Test
    void cvSelectsFromTheGridAndReportsJson() {
        CliRun r = CliRun.run("cv", "krr", "--train", boston.toString(), "--scale", "zscore", "--folds", "3",
                "--grid", "sigma=0.3,3;lambda=0.01,1", "--json");
        assertEquals(0, r.status(), r.err());
        JsonNode j = r.json();
        assertEquals("krr", j.get("model").asText());
        assertEquals(4, j.get("grid").size());
        // the best point has the smallest mean rmse of the table
        double best = j.get("rmse").asDouble();
        for (JsonNode row : j.get("grid")) {
            assertTrue(row.get("rmse").asDouble() >= best);
        }
        assertEquals("gaussian(sigma=" + j.get("best").get("sigma").asText() + ")",
                j.get("best").get("kernel").asText());
    }

    @Test
    void noTargetAndNamedTargetAndRepeatedSplits() {
        CliRun r = CliRun.run("cv", "ridge", "--train", boston.toString(), "--target", "rm", "--splits", "3",
                "--grid", "lambda=0.1,10", "--json");
        assertEquals(0, r.status(), r.err());
        assertEquals(13, r.json().get("d").asInt());
        assertTrue(r.json().get("protocol").asText().contains("3 random splits"));
        CliRun u = CliRun.run("fit", "krr", "--train", boston.toString(), "--no-target", "--out",
                dir.resolve("u.json").toString());
        assertEquals(2, u.status());
        assertTrue(u.err().contains("--no-target"));
    }

    @Test
    void gaussianKernelUsedByTheCliIsTheLibraryKernel() {
        assertEquals(new GaussianKernel(0.5), KernelSpecs.parse("gaussian(sigma=0.5)"));
        assertEquals("gaussian(sigma=0.3) + 0.01*delta",
                new Params(java.util.Map.of("kernel", "gaussian(sigma=1) + 0.01*delta", "sigma", "0.3")).kernelSpec());
    }

    @Test
    void libsvmFilesForTrainingAndPrediction() throws Exception {
        Path train = TestFiles.write(dir, "t.svm", "1 1:1\n2 2:1\n3 1:1 2:1\n0\n");
        Path model = dir.resolve("svm.json");
        CliRun f = CliRun.run("fit", "ridge", "--train", train.toString(), "--lambda", "0", "--no-intercept", "--out",
                model.toString(), "--json");
        assertEquals(0, f.status(), f.err());
        // y = x1 + 2 x2 exactly, so ridge with lambda 0 recovers it
        Path test = TestFiles.write(dir, "q.svm", "0 1:2 2:3\n");
        Path pred = dir.resolve("svm-pred.csv");
        CliRun p = CliRun.run("predict", "--model", model.toString(), "--data", test.toString(), "--out",
                pred.toString());
        assertEquals(0, p.status(), p.err());
        assertEquals(8.0, Double.parseDouble(Files.readAllLines(pred).get(1)), 1e-9);
    }

    /**
     * Primal = dual through the CLI: ridge in the explicit feature space of (1 + xᵀt)² without intercept, primal and
     * dual, predicts what kernel ridge regression with that kernel predicts (same objective, same λ convention).
     */
    @Test
    void ridgeWithExplicitFeatureMapEqualsKrrWithItsKernel() throws Exception {
        String spec = "polynomial(degree=2, offset=1)";
        Path small = TestFiles.write(dir, "small.csv", smallCsv());
        Path[] models = {dir.resolve("fp.json"), dir.resolve("fd.json"), dir.resolve("fk.json")};
        assertEquals(0, CliRun.run("fit", "ridge", "--train", small.toString(), "--scale", "zscore", "--features", spec,
                "--no-intercept", "--lambda", "0.5", "--out", models[0].toString()).status());
        assertEquals(0, CliRun.run("fit", "ridge", "--train", small.toString(), "--scale", "zscore", "--features", spec,
                "--no-intercept", "--lambda", "0.5", "--form", "dual", "--out", models[1].toString()).status());
        assertEquals(0, CliRun.run("fit", "krr", "--train", small.toString(), "--scale", "zscore", "--kernel", spec,
                "--lambda", "0.5", "--out", models[2].toString()).status());
        Dataset raw = CsvReader.read(small, CsvReader.Options.regression());
        double[] krr = LoadedModel.load(models[2]).predict(raw.x()).col(0);
        for (int k = 0; k < 2; k++) {
            double[] p = LoadedModel.load(models[k]).predict(raw.x()).col(0);
            for (int i = 0; i < p.length; i++) {
                assertEquals(krr[i], p[i], 1e-8 * Math.max(1, Math.abs(krr[i])), "model " + k + " row " + i);
            }
        }
        CliRun bad = CliRun.run("fit", "ridge", "--train", small.toString(), "--features", "gaussian(sigma=1)", "--out",
                dir.resolve("never.json").toString());
        assertEquals(2, bad.status());
        assertTrue(bad.err().contains("no explicit finite feature map"), bad.err());
        assertTrue(!Files.exists(dir.resolve("never.json")));
    }

    /**
     * {@code predict} finds the model's feature columns by name, in any order (the ridge model file of format
     * version 1 whose golden copy lives in psdkit-core's tests).
     */
    @Test
    void predictReadsFeatureColumnsByName() throws Exception {
        Path file = TestFiles.write(dir, "ridge-v1.json", """
                {"format": "psdkit-model", "formatVersion": 1, "model": "ridge", "featureNames": ["a", "b"],
                 "target": "y", "scaler": {"kind": "minmax", "offset": [0.0, -1.0], "scale": [10.0, 2.0]},
                 "kernel": null, "options": {"lambda": 1.0, "intercept": true, "form": "primal"},
                 "training": {"n": 10, "d": 2, "source": "golden"}, "numbers": {"weights": [2.0, -3.0], "bias": 1.25}}
                """);
        Path data = TestFiles.write(dir, "in.csv", "b,a,y\n-1,0,0\n1,10,0\n0,5,0\n");
        Path out = dir.resolve("pred.csv");
        CliRun r = CliRun.run("predict", "--model", file.toString(), "--data", data.toString(), "--out",
                out.toString());
        assertEquals(0, r.status(), r.err());
        List<String> lines = Files.readAllLines(out);
        assertEquals("prediction", lines.get(0));
        // minmax: a' = a/10, b' = (b + 1)/2; f = 1.25 + 2a' − 3b'
        assertEquals(1.25, Double.parseDouble(lines.get(1)), 1e-15);
        assertEquals(1.25 + 2 - 3, Double.parseDouble(lines.get(2)), 1e-15);
        assertEquals(1.25 + 1 - 1.5, Double.parseDouble(lines.get(3)), 1e-15);
    }

    static String smallCsv() {
        java.util.Random r = new java.util.Random(17);
        StringBuilder sb = new StringBuilder("u,v,w,y\n");
        for (int i = 0; i < 40; i++) {
            double u = r.nextGaussian();
            double v = 3 + 2 * r.nextGaussian();
            double w = r.nextDouble();
            sb.append(u).append(',').append(v).append(',').append(w).append(',')
                    .append(u * v - w + 0.1 * r.nextGaussian()).append('\n');
        }
        return sb.toString();
    }
}
