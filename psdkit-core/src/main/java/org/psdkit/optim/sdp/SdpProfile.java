package org.psdkit.optim.sdp;

/**
 * Where the wall time of an SDP solve went (seconds of {@link System#nanoTime()}), for benchmarks and diagnostics.
 *
 * @param schurSeconds   forming the Schur complement M_ij = ⟨A_i, X A_j Z⁻¹⟩
 * @param factorSeconds  the Cholesky factorisation of M
 * @param stepSeconds    the rest of each step: Cholesky of X and Z, Z⁻¹, the search directions (solves with M,
 *                       refinement, dX), and the step lengths (eigenvalues)
 * @param otherSeconds   everything else (residuals, objectives, stopping tests, result assembly), the double-double
 *                       restart excluded
 * @param ddSeconds      the double-double restart ({@link DdSdpSolver}); 0 when it did not run
 * @param ddRestart      whether the double-double restart ran
 * @param doubleIterations iterations of the double-precision run
 */
public record SdpProfile(double schurSeconds, double factorSeconds, double stepSeconds, double otherSeconds,
                         double ddSeconds, boolean ddRestart, int doubleIterations) {

    /** No profile recorded. */
    public static final SdpProfile NONE = new SdpProfile(0, 0, 0, 0, 0, false, 0);

    /** Total of the parts. */
    public double totalSeconds() {
        return schurSeconds + factorSeconds + stepSeconds + otherSeconds + ddSeconds;
    }
}
