package org.psdkit.linalg;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class FeatureColumnsTest {

    private static Matrix random(int r, int n, long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        Matrix v = Matrix.zeros(r, n);
        for (int k = 0; k < v.data().length; k++) {
            v.data()[k] = rnd.nextGaussian();
        }
        return v;
    }

    private static double[] vector(int n, long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        double[] x = new double[n];
        for (int i = 0; i < n; i++) {
            x[i] = rnd.nextGaussian();
        }
        return x;
    }

    /** The single-precision columns of v, rounded as the class stores them. */
    private static Matrix rounded(Matrix v) {
        Matrix f = v.copy();
        for (int k = 0; k < f.data().length; k++) {
            f.data()[k] = (float) f.data()[k];
        }
        return f;
    }

    @Test
    void denseIsTheMatrixItselfAndItsProductsAreLinalgs() {
        Matrix v = random(7, 50, 1);
        FeatureColumns d = FeatureColumns.dense(v);
        assertFalse(d.isSingle());
        assertSame(v, d.denseOrNull());
        double[] x = vector(50, 2);
        double[] y = vector(7, 3);
        assertArrayEquals(Linalg.gemv(v, false, x), d.times(x));
        assertArrayEquals(Linalg.gemv(v, true, y), d.transposeTimes(y));
        assertArrayEquals(Linalg.gemm(1.0, v, false, v, true).data(), d.gram().data());
    }

    /**
     * Single precision over several blocks (a last partial block, more blocks than one group): every product equals
     * the double product of the rounded matrix to double rounding, and the double matrix's to the storage rounding.
     */
    @Test
    void singleProductsAreThoseOfTheRoundedMatrixSummedInDouble() {
        int r = 37;
        int w = FeatureColumns.width(r);
        int n = w * (FeatureColumns.GROUP_BLOCKS + 3) + 11;
        Matrix v = random(r, n, 4);
        FeatureColumns s = FeatureColumns.single(r, n, (from, to) -> v.transpose().rowRange(from, to).transpose());
        assertTrue(s.isSingle());
        assertEquals(r, s.rows());
        assertEquals(n, s.cols());
        Matrix f = rounded(v);
        double[] x = vector(n, 5);
        double[] y = vector(r, 6);
        double[] vx = s.times(x);
        double[] fx = Linalg.gemv(f, false, x);
        double[] dx = Linalg.gemv(v, false, x);
        double[] vty = s.transposeTimes(y);
        double[] fty = Linalg.gemv(f, true, y);
        for (int k = 0; k < r; k++) {
            assertEquals(fx[k], vx[k], 1e-12 * n, "V x, row " + k);
            assertEquals(dx[k], vx[k], 1e-6 * Math.sqrt(n), "V x against the double matrix, row " + k);
        }
        for (int i = 0; i < n; i++) {
            assertEquals(fty[i], vty[i], 1e-12 * r, "Vt y, column " + i);
        }
        Matrix g = s.gram();
        Matrix fg = Linalg.gemm(1.0, f, false, f, true);
        for (int k = 0; k < g.data().length; k++) {
            assertEquals(fg.data()[k], g.data()[k], 1e-10 * n, "V Vt entry " + k);
        }
        assertArrayEquals(f.transpose().rowRange(w - 2, w + 3).transpose().data(), s.columns(w - 2, w + 3).data());
        // the same sums in the same grouping, whatever the pool: a second call is bit for bit the first
        assertArrayEquals(vx, s.times(x));
    }

    @Test
    void keepDoubleFollowsTheHeapAndBytesTheStorage() {
        long max = Runtime.getRuntime().maxMemory();
        assertTrue(FeatureColumns.keepDouble(10, 10, 0));
        long cols = (long) (max / Double.BYTES / 10);
        assertFalse(FeatureColumns.keepDouble(10, cols, 0));
        assertEquals(10L * cols * Float.BYTES, FeatureColumns.bytes(10, cols, 0));
        assertEquals(800, FeatureColumns.bytes(10, 10, 0));
        MemoryBudget.InsufficientMemoryException e = assertThrows(MemoryBudget.InsufficientMemoryException.class,
                () -> FeatureColumns.check("the test's features", 10, 4 * cols, 0));
        assertTrue(e.getMessage().startsWith("the test's features needs ~"), e.getMessage());
        FeatureColumns.check("the test's features", 10, cols / 2, 0);
        assertThrows(IllegalStateException.class, () -> FeatureColumns.single(3, 5, (from, to) -> Matrix.zeros(2,
                to - from)));
    }
}
