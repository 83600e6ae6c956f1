package org.psdkit.kernel;

import org.psdkit.linalg.Matrix;

/**
 * A feature map φ: ℝ^d → ℝ^N. A kernel with an explicit feature map satisfies k(x, t) = φ(x)ᵀφ(t)
 * ({@link Kernel#featureMap(int)}); any kernel k composed with a map, k(φ(x), φ(t)), is again a kernel
 * ({@link Kernels#compose(Kernel, FeatureMap)}).
 */
@FunctionalInterface
public interface FeatureMap {

    /** φ(x); every call must return a vector of the same length. */
    double[] apply(double[] x);

    /** The mapped data matrix Φ with rows φ(x_i) (n×N) for the points in the rows of {@code x}. */
    default Matrix map(Matrix x) {
        int n = x.rows();
        double[][] rows = new double[n][];
        for (int i = 0; i < n; i++) {
            rows[i] = apply(x.row(i));
            if (i > 0 && rows[i].length != rows[0].length) {
                throw new IllegalArgumentException("feature map returned vectors of lengths " + rows[0].length
                        + " and " + rows[i].length + " (row " + i + ")");
            }
        }
        if (n == 0) { // the width of Φ: probe the map on a zero vector
            return Matrix.zeros(0, apply(new double[x.cols()]).length);
        }
        return Matrix.of(rows);
    }
}
