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
import org.psdkit.select.Metrics;

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
        LoadedModel a = ModelKinds.load(m1);
        LoadedModel b = ModelKinds.load(m2);
        Dataset raw = CsvReader.read(boston, CsvReader.Options.regression());
        double[] pa = a.predict(raw.x()).col(0);
        double[] pb = b.predict(raw.x()).col(0);
        for (int i = 0; i < pa.length; i++) {
            assertEquals(pa[i], pb[i], 1e-9 * Math.max(1, Math.abs(pa[i])));
        }
        // the stored scaler is the one fitted on the training data
        Scaler s = Scaler.fit(Scaler.Kind.MINMAX, raw.x());
        assertEquals(s, ((StandardModel) a).header().scaler());
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
}
