package org.psdkit.kernel;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.psdkit.classify.SvmDecision;
import org.psdkit.linalg.Linalg;
import org.psdkit.linalg.Matrix;

/**
 * {@link KernelProducts#times}, which KRR's predictions and an SVM's decision values share: up to 2¹⁷ entries the
 * values of dgemv on the cross matrix bit for bit; beyond, row blocks through {@link Kernel#crossTimes}, within
 * 1e-12 of Σ_j |k(x_i, z_j) c_j| of dgemv on the full cross matrix.
 */
class KernelProductsTest {

    @Test
    void smallProductsAreDgemvOnTheCrossMatrixBitForBit() {
        Kernel k = new GaussianKernel(1.3);
        Matrix z = CrossTimesTest.gaussianPoints(200, 5, 3, 0);
        Matrix x = CrossTimesTest.gaussianPoints(600, 5, 4, 0);
        double[] c = CrossTimesTest.coefficients(200, 5);
        assertTrue(600L * 200 <= KernelProducts.DGEMV_ENTRIES);
        assertArrayEquals(Linalg.gemv(k.cross(x, z), false, c), KernelProducts.times(k, x, z, c));
        SvmDecision svm = new SvmDecision(k, z, c, 0.25);
        double[] f = svm.decision(x);
        double[] g = Linalg.gemv(k.cross(x, z), false, c);
        for (int i = 0; i < g.length; i++) {
            g[i] += 0.25;
        }
        assertArrayEquals(g, f);
    }

    @Test
    void largeProductsAgreeWithTheCrossMatrixToRounding() {
        Kernel k = new GaussianKernel(1.3);
        Matrix z = CrossTimesTest.gaussianPoints(400, 5, 6, 0.5);
        Matrix x = CrossTimesTest.gaussianPoints(700, 5, 7, 0.5);
        double[] c = CrossTimesTest.coefficients(400, 8);
        assertTrue(700L * 400 > KernelProducts.DGEMV_ENTRIES);
        Matrix kx = k.cross(x, z);
        double[] ref = Linalg.gemv(kx, false, c);
        double[] got = new SvmDecision(k, z, c, 0.0).decision(x);
        double worst = 0;
        for (int i = 0; i < ref.length; i++) {
            double mag = 0;
            for (int j = 0; j < c.length; j++) {
                mag += Math.abs(kx.get(i, j) * c[j]);
            }
            worst = Math.max(worst, Math.abs(got[i] - ref[i]) / mag);
        }
        assertTrue(worst <= 1e-12, "relative to the sum of magnitudes: " + worst);
    }
}
