package org.psdkit.linalg;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class PartialEigenTest {

    /** A symmetric matrix with a few positive eigenvalues among many negative ones (the certificate's shape). */
    static Matrix fewPositive(int n, int p, long seed) {
        Matrix g = LinalgTest.randomSymmetric(n, seed);
        Eigen e = Linalg.eigh(g);
        double[] lam = new double[n];
        for (int k = 0; k < n; k++) {
            lam[k] = k >= n - p ? 1.0 + k - (n - p) : -0.01 - 0.1 * k / n;
        }
        Matrix v = e.vectors();
        Matrix vl = v.copy();
        for (int j = 0; j < n; j++) {
            for (int i = 0; i < n; i++) {
                vl.set(i, j, v.get(i, j) * lam[j]);
            }
        }
        Matrix a = Linalg.gemm(1.0, vl, false, v, true);
        a.symmetrizeInPlace();
        return a;
    }

    @Test
    void positivePartMatchesFullDecomposition() {
        for (int n : new int[] {1, 7, 60, 200}) {
            Matrix a = n < 7 ? LinalgTest.randomSymmetric(n, 3) : fewPositive(n, Math.max(1, n / 10), n);
            Eigen full = Linalg.eigh(a);
            Eigen part = PartialEigen.above(a, 0.0);
            int first = 0;
            while (first < n && !(full.values()[first] > 0)) {
                first++;
            }
            assertEquals(n - first, part.size(), "count of positive eigenvalues, n = " + n);
            assertEquals(n, part.vectors().rows());
            for (int k = 0; k < part.size(); k++) {
                assertEquals(full.values()[first + k], part.values()[k], 1e-12 * Math.max(1, full.max()));
            }
            Matrix pFull = full.positivePart();
            Matrix pPart = reconstruct(part);
            assertEquals(0, pFull.minus(pPart).maxAbs(), 1e-11 * Math.max(1, full.max()), "[A]_+, n = " + n);
        }
    }

    /** V Λ Vᵀ of a partial decomposition (n×k vectors). */
    static Matrix reconstruct(Eigen e) {
        Matrix v = e.vectors();
        Matrix vl = v.copy();
        for (int j = 0; j < v.cols(); j++) {
            for (int i = 0; i < v.rows(); i++) {
                vl.set(i, j, v.get(i, j) * e.values()[j]);
            }
        }
        return Linalg.gemm(1.0, vl, false, v, true);
    }

    @Test
    void topKMatchesFullDecomposition() {
        Matrix a = LinalgTest.randomSymmetric(50, 5);
        Eigen full = Linalg.eigh(a);
        Eigen top = PartialEigen.top(a, 6);
        assertEquals(6, top.size());
        for (int k = 0; k < 6; k++) {
            assertEquals(full.values()[44 + k], top.values()[k], 1e-12);
            double dot = 0;
            for (int i = 0; i < 50; i++) {
                dot += full.vectors().get(i, 44 + k) * top.vectors().get(i, k);
            }
            assertEquals(1.0, Math.abs(dot), 1e-9, "eigenvector " + k);
        }
        assertEquals(0, PartialEigen.top(a, 0).size());
        assertThrows(IllegalArgumentException.class, () -> PartialEigen.top(a, 51));
    }

    @Test
    void noneAboveGivesEmpty() {
        Matrix a = Matrix.identity(5).scale(-1);
        Eigen e = PartialEigen.above(a, 0.0);
        assertEquals(0, e.size());
        assertEquals(5, e.vectors().rows());
    }
}
