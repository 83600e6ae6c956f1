package org.psdkit.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.psdkit.density.DensityPipeline;
import org.psdkit.linalg.Matrix;
import org.psdkit.model.KernelRidge;
import org.psdkit.model.Model;
import org.psdkit.model.Pipeline;

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
    void psdDensityVersion1() {
        Model m = ModelIO.load(GoldenFiles.copy(dir, "psd-density-v1.json"));
        assertEquals("psd-density", m.type());
        assertEquals(List.of("x"), m.featureNames());
        assertEquals(null, m.targetName());
        assertEquals(List.of("density"), m.outputColumns());
        assertEquals("0.01", m.hyperParameters().get("lambda1"));
        assertEquals(434, m.diagnostics().get("iterations"));
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
