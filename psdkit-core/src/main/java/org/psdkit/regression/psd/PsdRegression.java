package org.psdkit.regression.psd;

import org.psdkit.kernel.Kernel;
import org.psdkit.linalg.Matrix;
import org.psdkit.optim.Losses;
import org.psdkit.optim.ProgressListener;
import org.psdkit.psd.EmpiricalFeatureMap;
import org.psdkit.psd.PsdModel;
import org.psdkit.psd.PsdOptions;
import org.psdkit.psd.PsdSolver;

/**
 * Non-negative regression with a PSD model: min_{A⪰0} (1/(2n)) Σ (f_A(x_i) − y_i)² + λ₁ Tr A + (λ₂/2)‖A‖²_F.
 */
public final class PsdRegression {
    private PsdRegression() {
    }

    public static PsdModel fit(Kernel kernel, Matrix x, double[] y, PsdOptions options) {
        return fit(kernel, x, y, options, ProgressListener.NONE);
    }

    public static PsdModel fit(Kernel kernel, Matrix x, double[] y, PsdOptions options, ProgressListener listener) {
        return fit(kernel, x, null, y, options, listener);
    }

    /**
     * As {@link #fit(Kernel, Matrix, double[], PsdOptions, ProgressListener)} with the model expanded on the rows of
     * {@code anchors} only (Nyström, Marteau-Ferey, Bach &amp; Rudi 2020 App. B.5; null: all training points): the
     * loss still uses every row of x.
     */
    static PsdModel fit(Kernel kernel, Matrix x, Matrix anchors, double[] y, PsdOptions options,
                        ProgressListener listener) {
        checkData(x, y);
        EmpiricalFeatureMap map = anchors == null ? EmpiricalFeatureMap.of(kernel, x, options.relativeThreshold())
                : EmpiricalFeatureMap.nystrom(kernel, anchors, x, options.relativeThreshold());
        return PsdSolver.solve(map, Losses.squared(y), options, listener, PsdModel.TYPE).model();
    }

    static void checkData(Matrix x, double[] y) {
        if (x.rows() < 2) {
            throw new IllegalArgumentException("need at least 2 training points, got " + x.rows());
        }
        if (y.length != x.rows()) {
            throw new IllegalArgumentException(x.rows() + " points but " + y.length + " target values");
        }
        for (int i = 0; i < x.rows(); i++) {
            for (int j = 0; j < x.cols(); j++) {
                if (!Double.isFinite(x.get(i, j))) {
                    throw new IllegalArgumentException("training input (row " + (i + 1) + ", column " + (j + 1)
                            + ") is not finite: " + x.get(i, j));
                }
            }
            if (!Double.isFinite(y[i])) {
                throw new IllegalArgumentException("training target at row " + (i + 1) + " is not finite: " + y[i]);
            }
        }
    }
}
