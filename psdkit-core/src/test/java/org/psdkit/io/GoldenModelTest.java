package org.psdkit.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.psdkit.data.CsvReader;
import org.psdkit.data.Dataset;
import org.psdkit.model.Classifier;
import org.psdkit.linalg.Matrix;
import org.psdkit.regression.KernelRidge;
import org.psdkit.model.Model;
import org.psdkit.model.Pipeline;
import org.psdkit.psd.PsdModel;
import org.psdkit.regression.Svr;
import org.psdkit.cone.hetero.HeteroPipeline;
import org.psdkit.cone.quantile.QuantilePipeline;
import org.psdkit.density.DensityPipeline;

/**
 * Model files of every released format version must load forever through the library alone and predict the same
 * numbers (computed here by hand from the file's numbers).
 */
class GoldenModelTest {
    @TempDir
    Path dir;

    @Test
    void krrVersion1() {
        Model m = ModelIO.load(GoldenFiles.copy(dir, "krr-v1.json"));
        assertEquals("krr", m.type());
        assertEquals(List.of("a", "b"), m.featureNames());
        assertInstanceOf(KernelRidge.class, ((Pipeline<?>) m).inner());
        double[][] raw = {{1, 2}, {3, -2}, {0, 4}};
        double[][] p = m.predict(raw);
        double[][] pts = {{0, 0}, {1, -1}, {-0.5, 0.5}};
        double[] alpha = {0.3, -0.2, 0.7};
        for (int t = 0; t < raw.length; t++) {
            // scaler by hand: ((a − 1)/2, (b − 2)/4); kernel by hand: exp(−‖u − p‖² / (2·1.5²)); offset 0.5
            double u = (raw[t][0] - 1) / 2;
            double v = (raw[t][1] - 2) / 4;
            double f = 0.5;
            for (int i = 0; i < 3; i++) {
                double d2 = (u - pts[i][0]) * (u - pts[i][0]) + (v - pts[i][1]) * (v - pts[i][1]);
                f += alpha[i] * Math.exp(-d2 / (2 * 1.5 * 1.5));
            }
            assertEquals(f, p[t][0], 1e-14);
            assertEquals(p[t][0], m.predict(raw[t])[0], 0.0);
        }
        // the first row sits at the scaler's offset, so it maps to the origin: 0.5 + 0.3 − 0.2 e^{−2/4.5} + 0.7 e^{−0.5/4.5}
        assertEquals(0.5 + 0.3 - 0.2 * Math.exp(-2 / 4.5) + 0.7 * Math.exp(-0.5 / 4.5), p[0][0], 1e-14);
    }

    /**
     * A krr file written by an automatic fit with one bandwidth per feature ({@code fit krr --auto --ard}): the
     * kernel is the library Gaussian on standardised features, the search path sits in {@code diagnostics.auto}.
     */
    @Test
    void krrAutoVersion1() throws java.io.IOException {
        Model m = ModelIO.load(GoldenFiles.copy(dir, "krr-auto-v1.json"));
        double[][] raw = {{1, 2}, {3, -2}, {0, 4}};
        double[][] p = m.predict(raw);
        double[][] pts = {{0, 0}, {1, -1}, {-0.5, 0.5}};
        double[] alpha = {0.3, -0.2, 0.7};
        for (int t = 0; t < raw.length; t++) {
            // scaler ((a − 1)/2, (b − 2)/4), then exp(−((u − p₁)/0.5)²/2 − ((v − p₂)/2)²/2)
            double u = (raw[t][0] - 1) / 2;
            double v = (raw[t][1] - 2) / 4;
            double f = 0;
            for (int i = 0; i < 3; i++) {
                double du = (u - pts[i][0]) / 0.5;
                double dv = (v - pts[i][1]) / 2;
                f += alpha[i] * Math.exp(-(du * du + dv * dv) / 2);
            }
            assertEquals(f, p[t][0], 1e-14);
        }
        org.psdkit.regression.KrrAutoTrainer.Fit d =
                assertInstanceOf(org.psdkit.regression.KrrAutoTrainer.Fit.class, m.diagnostics());
        assertEquals(2, d.search().path().size());
        assertEquals(0.25, d.search().rmse());
        assertEquals(2.0, d.search().path().get(1).sigma()[1]);
        assertEquals("cholesky", d.fit().route());
        Path again = dir.resolve("krr-auto-again.json");
        ModelIO.save(m, again);
        assertEquals(ModelFile.read(GoldenFiles.copy(dir, "krr-auto-v1.json")), ModelFile.read(again));
    }

    /**
     * A krr file written by an automatic Nyström fit ({@code fit krr --anchors M --auto}): the anchors are the points,
     * the Nyström fit's diagnostics come first, then the search in {@code diagnostics.auto}.
     */
    @Test
    void krrNystromAutoVersion1() {
        Model m = ModelIO.load(GoldenFiles.copy(dir, "krr-nystrom-auto-v1.json"));
        double[][] raw = {{1, 2}, {3, -2}, {0, 4}};
        double[][] p = m.predict(raw);
        double[][] pts = {{0, 0}, {1, -1}, {-0.5, 0.5}};
        double[] alpha = {0.3, -0.2, 0.7};
        for (int t = 0; t < raw.length; t++) {
            // scaler ((a − 1)/2, (b − 2)/4), then 0.5 + Σ α_i exp(−‖u − p_i‖²/(2·0.8²))
            double u = (raw[t][0] - 1) / 2;
            double v = (raw[t][1] - 2) / 4;
            double f = 0.5;
            for (int i = 0; i < 3; i++) {
                double d2 = (u - pts[i][0]) * (u - pts[i][0]) + (v - pts[i][1]) * (v - pts[i][1]);
                f += alpha[i] * Math.exp(-d2 / (2 * 0.8 * 0.8));
            }
            assertEquals(f, p[t][0], 1e-14);
        }
        org.psdkit.regression.nystrom.NystromKrrAutoTrainer.Fit d = assertInstanceOf(
                org.psdkit.regression.nystrom.NystromKrrAutoTrainer.Fit.class, m.diagnostics());
        assertEquals("nystrom-cg", d.fit().route());
        assertEquals(4, d.fit().iterations());
        assertEquals(org.psdkit.regression.KrrAutoTrainer.Objective.GCV, d.search().objective());
        assertEquals(0.8, d.search().path().get(1).sigma()[0]);
        assertEquals(3, m.hyperParameters().toMap().get("anchors"));
        Path again = dir.resolve("krr-nystrom-auto-again.json");
        ModelIO.save(m, again);
        assertEquals(ModelFile.read(GoldenFiles.copy(dir, "krr-nystrom-auto-v1.json")), ModelFile.read(again));
    }

    /**
     * A one-vs-one SVM file (three classes, with probabilities) predicts what LIBSVM's layout gives by hand: pair
     * (i, j) sums class i's support vectors with coef[j−1] and class j's with coef[i], plus its bias; probabilities
     * from the pairs' sigmoids coupled (Wu, Lin &amp; Weng 2004, method 2); the label is their arg-max.
     */
    @Test
    void oneVsOneSvmVersion1() {
        Classifier m = ModelIO.load(GoldenFiles.copy(dir, "svm-ovo-v1.json"), Classifier.class);
        assertEquals("svm", m.type());
        assertEquals(List.of("red", "green", "blue"), m.labels());
        assertEquals(List.of("decision(red|green)", "decision(red|blue)", "decision(green|blue)", "p(red)",
                "p(green)", "p(blue)"), m.outputColumns());
        double[][] sv = {{0, 0}, {1, -1}, {-0.5, 0.5}, {2, 1}, {-1, -2}};
        int[] cls = {0, 0, 1, 2, 2};
        double[][] coef = {{0.5, 1.0, -1.5, 0.0, 2.0}, {0.75, 0.0, 0.5, -1.0, -0.25}};
        double[] bias = {0.25, -0.5, 0.125};
        double[] pa = {-2.0, -1.5, -3.0};
        double[] pb = {0.1, -0.2, 0.0};
        double[][] raw = {{1, 2}, {3, -2}, {0, 4}, {-2, 9}};
        double[][] p = m.predict(raw);
        String[] labels = m.predictLabels(Matrix.of(raw));
        for (int t = 0; t < raw.length; t++) {
            double u = (raw[t][0] - 1) / 2;
            double v = (raw[t][1] - 2) / 4;
            double[] k = new double[sv.length];
            for (int s = 0; s < sv.length; s++) {
                double d2 = (u - sv[s][0]) * (u - sv[s][0]) + (v - sv[s][1]) * (v - sv[s][1]);
                k[s] = Math.exp(-d2 / (2 * 1.5 * 1.5));
            }
            int[][] pairs = {{0, 1}, {0, 2}, {1, 2}};
            double[][] r = new double[3][3];
            for (int q = 0; q < 3; q++) {
                int i = pairs[q][0];
                int j = pairs[q][1];
                double f = bias[q];
                for (int s = 0; s < sv.length; s++) {
                    if (cls[s] == i) {
                        f += coef[j - 1][s] * k[s];
                    } else if (cls[s] == j) {
                        f += coef[i][s] * k[s];
                    }
                }
                assertEquals(f, p[t][q], 1e-14, "row " + t + " pair " + q);
                double pr = 1 / (1 + Math.exp(pa[q] * f + pb[q]));
                r[i][j] = Math.min(Math.max(pr, 1e-7), 1 - 1e-7);
                r[j][i] = 1 - r[i][j];
            }
            // method 2 by brute force: minimise Σ_i Σ_{j≠i} (r_ji p_i − r_ij p_j)² over the simplex on a fine grid,
            // then compare with the file's probabilities to the grid's resolution
            double best = Double.POSITIVE_INFINITY;
            double[] arg = null;
            int steps = 400;
            for (int a = 0; a <= steps; a++) {
                for (int b = 0; a + b <= steps; b++) {
                    double[] q = {a / (double) steps, b / (double) steps, (steps - a - b) / (double) steps};
                    double obj = 0;
                    for (int i = 0; i < 3; i++) {
                        for (int j = 0; j < 3; j++) {
                            if (i != j) {
                                double e = r[j][i] * q[i] - r[i][j] * q[j];
                                obj += e * e;
                            }
                        }
                    }
                    if (obj < best) {
                        best = obj;
                        arg = q;
                    }
                }
            }
            double sum = 0;
            int am = 0;
            for (int c = 0; c < 3; c++) {
                assertEquals(arg[c], p[t][3 + c], 2.0 / steps, "row " + t + " p" + c);
                sum += p[t][3 + c];
                if (p[t][3 + c] > p[t][3 + am]) {
                    am = c;
                }
            }
            assertEquals(1.0, sum, 1e-12);
            assertEquals(m.labels().get(am), labels[t]);
        }
    }

    /**
     * The learned-kernel SVM files (tk-svm: a tessellated kernel with its P; simplemkl: a weighted sum of library
     * members) predict the labels and decision values recorded when they were written.
     */
    @Test
    void learnedKernelSvmsVersion1() throws java.io.IOException {
        Dataset data = CsvReader.read(GoldenFiles.copy(dir, "svm-train.csv"), new CsvReader.Options(null, false, true));
        for (String name : new String[] {"tk-svm-v1", "simplemkl-v1"}) {
            Classifier m = ModelIO.load(GoldenFiles.copy(dir, name + ".json"), Classifier.class);
            assertEquals(name.substring(0, name.length() - 3), m.type());
            assertEquals(List.of("no", "yes"), m.labels());
            assertEquals(List.of("decision"), m.outputColumns());
            List<String> expected = java.nio.file.Files.readAllLines(GoldenFiles.copy(dir, name + ".expected.csv"));
            assertEquals("label,decision", expected.get(0));
            assertEquals(data.n() + 1, expected.size());
            double[][] p = m.predict(data.x().toRowArrays());
            String[] labels = m.predictLabels(data.x());
            for (int i = 1; i < expected.size(); i++) {
                String[] e = expected.get(i).split(",");
                double ev = Double.parseDouble(e[1]);
                assertEquals(e[0], labels[i - 1], name + " row " + i);
                assertEquals(ev, p[i - 1][0], 1e-9 * Math.max(1, Math.abs(ev)), name + " row " + i);
            }
            // saving it again writes the same document (the learned kernel's JSON included)
            Path again = dir.resolve(name + "-again.json");
            ModelIO.save(m, again);
            assertEquals(ModelFile.read(GoldenFiles.copy(dir, name + ".json")), ModelFile.read(again));
        }
    }
    /**
     * The one-vs-one learned-kernel files (three classes, one binary tk-svm or simplemkl document per pair) predict
     * the labels and pair decision values recorded when they were written, and save again to the same document.
     */
    @Test
    void learnedKernelOneVsOneVersion1() throws java.io.IOException {
        Dataset data = CsvReader.read(GoldenFiles.copy(dir, "svm3-train.csv"),
                new CsvReader.Options(null, false, true));
        for (String name : new String[] {"tk-svm-ovo-v1", "simplemkl-ovo-v1"}) {
            Classifier m = ModelIO.load(GoldenFiles.copy(dir, name + ".json"), Classifier.class);
            assertEquals(name.substring(0, name.length() - 7), m.type());
            assertEquals(List.of("setosa", "versicolor", "virginica"), m.labels());
            assertEquals(List.of("decision(setosa|versicolor)", "decision(setosa|virginica)",
                    "decision(versicolor|virginica)"), m.outputColumns());
            List<String> expected = java.nio.file.Files.readAllLines(GoldenFiles.copy(dir, name + ".expected.csv"));
            assertEquals(data.n() + 1, expected.size());
            double[][] p = m.predict(data.x().toRowArrays());
            String[] labels = m.predictLabels(data.x());
            for (int i = 1; i < expected.size(); i++) {
                String[] e = expected.get(i).split(",");
                assertEquals(e[0], labels[i - 1], name + " row " + i);
                for (int q = 0; q < 3; q++) {
                    assertEquals(Double.parseDouble(e[q + 1]), p[i - 1][q], 0.0, name + " row " + i);
                }
            }
            Path again = dir.resolve(name + "-again.json");
            ModelIO.save(m, again);
            assertEquals(ModelFile.read(GoldenFiles.copy(dir, name + ".json")), ModelFile.read(again));
        }
    }

    @Test
    void ridgeVersion1() {
        Model m = ModelIO.load(GoldenFiles.copy(dir, "ridge-v1.json"));
        assertEquals("ridge", m.type());
        assertEquals(List.of("a", "b"), m.featureNames());
        assertEquals(Map.of("lambda", 1.0, "intercept", true, "form", "primal"), m.hyperParameters().toMap());
        double[][] p = m.predict(new double[][] {{0, -1}, {10, 1}, {5, 0}});
        // minmax: a' = a/10, b' = (b + 1)/2; f = 1.25 + 2a' − 3b'
        assertEquals(1.25, p[0][0], 1e-15);
        assertEquals(1.25 + 2 - 3, p[1][0], 1e-15);
        assertEquals(1.25 + 1 - 1.5, p[2][0], 1e-15);
    }

    /** Several targets (format version 1, written since sample weights and several targets came in). */
    @Test
    void krrOfSeveralTargetsVersion1() throws java.io.IOException {
        Model m = ModelIO.load(GoldenFiles.copy(dir, "krr-targets-v1.json"));
        assertEquals("y1,y2", m.targetName());
        assertEquals(List.of("prediction1", "prediction2"), m.outputColumns());
        double[][] raw = {{1, 2}, {3, -2}, {0, 4}};
        double[][] p = m.predict(raw);
        double[][] pts = {{0, 0}, {1, -1}, {-0.5, 0.5}};
        double[][] alpha = {{0.3, -0.2, 0.7}, {1.0, 0.0, -2.0}};
        double[] offset = {0.5, -1.0};
        for (int t = 0; t < raw.length; t++) {
            double u = (raw[t][0] - 1) / 2;
            double v = (raw[t][1] - 2) / 4;
            for (int c = 0; c < 2; c++) {
                double f = offset[c];
                for (int i = 0; i < 3; i++) {
                    double d2 = (u - pts[i][0]) * (u - pts[i][0]) + (v - pts[i][1]) * (v - pts[i][1]);
                    f += alpha[c][i] * Math.exp(-d2 / (2 * 1.5 * 1.5));
                }
                assertEquals(f, p[t][c], 1e-14);
            }
        }
        assertEquals(2, ((org.psdkit.regression.KrrTrainer.Fit) m.diagnostics()).targets());
        Path again = dir.resolve("krr-targets-again.json");
        ModelIO.save(m, again);
        assertEquals(ModelFile.read(GoldenFiles.copy(dir, "krr-targets-v1.json")), ModelFile.read(again));
    }

    @Test
    void ridgeOfSeveralTargetsVersion1() throws java.io.IOException {
        Model m = ModelIO.load(GoldenFiles.copy(dir, "ridge-targets-v1.json"));
        double[][] p = m.predict(new double[][] {{0, -1}, {10, 1}, {5, 0}});
        // minmax: a' = a/10, b' = (b + 1)/2; f1 = 1.25 + 2a' − 3b', f2 = −4 + 0.5a' + b'
        assertEquals(1.25, p[0][0], 1e-15);
        assertEquals(-4.0, p[0][1], 1e-15);
        assertEquals(1.25 + 2 - 3, p[1][0], 1e-15);
        assertEquals(-4 + 0.5 + 1, p[1][1], 1e-15);
        assertEquals(1.25 + 1 - 1.5, p[2][0], 1e-15);
        assertEquals(-4 + 0.25 + 0.5, p[2][1], 1e-15);
        Path again = dir.resolve("ridge-targets-again.json");
        ModelIO.save(m, again);
        assertEquals(ModelFile.read(GoldenFiles.copy(dir, "ridge-targets-v1.json")), ModelFile.read(again));
    }

    @Test
    void svrVersion1() {
        Model m = ModelIO.load(GoldenFiles.copy(dir, "svr-v1.json"));
        assertEquals("svr", m.type());
        assertInstanceOf(Svr.class, ((Pipeline<?>) m).inner());
        assertEquals(4, m.diagnostics().get("iterations"));
        double[][] raw = {{1, 2}, {3, -2}, {0, 4}};
        double[][] p = m.predict(raw);
        double[][] sv = {{0, 0}, {1, -1}, {-0.5, 0.5}};
        double[] coef = {0.3, -0.2, 0.7};
        for (int t = 0; t < raw.length; t++) {
            // f(x) = b + Σ β_i exp(−‖u − s_i‖² / (2·1.5²)) on u = ((a − 1)/2, (b − 2)/4), b = 0.5
            double u = (raw[t][0] - 1) / 2;
            double v = (raw[t][1] - 2) / 4;
            double f = 0.5;
            for (int i = 0; i < 3; i++) {
                double d2 = (u - sv[i][0]) * (u - sv[i][0]) + (v - sv[i][1]) * (v - sv[i][1]);
                f += coef[i] * Math.exp(-d2 / (2 * 1.5 * 1.5));
            }
            assertEquals(f, p[t][0], 1e-14);
        }
    }

    /** f(u) = b + Σ c_i exp(−‖u − s_i‖² / (2·1.5²)) on u = ((a − 1)/2, (b − 2)/4) with the golden files' points. */
    private static double byHand(double[] raw, double b, double[] coef) {
        double[][] sv = {{0, 0}, {1, -1}, {-0.5, 0.5}};
        double u = (raw[0] - 1) / 2;
        double v = (raw[1] - 2) / 4;
        double f = b;
        for (int i = 0; i < 3; i++) {
            double d2 = (u - sv[i][0]) * (u - sv[i][0]) + (v - sv[i][1]) * (v - sv[i][1]);
            f += coef[i] * Math.exp(-d2 / (2 * 1.5 * 1.5));
        }
        return f;
    }

    @Test
    void oneClassSvmVersion1() throws java.io.IOException {
        Path file = GoldenFiles.copy(dir, "one-class-svm-v1.json");
        Model m = ModelIO.load(file);
        assertEquals("one-class-svm", m.type());
        assertInstanceOf(org.psdkit.classify.OneClassSvm.class, m);
        assertEquals(null, m.targetName());
        assertEquals(true, m.unsupervised());
        assertEquals(List.of("decision", "inlier"), m.outputColumns());
        assertEquals(0.5, m.hyperParameters().get("nu"));
        assertEquals(3, ((org.psdkit.classify.SvmTrainer.Fit) m.diagnostics()).iterations());
        // the first row maps to the origin: f = −1.2 + 1 + 0.6 e^{−2/4.5} + 0.4 e^{−0.5/4.5} > 0; the far rows < 0
        double[][] raw = {{1, 2}, {3, -2}, {0, 4}, {15, 30}};
        double[][] p = m.predict(raw);
        for (int t = 0; t < raw.length; t++) {
            double f = byHand(raw[t], -1.2, new double[] {1.0, 0.6, 0.4});
            assertEquals(f, p[t][0], 1e-14);
            assertEquals(f > 0 ? 1.0 : -1.0, p[t][1]);
        }
        assertEquals(1.0, p[0][1]);
        assertEquals(-1.0, p[3][1]);
        // written back field for field
        assertEquals(ModelFile.read(file), ModelIO.toJson(m));
    }

    @Test
    void nuSvrVersion1KeepsTheEpsilonItFound() throws java.io.IOException {
        Path file = GoldenFiles.copy(dir, "nu-svr-v1.json");
        Model m = ModelIO.load(file);
        assertEquals("svr", m.type());
        Svr svr = (Svr) ((Pipeline<?>) m).inner();
        assertEquals(0.25, svr.epsilon());
        assertEquals(0.4, m.hyperParameters().get("nu"));
        double[][] raw = {{1, 2}, {3, -2}, {0, 4}};
        double[][] p = m.predict(raw);
        for (int t = 0; t < raw.length; t++) {
            assertEquals(byHand(raw[t], 0.5, new double[] {0.3, -0.2, 0.7}), p[t][0], 1e-14);
        }
        assertEquals(ModelFile.read(file), ModelIO.toJson(m));
    }

    @Test
    void psdRegressionVersion1PredictsItsSumOfSquares() {
        Path file = GoldenFiles.copy(dir, "psd-regression-v1.json");
        Model m = ModelIO.load(file);
        assertEquals("psd-regression", m.type());
        assertInstanceOf(PsdModel.class, ((Pipeline<?>) m).inner());
        JsonNode doc = ModelFile.read(file);
        // f(x) = |R^T v(x)|^2 computed here from the stored numbers, v(x)_i = exp(-(x - x_i)^2 / (2 sigma^2))
        double sigma = 0.5;
        JsonNode pts = doc.get("numbers").get("points");
        JsonNode fac = doc.get("numbers").get("factor");
        int rank = doc.get("numbers").get("rank").asInt();
        double[] qs = {-2.5, -0.3, 0.0, 1.7, 40.0};
        double[] y = new double[qs.length];
        double min = Double.POSITIVE_INFINITY;
        for (int q = 0; q < qs.length; q++) {
            double f = 0;
            for (int k = 0; k < rank; k++) {
                double s = 0;
                for (int i = 0; i < pts.size(); i++) {
                    double d = qs[q] - pts.get(i).get(0).asDouble();
                    s += fac.get(i).get(k).asDouble() * Math.exp(-d * d / (2 * sigma * sigma));
                }
                f += s * s;
            }
            assertEquals(f, m.predict(new double[] {qs[q]})[0], 1e-12 * (1 + f), "query " + qs[q]);
            y[q] = f + 1;
            min = Math.min(min, f);
        }
        // eval of the non-negative regression task: every prediction is off by one, and the smallest is reported
        double[][] x = new double[qs.length][];
        for (int q = 0; q < qs.length; q++) {
            x[q] = new double[] {qs[q]};
        }
        Map<String, Object> e = m.evaluate(Dataset.of(Matrix.of(x), y)).toMap();
        assertEquals(List.of("rmse", "mae", "r2", "min_prediction"), List.copyOf(e.keySet()));
        assertEquals(1.0, (Double) e.get("rmse"), 1e-9);
        assertEquals(min, (Double) e.get("min_prediction"), 1e-12 * (1 + min));
    }

    @Test
    void quantileVersion1() {
        Model m = ModelIO.load(GoldenFiles.copy(dir, "quantile-v1.json"));
        assertEquals("quantile", m.type());
        assertInstanceOf(QuantilePipeline.class, m);
        assertEquals(List.of("q0.25", "q0.5"), m.outputColumns());
        assertEquals(List.of(0.25, 0.5), m.hyperParameters().get("taus"));
        double[] xs = {0, 0.5, 3};
        double[][] q = m.predict(new double[][] {{xs[0]}, {xs[1]}, {xs[2]}});
        for (int i = 0; i < xs.length; i++) {
            // by hand from the file: gaussian(sigma=1) on points 0 and 1, target center 1 and scale 2; the median is
            // an expansion (offset 1, intercept 0.5), the increment a sum of squares plus the constant 0.3
            double k0 = Math.exp(-xs[i] * xs[i] / 2);
            double k1 = Math.exp(-(xs[i] - 1) * (xs[i] - 1) / 2);
            double median = 0.2 * (k0 + 1) - 0.1 * (k1 + 1) + 0.5;
            double inc = (k0 + 0.5 * k1) * (k0 + 0.5 * k1) + 0.3;
            assertEquals(1 + 2 * median, q[i][1], 1e-14);
            assertEquals(1 + 2 * (median - inc), q[i][0], 1e-14);
        }
    }

    @Test
    void heteroVersion1() {
        Model m = ModelIO.load(GoldenFiles.copy(dir, "hetero-v1.json"));
        assertEquals("hetero", m.type());
        assertInstanceOf(HeteroPipeline.class, m);
        assertEquals(List.of("mean", "variance"), m.outputColumns());
        assertEquals("psd", m.hyperParameters().get("method"));
        double[] xs = {0, 0.5, 3};
        double[][] p = m.predict(new double[][] {{xs[0]}, {xs[1]}, {xs[2]}});
        for (int i = 0; i < xs.length; i++) {
            // η an expansion (offset 1), θ a sum of squares plus the constant 0.3; mean 1 + 2η/θ, variance 4/θ
            double k0 = Math.exp(-xs[i] * xs[i] / 2);
            double k1 = Math.exp(-(xs[i] - 1) * (xs[i] - 1) / 2);
            double eta = 0.2 * (k0 + 1) - 0.1 * (k1 + 1);
            double theta = (k0 + 0.5 * k1) * (k0 + 0.5 * k1) + 0.3;
            assertEquals(1 + 2 * eta / theta, p[i][0], 1e-14);
            assertEquals(4 / theta, p[i][1], 1e-14);
        }
    }

    @Test
    void psdDensityVersion1() {
        Model m = ModelIO.load(GoldenFiles.copy(dir, "psd-density-v1.json"));
        assertEquals("psd-density", m.type());
        assertEquals(List.of("x"), m.featureNames());
        assertEquals(null, m.targetName());
        assertEquals(List.of("density"), m.outputColumns());
        assertEquals("0.01", m.hyperParameters().get("lambda1"));
        assertEquals(434, m.diagnostics().get("iterations"));
        // a version-1 file lacks rank_threshold and anchors: its diagnostics stay as recorded, not typed
        assertInstanceOf(org.psdkit.model.Diagnostics.Recorded.class, m.diagnostics());
        DensityPipeline d = assertInstanceOf(DensityPipeline.class, m);
        double[][] raw = {{-1}, {0}, {0.25}, {2}};
        double[][] p = m.predict(raw);
        // the values psdkit predict printed for this file when it was written (format version 1)
        double[] expected = {0.24619112033860502, 0.5541987825234169, 0.5371681348653508, 0.0028805599387344066};
        double[] pts = {0.1, 0.5, -0.3, 1.2, -1.0};
        double[][] r = {{1.1209328640615768, -11.575349755376608}, {-1.1099919063814832, 6.77651127402503},
            {-1.1099919063814523, 6.7765112740250295}, {0.19186872728991453, -0.8895373248809539},
            {0.19186872728991133, -0.8895373248809655}};
        for (int t = 0; t < raw.length; t++) {
            assertEquals(expected[t], p[t][0], 1e-12 * expected[t]);
            // by hand: no scaling, Lebesgue base, f(x) = ‖Rᵀ v(x)‖² with v_i = exp(−(x − p_i)² / (2·0.8²))
            double f = 0;
            for (int c = 0; c < 2; c++) {
                double z = 0;
                for (int i = 0; i < pts.length; i++) {
                    z += r[i][c] * Math.exp(-(raw[t][0] - pts[i]) * (raw[t][0] - pts[i]) / (2 * 0.8 * 0.8));
                }
                f += z * z;
            }
            assertEquals(f, p[t][0], 1e-12 * f);
        }
        assertEquals(1.0, d.integral(), 1e-9);
        assertEquals(Math.log(expected[1]), d.meanLogLikelihood(Matrix.of(new double[][] {{0}})), 1e-12);
    }
}
