package org.psdkit.cone.quantile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;
import org.psdkit.data.Dataset;
import org.psdkit.data.toy.QuantileToy;
import org.psdkit.linalg.Matrix;
import org.psdkit.cone.ConeDualSolver;

class QuantileRegressionTest {

    /** 10⁵ random points, a third of them outside the data range [0, 1]. */
    private static Matrix randomPoints(long seed) {
        Random rnd = new Random(seed);
        Matrix x = Matrix.zeros(100_000, 1);
        for (int i = 0; i < x.rows(); i++) {
            x.set(i, 0, -1 + 3 * rnd.nextDouble());
        }
        return x;
    }

    @Test
    void psdQuantilesNeverCrossAnywhere() {
        Dataset d = QuantileToy.sample(60, 4);
        double[] taus = {0.1, 0.25, 0.5, 0.75, 0.9};
        QuantileRegression.Options o = new QuantileRegression.Options(taus,
                new org.psdkit.kernel.GaussianKernel(0.1), 1e-2, QuantileRegression.APPENDIX_E_FROBENIUS_WEIGHT,
                QuantileRegression.Method.PSD, false, 1, 0, ConeDualSolver.Options.defaults().withGapTolerance(1e-3));
        QuantileModel m = QuantileRegression.fit(d.x(), d.y(), o);
        Matrix q = m.predict(randomPoints(9));
        assertEquals(0, QuantileModel.crossings(q));
        // the increments are not trivially zero: the fitted band has width on the data
        Matrix qt = m.predict(d.x());
        double width = 0;
        for (int i = 0; i < qt.rows(); i++) {
            width += qt.get(i, 4) - qt.get(i, 0);
        }
        assertTrue(width / qt.rows() > 0.05, "band width " + width / qt.rows());
    }

    @Test
    void constantBlocksAlsoKeepOrderAndWidthFarAway() {
        Dataset d = QuantileToy.sample(60, 5);
        double[] taus = {0.25, 0.5, 0.75};
        QuantileRegression.Options o = new QuantileRegression.Options(taus,
                new org.psdkit.kernel.GaussianKernel(0.1), 1e-2, QuantileRegression.APPENDIX_E_FROBENIUS_WEIGHT,
                QuantileRegression.Method.PSD, true, 1, 0, ConeDualSolver.Options.defaults().withGapTolerance(1e-3));
        QuantileModel m = QuantileRegression.fit(d.x(), d.y(), o);
        assertEquals(0, QuantileModel.crossings(m.predict(randomPoints(10))));
    }

    @Test
    void crossingCounterCountsOrderedPairs() {
        Matrix q = Matrix.of(new double[][] {{0, 1, 2}, {2, 1, 0}, {0, 2, 1}});
        // row 2: three inverted pairs; row 3: one
        assertEquals(4, QuantileModel.crossings(q));
    }

    @Test
    void pinballCoverageOfTheMedianIsAboutHalfOnTrainingData() {
        Dataset d = QuantileToy.sample(120, 6);
        QuantileModel m = QuantileRegression.fit(d.x(), d.y(), QuantileRegression.Options.of(
                new double[] {0.5}, 0.1, 1e-3, QuantileRegression.Method.INDEPENDENT));
        Matrix q = m.predict(d.x());
        int below = 0;
        for (int i = 0; i < d.n(); i++) {
            if (d.y()[i] <= q.get(i, 0) + 1e-9) {
                below++;
            }
        }
        // the pinball optimum puts at least τn points at or below and at least (1−τ)n at or above, up to the
        // regulariser's pull; a loose band of ±15 % around τ catches a sign error in the loss
        assertEquals(0.5, (double) below / d.n(), 0.15);
    }

    @Test
    void badOptionsAreRejected() {
        assertThrows(IllegalArgumentException.class, () -> QuantileRegression.Options.of(new double[] {0.5, 0.3}, 1,
                1e-2, QuantileRegression.Method.PSD));
        assertThrows(IllegalArgumentException.class, () -> QuantileRegression.Options.of(new double[] {1.0}, 1,
                1e-2, QuantileRegression.Method.PSD));
        assertThrows(IllegalArgumentException.class, () -> QuantileRegression.Options.of(new double[] {0.5}, 1,
                -1, QuantileRegression.Method.PSD));
        assertThrows(IllegalArgumentException.class, () -> QuantileRegression.Method.parse("foo"));
        Matrix x = Matrix.zeros(3, 1);
        assertThrows(IllegalArgumentException.class, () -> QuantileRegression.fit(x, new double[] {1, Double.NaN, 2},
                QuantileRegression.Options.of(new double[] {0.5}, 1, 1e-2, QuantileRegression.Method.PSD)));
    }
}
