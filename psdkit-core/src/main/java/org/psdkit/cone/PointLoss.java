package org.psdkit.cone;

/**
 * A loss L(z) = Σ_i ℓ_i(z_i) that is separable over training points i but may couple the m outputs z_i ∈ ℝ^m of one
 * point (the heteroscedastic likelihood couples η and θ). Values may be +∞ outside the domain.
 */
public interface PointLoss {

    /** Number of outputs per point. */
    int outputs();

    /** ℓ_i(z) without its hard constraints (those are measured by {@link #infeasibility}). */
    double value(int i, double[] z);

    /**
     * How far z is from satisfying the loss's hard constraints (e.g. z ≥ 0 on training points); 0 when there are
     * none. The dual's primal point satisfies such constraints only in the limit, so the solver stops on a small
     * gap and a small violation.
     */
    default double infeasibility(int i, double[] z) {
        return 0;
    }

    /** The Fenchel conjugate ℓ_i^*(a). */
    double conjugate(int i, double[] a);

    /** prox_{s ℓ_i^*}(v) = argmin_a s ℓ_i^*(a) + ½‖a − v‖², written into {@code out}. */
    void proxConjugate(int i, double[] v, double s, double[] out);

    /** A point a of dom ℓ_i^* to start the dual from, written into {@code out}. */
    void dualStart(int i, double[] out);
}
