package org.psdkit.kernel;

import org.psdkit.linalg.Matrix;

/**
 * Gaussian (RBF) kernel k(x, t) = exp(−‖x − t‖² / (2σ²)).
 *
 * <p>Parameterisations: σ here is the bandwidth (standard deviation); the "β" of the UCL slides writes
 * exp(−β‖x−t‖²), so β = 1/(2σ²); scikit-learn's {@code gamma} is the same β: γ = 1/(2σ²).
 */
public final class GaussianKernel implements Kernel {
    private final double sigma;
    private final double invTwoSigma2;

    public GaussianKernel(double sigma) {
        if (!(sigma > 0) || Double.isInfinite(sigma)) {
            throw new IllegalArgumentException("gaussian kernel: sigma must be > 0 and finite, got " + sigma);
        }
        this.sigma = sigma;
        this.invTwoSigma2 = 1.0 / (2 * sigma * sigma);
    }

    public double sigma() {
        return sigma;
    }

    @Override
    public double eval(double[] x, double[] t) {
        double s = 0;
        for (int i = 0; i < x.length; i++) {
            double d = x[i] - t[i];
            s += d * d;
        }
        return Math.exp(-s * invTwoSigma2);
    }

    @Override
    public String spec() {
        return "gaussian(sigma=" + KernelFormat.num(sigma) + ")";
    }

    @Override
    public Matrix cross(Matrix x, Matrix z) {
        Matrix d2 = SquaredDistances.cross(x, z);
        double[] a = d2.data();
        for (int k = 0; k < a.length; k++) {
            a[k] = Math.exp(-a[k] * invTwoSigma2);
        }
        return d2;
    }

    @Override
    public Matrix gram(Matrix x) {
        Matrix g = cross(x, x);
        g.symmetrizeInPlace();
        int n = x.rows();
        for (int i = 0; i < n; i++) {
            g.set(i, i, 1.0);
        }
        return g;
    }

    @Override
    public double[] diag(Matrix x) {
        double[] d = new double[x.rows()];
        java.util.Arrays.fill(d, 1.0);
        return d;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof GaussianKernel g && g.sigma == sigma;
    }

    @Override
    public int hashCode() {
        return Double.hashCode(sigma);
    }

    @Override
    public String toString() {
        return spec();
    }

}
