package org.psdkit.cone;

/**
 * A loss ℓ_i(z) of one real output at training point i, with its Fenchel conjugate and the proximal operator of the
 * conjugate. The catalogue: the pinball loss, the indicator of z ≥ 0 (constraints on training points, as in PNM),
 * and the squared loss.
 */
public interface ScalarLoss {

    /**
     * Relative slack on the pinball conjugate's box: the prox clips exactly onto the bounds ±wτ, so only the rounding
     * of w·τ itself (a few ulps, ~1e-16 relative) can put a point outside; 1e-12 leaves a wide margin.
     */
    double PINBALL_BOX_SLACK = 1e-12;

    /** ℓ_i(z) without hard constraints. */
    double value(int i, double z);

    /** Violation of the hard constraints at z (0 if none). */
    default double infeasibility(int i, double z) {
        return 0;
    }

    double conjugate(int i, double a);

    /** prox_{s ℓ_i^*}(v). */
    double proxConjugate(int i, double v, double s);

    /**
     * Pinball loss w_i ρ_τ(y_i − z), ρ_τ(u) = max(τu, (τ−1)u). Conjugate: a·y_i on a ∈ [−w_iτ, w_i(1−τ)], +∞ outside;
     * prox of s·conjugate: clip(v − s y_i, −w_iτ, w_i(1−τ)).
     */
    static ScalarLoss pinball(double tau, double[] y, double[] w) {
        if (!(tau > 0 && tau < 1)) {
            throw new IllegalArgumentException("quantile level tau must be in (0,1), got " + tau);
        }
        return new ScalarLoss() {
            @Override
            public double value(int i, double z) {
                double u = y[i] - z;
                return w[i] * (u >= 0 ? tau * u : (tau - 1) * u);
            }

            @Override
            public double conjugate(int i, double a) {
                double lo = -w[i] * tau;
                double hi = w[i] * (1 - tau);
                double slack = PINBALL_BOX_SLACK * w[i];
                if (a < lo - slack || a > hi + slack) {
                    return Double.POSITIVE_INFINITY;
                }
                return a * y[i];
            }

            @Override
            public double proxConjugate(int i, double v, double s) {
                double a = v - s * y[i];
                return Math.min(Math.max(a, -w[i] * tau), w[i] * (1 - tau));
            }
        };
    }

    /** Indicator of z ≥ 0: conjugate ι_{a ≤ 0}, prox min(v, 0). */
    static ScalarLoss nonNegative() {
        return new ScalarLoss() {
            @Override
            public double value(int i, double z) {
                return 0;
            }

            @Override
            public double infeasibility(int i, double z) {
                return Math.max(0, -z);
            }

            @Override
            public double conjugate(int i, double a) {
                return a <= 0 ? 0 : Double.POSITIVE_INFINITY;
            }

            @Override
            public double proxConjugate(int i, double v, double s) {
                return Math.min(v, 0);
            }
        };
    }

    /** Squared loss (w_i/2)(z − y_i)²: conjugate a y_i + a²/(2w_i), prox (v − s y_i)/(1 + s/w_i). */
    static ScalarLoss squared(double[] y, double[] w) {
        return new ScalarLoss() {
            @Override
            public double value(int i, double z) {
                double d = z - y[i];
                return 0.5 * w[i] * d * d;
            }

            @Override
            public double conjugate(int i, double a) {
                return a * y[i] + a * a / (2 * w[i]);
            }

            @Override
            public double proxConjugate(int i, double v, double s) {
                return (v - s * y[i]) / (1 + s / w[i]);
            }
        };
    }

    /** A loss separable over outputs from one scalar loss per output. */
    static PointLoss separable(ScalarLoss... perOutput) {
        return new PointLoss() {
            @Override
            public int outputs() {
                return perOutput.length;
            }

            @Override
            public double value(int i, double[] z) {
                double s = 0;
                for (int t = 0; t < perOutput.length; t++) {
                    s += perOutput[t].value(i, z[t]);
                }
                return s;
            }

            @Override
            public double infeasibility(int i, double[] z) {
                double s = 0;
                for (int t = 0; t < perOutput.length; t++) {
                    s = Math.max(s, perOutput[t].infeasibility(i, z[t]));
                }
                return s;
            }

            @Override
            public double conjugate(int i, double[] a) {
                double s = 0;
                for (int t = 0; t < perOutput.length; t++) {
                    s += perOutput[t].conjugate(i, a[t]);
                }
                return s;
            }

            @Override
            public void proxConjugate(int i, double[] v, double s, double[] out) {
                for (int t = 0; t < perOutput.length; t++) {
                    out[t] = perOutput[t].proxConjugate(i, v[t], s);
                }
            }

            @Override
            public void dualStart(int i, double[] out) {
                java.util.Arrays.fill(out, 0.0);
            }
        };
    }
}
