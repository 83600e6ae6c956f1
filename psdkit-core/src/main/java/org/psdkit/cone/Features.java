package org.psdkit.cone;

import org.psdkit.linalg.Matrix;
import org.psdkit.psd.EmpiricalFeatureMap;

/**
 * A finite feature map Φ: ℝ^d → ℝ^r known at the training points as the columns of an r×n matrix, and the way a PSD
 * model A = FFᵀ on it becomes a function that can be evaluated and stored.
 */
public interface Features {

    /** r×n matrix whose column i is Φ(x_i). */
    Matrix trainingFeatures();

    /** The function x ↦ Φ(x)ᵀ F Fᵀ Φ(x) (evaluated as a sum of squares) for an r×k factor F. */
    ScalarFunction sumOfSquares(Matrix factor);

    /** The empirical kernel feature map (Marteau-Ferey, Bach and Rudi 2020 Eq. (8), rank-deficient form of App. B.4). */
    static Features kernel(EmpiricalFeatureMap map) {
        if (map.singleColumns()) {
            return new SharedFeatures(map);
        }
        Matrix v = map.trainingFeatures();
        return new Features() {
            @Override
            public Matrix trainingFeatures() {
                return v;
            }

            @Override
            public ScalarFunction sumOfSquares(Matrix factor) {
                return new KernelSumOfSquares(map.kernel(), map.points(), map.coefficientFactor(factor));
            }
        };
    }

    /** The constant feature Φ(x) = 1 (r = 1): a PSD block on it is a non-negative constant t = F². */
    static Features constant(int n) {
        Matrix ones = Matrix.zeros(1, n);
        java.util.Arrays.fill(ones.data(), 1.0);
        return new Features() {
            @Override
            public Matrix trainingFeatures() {
                return ones;
            }

            @Override
            public ScalarFunction sumOfSquares(Matrix factor) {
                double t = 0;
                for (double f : factor.data()) {
                    t += f * f;
                }
                return new Constant(t);
            }
        };
    }
}
