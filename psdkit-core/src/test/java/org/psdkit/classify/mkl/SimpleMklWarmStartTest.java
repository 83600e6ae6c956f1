package org.psdkit.classify.mkl;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.psdkit.kernel.TessellatedKernel.Orthant;
import org.psdkit.linalg.Matrix;
import org.psdkit.optim.smo.KernelRows;
import org.psdkit.optim.smo.Smo;

class SimpleMklWarmStartTest {

    /** SMO tolerance tight enough that J is accurate to well below the gap tolerance. */
    static final double TIGHT = 1e-9;
    /** Relative duality gap of these fits. */
    static final double GAP = 1e-4;

    static double[] labels(Matrix x) {
        double[] y = new double[x.rows()];
        for (int i = 0; i < y.length; i++) {
            y[i] = Math.sin(5 * x.get(i, 0)) + x.get(i, 1) - 0.4 > 0 ? 1 : -1;
        }
        return y;
    }

    @Test
    void warmStartFromAnotherCReachesTheColdStartOptimum() {
        Matrix x = LibraryGramsTest.points(40, 2, 21);
        double[] y = labels(x);
        LibraryGrams.Subset lib = KernelLearning.libraryGrams(KernelLearning.Method.COMBINED, x, 0.5,
                new KernelLearning.Settings(1, Orthant.LOWER, 20, 3)).full();
        double c1 = 0.1 * x.rows();
        double c2 = 10 * x.rows();
        SimpleMkl.Options o1 = new SimpleMkl.Options(c1, GAP, 200, TIGHT);
        SimpleMkl.Options o2 = new SimpleMkl.Options(c2, GAP, 200, TIGHT);
        SimpleMkl.Result first = SimpleMkl.fit(lib, y, o1);
        SimpleMkl.Result cold = SimpleMkl.fit(lib, y, o2);
        double[] alpha0 = first.svm().alpha().clone();
        for (int i = 0; i < alpha0.length; i++) {
            alpha0[i] *= c2 / c1;
        }
        double[][] gramOut = new double[1][];
        double[] gram1 = new double[x.rows() * x.rows()];
        lib.addCombination(first.mu(), gram1);
        SimpleMkl.Result warm = SimpleMkl.fit(lib, y, o2, first.mu(), alpha0, gram1, gramOut);
        assertTrue(cold.converged() && warm.converged());
        // both stop at a relative duality gap of GAP: their values J agree to that order
        assertEquals(cold.objective(), warm.objective(), 2 * GAP * cold.objective());
        // the handed-back Gram matrix is Σ μ_k K_k of the final weights
        double[] ref = new double[gram1.length];
        lib.addCombination(warm.mu(), ref);
        assertArrayEquals(ref, gramOut[0], 1e-9 * Matrix.wrap(x.rows(), x.rows(), ref).maxAbs());
        // and the SVM returned is the SVM on that kernel
        double j = Smo.solve(KernelRows.dense(Matrix.wrap(x.rows(), x.rows(), ref)), y, c2, TIGHT, null).dual();
        assertEquals(j, warm.objective(), 1e-6 * j);
    }

    @Test
    void rowsAlongADirectionAreThoseOfTheSum() {
        Matrix x = LibraryGramsTest.points(9, 2, 4);
        Matrix k = new org.psdkit.kernel.GaussianKernel(0.5).gram(x);
        Matrix d = new org.psdkit.kernel.GaussianKernel(2).gram(x);
        KernelRows r = SimpleMkl.along(k, d, 0.3);
        for (int i = 0; i < 9; i++) {
            for (int j = 0; j < 9; j++) {
                assertEquals(k.get(i, j) + 0.3 * d.get(i, j), r.row(i)[j], 1e-15);
            }
            assertEquals(k.get(i, i) + 0.3 * d.get(i, i), r.diag(i), 1e-15);
        }
    }

    @Test
    void crossValidateAndFitAgreesWithCrossValidateThenFit() {
        Matrix x = LibraryGramsTest.points(40, 2, 8);
        double[] y = labels(x);
        KernelLearning.Settings st = new KernelLearning.Settings(1, Orthant.LOWER, 10, 2);
        double[] cg = {0.1, 10};
        double[] eg = {0.1, 1};
        KernelLearning.CvFit both = KernelLearning.crossValidateAndFit(KernelLearning.Method.SIMPLEMKL_TK, x, y, cg,
                true, eg, 4, 5, st, 1e-2);
        KernelLearning.Choice ch = KernelLearning.crossValidate(KernelLearning.Method.SIMPLEMKL_TK, x, y, cg, eg, 4,
                5, st, 1e-2);
        assertEquals(ch.cRel(), both.choice().cRel());
        assertEquals(ch.epsilon(), both.choice().epsilon());
        assertEquals(4, ch.grid().size());
        KernelLearning.Fitted f = KernelLearning.fit(KernelLearning.Method.SIMPLEMKL_TK, x, y, ch.cRel(),
                ch.epsilon(), st, 1e-2);
        assertEquals(f.svm().dual(), both.fitted().svm().dual(), 1e-9 * Math.abs(f.svm().dual()));
        // the grid's accuracies are those of the folds (sanity: a fraction in [0, 1])
        for (double[] row : ch.grid()) {
            assertTrue(row[2] >= 0 && row[2] <= 1);
        }
    }

    @Test
    void smallCEndsAtTheBestSingleKernelWithFiniteWeights() {
        // with C this small every α sits at the bound, J(μ) is linear in μ and the optimum is the best vertex;
        // the descent drops the other kernels one by one down to rounding-level directions
        Matrix x = LibraryGramsTest.points(50, 3, 12);
        double[] y = labels(x);
        LibraryGrams.Subset lib = KernelLearning.libraryGrams(KernelLearning.Method.SIMPLEMKL, x, 0,
                new KernelLearning.Settings(1, Orthant.LOWER, 1, 1)).subset(java.util.stream.IntStream.range(0, 45)
                .toArray());
        double[] yt = java.util.Arrays.copyOf(y, 45);
        double c = 0.01 * 45;
        SimpleMkl.Result r = SimpleMkl.fit(lib, yt, new SimpleMkl.Options(c, 1e-3, 200, TIGHT));
        double best = Double.POSITIVE_INFINITY;
        for (int k = 0; k < lib.size(); k++) {
            double[] w = new double[lib.size()];
            w[k] = 1;
            double[] g = new double[45 * 45];
            lib.addCombination(w, g);
            best = Math.min(best, Smo.solve(KernelRows.dense(Matrix.wrap(45, 45, g)), yt, c, TIGHT, null).dual());
        }
        double sum = 0;
        for (double v : r.mu()) {
            assertTrue(Double.isFinite(v) && v >= 0);
            sum += v;
        }
        assertEquals(1.0, sum, 1e-12);
        assertTrue(r.converged());
        assertEquals(best, r.objective(), 1e-3 * best);
    }
}
