package org.psdkit.density;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.psdkit.kernel.GaussianKernel;
import org.psdkit.linalg.Matrix;
import org.psdkit.optim.ProgressListener;

class LogLikelihoodDualTest {

    /** The fixed-metric solver evaluates g once per iteration and agrees with the backtracking solver. */
    @Test
    void fixedMetricUsesOneEvaluationPerIterationAndMatchesBacktracking() {
        SplittableRandom rnd = new SplittableRandom(11);
        int n = 25;
        Matrix x = Matrix.zeros(n, 2);
        for (int i = 0; i < n; i++) {
            x.set(i, 0, rnd.nextGaussian());
            x.set(i, 1, 0.5 * rnd.nextGaussian());
        }
        GaussianKernel k = new GaussianKernel(0.8);
        BaseMeasure nu = BaseMeasure.Gaussian.isotropic(2, 0, 4);
        FeatureBasis fb = FeatureBasis.of(k, x);
        Matrix w = fb.congruence(KernelIntegrals.products(k, x, nu, null, null));
        Matrix wt = w.scale(1.0 / w.normF());
        double l1 = 1e-2;
        double l2 = 1e-3;
        PsdDensityEstimator.Smooth smooth = new PsdDensityEstimator.Smooth(fb.v, wt, l1, l2);
        int[] calls = {0};
        LogLikelihoodDual.Smooth counting = (b, mu) -> {
            calls[0]++;
            return smooth.evaluate(b, mu);
        };
        double[] beta0 = new double[n];
        Arrays.fill(beta0, 1.0 / n);
        double[] lipBeta = new double[n];
        double lipMu = PsdDensityEstimator.metric(fb.v, wt, l2, lipBeta);
        double tol = 1e-9;
        LogLikelihoodDual.Result fixed = LogLikelihoodDual.solveFixedMetric(counting, beta0, 0, lipBeta, lipMu, tol,
                200_000, 60, ProgressListener.NONE);
        assertTrue(fixed.converged(), "gap " + fixed.relativeGap());
        assertEquals(fixed.iterations(), calls[0]);
        assertTrue(fixed.primal() >= fixed.dual(), "weak duality");
        LogLikelihoodDual.Result back = LogLikelihoodDual.solve(smooth, beta0, 0, lipMu, tol, 200_000, 60,
                ProgressListener.NONE);
        assertTrue(back.converged(), "gap " + back.relativeGap());
        double scale = Math.max(1, Math.abs(back.primal()));
        assertEquals(back.primal(), fixed.primal(), 4 * tol * scale);
        assertEquals(back.dual(), fixed.dual(), 4 * tol * scale);
    }
}
