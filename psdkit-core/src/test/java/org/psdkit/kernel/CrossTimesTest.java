package org.psdkit.kernel;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;
import org.psdkit.linalg.Linalg;
import org.psdkit.linalg.Matrix;
import org.psdkit.linalg.Threads;

/**
 * {@link Kernel#crossTimes}: K(X, Z) c. The radial kernels' tiled pass computes the same kernel values as
 * {@link Kernel#cross} and sums them in another order than BLAS dgemv, so the two agree to the rounding of a sum of
 * m terms: the tolerance pinned here is 1e-12 of Σ_j |k(x_i, z_j) c_j| per entry, and 1e-12 of the largest result
 * (KRR coefficients with λ = 0.01 cancel heavily, so the sum of magnitudes is far above the results). Every other
 * kernel forms the matrix and calls dgemv, so its result is gemv(cross) bit for bit.
 */
class CrossTimesTest {

    static Matrix gaussianPoints(int n, int d, long seed, double shift) {
        Random r = new Random(seed);
        Matrix x = Matrix.zeros(n, d);
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < d; j++) {
                x.set(i, j, r.nextGaussian() + shift);
            }
        }
        return x;
    }

    static double[] coefficients(int m, long seed) {
        Random r = new Random(seed);
        double[] c = new double[m];
        for (int j = 0; j < m; j++) {
            c[j] = 3e5 * r.nextGaussian(); // the size of krr-5000's coefficients (California, λ = 0.01)
        }
        return c;
    }

    /** Asserts the tolerance above and returns the largest |new − old| / max |old|. */
    static double assertWithinSumRounding(Kernel k, Matrix x, Matrix z, double[] c) {
        double[] fused = k.crossTimes(x, z, c);
        Matrix kxz = k.cross(x, z);
        double[] dgemv = Linalg.gemv(kxz, false, c);
        assertEquals(dgemv.length, fused.length);
        double maxOld = 0;
        double maxDiff = 0;
        for (int i = 0; i < x.rows(); i++) {
            double mag = 0;
            for (int j = 0; j < z.rows(); j++) {
                mag += Math.abs(kxz.get(i, j) * c[j]);
            }
            double diff = Math.abs(fused[i] - dgemv[i]);
            assertTrue(diff <= 1e-12 * mag, k + " row " + i + ": " + fused[i] + " against dgemv's " + dgemv[i]
                    + " (sum of magnitudes " + mag + ")");
            maxOld = Math.max(maxOld, Math.abs(dgemv[i]));
            maxDiff = Math.max(maxDiff, diff);
        }
        double rel = maxDiff / maxOld;
        assertTrue(rel <= 1e-12, k + ": max difference " + rel + " of the largest result");
        return rel;
    }

    @Test
    void radialKernelsAgreeWithDgemvOfTheCrossMatrix() {
        Matrix x = gaussianPoints(838, 8, 1, 0.0);
        Matrix z = gaussianPoints(1000, 8, 2, 0.0);
        double[] c = coefficients(1000, 3);
        assertWithinSumRounding(new GaussianKernel(1.0), x, z, c);
        assertWithinSumRounding(new LaplacianKernel(2.0), x, z, c);
        // far from the origin (the centring and cancellation guard of cross), and a near-duplicate point
        Matrix xs = gaussianPoints(300, 3, 4, 1e3);
        Matrix zs = gaussianPoints(200, 3, 5, 1e3);
        for (int j = 0; j < 3; j++) {
            xs.set(7, j, zs.get(11, j) + 1e-9);
        }
        assertWithinSumRounding(new GaussianKernel(0.7), xs, zs, coefficients(200, 6));
        assertWithinSumRounding(new LaplacianKernel(0.9), xs, zs, coefficients(200, 6));
    }

    @Test
    void lastTileNarrowerThanTheOthersAndSingleRows() {
        // 130 = one full tile of 128 columns and one of 2; a single test row; a single point
        Kernel k = new GaussianKernel(1.3);
        assertWithinSumRounding(k, gaussianPoints(5, 4, 7, 0.0), gaussianPoints(130, 4, 8, 0.0), coefficients(130, 9));
        assertWithinSumRounding(k, gaussianPoints(1, 4, 10, 0.0), gaussianPoints(300, 4, 11, 0.0),
                coefficients(300, 12));
        double[] one = k.crossTimes(gaussianPoints(3, 4, 13, 0.0), gaussianPoints(1, 4, 14, 0.0), new double[] {2.0});
        Matrix x = gaussianPoints(3, 4, 13, 0.0);
        Matrix z = gaussianPoints(1, 4, 14, 0.0);
        for (int i = 0; i < 3; i++) {
            // one term: 2 k(x_i, z), k from the table-driven exponential, within an ulp of cross's Math.exp
            double kv = k.cross(x, z).get(i, 0);
            assertEquals(2.0 * kv, one[i], 2.0 * Math.ulp(kv));
        }
        assertEquals(0, k.crossTimes(Matrix.zeros(0, 4), z, new double[] {1.0}).length);
    }

    @Test
    void doesNotDependOnTheThreadCount() {
        Matrix x = gaussianPoints(600, 8, 21, 0.0);
        Matrix z = gaussianPoints(2000, 8, 22, 0.0);
        double[] c = coefficients(2000, 23);
        Kernel k = new GaussianKernel(1.0);
        int before = Threads.get();
        int old = ParallelColumns.swapOverride(0);
        try {
            Threads.set(1);
            double[] one = k.crossTimes(x, z, c);
            Threads.set(Math.max(2, Threads.available()));
            double[] two = k.crossTimes(x, z, c);
            assertArrayEquals(one, two, 0.0);
            ParallelColumns.swapOverride(1); // kernel passes on one thread, OpenBLAS at the library setting
            assertArrayEquals(one, k.crossTimes(x, z, c), 0.0);
        } finally {
            Threads.set(before);
            ParallelColumns.swapOverride(old);
        }
    }

    @Test
    void otherKernelsMultiplyTheCrossMatrixByDgemv() {
        Matrix x = gaussianPoints(50, 3, 31, 10.0); // positive, as the min kernel requires
        Matrix z = gaussianPoints(70, 3, 32, 10.0);
        double[] c = coefficients(70, 33);
        for (Kernel k : new Kernel[] {LinearKernel.INSTANCE, new PolynomialKernel(3, 1.0), MinKernel.INSTANCE}) {
            assertArrayEquals(Linalg.gemv(k.cross(x, z), false, c), k.crossTimes(x, z, c), 0.0, k.toString());
        }
    }

    @Test
    void aVectorOfTheWrongLengthOrPointsOfAnotherDimensionAreBadInput() {
        Matrix x = gaussianPoints(5, 3, 41, 0.0);
        Matrix z = gaussianPoints(6, 3, 42, 0.0);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new GaussianKernel(1.0).crossTimes(x, z, new double[5]));
        assertTrue(e.getMessage().contains("length 5 for 6 points"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> LinearKernel.INSTANCE.crossTimes(x, z, new double[7]));
        assertTrue(e.getMessage().contains("length 7 for 6 points"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> new GaussianKernel(1.0).crossTimes(x, gaussianPoints(6, 2, 43, 0.0), new double[6]));
        assertTrue(e.getMessage().contains("dimension 3 and 2"), e.getMessage());
    }
}
