package org.psdkit.model.cone;

import org.psdkit.linalg.Matrix;

/** A finite feature map Φ: ℝ^d → ℝ^r, known at the training points as the columns of an r×n matrix. */
public interface Features {

    /** r×n matrix whose column i is Φ(x_i). Do not modify. */
    Matrix trainingFeatures();

    /** Φ for every row of {@code x}: an r×m matrix. */
    Matrix map(Matrix x);

    /** The constant feature Φ(x) = 1 (r = 1): a PSD block on it is a non-negative constant t ≥ 0. */
    static Features constant(int n) {
        Matrix ones = Matrix.zeros(1, n);
        java.util.Arrays.fill(ones.data(), 1.0);
        return new Features() {
            @Override
            public Matrix trainingFeatures() {
                return ones;
            }

            @Override
            public Matrix map(Matrix x) {
                Matrix m = Matrix.zeros(1, x.rows());
                java.util.Arrays.fill(m.data(), 1.0);
                return m;
            }
        };
    }
}
