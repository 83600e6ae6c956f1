package org.psdkit.optim.smo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.psdkit.kernel.Kernel;
import org.psdkit.kernel.Kernels;
import org.psdkit.linalg.Matrix;

/**
 * Pins the solver's path bit for bit on a problem large enough for shrinking passes, the gradient reconstruction and
 * (with a small budget) single-precision rows: the number of pair updates, every α (through
 * {@link Arrays#hashCode(double[])}, which hashes the bits) and the bias bits. The loops of the working-set selection
 * and of the gradient update may be reorganised for speed only if they take the same steps with the same arithmetic
 * (Fan, Chen &amp; Lin 2005, WSS 2, the last index on ties); the pinned figures are those of the solver before the
 * selection's first index was taken from the gradient update's pass. A deliberate change of the path (another
 * working-set rule, another kernel evaluation) changes them and must be stated with the measured difference.
 */
class SmoPathTest {

    private static final int M = 1500;

    private static Matrix points(double[] y) {
        Random rnd = new Random(7);
        Matrix x = Matrix.zeros(M, 4);
        for (int i = 0; i < M; i++) {
            for (int j = 0; j < 4; j++) {
                x.set(i, j, rnd.nextGaussian());
            }
            double f = x.get(i, 0) * x.get(i, 1) + Math.sin(2 * x.get(i, 2)) - 0.5 * x.get(i, 3)
                    + 0.4 * rnd.nextGaussian();
            y[i] = f >= 0 ? 1 : -1;
        }
        return x;
    }

    private static void assertPath(Smo.Result r, int iterations, int alphaHash, long biasBits) {
        assertTrue(r.converged());
        assertEquals(iterations, r.iterations(), "pair updates");
        assertEquals(alphaHash, Arrays.hashCode(r.alpha()), "bits of alpha");
        assertEquals(biasBits, Double.doubleToLongBits(r.bias()), "bits of the bias " + r.bias());
    }

    @Test
    void cachedDoubleRowsTakeThePinnedPath() {
        double[] y = new double[M];
        Matrix x = points(y);
        Kernel k = Kernels.gaussian(1.0);
        Smo.Result r = Smo.solve(k, x, y, null, 10, Smo.Options.defaults(), 500L << 20, null, null);
        assertPath(r, 3902, -1387332214, 4596705793904631731L);
    }

    @Test
    void singlePrecisionRowsTakeThePinnedPath() {
        double[] y = new double[M];
        Matrix x = points(y);
        Kernel k = Kernels.gaussian(1.0);
        // 2 MB < 8 M² bytes: float rows, evictions and row extensions
        Smo.Result r = Smo.solve(k, x, y, null, 10, Smo.Options.defaults(), 2L << 20, null, null);
        assertPath(r, 3872, -914515372, 4596706692244451206L);
    }

    @Test
    void denseGramOfTheSameValuesTakesTheSamePath() {
        double[] y = new double[M];
        Matrix x = points(y);
        Kernel k = Kernels.gaussian(1.0);
        // the Gram matrix entry by entry (Kernel.eval: the cached rows' values), not through BLAS
        double[][] p = x.toRowArrays();
        Matrix g = Matrix.zeros(M, M);
        for (int i = 0; i < M; i++) {
            for (int j = 0; j < M; j++) {
                g.set(i, j, k.eval(p[i], p[j]));
            }
        }
        Smo.Result r = Smo.solve(KernelRows.dense(g), y, null, 10, Smo.Options.defaults(), null, null);
        assertPath(r, 3902, -1387332214, 4596705793904631731L);
    }
}
