package org.psdkit.kernel;

import java.util.List;
import java.util.Optional;

/**
 * Truncated exponential series k(x, t) = Σ_{i=0}^{D} aⁱ/i! · (xᵀt)ⁱ, a ≥ 0, integer D ≥ 0 (Herbster's slides "Kernels and Regularization"): a polynomial
 * in xᵀt with non-negative coefficients, hence PSD. Kernel string {@code exponential(a=0.5, degree=4)} (the same
 * name as {@link ExponentialKernel}, with a degree). Evaluated by Horner's rule.
 *
 * <p>Explicit feature map: Σ_i aⁱ/i! Σ_{|α|=i} i!/α! x^α t^α, so φ_α(x) = √(a^{|α|}/α!) · x^α for |α| ≤ D.
 */
public final class ExponentialSeriesKernel extends DotProductKernel {
    private final double a;
    private final int degree;
    private final double[] coef;

    public ExponentialSeriesKernel(double a, int degree) {
        KernelParameter.check("exponential", KernelParameter.nonNegative("a", a));
        if (degree < 0) {
            throw new IllegalArgumentException("exponential kernel: degree must be an integer >= 0, got " + degree);
        }
        this.a = a;
        this.degree = degree;
        this.coef = new double[degree + 1];
        double c = 1;
        for (int i = 0; i <= degree; i++) {
            coef[i] = c;
            c *= a / (i + 1);
        }
    }

    public double a() {
        return a;
    }

    public int degree() {
        return degree;
    }

    @Override
    double f(double s) {
        double r = coef[degree];
        for (int i = degree - 1; i >= 0; i--) {
            r = r * s + coef[i];
        }
        return r;
    }

    @Override
    public Optional<FeatureMap> featureMap(int dimension) {
        List<int[]> alphas = Monomials.exponents(dimension, 0, degree);
        double[] w = new double[alphas.size()];
        for (int k = 0; k < w.length; k++) {
            int[] al = alphas.get(k);
            w[k] = Math.sqrt(PolynomialKernel.powInt(a, Monomials.order(al))
                    * Math.exp(-Monomials.logMultiFactorial(al)));
        }
        return Optional.of(Monomials.map(dimension, alphas, w));
    }

    @Override
    public String kind() {
        return "exponential";
    }

    @Override
    public List<KernelParameter> ownParameters() {
        return List.of(KernelParameter.nonNegative("a", a), KernelParameter.integerAtLeast("degree", degree, 0));
    }

    @Override
    public Kernel withOwnParameter(String name, double value) {
        switch (name) {
            case "a":
                return new ExponentialSeriesKernel(value, degree);
            case "degree":
                return new ExponentialSeriesKernel(a, Kernels.integerValue("exponential", "degree", value));
            default:
                return super.withOwnParameter(name, value);
        }
    }

    @Override
    public String spec() {
        return "exponential(a=" + KernelFormat.num(a) + ", degree=" + degree + ")";
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ExponentialSeriesKernel e && e.a == a && e.degree == degree;
    }

    @Override
    public int hashCode() {
        return Double.hashCode(a) * 31 + degree;
    }
}
