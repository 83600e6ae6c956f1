package org.psdkit.kernel;

import java.util.List;
import org.psdkit.linalg.internal.ArrayExp;
import org.psdkit.linalg.internal.TableExp;

/**
 * Laplacian (Abel) kernel k(x, t) = exp(−‖x − t‖ / σ), σ &gt; 0 — the Matérn kernel of smoothness 1/2. Note the
 * Euclidean norm (not squared) and no factor 2: σ is a length scale, not a standard deviation. scikit-learn's
 * {@code laplacian_kernel} uses the ℓ1 distance instead and is a different kernel for d &gt; 1.
 */
public final class LaplacianKernel extends RadialKernel {
    private final double sigma;
    private final double invSigma;

    public LaplacianKernel(double sigma) {
        if (!(sigma > 0) || Double.isInfinite(sigma)) {
            throw new IllegalArgumentException("laplacian kernel: sigma must be > 0 and finite, got "
                    + KernelFormat.num(sigma));
        }
        if (Double.isInfinite(1.0 / sigma)) {
            // k(x, x) would be exp(-0 * inf) = NaN instead of 1
            throw new IllegalArgumentException("laplacian kernel: sigma = " + KernelFormat.num(sigma) + " is too small: "
                    + "1/sigma overflows double precision");
        }
        this.sigma = sigma;
        this.invSigma = 1.0 / sigma;
    }

    public double sigma() {
        return sigma;
    }

    @Override
    double g(double squaredDistance) {
        return Math.exp(-Math.sqrt(squaredDistance) * invSigma);
    }

    /**
     * exp(−√(r²) / σ) · c added to s, with the argument rounded as in {@link #g} ((−√r²)/σ and √r² (−1/σ) are the
     * same double), the exponential table-driven ({@link TableExp}); r2 is overwritten by its square roots.
     */
    @Override
    void gTermsAxpy(double[] r2, int from, int to, double c, double[] s) {
        for (int i = from; i < to; i++) {
            r2[i] = Math.sqrt(r2[i]);
        }
        TableExp.expScaledAxpy(r2, from, to, -invSigma, c, s);
    }

    /** {@link #gTermsAxpy}'s terms fused with the expansion of the squared distance ({@link TableExp#expDistanceAxpy}). */
    @Override
    int distanceTermsAxpy(double[] prod, int po, int n, double[] nx, double nz, double c, double[] s, int[] skipped) {
        return TableExp.expDistanceAxpy(prod, po, n, nx, nz, CANCELLATION_GUARD, true, -invSigma, c, s, skipped);
    }

    /** exp(−√(r²) / σ) with the argument rounded as in {@link #g}, the exponential vectorised ({@link ArrayExp}). */
    @Override
    void gVector(double[] a, int from, int to) {
        for (int i = from; i < to; i++) {
            a[i] = Math.sqrt(a[i]);
        }
        ArrayExp.expScaledInPlace(a, from, to, -invSigma);
    }

    @Override
    public String kind() {
        return "laplacian";
    }

    @Override
    public List<KernelParameter> ownParameters() {
        return List.of(KernelParameter.positive("sigma", sigma));
    }

    @Override
    public Kernel withOwnParameter(String name, double value) {
        if (name.equals("sigma")) {
            return new LaplacianKernel(value);
        }
        return super.withOwnParameter(name, value);
    }

    @Override
    public String spec() {
        return "laplacian(sigma=" + KernelFormat.num(sigma) + ")";
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof LaplacianKernel g && g.sigma == sigma;
    }

    @Override
    public int hashCode() {
        return 31 * Double.hashCode(sigma) + 7;
    }
}
