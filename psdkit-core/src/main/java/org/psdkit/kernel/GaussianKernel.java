package org.psdkit.kernel;

import java.util.List;
import org.psdkit.linalg.internal.ArrayExp;
import org.psdkit.linalg.internal.TableExp;

/**
 * Gaussian (RBF) kernel k(x, t) = exp(−‖x − t‖² / (2σ²)), σ &gt; 0.
 *
 * <p>Parameterisations: σ here is the bandwidth (standard deviation); the "β" of the UCL slides (Herbster's slides "Kernels and Regularization") writes
 * exp(−β‖x−t‖²), so β = 1/(2σ²); scikit-learn's {@code gamma} is the same β: γ = 1/(2σ²), σ = 1/√(2γ).
 * The kernel string accepts {@code gaussian(sigma=0.5)}, {@code gaussian(gamma=2)} or {@code gaussian(beta=2)}
 * and always prints σ. The lecture notes "Representer theorems in RKHSs" writes exp(−γ‖x−x'‖²) with the same γ.
 *
 * <p>The Gram and cross matrices come from one matrix product plus an elementwise exponential on both cores
 * (see {@link RadialKernel}).
 */
public final class GaussianKernel extends RadialKernel {
    private final double sigma;
    private final double invTwoSigma2;

    public GaussianKernel(double sigma) {
        if (!(sigma > 0) || Double.isInfinite(sigma)) {
            throw new IllegalArgumentException("gaussian kernel: sigma must be > 0 and finite, got "
                    + KernelFormat.num(sigma));
        }
        if (Double.isInfinite(1.0 / (2 * sigma * sigma))) {
            // k(x, x) would be exp(-0 * inf) = NaN instead of 1
            throw new IllegalArgumentException("gaussian kernel: sigma = " + KernelFormat.num(sigma) + " is too small: "
                    + "1/(2 sigma^2) overflows double precision");
        }
        this.sigma = sigma;
        this.invTwoSigma2 = 1.0 / (2 * sigma * sigma);
    }

    /** The Gaussian kernel exp(−γ‖x − t‖²) in scikit-learn's parameterisation (σ = 1/√(2γ)). */
    public static GaussianKernel fromGamma(double gamma) {
        if (!(gamma > 0) || Double.isInfinite(gamma)) {
            throw new IllegalArgumentException("gaussian kernel: gamma must be > 0 and finite, got "
                    + KernelFormat.num(gamma));
        }
        return new GaussianKernel(1.0 / Math.sqrt(2 * gamma));
    }

    public double sigma() {
        return sigma;
    }

    /** γ = β = 1/(2σ²). */
    public double gamma() {
        return invTwoSigma2;
    }

    @Override
    double g(double squaredDistance) {
        return Math.exp(-squaredDistance * invTwoSigma2);
    }

    /**
     * exp(−r² γ) · c added to s, with the product rounded as in {@link #g} ((−r²) γ and r² (−γ) are the same double),
     * the exponential table-driven ({@link TableExp}).
     */
    @Override
    void gTermsAxpy(double[] r2, int from, int to, double c, double[] s) {
        TableExp.expScaledAxpy(r2, from, to, -invTwoSigma2, c, s);
    }

    /** {@link #gTermsAxpy}'s terms fused with the expansion of the squared distance ({@link TableExp#expDistanceAxpy}). */
    @Override
    int distanceTermsAxpy(double[] prod, int po, int n, double[] nx, double nz, double c, double[] s, int[] skipped) {
        return TableExp.expDistanceAxpy(prod, po, n, nx, nz, CANCELLATION_GUARD, false, -invTwoSigma2, c, s, skipped);
    }

    /** exp(−r² γ) with the product rounded as in {@link #g}, the exponential vectorised ({@link ArrayExp}). */
    @Override
    void gVector(double[] a, int from, int to) {
        ArrayExp.expScaledInPlace(a, from, to, -invTwoSigma2);
    }

    @Override
    public String kind() {
        return "gaussian";
    }

    @Override
    public List<KernelParameter> ownParameters() {
        return List.of(KernelParameter.positive("sigma", sigma));
    }

    @Override
    public Kernel withOwnParameter(String name, double value) {
        if (name.equals("sigma")) {
            return new GaussianKernel(value);
        }
        if (name.equals("gamma") || name.equals("beta")) {
            return fromGamma(value);
        }
        return super.withOwnParameter(name, value);
    }

    @Override
    public String spec() {
        return "gaussian(sigma=" + KernelFormat.num(sigma) + ")";
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof GaussianKernel g && g.sigma == sigma;
    }

    @Override
    public int hashCode() {
        return Double.hashCode(sigma);
    }
}
