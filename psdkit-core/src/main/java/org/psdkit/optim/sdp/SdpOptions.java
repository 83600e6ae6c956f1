package org.psdkit.optim.sdp;

import org.psdkit.optim.ProgressListener;

/**
 * Options of {@link SdpSolver}. Immutable; the constructor checks every field.
 *
 * @param gapTolerance        stop when |⟨C,X⟩ − bᵀy| / (1 + |⟨C,X⟩| + |bᵀy|) is below this (and both
 *                            infeasibilities are small)
 * @param feasibilityTolerance stop when ‖A(X) − b‖/(1 + ‖b‖) and ‖C − Z − Σ y_i A_i‖_F/(1 + ‖C‖_F) are below this
 * @param infeasibilityTolerance declare infeasibility when a certificate's relative residual is below this
 * @param maxIterations       iteration limit
 * @param timeLimitSeconds    time limit (≤ 0: none)
 * @param cpuTime             measure the time limit in CPU time of the calling thread (the solver and its
 *                            single-threaded BLAS run there) instead of wall-clock time: for benchmarks on shared
 *                            machines
 * @param corrector           use Mehrotra's corrector step (false: predictor-free path-following with a fixed
 *                            centring parameter, the baseline of the benchmark)
 * @param schur               how the Schur complement is formed
 * @param listener            called after every iteration with task {@value SdpSolver#TASK}, measure
 *                            {@code "gap"} = |⟨C,X⟩ − bᵀy| / (1 + |⟨C,X⟩| + |bᵀy|) (null: none)
 * @param doubleDouble        allow the double-double restart ({@link DdSdpSolver}) when the double-precision run
 *                            misses a tolerance (default true). False returns the double-precision run's best point,
 *                            as a solver without that end-game (CSDP, SDPA) would. On problems without a strictly
 *                            feasible point this is much faster (SDPLIB's qap6–10 and hinf13–15,
 *                            docs/benchmarks/sdp.md), and the answer is then not certified: status near-optimal or
 *                            numerical problems, with the measures in the message
 */
public record SdpOptions(double gapTolerance, double feasibilityTolerance, double infeasibilityTolerance,
                         int maxIterations, double timeLimitSeconds, boolean cpuTime, boolean corrector, SchurMode schur,
                         ProgressListener listener, boolean doubleDouble) {

    /**
     * Default gap and feasibility tolerance 1e-8: the usual setting of SDPT3 and CSDP (which report 7–8 digits), two
     * orders below the 1e-6 relative accuracy asked of SDPLIB solutions.
     */
    public static final double DEFAULT_TOLERANCE = 1e-8;
    /** Infeasibility-certificate tolerance 1e-8, as in SDPT3's default {@code inftol}. */
    public static final double DEFAULT_INFEASIBILITY_TOLERANCE = 1e-8;
    /** 100 iterations: interior-point methods need 15–60 on SDPLIB; more means stalling. */
    public static final int DEFAULT_MAX_ITERATIONS = 100;

    /** Schur-complement formation. */
    public enum SchurMode {
        /** Per constraint, the cheaper of the dense and the sparse formula by an operation count. */
        AUTO,
        /** Always the dense formula G_j = X A_j Z⁻¹ (the benchmark's baseline). */
        DENSE
    }

    public SdpOptions {
        if (!(gapTolerance > 0) || !(feasibilityTolerance > 0) || !(infeasibilityTolerance > 0)) {
            throw new IllegalArgumentException("SDP tolerances must be positive, got gap=" + gapTolerance
                    + ", feasibility=" + feasibilityTolerance + ", infeasibility=" + infeasibilityTolerance);
        }
        if (maxIterations < 1) {
            throw new IllegalArgumentException("maxIterations must be >= 1, got " + maxIterations);
        }
        if (Double.isNaN(timeLimitSeconds)) {
            throw new IllegalArgumentException("timeLimitSeconds is NaN");
        }
        if (schur == null) {
            throw new IllegalArgumentException("schur mode must not be null");
        }
    }

    public static SdpOptions defaults() {
        return new SdpOptions(DEFAULT_TOLERANCE, DEFAULT_TOLERANCE, DEFAULT_INFEASIBILITY_TOLERANCE,
                DEFAULT_MAX_ITERATIONS, 0, false, true, SchurMode.AUTO, null, true);
    }

    public SdpOptions withTolerance(double tol) {
        return new SdpOptions(tol, tol, infeasibilityTolerance, maxIterations, timeLimitSeconds, cpuTime, corrector,
                schur, listener, doubleDouble);
    }

    public SdpOptions withMaxIterations(int n) {
        return new SdpOptions(gapTolerance, feasibilityTolerance, infeasibilityTolerance, n, timeLimitSeconds,
                cpuTime, corrector, schur, listener, doubleDouble);
    }

    public SdpOptions withTimeLimit(double seconds) {
        return new SdpOptions(gapTolerance, feasibilityTolerance, infeasibilityTolerance, maxIterations, seconds,
                cpuTime, corrector, schur, listener, doubleDouble);
    }

    /** The same time limit measured in CPU seconds of the solving thread. */
    public SdpOptions withCpuTimeLimit(double seconds) {
        return new SdpOptions(gapTolerance, feasibilityTolerance, infeasibilityTolerance, maxIterations, seconds,
                true, corrector, schur, listener, doubleDouble);
    }

    public SdpOptions withCorrector(boolean on) {
        return new SdpOptions(gapTolerance, feasibilityTolerance, infeasibilityTolerance, maxIterations,
                timeLimitSeconds, cpuTime, on, schur, listener, doubleDouble);
    }

    public SdpOptions withSchur(SchurMode mode) {
        return new SdpOptions(gapTolerance, feasibilityTolerance, infeasibilityTolerance, maxIterations,
                timeLimitSeconds, cpuTime, corrector, mode, listener, doubleDouble);
    }

    public SdpOptions withListener(ProgressListener l) {
        return new SdpOptions(gapTolerance, feasibilityTolerance, infeasibilityTolerance, maxIterations,
                timeLimitSeconds, cpuTime, corrector, schur, l, doubleDouble);
    }

    /** Whether the double-double restart may run ({@code doubleDouble}). */
    public SdpOptions withDoubleDouble(boolean on) {
        return new SdpOptions(gapTolerance, feasibilityTolerance, infeasibilityTolerance, maxIterations,
                timeLimitSeconds, cpuTime, corrector, schur, listener, on);
    }
}
