package org.psdkit.optim.sdp;

/**
 * What {@link IpmCore} needs from an arithmetic and a problem structure to run the primal–dual interior-point
 * iteration: the residuals and objectives of the current iterate, the factorisations of an iteration, the HKM
 * direction for a given right-hand side R_c Z⁻¹ (predictor −X, corrector σμ Z⁻¹ − X − dXa dZa Z⁻¹), the distance to
 * the boundary of the cones along a direction, and the step. The implementation holds the iterate (X, y, Z) and the
 * quantities of the current iteration; the core holds the control flow and the rules (stopping, scoring, centring
 * parameter, step fraction).
 *
 * <p>Implementations: the double-precision iteration of {@link SdpSolver} (general coefficients), its double-double
 * restart ({@link DdSdpSolver}) and the Kernel SoS iteration ({@code org.psdkit.sos}, closed-form operators).
 *
 * @param <T> the stored form of the best iterate ({@link IterateMonitor})
 * @param <D> a search direction {dX, dZ, dy} in the implementation's arithmetic
 */
public interface IpmOperations<T, D> {

    /**
     * The residuals r_p = b − A(X) and R_d = C − Z − Σ y_i A_i of the current iterate, kept for the iteration, and
     * its measures ({@link IpmCore.Measures#of}).
     */
    IpmCore.Measures measure();

    /** A copy of the current iterate for the monitor (called only when it is the best so far). */
    T snapshot(int iteration, IpmCore.Measures measures);

    /** Called after the monitor has judged the current iterate (its score: {@link IterateMonitor#score}). */
    default void observed(int iteration, double score, IpmCore.Measures measures) {
    }

    /** An infeasibility certificate of the current iterate, or null. */
    default StopReason certificate(IpmCore.Measures measures) {
        return null;
    }

    /** A stop of this implementation's own, tested before the shared stagnation and limit rules; null to go on. */
    default StopReason earlyStop(int iteration, IpmCore.Measures measures, IterateMonitor<T> monitor) {
        return null;
    }

    /**
     * The factorisations of iteration {@code iteration} (Cholesky factors of X and Z, Z⁻¹, the Schur complement and
     * its factor).
     *
     * @return null, or why a factorisation failed (the run then stops with {@link SdpStatus#NUMERICAL_PROBLEMS})
     */
    String factor(int iteration);

    /** Forms the part h₀ = r_p + A(X R_d Z⁻¹) of the Schur right-hand side shared by both directions. */
    void prepareDirections();

    /** The predictor (affine-scaling) direction: R_c Z⁻¹ = −X. */
    D predictor();

    /**
     * The centred direction R_c Z⁻¹ = σμ Z⁻¹ − X − dXa dZa Z⁻¹ (Mehrotra's corrector) for {@code affine} = the
     * predictor, or σμ Z⁻¹ − X when {@code affine} is null (no corrector).
     */
    D centred(double sigmaMu, D affine);

    /** Largest α with X + α dX ⪰ 0 (+∞ when every α ≥ 0 is). */
    double maxPrimalStep(D direction);

    /** Largest α with Z + α dZ ⪰ 0 (+∞ when every α ≥ 0 is). */
    double maxDualStep(D direction);

    /** ⟨X + αp dXa, Z + αd dZa⟩ / n, the complementarity after the predictor step. */
    double affineMu(D affine, double ap, double ad);

    /** Whether every entry of the direction is finite (implementations that do not check: true). */
    default boolean finite(D direction) {
        return true;
    }

    /** The message of a stop for a non-finite step length or direction at {@code iteration}. */
    default String nonFinite(int iteration) {
        return "non-finite search direction at iteration " + iteration;
    }

    /**
     * Takes the step: X + ap dX and (y, Z) + ad (dy, dZ) at most; the implementation may shorten either to keep the
     * new point positive definite.
     *
     * @return null, or why no step could be taken
     */
    String step(int iteration, D direction, double ap, double ad);
}
