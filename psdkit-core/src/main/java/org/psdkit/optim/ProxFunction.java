package org.psdkit.optim;

/**
 * A closed convex function g: ℝⁿ → ℝ ∪ {+∞} given by its proximal operator, the non-smooth part of a composite
 * problem.
 */
public interface ProxFunction {

    /** g(x); {@code Double.POSITIVE_INFINITY} outside the domain. */
    double value(double[] x);

    /**
     * prox_{t g}(v) = argmin_u g(u) + ‖u − v‖²/(2t), written into {@code out}; {@code out} may be the same array
     * as {@code v}.
     */
    void prox(double t, double[] v, double[] out);

    /** g ≡ 0 (plain accelerated gradient descent). */
    static ProxFunction zero() {
        return new ProxFunction() {
            @Override
            public double value(double[] x) {
                return 0.0;
            }

            @Override
            public void prox(double t, double[] v, double[] out) {
                if (out != v) {
                    System.arraycopy(v, 0, out, 0, v.length);
                }
            }
        };
    }

    /** The indicator of the non-negative orthant: prox = max(v, 0). */
    static ProxFunction nonNegative() {
        return new ProxFunction() {
            @Override
            public double value(double[] x) {
                for (double v : x) {
                    if (v < 0) {
                        return Double.POSITIVE_INFINITY;
                    }
                }
                return 0.0;
            }

            @Override
            public void prox(double t, double[] v, double[] out) {
                for (int i = 0; i < v.length; i++) {
                    out[i] = Math.max(v[i], 0.0);
                }
            }
        };
    }
}
