package org.psdkit.svm;

import org.psdkit.kernel.Kernel;
import org.psdkit.linalg.Matrix;

/** Trains a soft-margin SVM with a fixed kernel. */
public final class SvmTrainer {

    /** Up to this many points the Gram matrix is precomputed (8·m² bytes: 512 MB at 8000); beyond, a row cache. */
    public static final int DENSE_LIMIT = 8000;

    private SvmTrainer() {
    }

    /**
     * Fits on points x (already scaled if a scaler is given, which is stored for prediction) with labels ±1.
     */
    public static Svm fit(Kernel kernel, Matrix xScaled, double[] y, double c, double tolerance, BinaryLabels labels,
                          MinMaxScaler scaler) {
        long t0 = System.nanoTime();
        KernelRows rows = xScaled.rows() <= DENSE_LIMIT ? KernelRows.dense(kernel.gram(xScaled))
                : new CachedKernelRows(kernel, xScaled, CachedKernelRows.DEFAULT_CACHE_BYTES);
        Smo.Result r = Smo.solve(rows, y, c, tolerance, null);
        double secs = (System.nanoTime() - t0) * 1e-9;
        return Svm.of(kernel, xScaled, y, r, labels, scaler, c,
                new Svm.Diagnostics(r.iterations(), r.violation(), r.dual(), secs));
    }
}
