package org.psdkit.cone;

/** The pinball (check) loss and its Moreau envelope. */
public final class Pinball {

    private Pinball() {
    }

    /** ρ_τ(u) = max(τu, (τ−1)u) with u = y − q. */
    public static double loss(double tau, double u) {
        return u >= 0 ? tau * u : (tau - 1) * u;
    }

    /**
     * Moreau envelope of ρ_τ with parameter μ > 0 at u; writes dρ^μ/du into grad[0]. It is within μ·max(τ,1−τ)²/2 of
     * ρ_τ and 1/μ-smooth.
     */
    public static double envelope(double tau, double u, double mu, double[] grad) {
        if (u >= mu * tau) {
            grad[0] = tau;
            return tau * u - 0.5 * mu * tau * tau;
        }
        if (u <= -mu * (1 - tau)) {
            grad[0] = tau - 1;
            return (tau - 1) * u - 0.5 * mu * (1 - tau) * (1 - tau);
        }
        grad[0] = u / mu;
        return u * u / (2 * mu);
    }
}
