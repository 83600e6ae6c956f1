package org.psdkit.optim.sdp;

import org.psdkit.linalg.Matrix;

/**
 * Outcome of an SDP solve: the last iterate and its diagnostics. X and Z are per block (a diagonal block is
 * returned as an n×1 column).
 *
 * @param status              how the solve ended
 * @param x                   primal matrix X, per block
 * @param y                   dual vector y
 * @param z                   dual slack Z, per block
 * @param primalObjective     ⟨C, X⟩
 * @param dualObjective       bᵀy
 * @param relativeGap         |⟨C,X⟩ − bᵀy| / (1 + |⟨C,X⟩| + |bᵀy|)
 * @param primalInfeasibility ‖A(X) − b‖/(1 + ‖b‖)
 * @param dualInfeasibility   ‖C − Z − Σ y_i A_i‖_F/(1 + ‖C‖_F)
 * @param iterations          iterations done
 * @param seconds             wall-clock time
 * @param message             one line saying why the solver stopped
 * @param lowerBound          a verified lower bound on (P)'s optimal value (= an upper bound on −optimum in SDPA's
 *                            sign convention): bᵀy of an iterate y whose C − Σ y_i A_i, recomputed in double from the
 *                            data, has λ_min above a rounding-error margin; computed only when the solve did not end
 *                            optimal or infeasible, otherwise (and when no iterate passes) NaN
 * @param profile             where the wall time went ({@link SdpProfile#NONE} when not recorded)
 */
public record SdpResult(SdpStatus status, Matrix[] x, double[] y, Matrix[] z, double primalObjective,
                        double dualObjective, double relativeGap, double primalInfeasibility,
                        double dualInfeasibility, int iterations, double seconds, String message,
                        double lowerBound, SdpProfile profile) {

    public SdpResult {
        profile = profile == null ? SdpProfile.NONE : profile;
    }

    /** A result without a profile. */
    public SdpResult(SdpStatus status, Matrix[] x, double[] y, Matrix[] z, double primalObjective,
                     double dualObjective, double relativeGap, double primalInfeasibility,
                     double dualInfeasibility, int iterations, double seconds, String message, double lowerBound) {
        this(status, x, y, z, primalObjective, dualObjective, relativeGap, primalInfeasibility, dualInfeasibility,
                iterations, seconds, message, lowerBound, SdpProfile.NONE);
    }

    /** A result without a verified bound ({@link #lowerBound()} NaN). */
    public SdpResult(SdpStatus status, Matrix[] x, double[] y, Matrix[] z, double primalObjective,
                     double dualObjective, double relativeGap, double primalInfeasibility,
                     double dualInfeasibility, int iterations, double seconds, String message) {
        this(status, x, y, z, primalObjective, dualObjective, relativeGap, primalInfeasibility, dualInfeasibility,
                iterations, seconds, message, Double.NaN);
    }

    /** The same result with another status, message and bound. */
    SdpResult with(SdpStatus newStatus, String newMessage, double newLowerBound) {
        return new SdpResult(newStatus, x, y, z, primalObjective, dualObjective, relativeGap, primalInfeasibility,
                dualInfeasibility, iterations, seconds, newMessage, newLowerBound, profile);
    }

    /** The same result with a profile. */
    SdpResult withProfile(SdpProfile p) {
        return new SdpResult(status, x, y, z, primalObjective, dualObjective, relativeGap, primalInfeasibility,
                dualInfeasibility, iterations, seconds, message, lowerBound, p);
    }

    public boolean isOptimal() {
        return status == SdpStatus.OPTIMAL;
    }
}
