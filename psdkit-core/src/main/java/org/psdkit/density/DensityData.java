package org.psdkit.density;

import org.psdkit.linalg.Matrix;

/** Input checks shared by the density estimators. */
final class DensityData {
    private DensityData() {
    }

    static void check(Matrix x, String what) {
        if (x.rows() < 2) {
            throw new IllegalArgumentException(what + ": need at least 2 points, got " + x.rows());
        }
        if (x.cols() < 1) {
            throw new IllegalArgumentException(what + ": points have no coordinates");
        }
        double[] a = x.data();
        for (int k = 0; k < a.length; k++) {
            if (!Double.isFinite(a[k])) {
                throw new IllegalArgumentException(what + ": value " + a[k] + " at row " + (k % x.rows() + 1)
                        + ", column " + (k / x.rows() + 1) + " is not finite");
            }
        }
    }
}
