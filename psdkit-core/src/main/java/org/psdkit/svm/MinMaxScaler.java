package org.psdkit.svm;

import org.psdkit.linalg.Matrix;

/**
 * Maps each feature affinely so that the training data span [0, 1] (constant columns map to 0). Test points may
 * fall outside [0, 1]; they are not clipped.
 *
 * @param min per-feature minimum on the training data
 * @param max per-feature maximum on the training data
 */
public record MinMaxScaler(double[] min, double[] max) {

    public static MinMaxScaler fit(Matrix x) {
        int n = x.rows();
        int d = x.cols();
        if (n == 0) {
            throw new IllegalArgumentException("cannot fit a scaler on empty data");
        }
        double[] lo = new double[d];
        double[] hi = new double[d];
        for (int j = 0; j < d; j++) {
            lo[j] = Double.POSITIVE_INFINITY;
            hi[j] = Double.NEGATIVE_INFINITY;
            for (int i = 0; i < n; i++) {
                double v = x.get(i, j);
                if (!Double.isFinite(v)) {
                    throw new IllegalArgumentException("non-finite feature value at row " + (i + 1) + ", column "
                            + (j + 1));
                }
                lo[j] = Math.min(lo[j], v);
                hi[j] = Math.max(hi[j], v);
            }
        }
        return new MinMaxScaler(lo, hi);
    }

    public Matrix apply(Matrix x) {
        if (x.cols() != min.length) {
            throw new IllegalArgumentException("data has " + x.cols() + " features, scaler expects " + min.length);
        }
        Matrix out = Matrix.zeros(x.rows(), x.cols());
        for (int j = 0; j < min.length; j++) {
            double range = max[j] - min[j];
            for (int i = 0; i < x.rows(); i++) {
                out.set(i, j, range > 0 ? (x.get(i, j) - min[j]) / range : 0.0);
            }
        }
        return out;
    }
}
