package org.psdkit.kernel;

import java.util.List;
import org.psdkit.linalg.internal.ArrayExp;

/**
 * Exponential (dot-product) kernel k(x, t) = exp(a · xᵀt), a ≥ 0: the limit of the series kernel
 * {@link ExponentialSeriesKernel} (Herbster's slides "Kernels and Regularization", "infinite polynomial"). Its feature space is infinite-dimensional.
 * Kernel string {@code exponential(a=0.5)}. Note exp(a·xᵀt) grows without bound; the Gaussian kernel with
 * β = a/2 is this kernel normalised, exp(−β‖x‖²) exp(2β xᵀt) exp(−β‖t‖²).
 */
public final class ExponentialKernel extends DotProductKernel {
    private final double a;

    public ExponentialKernel(double a) {
        KernelParameter.check("exponential", KernelParameter.nonNegative("a", a));
        this.a = a;
    }

    public double a() {
        return a;
    }

    @Override
    double f(double s) {
        return Math.exp(a * s);
    }

    /** exp(a s) with the product rounded as in {@link #f}, the exponential vectorised ({@link ArrayExp}). */
    @Override
    void fInPlace(double[] v, int from, int to) {
        if (KernelValues.VECTOR_EXP) {
            fVector(v, from, to);
        } else {
            super.fInPlace(v, from, to);
        }
    }

    /** The vectorised pass itself (what {@link #fInPlace} runs when {@link KernelValues#VECTOR_EXP} is set). */
    void fVector(double[] v, int from, int to) {
        ArrayExp.expScaledInPlace(v, from, to, a);
    }

    @Override
    public String kind() {
        return "exponential";
    }

    @Override
    public List<KernelParameter> ownParameters() {
        return List.of(KernelParameter.nonNegative("a", a));
    }

    @Override
    public Kernel withOwnParameter(String name, double value) {
        if (name.equals("a")) {
            return new ExponentialKernel(value);
        }
        return super.withOwnParameter(name, value);
    }

    @Override
    public String spec() {
        return "exponential(a=" + KernelFormat.num(a) + ")";
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ExponentialKernel e && e.a == a;
    }

    @Override
    public int hashCode() {
        return Double.hashCode(a) + 17;
    }
}
