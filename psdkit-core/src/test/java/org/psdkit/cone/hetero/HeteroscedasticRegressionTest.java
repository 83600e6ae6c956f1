package org.psdkit.cone.hetero;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;
import org.psdkit.data.Dataset;
import org.psdkit.data.toy.HeteroscedasticToy;
import org.psdkit.linalg.Matrix;

class HeteroscedasticRegressionTest {

    @Test
    void psdVariancesArePositiveAndFiniteEverywhere() {
        Dataset d = HeteroscedasticToy.sample(80, 1);
        HeteroModel m = HeteroscedasticRegression.fit(d.x(), d.y(),
                HeteroscedasticRegression.Options.of(0.2, 1e-2, HeteroscedasticRegression.Method.PSD));
        Random rnd = new Random(3);
        Matrix x = Matrix.zeros(100_000, 1);
        for (int i = 0; i < x.rows(); i++) {
            x.set(i, 0, -5 + 11 * rnd.nextDouble());  // data in [0,1]; most points far outside
        }
        Matrix nat = m.natural(x);
        Matrix p = m.predict(x);
        for (int i = 0; i < x.rows(); i++) {
            assertTrue(nat.get(i, 1) >= 0, "theta < 0 at " + x.get(i, 0));
            double v = p.get(i, 1);
            assertTrue(v > 0 && Double.isFinite(v), "variance " + v + " at " + x.get(i, 0));
            assertTrue(Double.isFinite(p.get(i, 0)), "mean not finite at " + x.get(i, 0));
        }
    }

    /**
     * Known variance function v(x) = exp(sin 2πx) (mean 2(e^{−30(x−¼)²} + sin πx²) − 2), n = 600: the fitted
     * variance is within a factor e^{0.35} ≈ 1.4 of the truth on average over [0.05, 0.95] and within e^{0.8} ≈ 2.2
     * everywhere there (the true variance ranges over a factor e² ≈ 7.4). A fit with a constant variance has a mean
     * |log error| of ≈ 0.64 and fails.
     */
    @Test
    void recoversAKnownVarianceFunction() {
        Dataset d = HeteroscedasticToy.sample(600, 7);
        HeteroModel m = HeteroscedasticRegression.fit(d.x(), d.y(),
                HeteroscedasticRegression.Options.of(0.1, 1e-3, HeteroscedasticRegression.Method.PSD));
        int g = 181;
        Matrix x = Matrix.zeros(g, 1);
        for (int i = 0; i < g; i++) {
            x.set(i, 0, 0.05 + 0.9 * i / (g - 1));
        }
        Matrix p = m.predict(x);
        double mean = 0;
        double max = 0;
        for (int i = 0; i < g; i++) {
            double err = Math.abs(Math.log(p.get(i, 1)) - Math.log(HeteroscedasticToy.variance(x.get(i, 0))));
            mean += err / g;
            max = Math.max(max, err);
        }
        assertTrue(mean < 0.35, "mean |log v error| " + mean);
        assertTrue(max < 0.8, "max |log v error| " + max);
    }
}
