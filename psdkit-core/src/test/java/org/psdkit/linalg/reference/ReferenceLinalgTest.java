package org.psdkit.linalg.reference;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;
import org.psdkit.linalg.Eigen;
import org.psdkit.linalg.Linalg;
import org.psdkit.linalg.LinalgException;
import org.psdkit.linalg.Matrix;

/** The plain-Java baselines checked against definitions (and, independently, against LAPACK). */
class ReferenceLinalgTest {

    static Matrix random(int r, int c, long seed) {
        Random rnd = new Random(seed);
        Matrix m = Matrix.zeros(r, c);
        for (int k = 0; k < r * c; k++) {
            m.data()[k] = rnd.nextGaussian();
        }
        return m;
    }

    @Test
    void gemmMatchesTheDefinition() {
        Matrix a = random(7, 5, 1);
        Matrix b = random(5, 4, 2);
        Matrix c = ReferenceLinalg.gemm(a, b);
        for (int i = 0; i < 7; i++) {
            for (int j = 0; j < 4; j++) {
                double s = 0;
                for (int k = 0; k < 5; k++) {
                    s += a.get(i, k) * b.get(k, j);
                }
                assertTrue(Math.abs(s - c.get(i, j)) < 1e-13);
            }
        }
    }

    @Test
    void choleskyReconstructs() {
        Matrix g = random(30, 30, 3);
        Matrix a = Linalg.syrk(g, true);
        a.addToDiagonal(1);
        Matrix l = ReferenceLinalg.cholesky(a);
        assertTrue(Linalg.gemm(1, l, false, l, true).minus(a).maxAbs() < 1e-11 * a.maxAbs());
        for (int j = 1; j < 30; j++) {
            assertTrue(l.get(0, j) == 0.0, "lower triangular");
        }
        assertThrows(LinalgException.class, () -> ReferenceLinalg.cholesky(Matrix.diag(new double[] {1, -1})));
    }

    @Test
    void eighSatisfiesTheDefinition() {
        for (int n : new int[] {1, 2, 3, 17, 60}) {
            Matrix a = random(n, n, 10 + n);
            a.symmetrizeInPlace();
            Eigen e = ReferenceLinalg.eigh(a);
            Matrix v = e.vectors();
            Matrix av = a.times(v);
            Matrix vl = v.times(Matrix.diag(e.values()));
            assertTrue(av.minus(vl).maxAbs() < 1e-10, "A V = V Λ, n=" + n);
            assertTrue(Linalg.gemm(1, v, true, v, false).minus(Matrix.identity(n)).maxAbs() < 1e-12, "VᵀV = I");
            assertArrayEquals(Linalg.eigvalsh(a), e.values(), 1e-10, "same spectrum as LAPACK, n=" + n);
        }
    }

    @Test
    void eighHandlesRepeatedEigenvaluesAndZeroColumns() {
        Matrix a = Matrix.diag(new double[] {2, 0, 2, 5});
        Eigen e = ReferenceLinalg.eigh(a);
        assertArrayEquals(new double[] {0, 2, 2, 5}, e.values(), 1e-14);
        Matrix g = random(10, 2, 9);
        Matrix low = Linalg.syrk(g, false); // rank 2: eight zero eigenvalues
        Eigen f = ReferenceLinalg.eigh(low);
        assertTrue(low.times(f.vectors()).minus(f.vectors().times(Matrix.diag(f.values()))).maxAbs() < 1e-10);
    }
}
