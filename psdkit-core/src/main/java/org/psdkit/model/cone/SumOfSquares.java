package org.psdkit.model.cone;

import org.psdkit.linalg.Linalg;
import org.psdkit.linalg.Matrix;

/**
 * A PSD model f(x) = Φ(x)ᵀ A Φ(x) with A = R Rᵀ, evaluated as the sum of squares ‖Rᵀ Φ(x)‖² so that f ≥ 0 holds in
 * floating point for every x, not only in exact arithmetic.
 *
 * @param features the feature map Φ
 * @param factor   R (r×k)
 */
public record SumOfSquares(Features features, Matrix factor) implements ScalarFunction {

    @Override
    public double[] eval(Matrix x) {
        int m = x.rows();
        double[] f = new double[m];
        if (factor.cols() == 0) {
            return f;
        }
        Matrix phi = features.map(x);                      // r×m
        Matrix p = Linalg.gemm(1.0, factor, true, phi, false); // k×m
        int k = p.rows();
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

    /** A = R Rᵀ (r×r). */
    public Matrix matrix() {
        return Linalg.gemm(1.0, factor, false, factor, true);
    }
}
