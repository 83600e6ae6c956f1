package org.psdkit.kernel;

import org.psdkit.linalg.Matrix;

/**
 * Min kernel on [0, ∞)^d, k(x, t) = Π_{i=1}^{d} min(x_i, t_i) (Herbster's slides "Kernels and Regularization": in 1-D the reproducing kernel of the
 * functions with f(0) = 0 and ∫ f'² &lt; ∞; Brownian-motion covariance). A product of 1-D min kernels, hence PSD.
 * Outside the non-negative orthant it is not PSD (min(−1, −1) = −1 on the diagonal), so a negative coordinate is
 * rejected with an {@link IllegalArgumentException} naming the row and column. Kernel string {@code min}.
 */
public final class MinKernel extends CoordinateProductKernel {

    static final MinKernel INSTANCE = new MinKernel();

    private MinKernel() {
    }

    @Override
    double h(double x, double t) {
        return Math.min(x, t);
    }

    @Override
    void checkInput(Matrix x, String what) {
        double[] a = x.data();
        int n = x.rows();
        for (int k = 0; k < a.length; k++) {
            if (!(a[k] >= 0)) {
                throw new IllegalArgumentException("min kernel: inputs must lie in [0, inf)^d, but the " + what
                        + " has " + a[k] + " at row " + (k % n) + ", column " + (k / n)
                        + " (shift or min-max scale the data)");
            }
        }
    }

    @Override
    void checkPoint(double[] x, String what) {
        for (int k = 0; k < x.length; k++) {
            if (!(x[k] >= 0)) {
                throw new IllegalArgumentException("min kernel: inputs must lie in [0, inf)^d, but the " + what
                        + " has " + x[k] + " at coordinate " + k);
            }
        }
    }

    @Override
    public String kind() {
        return "min";
    }

    @Override
    public String spec() {
        return "min";
    }
}
