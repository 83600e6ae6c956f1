package org.psdkit.classify.mkl;

import org.psdkit.linalg.Matrix;

/** Small dense helpers shared by the kernel learners. */
final class TkLearnerHelpers {

    private TkLearnerHelpers() {
    }

    /** K + γ D as a new matrix. */
    static Matrix axpy(Matrix k, Matrix d, double g) {
        double[] a = k.data();
        double[] b = d.data();
        double[] out = new double[a.length];
        for (int i = 0; i < a.length; i++) {
            out[i] = a[i] + g * b[i];
        }
        return Matrix.wrap(k.rows(), k.cols(), out);
    }
}
