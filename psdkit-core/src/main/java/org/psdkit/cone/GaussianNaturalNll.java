package org.psdkit.cone;

/**
 * Heteroscedastic Gaussian negative log-likelihood in the natural parameters η = μ/v, θ = 1/v (Marteau-Ferey, Bach and
 * Rudi 2020, Sec. 6):
 * ℓ_i(η, θ) = w_i [ −½ log θ + y_i²θ/2 − y_iη + η²/(2θ) + ½ log 2π ], +∞ for θ ≤ 0. This equals
 * w_i [½ log(2πv) + (y_i − μ)²/(2v)] and is jointly convex (η²/θ is a perspective).
 *
 * <p>Conjugate of φ = ℓ_i/w_i: maximising aη + bθ − φ over η gives η = θ(a + y), then over θ gives
 * φ^*(a, b) = −½ − ½ log(−2c) − ½ log 2π with c = b + a y + a²/2, +∞ when c ≥ 0; and (wφ)^*(α) = w φ^*(α/w).
 * The prox of the conjugate goes through Moreau's identity prox_{s f^*}(v) = v − s prox_{f/s}(v/s); the prox of φ
 * reduces, after eliminating η = θ(y t + u₁)/(t + θ), to the root of an increasing function of θ, found by
 * safeguarded Newton.
 */
public final class GaussianNaturalNll implements PointLoss {

    private static final double HALF_LOG_2PI = 0.5 * Math.log(2 * Math.PI);
    /** Relative accuracy of the θ root (a few ulps above double rounding). */
    private static final double ROOT_RTOL = 1e-14;
    /** Iteration cap of the safeguarded Newton search; bisection alone needs ~1100 halvings across all doubles. */
    private static final int ROOT_MAX_ITER = 200;
    /** Ulps by which a prox result that rounding put on the boundary c = 0 of dom φ^* is pushed back inside. */
    private static final double BOUNDARY_ULPS = 4;
    /** Bracket limits of the θ search: beyond these the root is outside the range of normal doubles. */
    private static final double THETA_MAX = 1e300;

    private final double[] y;
    private final double[] w;

    public GaussianNaturalNll(double[] y, double[] w) {
        this.y = y;
        this.w = w;
    }

    @Override
    public int outputs() {
        return 2;
    }

    /** Unweighted φ(η, θ) for target y. */
    public static double nll(double y, double eta, double theta) {
        if (!(theta > 0)) {
            return Double.POSITIVE_INFINITY;
        }
        return -0.5 * Math.log(theta) + 0.5 * y * y * theta - y * eta + 0.5 * eta * eta / theta + HALF_LOG_2PI;
    }

    @Override
    public double value(int i, double[] z) {
        return w[i] * nll(y[i], z[0], z[1]);
    }

    @Override
    public double conjugate(int i, double[] alpha) {
        double a = alpha[0] / w[i];
        double b = alpha[1] / w[i];
        double c = b + a * y[i] + 0.5 * a * a;
        if (!(c < 0)) {
            return Double.POSITIVE_INFINITY;
        }
        return w[i] * (-0.5 - 0.5 * Math.log(-2 * c) - HALF_LOG_2PI);
    }

    @Override
    public void proxConjugate(int i, double[] v, double s, double[] out) {
        double[] z = prox(y[i], v[0] / s, v[1] / s, w[i] / s);
        out[0] = v[0] - s * z[0];
        out[1] = v[1] - s * z[1];
        // Keep the result strictly inside dom φ^*: rounding in the subtraction above can land on c = 0 when θ is huge.
        double a = out[0] / w[i];
        double c = out[1] / w[i] + a * y[i] + 0.5 * a * a;
        if (!(c < 0)) {
            out[1] = w[i] * (-a * y[i] - 0.5 * a * a) - Math.ulp(out[1]) * BOUNDARY_ULPS - Double.MIN_NORMAL;
        }
    }

    @Override
    public void dualStart(int i, double[] out) {
        out[0] = 0;
        out[1] = -0.5 * w[i];
    }

    /** prox_{tφ}(u₁, u₂) = argmin φ(η, θ) + ‖(η, θ) − u‖²/(2t). */
    static double[] prox(double y, double u1, double u2, double t) {
        double q = y * t + u1;
        // h'(θ) = −1/(2θ) + y²/2 − ρ²/2 + (θ − u₂)/t with ρ = q/(t + θ); increasing in θ.
        double lo = 1.0;
        while (dh(lo, y, q, u2, t) > 0) {
            lo *= 0.5;
            if (lo < Double.MIN_NORMAL) {
                break;
            }
        }
        double hi = Math.max(1.0, lo);
        while (dh(hi, y, q, u2, t) < 0) {
            hi *= 2;
            if (hi > THETA_MAX) {
                break;
            }
        }
        double th = 0.5 * (lo + hi);
        for (int it = 0; it < ROOT_MAX_ITER; it++) {
            double g = dh(th, y, q, u2, t);
            if (g > 0) {
                hi = th;
            } else {
                lo = th;
            }
            double rho = q / (t + th);
            double h2 = 0.5 / (th * th) + rho * rho / (t + th) + 1.0 / t;
            double next = th - g / h2;
            if (!(next > lo && next < hi)) {
                next = 0.5 * (lo + hi);
            }
            if (Math.abs(next - th) <= ROOT_RTOL * th || hi - lo <= ROOT_RTOL * hi) {
                th = next;
                break;
            }
            th = next;
        }
        double eta = th * q / (t + th);
        return new double[] {eta, th};
    }

    private static double dh(double th, double y, double q, double u2, double t) {
        double rho = q / (t + th);
        return -0.5 / th + 0.5 * y * y - 0.5 * rho * rho + (th - u2) / t;
    }
}
