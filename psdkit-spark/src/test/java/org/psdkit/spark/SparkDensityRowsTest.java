package org.psdkit.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.spark.api.java.JavaRDD;
import org.junit.jupiter.api.Test;
import org.psdkit.density.BaseMeasure;
import org.psdkit.density.DensityRows;
import org.psdkit.density.LocalDensityRows;
import org.psdkit.density.PsdDensity;
import org.psdkit.density.PsdDensityEstimator;
import org.psdkit.density.PsdDensityOptions;
import org.psdkit.kernel.GaussianKernel;
import org.psdkit.kernel.Kernel;
import org.psdkit.linalg.Matrix;

/**
 * SparkDensityRows against the single-machine {@link LocalDensityRows} on the same double-precision Nyström
 * features: every sum of the protocol, and the whole primal density fit with the same anchors.
 */
class SparkDensityRowsTest {

    /** Only the summation order differs (partitions and tree vs blocks on threads). */
    private static final double REL_TOL = 1e-8;

    /** Solver iterations of the fit comparison: enough to move far from the start, few Spark jobs. */
    private static final int FIXED_ITERATIONS = 12;

    static double[][] gaussianRows(int n, int d, long seed) {
        Random r = new Random(seed);
        double[][] x = new double[n][d];
        for (double[] row : x) {
            for (int j = 0; j < d; j++) {
                row[j] = r.nextGaussian();
            }
        }
        return x;
    }

    static Matrix random(int rows, int cols, long seed) {
        Random r = new Random(seed);
        double[][] a = new double[rows][cols];
        for (double[] row : a) {
            for (int j = 0; j < cols; j++) {
                row[j] = r.nextGaussian();
            }
        }
        return Matrix.of(a);
    }

    /**
     * The single-machine rows of the same features V = Tᵀ k(anchors, X), as the local fit builds them (kept in
     * single precision, which the Spark rows round to as well).
     */
    static DensityRows local(Kernel k, Matrix anchors, Matrix t, Matrix x) {
        return LocalDensityRows.nystrom(k, anchors, t, x);
    }

    @Test
    void everySumOfTheProtocolEqualsTheLocalOne() {
        double[][] rows = gaussianRows(700, 2, 3);
        Matrix x = Matrix.of(rows);
        Kernel k = new GaussianKernel(0.7);
        Matrix anchors = Matrix.of(java.util.Arrays.copyOfRange(rows, 0, 25));
        Matrix t = random(25, 12, 4);
        JavaRDD<double[]> rdd = SharedSpark.context().parallelize(List.of(rows), 3);
        try (SparkDensityRows sp = SparkDensityRows.nystrom(rdd, k, anchors, t)) {
            DensityRows lo = local(k, anchors, t, x);
            assertEquals(700, sp.rows());
            assertEquals(12, sp.rank());
            Matrix s = random(12, 3, 5);
            Matrix d = random(12, 3, 6).scale(0.1);
            DensityRows.Sums a = sp.at(s);
            DensityRows.Sums b = lo.at(s);
            assertEquals(b.sumLog(), a.sumLog(), REL_TOL * Math.abs(b.sumLog()));
            assertEquals(b.minF(), a.minF(), REL_TOL * b.minF());
            assertTrue(Diffs.maxRelDiff(a.gradient().data(), b.gradient().data()) < REL_TOL);
            assertTrue(Diffs.maxRelDiff(sp.weightedGram().data(), lo.weightedGram().data()) < REL_TOL);
            sp.direction(d);
            lo.direction(d);
            double[] steps = {0.0, 0.3, 1.0};
            DensityRows.Line la = sp.line(steps);
            DensityRows.Line lb = lo.line(steps);
            assertTrue(Diffs.maxRelDiff(la.sumLog(), lb.sumLog()) < REL_TOL);
            assertTrue(Diffs.maxRelDiff(la.slope(), lb.slope()) < REL_TOL);
            assertTrue(Diffs.maxRelDiff(la.minF(), lb.minF()) < REL_TOL);
            DensityRows.Sums sa = sp.step(0.3);
            DensityRows.Sums sb = lo.step(0.3);
            assertEquals(sb.sumLog(), sa.sumLog(), REL_TOL * Math.abs(sb.sumLog()));
            assertTrue(Diffs.maxRelDiff(sa.gradient().data(), sb.gradient().data()) < REL_TOL);
        }
    }

    /**
     * The same number of solver iterations on both sides (a tolerance no run reaches, a fixed cap): the iterates
     * then differ only by the rounding of the sums. A converged comparison could not check 1e-8: two runs stopped
     * at a relative gap ε agree in the objective to ε but in A (hence the density) only to about √(ε/λ₂).
     */
    @Test
    void sparkDensityFitEqualsTheSingleMachineFitWithTheSameAnchors() {
        double[][] rows = gaussianRows(600, 2, 7);
        Matrix x = Matrix.of(rows);
        Kernel k = new GaussianKernel(0.5);
        Matrix anchors = Matrix.of(java.util.Arrays.copyOfRange(rows, 0, 30));
        BaseMeasure base = new BaseMeasure.Lebesgue();
        PsdDensityOptions o = PsdDensityOptions.of(1e-2, 0.1).withTolerance(1e-15).withMaxIterations(FIXED_ITERATIONS);
        JavaRDD<double[]> rdd = SharedSpark.context().parallelize(List.of(rows), 4);
        List<SparkDensityRows> opened = new ArrayList<>();
        PsdDensity sp;
        try {
            sp = PsdDensityEstimator.fitRows(anchors, t -> {
                SparkDensityRows r = SparkDensityRows.nystrom(rdd, k, anchors, t);
                opened.add(r);
                return r;
            }, org.psdkit.density.PsdDensityTrainer.Options.of(k, base, o), null);
        } finally {
            opened.forEach(SparkDensityRows::close);
        }
        PsdDensity lo = PsdDensityEstimator.fitRows(anchors, t -> local(k, anchors, t, x),
                org.psdkit.density.PsdDensityTrainer.Options.of(k, base, o), null);
        assertEquals(lo.diagnostics().iterations(), sp.diagnostics().iterations());
        Matrix test = Matrix.of(gaussianRows(40, 2, 8));
        double dv = Diffs.maxRelDiff(sp.density(test), lo.density(test));
        assertTrue(dv < REL_TOL, "densities differ by " + dv);
        assertEquals(lo.diagnostics().objective(), sp.diagnostics().objective(),
                REL_TOL * Math.abs(lo.diagnostics().objective()));
    }
}
