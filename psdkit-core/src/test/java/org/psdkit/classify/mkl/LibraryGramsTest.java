package org.psdkit.classify.mkl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;
import org.psdkit.data.Splits;
import org.psdkit.kernel.Kernel;
import org.psdkit.kernel.TessellatedKernel.Orthant;
import org.psdkit.kernel.TkGram;
import org.psdkit.linalg.Matrix;

class LibraryGramsTest {

    /** Single-precision storage: entries agree to a few float ulps of the matrix scale. */
    static final double FLOAT_TOL = 1e-5;

    static Matrix points(int m, int n, long seed) {
        Random rnd = new Random(seed);
        Matrix x = Matrix.zeros(m, n);
        for (int i = 0; i < m * n; i++) {
            x.data()[i] = rnd.nextDouble();
        }
        return x;
    }

    static Matrix randomSymmetric(int dim, Random rnd) {
        Matrix p = Matrix.zeros(dim, dim);
        for (int i = 0; i < dim; i++) {
            for (int j = 0; j <= i; j++) {
                double v = rnd.nextGaussian();
                p.set(i, j, v);
                p.set(j, i, v);
            }
        }
        return p;
    }

    static double maxAbs(float[] a) {
        double s = 0;
        for (float v : a) {
            s = Math.max(s, Math.abs(v));
        }
        return s;
    }

    @Test
    void batchedTkGramsEqualTheKernelClassForBothOrthantsAndDegrees() {
        for (int degree = 0; degree <= 1; degree++) {
            for (Orthant o : Orthant.values()) {
                Matrix x = points(11, 3, 7 + degree);
                // one point outside [a, b] exercises the clipping of the boxes
                x.set(4, 1, 1.6);
                TkGram eng = new TkGram(x, degree, -0.3, 1.3, o);
                Random rnd = new Random(3);
                Matrix[] ps = {randomSymmetric(2 * eng.q(), rnd), randomSymmetric(2 * eng.q(), rnd),
                    randomSymmetric(2 * eng.q(), rnd)};
                double[][] diag = new double[ps.length][x.rows()];
                float[][] g = eng.grams(ps, diag);
                for (int k = 0; k < ps.length; k++) {
                    Matrix ref = eng.kernel(ps[k]).gram(x);
                    double scale = ref.maxAbs();
                    for (int i = 0; i < x.rows(); i++) {
                        for (int j = 0; j < x.rows(); j++) {
                            assertEquals(ref.get(i, j), g[k][i + j * x.rows()], FLOAT_TOL * scale,
                                    "degree " + degree + " " + o + " P" + k + " (" + i + "," + j + ")");
                        }
                        assertEquals(ref.get(i, i), diag[k][i], 1e-12 * scale);
                    }
                }
            }
        }
    }

    @Test
    void foldSubsetEqualsAFreshlyBuiltFoldLibrary() {
        foldSubsetEqualsFresh(new KernelLearning.Settings(1, Orthant.LOWER, 12, 5));
    }

    @Test
    void factoredDegreeZeroLibraryEqualsAFreshlyBuiltFoldLibrary() {
        // d = 0: P is 2×2, so 12 random kernels span 3 dimensions and only a basis is stored
        KernelLearning.Settings st = new KernelLearning.Settings(0, Orthant.LOWER, 12, 5);
        LibraryGrams lg = KernelLearning.libraryGrams(KernelLearning.Method.SIMPLEMKL_TK, points(30, 2, 11), 0.5, st);
        assertEquals(12, lg.size());
        assertEquals(3, lg.stored());
        foldSubsetEqualsFresh(st);
    }

    void foldSubsetEqualsFresh(KernelLearning.Settings st) {
        Matrix x = points(30, 2, 11);
        Splits.TrainTest part = Splits.kFold(x.rows(), 5, 9)[2];
        int[][] tv = {part.train(), part.test()};
        Matrix xt = x.selectRows(tv[0]);
        for (KernelLearning.Method method : new KernelLearning.Method[] {KernelLearning.Method.SIMPLEMKL,
            KernelLearning.Method.SIMPLEMKL_TK, KernelLearning.Method.COMBINED}) {
            LibraryGrams.Subset sub = KernelLearning.libraryGrams(method, x, 0.5, st).subset(tv[0]);
            KernelLibrary fresh = KernelLearning.library(method, xt, 0.5, st);
            assertEquals(fresh.size(), sub.size());
            int mt = xt.rows();
            Random rnd = new Random(1);
            double[] w = new double[fresh.size()];
            double[] beta = new double[mt];
            for (int k = 0; k < w.length; k++) {
                w[k] = rnd.nextDouble();
            }
            for (int i = 0; i < mt; i++) {
                beta[i] = i % 3 == 0 ? 0 : rnd.nextGaussian();
            }
            double[] a = new double[mt * mt];
            double[] b = new double[mt * mt];
            fresh.addCombination(w, a);
            sub.addCombination(w, b);
            double scale = 0;
            for (double v : a) {
                scale = Math.max(scale, Math.abs(v));
            }
            for (int i = 0; i < a.length; i++) {
                assertEquals(a[i], b[i], FLOAT_TOL * scale, method + " entry " + i);
            }
            double[] qa = fresh.quadForms(beta);
            double[] qb = sub.quadForms(beta);
            for (int k = 0; k < qa.length; k++) {
                assertEquals(qa[k], qb[k], FLOAT_TOL * (Math.abs(qa[k]) + 1e-3), method + " quad form " + k);
            }
            // held-out decision values through the stored cross blocks = the combined kernel function
            double[] coef = new double[mt];
            for (int i = 0; i < mt; i++) {
                coef[i] = rnd.nextGaussian();
            }
            double[] viaGrams = sub.decision(w, coef, 0.25, tv[1]);
            Kernel kf = fresh.combined(w);
            Matrix cross = kf.cross(x.selectRows(tv[1]), xt);
            double[] ref = cross.times(coef);
            for (int v = 0; v < ref.length; v++) {
                assertEquals(ref[v] + 0.25, viaGrams[v], FLOAT_TOL * (Math.abs(ref[v]) + 1), method + " decision");
            }
            // and the kernel function of the subset library is the fresh fold library's
            Matrix k1 = sub.combined(w).gram(xt);
            Matrix k2 = kf.gram(xt);
            assertEquals(0, k1.minus(k2).maxAbs(), 1e-9 * k2.maxAbs(), method + " kernel function");
        }
    }

    @Test
    void rowsOutsideThePartAreRejected() {
        Matrix x = points(6, 2, 1);
        LibraryGrams lg = KernelLearning.libraryGrams(KernelLearning.Method.SIMPLEMKL, x, 0, 
                new KernelLearning.Settings(1, Orthant.LOWER, 3, 1));
        assertThrows(IllegalArgumentException.class, () -> lg.subset(new int[] {0, 6}));
    }

    /**
     * The Gaussian/polynomial library cannot overflow on any input: its trainers scale the features to [0, 1] and
     * standardise them with the sample standard deviation, so every column has Σ_i z_ij² = m − 1 (or |z| ≤ 1 for a
     * constant one) and every member is at most (1 + n (m − 1))³ on the training points, the cube of the largest
     * polynomial kernel; reaching even single precision would take n (m − 1) > 7e12 values. The worst case, one
     * point away from all others in every feature, attains (1 + n (m − 1)²/m)³.
     */
    @Test
    void gaussPolyMembersAreBoundedByTheStandardisedDataSize() {
        int m = 40;
        int n = 7;
        Matrix x = Matrix.zeros(m, n);
        for (int j = 0; j < n; j++) {
            x.set(0, j, 1.0); // the outlier; every other row at 0
        }
        org.psdkit.kernel.LibraryKernel.Standardization std = org.psdkit.kernel.LibraryKernel.Standardization.of(x);
        double worst = 0;
        for (int d : GaussPolyLibrary.PAPER_DEGREES) {
            org.psdkit.kernel.LibraryKernel raw = new org.psdkit.kernel.LibraryKernel(0, d, -1, 1.0, std);
            for (int i = 0; i < m; i++) {
                worst = Math.max(worst, raw.eval(x.row(i), x.row(i)));
            }
        }
        assertEquals(Math.pow(1 + n * (m - 1.0) * (m - 1.0) / m, 3), worst, 1e-9 * worst);
        assertTrue(worst <= Math.pow(1 + n * (m - 1.0), 3));
        // and random [0, 1] data stay below the bound too, member by member (unit trace after normalisation)
        Matrix r = points(m, n, 3);
        GaussPolyLibrary lib = new GaussPolyLibrary(r, GaussPolyLibrary.PAPER_BANDWIDTHS,
                GaussPolyLibrary.PAPER_DEGREES, org.psdkit.kernel.LibraryKernel.Standardization.of(r));
        for (int k = 0; k < lib.size(); k++) {
            double tr = 0;
            for (double v : lib.diagonal(k)) {
                assertTrue(Double.isFinite(v) && v >= 0, lib.describe(k));
                tr += v;
            }
            assertEquals(1.0, tr, 1e-12, lib.describe(k));
        }
    }
}
