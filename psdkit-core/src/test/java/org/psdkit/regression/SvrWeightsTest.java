package org.psdkit.regression;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.psdkit.data.Dataset;
import org.psdkit.kernel.GaussianKernel;
import org.psdkit.linalg.Matrix;
import org.psdkit.model.ParameterException;
import org.psdkit.model.Pipeline;

/**
 * ε-SVR with sample weights against scikit-learn's {@code SVR.fit(sample_weight=…)} (values recorded by
 * docs/benchmarks/svm_multiclass_reference.py, scikit-learn 1.2.1).
 */
class SvrWeightsTest {
    private static final SvrTrainer.Options OPTIONS = SvrTrainer.Options.of(GaussianKernel.fromGamma(0.5), 3, 0.1)
            .withTolerance(1e-8);

    private static List<double[]> rows(String name) throws IOException {
        try (InputStream in = SvrWeightsTest.class.getResourceAsStream("/classify/" + name)) {
            List<double[]> out = new ArrayList<>();
            String[] lines = new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n");
            for (String l : lines) {
                if (l.isBlank() || l.startsWith("#") || Character.isLetter(l.charAt(0))) {
                    continue;
                }
                String[] f = l.split(",");
                double[] r = new double[f.length];
                for (int j = 0; j < f.length; j++) {
                    r[j] = Double.parseDouble(f[j]);
                }
                out.add(r);
            }
            return out;
        }
    }

    @Test
    void weightedSvrEqualsScikitLearn() throws IOException {
        List<double[]> tr = rows("svr-weights.csv");
        double[][] x = new double[tr.size()][1];
        double[] y = new double[tr.size()];
        double[] w = new double[tr.size()];
        for (int i = 0; i < x.length; i++) {
            x[i][0] = tr.get(i)[0];
            y[i] = tr.get(i)[1];
            w[i] = tr.get(i)[2];
        }
        Dataset train = Dataset.of(Matrix.of(x), y);
        Pipeline<Svr> m = new SvrTrainer(OPTIONS).fit(train, w, null);
        assertEquals(Boolean.TRUE, m.hyperParameters().get("sampleWeights"));
        for (double[] r : rows("svr-weights-sklearn.csv")) {
            assertEquals(r[1], m.predict(new double[] {r[0]})[0], 1e-6 * Math.max(1, Math.abs(r[1])), "x=" + r[0]);
        }
        // the weights matter: the unweighted fit differs
        Pipeline<Svr> plain = new SvrTrainer(OPTIONS).fit(train);
        double diff = 0;
        for (double[] r : rows("svr-weights-sklearn.csv")) {
            diff = Math.max(diff, Math.abs(plain.predict(new double[] {r[0]})[0] - r[1]));
        }
        assertTrue(diff > 1e-4, "weights change the fit: " + diff);
        // unit weights are the unweighted fit, bit for bit
        double[] ones = new double[y.length];
        java.util.Arrays.fill(ones, 1);
        Pipeline<Svr> unit = new SvrTrainer(OPTIONS).fit(train, ones, null);
        assertEquals(plain.predict(new double[] {2.5})[0], unit.predict(new double[] {2.5})[0], 0.0);
        // bad weights name the row
        w[4] = Double.NaN;
        ParameterException e = assertThrows(ParameterException.class, () -> new SvrTrainer(OPTIONS).fit(train, w,
                null));
        assertEquals("sampleWeights", e.parameter());
        assertTrue(e.getMessage().contains("row 5"), e.getMessage());
    }
}
