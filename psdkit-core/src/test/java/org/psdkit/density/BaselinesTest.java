package org.psdkit.density;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.psdkit.data.Dataset;
import org.psdkit.data.Scaler;
import org.psdkit.data.Splits;
import org.psdkit.kernel.GaussianKernel;
import org.psdkit.linalg.Matrix;
import org.psdkit.select.CrossValidation;

class BaselinesTest {
    private final Matrix x = Mixtures.fig1().sample(50, 1);
    private final Matrix test = Mixtures.fig1().sample(500, 2);
    private final GaussianKernel k = new GaussianKernel(1.0);

    @Test
    void ncmIsAMixtureOnTheSimplex() {
        LinearDensity m = Baselines.ncm(x, k, new BaseMeasure.Lebesgue(), 1e-3, 1e-7, 20000);
        assertTrue(m.diagnostics().converged());
        assertEquals(1.0, m.integral(), 1e-12);
        for (double a : m.alpha()) {
            assertTrue(a >= 0);
        }
        // with σ = 1 the NCM cannot resolve two bumps of sd 0.3 (Example 2): it is worse than the truth
        assertTrue(m.meanLogLikelihood(test) < Mixtures.fig1().meanLogLikelihood(test) - 0.05);
        // λ = 0 limit is the maximum-likelihood mixture: the FW gap certificate is ≥ 0
        assertTrue(m.diagnostics().relativeGap() >= 0);
    }

    @Test
    void pnmMeetsTheConstraintAndIsNonNegativeOnTheDataOnly() {
        LinearDensity m = Baselines.pnm(x, k, new BaseMeasure.Lebesgue(), 1e-4, 1e-8, 50000);
        assertTrue(m.diagnostics().converged(), "gap " + m.diagnostics().relativeGap());
        assertEquals(1.0, m.integral(), 1e-9);
        for (double v : m.f(x)) {
            assertTrue(v > 0);
        }
    }

    @Test
    void glmNormalisesByMonteCarloOnly() {
        BaseMeasure box = BaseMeasure.Box.cube(1, -4, 4);
        GlmDensity g = Baselines.glm(x, k, box, 1e-3, 1e-5, 20000, 5);
        assertTrue(g.diagnostics().converged());
        double integral = g.integral();
        // close to 1 in 1-D, but not exactly: the normaliser was estimated from 10 000 draws
        assertEquals(1.0, integral, 0.05);
        assertTrue(Math.abs(integral - 1) > 1e-6);
        assertThrows(IllegalArgumentException.class, () -> Baselines.glm(x, k, new BaseMeasure.Lebesgue(), 1e-3,
                1e-6, 10, 1));
    }

    @Test
    void kdeBandwidthByLikelihoodCvBeatsExtremeBandwidths() {
        Kde kde = Kde.fit(x);
        double[][] gl = KernelIntegrals.gaussLegendre(400);
        double s = 0;
        Matrix nodes = Matrix.zeros(400, 1);
        for (int q = 0; q < 400; q++) {
            nodes.set(q, 0, 8 * gl[0][q]);
        }
        double[] p = kde.density(nodes);
        for (int q = 0; q < 400; q++) {
            s += 8 * gl[1][q] * p[q];
        }
        assertEquals(1.0, s, 1e-9);
        Matrix d2 = org.psdkit.kernel.SquaredDistances.cross(x, x);
        double h = kde.bandwidth();
        assertTrue(Kde.loo(d2, 1, h) >= Kde.loo(d2, 1, 3 * h));
        assertTrue(Kde.loo(d2, 1, h) >= Kde.loo(d2, 1, h / 3));
    }

    @Test
    void crossValidationPicksTheBetterLambda() {
        List<Long> steps = new ArrayList<>();
        List<CrossValidation.Result<Double>> table = CrossValidation.evaluate(Dataset.of(x, null),
                Splits.kFold(x.rows(), 5, 3), List.of(1e-3, 10.0),
                l -> new PsdDensityTrainer(PsdDensityTrainer.Options.of(k, new BaseMeasure.Lebesgue(),
                        PsdDensityOptions.of(l, 0.01).withTolerance(1e-5))),
                DensityPipeline::heldOutScores, e -> steps.add(e.step() * 100 + e.total()));
        CrossValidation.Result<Double> best = CrossValidation.best(table, DensityPipeline.HELD_OUT_LOGLIK, false);
        assertEquals(1e-3, best.params(), 0);
        assertEquals(2, table.size());
        // one "cv" event per fit, out of 2 points × 5 folds
        assertEquals(List.of(110L, 210L, 310L, 410L, 510L, 610L, 710L, 810L, 910L, 1010L), steps);
    }
}
