package org.psdkit.linalg.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import org.psdkit.linalg.Linalg;
import org.psdkit.linalg.Matrix;

/** {@link OnThread}'s plain-Java products agree with the native ones of {@link Linalg}. */
class OnThreadTest {

    @Test
    void javaTriangularSolvesAndProductsMatchBlas() {
        java.util.Random r = new java.util.Random(3);
        int m = 37;
        Matrix a = Matrix.zeros(m, m);
        for (int j = 0; j < m; j++) {
            for (int i = 0; i < m; i++) {
                a.set(i, j, r.nextGaussian());
            }
        }
        Matrix spd = Linalg.syrk(a, true);
        spd.addToDiagonal(m);
        Matrix l = Linalg.cholesky(spd).lower();
        double[] v = new double[m];
        for (int i = 0; i < m; i++) {
            v[i] = r.nextGaussian();
        }
        for (boolean t : new boolean[] {false, true}) {
            assertArrayEquals(Linalg.solveLower(l, t, v), OnThread.solveLower(l, t, v), 1e-12);
            assertArrayEquals(Linalg.gemv(a, t, v), OnThread.gemv(a, t, v), 1e-12);
        }
    }

    @Test
    void rowRangeCopiesContiguousRows() {
        Matrix x = Matrix.of(new double[][] {{1, 2}, {3, 4}, {5, 6}});
        Matrix r = x.rowRange(1, 3);
        assertEquals(2, r.rows());
        assertArrayEquals(new double[] {3, 5, 4, 6}, r.data());
    }
}
