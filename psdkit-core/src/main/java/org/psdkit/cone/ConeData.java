package org.psdkit.cone;

import org.psdkit.linalg.Matrix;

/**
 * What every cone-family fit (quantile, heteroscedastic) shares before it builds its blocks: the check of the
 * training data and the default Frobenius weight of the PSD blocks.
 */
public final class ConeData {

    /**
     * Frobenius weight of Marteau-Ferey, Bach & Rudi 2020, App. E: Ω(A) = λ(‖A‖_* + 0.05‖A‖_F²). Their Sec. 6 writes
     * 0.01/2 = 0.005 instead.
     */
    public static final double APPENDIX_E_FROBENIUS_WEIGHT = 0.05;

    private ConeData() {
    }

    /** Checks training data: matching sizes, at least 2 rows, finite values. */
    public static void checkData(Matrix x, double[] y) {
        if (x.rows() != y.length) {
            throw new IllegalArgumentException("x has " + x.rows() + " rows but y has " + y.length + " values");
        }
        if (x.rows() < 2) {
            throw new IllegalArgumentException("need at least 2 training points, got " + x.rows());
        }
        for (int i = 0; i < y.length; i++) {
            if (!Double.isFinite(y[i])) {
                throw new IllegalArgumentException("target value at row " + (i + 1) + " is not finite: " + y[i]);
            }
        }
        for (double v : x.data()) {
            if (!Double.isFinite(v)) {
                throw new IllegalArgumentException("non-finite feature value in the training data");
            }
        }
    }
}
