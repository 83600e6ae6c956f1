package org.psdkit.cone;

import org.psdkit.kernel.Kernel;
import org.psdkit.linalg.Linalg;
import org.psdkit.linalg.Matrix;
import org.psdkit.linalg.internal.RowBlocks;

/**
 * A PSD model f(x) = v(x)ᵀ B v(x), B = R Rᵀ, v(x) = (k(x, x_i))_i (Marteau-Ferey, Bach and Rudi 2020 Thm. 1/6
 * representation), evaluated as
 * the sum of squares ‖Rᵀ v(x)‖² so that f ≥ 0 holds in floating point for every x.
 *
 * @param factor R (n×k)
 */
public record KernelSumOfSquares(Kernel kernel, Matrix points, Matrix factor) implements ScalarFunction {

    public KernelSumOfSquares {
        if (factor.rows() != points.rows()) {
            throw new IllegalArgumentException("PSD factor has " + factor.rows() + " rows for " + points.rows()
                    + " points");
        }
    }

    @Override
    public double[] eval(Matrix x) {
        if (factor.cols() == 0) {
            return new double[x.rows()];
        }
        // rows in blocks: an n×b block of the cross matrix at a time
        return RowBlocks.apply(x, points.rows(), this::evalBlock);
    }

    private double[] evalBlock(Matrix x) {
        int m = x.rows();
        double[] f = new double[m];
        int k = factor.cols();
        Matrix kx = kernel.cross(points, x);                    // n×m
        Matrix p = Linalg.gemm(1.0, factor, true, kx, false);   // k×m
        double[] d = p.data();
        for (int j = 0; j < m; j++) {
            double s = 0;
            for (int a = 0; a < k; a++) {
                double q = d[a + j * k];
                s += q * q;
            }
            f[j] = s;
        }
        return f;
    }
}
