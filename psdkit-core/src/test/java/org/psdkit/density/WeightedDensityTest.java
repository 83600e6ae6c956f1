package org.psdkit.density;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;
import org.psdkit.data.Dataset;
import org.psdkit.kernel.GaussianKernel;
import org.psdkit.kernel.Kernel;
import org.psdkit.linalg.Matrix;

/** The weighted log-likelihood of the PSD density: integer weights are duplicated rows. */
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
}
