package org.psdkit.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.psdkit.model.KernelRidge;
import org.psdkit.model.Model;
import org.psdkit.model.Pipeline;
import org.psdkit.model.hetero.HeteroPipeline;
import org.psdkit.model.quantile.QuantilePipeline;

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
}
