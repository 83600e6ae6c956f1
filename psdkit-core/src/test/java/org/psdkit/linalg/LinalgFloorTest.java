package org.psdkit.linalg;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.psdkit.linalg.internal.ProductBlocks;

/** Definition tests for the pivoted Cholesky and the reusable eigen workspace. */
class LinalgFloorTest {

    static Matrix gaussianMatrix(int rows, int cols, long seed) {
        Random r = new Random(seed);
        Matrix g = Matrix.zeros(rows, cols);
        for (int k = 0; k < rows * cols; k++) {
            g.data()[k] = r.nextGaussian();
        }
        return g;
    }

    @Test
    void pivotedCholeskyFindsTheRankOfALowRankPsdMatrix() {
        Matrix g = gaussianMatrix(12, 3, 1);
        Matrix a = Linalg.syrk(g, false); // 12x12, rank 3
        PivotedCholesky pc = Linalg.pivotedCholesky(a);
        assertEquals(3, pc.rank());
        Matrix f = pc.factor();
        assertEquals(12, f.rows());
        assertEquals(3, f.cols());
        assertTrue(Linalg.syrk(f, false).minus(a).maxAbs() < 1e-10 * a.maxAbs(), "A = G Gᵀ");
        // Definition: (Pᵀ A P)_{ij} = A[perm i, perm j] = (L Lᵀ)_{ij}
        Matrix llt = Linalg.syrk(pc.lower(), false);
        for (int i = 0; i < 12; i++) {
            for (int j = 0; j < 12; j++) {
                assertEquals(a.get(pc.perm()[i], pc.perm()[j]), llt.get(i, j), 1e-10 * a.maxAbs());
            }
        }
        int[] sorted = pc.perm().clone();
        Arrays.sort(sorted);
        for (int i = 0; i < 12; i++) {
            assertEquals(i, sorted[i], "perm is a permutation");
        }
        // pivoting puts the largest remaining diagonal first
        double maxDiag = Arrays.stream(a.diagonal()).max().orElseThrow();
        assertEquals(maxDiag, a.get(pc.perm()[0], pc.perm()[0]), 0.0);
    }

    @Test
    void pivotedCholeskyOfAFullRankMatrixIsComplete() {
        Matrix a = Linalg.syrk(gaussianMatrix(8, 8, 2), true);
        a.addToDiagonal(1.0);
        PivotedCholesky pc = Linalg.pivotedCholesky(a);
        assertEquals(8, pc.rank());
        assertTrue(Linalg.syrk(pc.factor(), false).minus(a).maxAbs() < 1e-12 * a.maxAbs());
    }

    @Test
    void pivotedCholeskyRespectsAnExplicitTolerance() {
        // eigen-spectrum 1, 1e-3, 1e-9 (times an orthogonal basis): tolerance 1e-6 keeps two directions
        Matrix q = Linalg.eigh(LinalgTest.randomSymmetric(3, 3)).vectors();
        Matrix a = Linalg.gemm(1, q.times(Matrix.diag(new double[] {1, 1e-3, 1e-9})), false, q, true);
        a.symmetrizeInPlace();
        assertEquals(2, Linalg.pivotedCholesky(a, 1e-6).rank());
        assertEquals(3, Linalg.pivotedCholesky(a, 1e-14).rank());
    }

    @Test
    void pivotedCholeskyRejectsANegativeDiagonal() {
        assertThrows(LinalgException.class, () -> Linalg.pivotedCholesky(Matrix.diag(new double[] {-1, -2})));
    }

    @Test
    void eighWorkspaceSatisfiesTheDefinitionAndMatchesEigh() {
        try (EighWorkspace ws = new EighWorkspace(30)) {
            for (long seed = 1; seed <= 3; seed++) {
                Matrix a = LinalgTest.randomSymmetric(30, seed);
                Matrix before = a.copy();
                Eigen e = ws.decompose(a);
                assertArrayEquals(before.data(), a.data(), 0.0, "input untouched");
                Matrix av = a.times(e.vectors());
                Matrix vl = e.vectors().times(Matrix.diag(e.values()));
                assertTrue(av.minus(vl).maxAbs() < 1e-10, "A V = V Λ");
                Matrix vtv = Linalg.gemm(1, e.vectors(), true, e.vectors(), false);
                assertTrue(vtv.minus(Matrix.identity(30)).maxAbs() < 1e-12, "VᵀV = I");
                assertArrayEquals(Linalg.eigvalsh(a), e.values(), 1e-10);
            }
            assertThrows(IllegalArgumentException.class, () -> ws.decompose(Matrix.identity(4)));
        }
    }

    @Test
    void productBlocksMatchTheFullProduct() {
        Matrix x = gaussianMatrix(37, 4, 5);
        Matrix z = gaussianMatrix(29, 4, 6);
        Matrix full = Linalg.gemm(1.0, x, false, z, true);
        try (ProductBlocks pb = new ProductBlocks(x, z)) {
            int i0 = 5;
            int j0 = 3;
            int j1 = 20;
            int rows = 37 - i0;
            double[] dst = new double[rows * (j1 - j0)];
            pb.compute(i0, j0, j1, dst);
            for (int j = j0; j < j1; j++) {
                for (int i = i0; i < 37; i++) {
                    assertEquals(full.get(i, j), dst[(i - i0) + (j - j0) * rows], 1e-13);
                }
            }
            assertThrows(IllegalArgumentException.class, () -> pb.compute(0, 0, 30, new double[37 * 30]));
        }
        Matrix g = Linalg.gemm(1.0, x, false, x, true);
        try (ProductBlocks pb = new ProductBlocks(x, x)) {
            double[] dst = new double[37 * 10];
            pb.compute(0, 27, 37, dst);
            for (int j = 27; j < 37; j++) {
                for (int i = 0; i < 37; i++) {
                    assertEquals(g.get(i, j), dst[i + (j - 27) * 37], 1e-13);
                }
            }
        }
    }
}
