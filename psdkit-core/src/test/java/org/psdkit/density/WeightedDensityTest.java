package org.psdkit.density;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;
import org.psdkit.data.Dataset;
import org.psdkit.kernel.GaussianKernel;
import org.psdkit.kernel.Kernel;
import org.psdkit.linalg.Matrix;

/**
 * The weighted log-likelihood of the PSD density: integer weights are duplicated rows; the primal solver's weighted
 * sums ({@link LocalDensityRows#weighted}) reach the dual solver's weighted optimum, and weights of 1 are the
 * unweighted primal solve bit for bit.
 */
class WeightedDensityTest {
    private static final Kernel K = new GaussianKernel(0.6);
    private static final BaseMeasure LEB = new BaseMeasure.Lebesgue();
    private static final PsdDensityOptions OPT = PsdDensityOptions.of(1e-3, 0.01).withTolerance(1e-9)
            .withMaxIterations(20000).withSolver(PsdDensityOptions.Solver.DUAL_FISTA);

    private static Matrix points(int n, long seed) {
        Random r = new Random(seed);
        Matrix x = Matrix.zeros(n, 1);
        for (int i = 0; i < n; i++) {
            x.set(i, 0, r.nextBoolean() ? r.nextGaussian() * 0.5 - 1 : r.nextGaussian() * 0.7 + 1);
        }
        return x;
    }

    private static double maxRel(double[] a, double[] b) {
        double m = 0;
        for (int i = 0; i < a.length; i++) {
            m = Math.max(m, Math.abs(a[i] - b[i]) / Math.max(Math.abs(b[i]), 1e-12));
        }
        return m;
    }

    @Test
    void integerWeightsEqualDuplicatedRowsOnTheSameAnchors() {
        Matrix x = points(40, 1);
        double[] w = new double[40];
        int total = 0;
        Random r = new Random(2);
        for (int i = 0; i < 40; i++) {
            w[i] = 1 + r.nextInt(3);
            total += (int) w[i];
        }
        int[] idx = new int[total];
        for (int i = 0, k = 0; i < 40; i++) {
            for (int c = 0; c < w[i]; c++) {
                idx[k++] = i;
            }
        }
        Matrix anchors = x.selectRows(new int[] {0, 3, 7, 11, 19, 25, 31, 38});
        Matrix test = Matrix.column(new double[] {-2, -1.2, -0.5, 0, 0.4, 1, 1.7, 2.5});
        PsdDensity weighted = PsdDensityEstimator.fit(x, anchors, K, LEB, OPT, PsdDensityEstimator.WarmStart.DEFAULT,
                null, w);
        PsdDensity dup = PsdDensityEstimator.fit(x.selectRows(idx), anchors, K, LEB, OPT, null);
        PsdDensity plain = PsdDensityEstimator.fit(x, anchors, K, LEB, OPT, null);
        double[] pw = weighted.density(test);
        double[] pd = dup.density(test);
        // the same optimum: objectives (the weighted mean of −log f plus the regulariser) agree within the
        // solvers' duality gaps; the densities within the flat optimum's spread at that gap
        assertEquals(dup.diagnostics().objective(), weighted.diagnostics().objective(), 1e-8);
        assertTrue(maxRel(pw, pd) < 5e-3, "weighted vs duplicated: " + maxRel(pw, pd));
        assertTrue(maxRel(plain.density(test), pd) > 2e-2, "the weights change the density");
        assertTrue(Math.abs(plain.diagnostics().objective() - dup.diagnostics().objective()) > 1e-3);
    }

    @Test
    void theTrainerLeavesZeroWeightRowsOut() {
        Matrix x = points(30, 4);
        double[] w = new double[30];
        java.util.Arrays.fill(w, 2.0);
        w[3] = 0;
        w[17] = 0;
        int[] keep = java.util.stream.IntStream.range(0, 30).filter(i -> w[i] > 0).toArray();
        PsdDensityTrainer t = new PsdDensityTrainer(PsdDensityTrainer.Options.of(K, LEB, OPT));
        DensityPipeline a = t.fit(Dataset.of(x, null).withWeights(w));
        DensityPipeline b = t.fit(Dataset.of(x.selectRows(keep), null));
        Matrix test = Matrix.column(new double[] {-1.5, 0, 1.2});
        // equal weights on the kept rows: the unweighted fit on them, up to the solver's tolerance
        double diff = maxRel(a.predict(test).col(0), b.predict(test).col(0));
        assertTrue(diff < 1e-6, "zero weights vs rows left out: " + diff);
        assertEquals(28, ((PsdDensity) a.inner()).points().rows());
    }
    /** The Nyström primal solve of {@link PsdDensityEstimator#fitRows} on x, weighted when {@code w} is not null. */
    private static PsdDensity primal(Matrix x, Matrix anchors, double[] w, PsdDensityOptions opt) {
        return PsdDensityEstimator.fitRows(anchors, t -> {
            LocalDensityRows rows = LocalDensityRows.nystrom(K, anchors, t, x);
            return w == null ? rows : rows.weighted(w);
        }, K, LEB, opt, null);
    }

    @Test
    void thePrimalSolverReachesTheDualSolversWeightedOptimum() {
        Matrix x = points(40, 1);
        double[] w = new double[40];
        Random r = new Random(5);
        for (int i = 0; i < 40; i++) {
            w[i] = 0.2 + 3 * r.nextDouble();
        }
        Matrix anchors = x.selectRows(new int[] {0, 3, 7, 11, 19, 25, 31, 38});
        Matrix test = Matrix.column(new double[] {-2, -1.2, -0.5, 0, 0.4, 1, 1.7, 2.5});
        // a strongly convex problem (λ₂ = λ₁ = 0.05) solved to small gaps: ‖ΔA‖² ≤ 2·gap/λ₂ bounds the
        // distance of each solve's A from the optimum
        PsdDensityOptions dualOpt = PsdDensityOptions.of(5e-2, 1.0).withTolerance(1e-13).withMaxIterations(200000)
                .withSolver(PsdDensityOptions.Solver.DUAL_FISTA);
        PsdDensity dual = PsdDensityEstimator.fit(x, anchors, K, LEB, dualOpt, PsdDensityEstimator.WarmStart.DEFAULT,
                null, w);
        PsdDensity prim = primal(x, anchors, w, dualOpt.withSolver(PsdDensityOptions.Solver.PRIMAL_LBFGS));
        assertTrue(dual.diagnostics().converged() && prim.diagnostics().converged());
        // both at relative gaps below 1e-13; the primal rows keep the Nyström features in single precision
        // (LocalDensityRows.nystrom), the dual solver in double, so the two problems differ by that rounding:
        // objectives 1.0e-9 apart, densities 5.5e-7
        assertEquals(dual.diagnostics().objective(), prim.diagnostics().objective(), 1e-8);
        double diff = maxRel(prim.density(test), dual.density(test));
        assertTrue(diff < 1e-6, "weighted primal vs weighted dual: " + diff);
        PsdDensity unweighted = primal(x, anchors, null, dualOpt.withSolver(PsdDensityOptions.Solver.PRIMAL_LBFGS));
        assertTrue(maxRel(unweighted.density(test), dual.density(test)) > 1e-3, "the weights change the density");
    }

    @Test
    void weightsOfOneAreTheUnweightedPrimalSolveBitForBit() {
        Matrix x = points(60, 7);
        Matrix anchors = x.selectRows(new int[] {1, 5, 9, 14, 22, 30, 41, 50, 57});
        double[] ones = new double[60];
        java.util.Arrays.fill(ones, 1.0);
        PsdDensityOptions opt = PsdDensityOptions.of(1e-3, 0.01);
        PsdDensity a = primal(x, anchors, null, opt);
        PsdDensity b = primal(x, anchors, ones, opt);
        assertEquals(a.diagnostics().iterations(), b.diagnostics().iterations());
        assertTrue(a.diagnostics().iterations() > 5, "a solve of several iterations");
        assertEquals(a.diagnostics().objective(), b.diagnostics().objective(), 0.0);
        assertTrue(java.util.Arrays.equals(a.factor().data(), b.factor().data()), "the same factor bit for bit");
        // and a weight of 2 on every row is the same problem (the mean is over Σ w), up to rounding
        double[] twos = new double[60];
        java.util.Arrays.fill(twos, 2.0);
        PsdDensity c = primal(x, anchors, twos, opt);
        assertEquals(a.diagnostics().objective(), c.diagnostics().objective(), 1e-12);
    }

    @Test
    void weightedRowsRefuseBadWeights() {
        LocalDensityRows rows = LocalDensityRows.of(Matrix.identity(3));
        IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> rows.weighted(new double[] {1, 0, 1}));
        assertEquals("density rows: weight 0.0 of row 2; weights must be > 0 and finite", e.getMessage());
        e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> rows.weighted(new double[] {1, 1}));
        assertEquals("density rows: 2 weights for 3 rows", e.getMessage());
        assertEquals(3.5, rows.weighted(new double[] {1, 2, 0.5}).weightSum(), 0.0);
        assertEquals(3.0, rows.weightSum(), 0.0);
    }
}
