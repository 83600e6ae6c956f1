package org.psdkit.cone;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;
import org.psdkit.kernel.GaussianKernel;
import org.psdkit.kernel.Kernel;
import org.psdkit.linalg.Matrix;
import org.psdkit.psd.EmpiricalFeatureMap;

/**
 * The single-precision path of the cone families with anchors: the Nyström linear block built on the PSD blocks'
 * shared float features (V = P Φ_k + q 1ᵀ) or on its own float features gives the exact double block's dual values,
 * primal values and fitted function up to the storage rounding.
 */
class SharedFeaturesTest {

    private static Matrix points(int n, int d, long seed) {
        Random r = new Random(seed);
        Matrix x = Matrix.zeros(n, d);
        for (int k = 0; k < x.data().length; k++) {
            x.data()[k] = r.nextGaussian();
        }
        return x;
    }

    private static double maxAbs(double[] a) {
        double s = 0;
        for (double v : a) {
            s = Math.max(s, Math.abs(v));
        }
        return s;
    }

    private static void agree(NystromLinearBlock exact, NystromLinearBlock large, int n, Matrix test) {
        Random r = new Random(4);
        double[] beta = new double[n];
        for (int i = 0; i < n; i++) {
            beta[i] = r.nextGaussian() / n;
        }
        double[] ve = new double[n];
        double[] vl = new double[n];
        double ge = exact.evaluate(beta, ve);
        double gl = large.evaluate(beta, vl);
        assertEquals(ge, gl, 1e-5 * Math.abs(ge));
        double scale = maxAbs(ve);
        assertTrue(scale > 0);
        for (int i = 0; i < n; i++) {
            assertEquals(ve[i], vl[i], 1e-5 * scale, "value " + i);
        }
        assertEquals(exact.lipschitz(), large.lipschitz(), 1e-5 * exact.lipschitz());
        double[] fe = exact.function(beta).eval(test);
        double[] fl = large.function(beta).eval(test);
        double fs = maxAbs(fe);
        for (int i = 0; i < fe.length; i++) {
            assertEquals(fe[i], fl[i], 1e-5 * fs, "function at test point " + i);
        }
    }

    @Test
    void linearBlockOnTheSharedFloatFeaturesMatchesTheExactBlock() {
        Kernel k = new GaussianKernel(1.5);
        Matrix x = points(3000, 3, 1);
        Matrix anchors = points(30, 3, 2);
        EmpiricalFeatureMap map = EmpiricalFeatureMap.nystromSingle(k, anchors, x, 1e-11);
        assertEquals(30, map.rank(), "every anchor direction kept: the shared route");
        Features shared = Features.kernel(map);
        assertTrue(shared instanceof SharedFeatures);
        NystromLinearBlock large = NystromLinearBlock.large(k, 1.0, anchors, x, 0.1, 1e-11, shared);
        NystromLinearBlock exact = new NystromLinearBlock(k, 1.0, anchors, x, 0.1, 1e-11);
        agree(exact, large, x.rows(), points(50, 3, 3));
    }

    @Test
    void linearBlockWithItsOwnFloatFeaturesWhenTheMapDropsDirections() {
        Kernel k = new GaussianKernel(1.5);
        Matrix x = points(3000, 3, 5);
        Matrix a0 = points(20, 3, 6);
        Matrix anchors = Matrix.zeros(21, 3); // a repeated anchor: the map's rank is 20 < 21
        for (int i = 0; i < 21; i++) {
            for (int j = 0; j < 3; j++) {
                anchors.set(i, j, a0.get(i % 20, j));
            }
        }
        EmpiricalFeatureMap map = EmpiricalFeatureMap.nystromSingle(k, anchors, x, 1e-11);
        assertTrue(map.rank() < 21);
        NystromLinearBlock large = NystromLinearBlock.large(k, 1.0, anchors, x, 0.1, 1e-11, Features.kernel(map));
        NystromLinearBlock exact = new NystromLinearBlock(k, 1.0, anchors, x, 0.1, 1e-11);
        agree(exact, large, x.rows(), points(50, 3, 7));
    }
}
