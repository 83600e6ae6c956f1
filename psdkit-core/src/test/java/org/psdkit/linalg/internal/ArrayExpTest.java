package org.psdkit.linalg.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;

class ArrayExpTest {

    /** Largest distance in ulps of {@code Math.exp} over uniform samples of [lo, hi]. */
    private static double maxUlps(double lo, double hi, int count, long seed) {
        Random rnd = new Random(seed);
        double[] z = new double[count];
        for (int i = 0; i < count; i++) {
            z[i] = lo + (hi - lo) * rnd.nextDouble();
        }
        double[] e = z.clone();
        ArrayExp.expInPlace(e, 0, count);
        double worst = 0;
        for (int i = 0; i < count; i++) {
            double m = Math.exp(z[i]);
            worst = Math.max(worst, Math.abs(e[i] - m) / Math.ulp(m));
        }
        return worst;
    }

    /**
     * Within one ulp of {@link Math#exp} wherever the result is a normal double, including the ranges kernels use
     * (Gaussian exponents in [−40, 0], the tails down to the subnormals, the exponential kernel's positive
     * arguments).
     */
    @Test
    void withinOneUlpOfMathExp() {
        assertTrue(maxUlps(-1, 1, 200_000, 1) <= 1.0);
        assertTrue(maxUlps(-40, 0, 200_000, 2) <= 1.0);
        assertTrue(maxUlps(-708, -40, 200_000, 3) <= 1.0);
        assertTrue(maxUlps(0, 709.7, 200_000, 4) <= 1.0);
        assertTrue(maxUlps(-1e-8, 1e-8, 10_000, 5) <= 1.0);
    }

    /** Subnormal results are rounded once, as Math.exp rounds them: within one ulp of the smallest subnormal. */
    @Test
    void subnormalResultsRoundOnce() {
        double worst = maxUlps(-745.1, -708.4, 100_000, 6);
        assertTrue(worst <= 1.0, "max ulps " + worst);
    }

    @Test
    void specialValues() {
        double[] z = {0.0, -0.0, -745.2, -746, -800, -1e300, Double.NEGATIVE_INFINITY, 709.78, 709.79, 710, 1e10,
            Double.POSITIVE_INFINITY, Double.NaN, 1e-300, -1e-300};
        for (double v : z) {
            double e = ArrayExp.exp(v);
            double m = Math.exp(v);
            assertTrue(Double.compare(e, m) == 0 || Math.abs(e - m) <= Math.ulp(m), v + ": " + e + " vs " + m);
        }
        assertEquals(1.0, ArrayExp.exp(0.0), 0.0);
        assertEquals(0.0, ArrayExp.exp(Double.NEGATIVE_INFINITY), 0.0);
        assertEquals(Double.POSITIVE_INFINITY, ArrayExp.exp(Double.POSITIVE_INFINITY), 0.0);
        assertTrue(Double.isNaN(ArrayExp.exp(Double.NaN)));
    }

    /** A value does not depend on its position: chunk boundaries and offsets give the same bits as one call each. */
    @Test
    void sameBitsAtEveryPositionAndChunk() {
        Random rnd = new Random(7);
        int n = 3 * ArrayExp.CHUNK + 37;
        double[] z = new double[n];
        for (int i = 0; i < n; i++) {
            z[i] = -50 * rnd.nextDouble();
        }
        double[] a = z.clone();
        ArrayExp.expInPlace(a, 5, n - 3);
        for (int i = 0; i < n; i++) {
            double want = i < 5 || i >= n - 3 ? z[i] : ArrayExp.exp(z[i]);
            assertEquals(Double.doubleToRawLongBits(want), Double.doubleToRawLongBits(a[i]), "entry " + i);
        }
        double[] s = z.clone();
        ArrayExp.expScaledInPlace(s, 0, n, 0.5);
        for (int i = 0; i < n; i++) {
            assertEquals(ArrayExp.exp(0.5 * z[i]), s[i], 0.0);
        }
    }

    @Test
    void rejectsABadRange() {
        double[] a = new double[4];
        assertThrows(IndexOutOfBoundsException.class, () -> ArrayExp.expInPlace(a, 2, 5));
        assertThrows(IndexOutOfBoundsException.class, () -> ArrayExp.expInPlace(a, 3, 2));
    }
}
