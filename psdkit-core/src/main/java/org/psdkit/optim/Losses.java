package org.psdkit.optim;

/**
 * Catalogue of separable losses L(z) = Σ ℓ_i(z_i) with closed-form conjugates and conjugate proxes. Every loss is
 * averaged over the n points (weight 1/n per point), the convention of the PSD-model tasks.
 */
public final class Losses {
    private Losses() {
    }

    /**
     * Squared loss L(z) = (1/(2n)) Σ (z_i − y_i)². Conjugate L*(α) = Σ (n/2) α_i² + α_i y_i;
     * prox_{tL*}(v)_i = (v_i − t y_i) / (1 + t n).
     */
    public static ConjugateLoss squared(double[] y) {
        double[] yy = checkFinite(y, "squared loss target");
        int n = yy.length;
        return new ConjugateLoss() {
            @Override
            public int size() {
                return n;
            }

            @Override
            public double value(double[] z) {
                double s = 0;
                for (int i = 0; i < n; i++) {
                    double d = z[i] - yy[i];
                    s += d * d;
                }
                return s / (2.0 * n);
            }

            @Override
            public double conjugate(double[] a) {
                double s = 0;
                for (int i = 0; i < n; i++) {
                    s += 0.5 * n * a[i] * a[i] + a[i] * yy[i];
                }
                return s;
            }

            @Override
            public void proxConjugate(double t, double[] v, double[] out) {
                double den = 1.0 + t * n;
                for (int i = 0; i < n; i++) {
                    out[i] = (v[i] - t * yy[i]) / den;
                }
            }
        };
    }

    /**
     * Negative log-likelihood L(z) = −(1/n) Σ log z_i (z_i > 0), the data term of density estimation. With
     * c = 1/n: ℓ*(a) = −c + c·log(−c/a) for a &lt; 0 (+∞ otherwise); prox_{tℓ*}(v) is the negative root of
     * a² − v a − c t = 0, a = (v − √(v² + 4ct))/2.
     */
    public static ConjugateLoss negativeLog(int n) {
        if (n < 1) {
            throw new IllegalArgumentException("negative log loss needs n >= 1, got " + n);
        }
        double c = 1.0 / n;
        return new ConjugateLoss() {
            @Override
            public int size() {
                return n;
            }

            @Override
            public double value(double[] z) {
                double s = 0;
                for (int i = 0; i < n; i++) {
                    if (!(z[i] > 0)) {
                        return Double.POSITIVE_INFINITY;
                    }
                    s -= c * Math.log(z[i]);
                }
                return s;
            }

            @Override
            public double conjugate(double[] a) {
                double s = 0;
                for (int i = 0; i < n; i++) {
                    if (!(a[i] < 0)) {
                        return Double.POSITIVE_INFINITY;
                    }
                    s += -c + c * Math.log(-c / a[i]);
                }
                return s;
            }

            @Override
            public void proxConjugate(double t, double[] v, double[] out) {
                for (int i = 0; i < n; i++) {
                    double vi = v[i];
                    // the negative root, written to avoid cancellation when v > 0
                    double disc = Math.sqrt(vi * vi + 4 * c * t);
                    out[i] = vi <= 0 ? 0.5 * (vi - disc) : -2 * c * t / (vi + disc);
                }
            }
        };
    }

    /**
     * Pinball (quantile) loss L(z) = (1/n) Σ ρ_τ(y_i − z_i), ρ_τ(u) = max(τu, (τ−1)u). With c = 1/n:
     * ℓ*(a) = a·y_i on a ∈ [−cτ, c(1−τ)] (+∞ outside); prox_{tℓ*}(v) = clip(v − t y_i, −cτ, c(1−τ)).
     */
    public static ConjugateLoss pinball(double[] y, double tau) {
        double[] yy = checkFinite(y, "pinball loss target");
        if (!(tau > 0 && tau < 1)) {
            throw new IllegalArgumentException("pinball loss: tau must be in (0, 1), got " + tau);
        }
        int n = yy.length;
        double c = 1.0 / n;
        double lo = -c * tau;
        double hi = c * (1 - tau);
        return new ConjugateLoss() {
            @Override
            public int size() {
                return n;
            }

            @Override
            public double value(double[] z) {
                double s = 0;
                for (int i = 0; i < n; i++) {
                    double u = yy[i] - z[i];
                    s += Math.max(tau * u, (tau - 1) * u);
                }
                return c * s;
            }

            @Override
            public double conjugate(double[] a) {
                double s = 0;
                for (int i = 0; i < n; i++) {
                    // tolerance of a few ulps: prox outputs sit exactly on the box edges
                    if (a[i] < lo * (1 + 1e-12) || a[i] > hi * (1 + 1e-12)) {
                        return Double.POSITIVE_INFINITY;
                    }
                    s += a[i] * yy[i];
                }
                return s;
            }

            @Override
            public void proxConjugate(double t, double[] v, double[] out) {
                for (int i = 0; i < n; i++) {
                    out[i] = Math.min(hi, Math.max(lo, v[i] - t * yy[i]));
                }
            }
        };
    }

    /**
     * Squared loss restricted to non-negative outputs, L(z) = (1/(2n)) Σ (z_i − y_i)² + ι(z ≥ 0) (the data term of
     * the partially non-negative model PNM in its dual form). ℓ*(a) = a z* − (z* − y)²/(2n) with
     * z* = max(0, y + n a); prox_{tℓ*}(v) = v − t·max(0, (y + n v)/(1 + n t)) by Moreau's identity.
     */
    public static ConjugateLoss squaredNonNegative(double[] y) {
        double[] yy = checkFinite(y, "squared loss target");
        int n = yy.length;
        return new ConjugateLoss() {
            @Override
            public int size() {
                return n;
            }

            @Override
            public double value(double[] z) {
                double s = 0;
                for (int i = 0; i < n; i++) {
                    if (z[i] < 0) {
                        return Double.POSITIVE_INFINITY;
                    }
                    double d = z[i] - yy[i];
                    s += d * d;
                }
                return s / (2.0 * n);
            }

            @Override
            public double conjugate(double[] a) {
                double s = 0;
                for (int i = 0; i < n; i++) {
                    double z = Math.max(0, yy[i] + n * a[i]);
                    s += a[i] * z - (z - yy[i]) * (z - yy[i]) / (2.0 * n);
                }
                return s;
            }

            @Override
            public void proxConjugate(double t, double[] v, double[] out) {
                for (int i = 0; i < n; i++) {
                    double z = Math.max(0, (yy[i] + n * v[i]) / (1 + n * t));
                    out[i] = v[i] - t * z;
                }
            }
        };
    }

    static double[] checkFinite(double[] y, String what) {
        if (y == null || y.length == 0) {
            throw new IllegalArgumentException(what + ": no values");
        }
        for (int i = 0; i < y.length; i++) {
            if (!Double.isFinite(y[i])) {
                throw new IllegalArgumentException(what + ": value " + y[i] + " at index " + i + " is not finite");
            }
        }
        return y.clone();
    }
}
