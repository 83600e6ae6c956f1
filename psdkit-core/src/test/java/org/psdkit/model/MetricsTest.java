package org.psdkit.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class MetricsTest {
    @Test
    void handComputedValues() {
        double[] y = {1, 2, 3, 4};
        double[] p = {1, 3, 2, 4};
        assertEquals(Math.sqrt(0.5), Metrics.rmse(y, p), 1e-15);
        assertEquals(0.5, Metrics.mae(y, p), 1e-15);
        // SS_res = 2, SS_tot = 5
        assertEquals(1 - 2.0 / 5, Metrics.r2(y, p), 1e-15);
        assertEquals(0.5, Metrics.accuracy(new String[] {"a", "b"}, new String[] {"a", "c"}));
        assertEquals(1.0, Metrics.r2(new double[] {2, 2}, new double[] {2, 2}));
        assertThrows(IllegalArgumentException.class, () -> Metrics.rmse(y, new double[] {1}));
    }

    @Test
    void tinyAndHugeValuesGiveTheSameMetricsAsTheirScaledCopies() {
        double[] y = {1, 2, 3, 4};
        double[] p = {1, 3, 2, 4};
        for (double scale : new double[] {1e-160, 1e-300, 1e160, 1e300}) {
            double[] ys = new double[4];
            double[] ps = new double[4];
            for (int i = 0; i < 4; i++) {
                ys[i] = y[i] * scale;
                ps[i] = p[i] * scale;
            }
            // the squares underflow to 0 (or overflow) without the scaling: r2 was 1 (or NaN), rmse 0 (or inf)
            assertEquals(1 - 2.0 / 5, Metrics.r2(ys, ps), 1e-14, "scale " + scale);
            assertEquals(Math.sqrt(0.5) * scale, Metrics.rmse(ys, ps), 1e-14 * scale, "scale " + scale);
        }
        assertEquals(0.0, Metrics.rmse(y, y));
        assertEquals(0.0, Metrics.r2(new double[] {2, 2}, new double[] {2, 3}));
    }

    /**
     * Weighted metrics are weighted means of the losses (scikit-learn's sample_weight): whole-number weights give the
     * metrics of the rows repeated that many times, a zero weight leaves its row out, null weights are unweighted.
     */
    @Test
    void weightedMetricsEqualTheMetricsOfRepeatedRows() {
        double[] y = {1, 2, 3, 4, 10};
        double[] p = {1.5, 3, 2, 4, -7};
        double[] w = {2, 1, 3, 1, 0};
        double[] yr = {1, 1, 2, 3, 3, 3, 4};
        double[] pr = {1.5, 1.5, 3, 2, 2, 2, 4};
        assertEquals(Metrics.rmse(yr, pr), Metrics.rmse(y, p, w), 1e-15);
        assertEquals(Metrics.mae(yr, pr), Metrics.mae(y, p, w), 1e-15);
        assertEquals(Metrics.r2(yr, pr), Metrics.r2(y, p, w), 1e-14);
        assertEquals(Metrics.regression(y, p), Metrics.regression(y, p, null));
        assertThrows(IllegalArgumentException.class, () -> Metrics.rmse(y, p, new double[5]));
        assertThrows(IllegalArgumentException.class, () -> Metrics.mae(y, p, new double[] {1, 1, -1, 1, 1}));
    }
}
