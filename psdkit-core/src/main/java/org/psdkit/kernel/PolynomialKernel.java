package org.psdkit.kernel;

import java.util.List;
import java.util.Optional;

/**
 * Polynomial kernel k(x, t) = (c + xᵀt)^r with integer degree r ≥ 1 and offset c ≥ 0 (c = 0: the homogeneous
 * kernel (xᵀt)^r). Kernel string {@code polynomial(degree=3, offset=1)}; the offset defaults to 0.
 * scikit-learn's {@code polynomial_kernel} is (γ xᵀt + c₀)^r; here γ = 1 (use {@code w*polynomial(...)} or scale
 * the data for other γ).
 *
 * <p>Explicit feature map (Herbster's slides "Kernels and Regularization"): by the multinomial theorem
 * (c + xᵀt)^r = Σ_{|α| ≤ r} r! / (α! (r − |α|)!) · c^{r−|α|} · x^α t^α over multi-indices α ∈ ℕ^d, so
 * φ_α(x) = √(r! / (α! (r − |α|)!) · c^{r−|α|}) · x^α; for c = 0 only |α| = r survives.
 */
public final class PolynomialKernel extends DotProductKernel {
    private final int degree;
    private final double offset;

    public PolynomialKernel(int degree, double offset) {
        if (degree < 1) {
            throw new IllegalArgumentException("polynomial kernel: degree must be an integer >= 1, got " + degree);
        }
        KernelParameter.check("polynomial", KernelParameter.nonNegative("offset", offset));
        this.degree = degree;
        this.offset = offset;
    }

    public int degree() {
        return degree;
    }

    public double offset() {
        return offset;
    }

    @Override
    double f(double s) {
        return powInt(offset + s, degree);
    }

    /** b^e for e ≥ 0 by repeated squaring (exact for small e, faster than Math.pow). */
    static double powInt(double b, int e) {
        double r = 1.0;
        double p = b;
        for (int k = e; k > 0; k >>= 1) {
            if ((k & 1) != 0) {
                r *= p;
            }
            p *= p;
        }
        return r;
    }

    @Override
    public Optional<FeatureMap> featureMap(int dimension) {
        int minOrder = offset == 0 ? degree : 0;
        List<int[]> alphas = Monomials.exponents(dimension, minOrder, degree);
        double[] weight = new double[alphas.size()];
        for (int k = 0; k < weight.length; k++) {
            int[] a = alphas.get(k);
            int order = Monomials.order(a);
            // r! / (α! (r−|α|)!) · c^{r−|α|}
            double coef = Math.exp(Monomials.logFactorial(degree) - Monomials.logMultiFactorial(a)
                    - Monomials.logFactorial(degree - order)) * powInt(offset, degree - order);
            weight[k] = Math.sqrt(coef);
        }
        return Optional.of(Monomials.map(dimension, alphas, weight));
    }

    @Override
    public String kind() {
        return "polynomial";
    }

    @Override
    public List<KernelParameter> ownParameters() {
        return List.of(KernelParameter.integerAtLeast("degree", degree, 1),
                KernelParameter.nonNegative("offset", offset));
    }

    @Override
    public Kernel withOwnParameter(String name, double value) {
        switch (name) {
            case "degree":
                return new PolynomialKernel(Kernels.integerValue("polynomial", "degree", value), offset);
            case "offset":
                return new PolynomialKernel(degree, value);
            default:
                return super.withOwnParameter(name, value);
        }
    }

    @Override
    public String spec() {
        return "polynomial(degree=" + degree + (offset == 0 ? "" : ", offset=" + KernelFormat.num(offset)) + ")";
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof PolynomialKernel p && p.degree == degree && p.offset == offset;
    }

    @Override
    public int hashCode() {
        return 31 * degree + Double.hashCode(offset);
    }
}
