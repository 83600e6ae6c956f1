package org.psdkit.optim;

/** A convex differentiable function h: ℝⁿ → ℝ with Lipschitz gradient, the smooth part of a composite problem. */
public interface SmoothFunction {

    /** The dimension n of the variable. */
    int dimension();

    /**
     * Returns h(x) and writes ∇h(x) into {@code gradient} (length n). Must not keep references to either array.
     */
    double valueAndGradient(double[] x, double[] gradient);
}
