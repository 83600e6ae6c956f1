package org.psdkit.optim.sdp;

/**
 * How an SDP solve ended. "Primal" and "dual" refer to the pair of {@link SdpProblem}: (P) min ⟨C,X⟩ over X and
 * (D) max bᵀy over y.
 */
public enum SdpStatus {
    /** Relative gap and both infeasibilities below their tolerances. */
    OPTIMAL,
    /**
     * The method stopped (stagnation, iteration limit or numerical trouble) at an iterate that meets every tolerance
     * within a factor 100 (relative gap and infeasibilities ≤ 1e-6 with the defaults); that iterate is returned.
     */
    NEAR_OPTIMAL,
    /** (P) has no feasible X: the iterate y is a certificate (bᵀy &gt; 0 with Σ y_i A_i ⪯ 0 up to tolerance). */
    PRIMAL_INFEASIBLE,
    /** (D) has no feasible y: the iterate X is a certificate (⟨C,X⟩ &lt; 0, X ⪰ 0, A(X) = 0 up to tolerance). */
    DUAL_INFEASIBLE,
    /** The iteration limit was reached before convergence. */
    ITERATION_LIMIT,
    /** The time limit was reached before convergence. */
    TIME_LIMIT,
    /** The method stalled (tiny steps, or a Schur complement that could not be factored); the result is the last
     *  iterate with its diagnostics. */
    NUMERICAL_PROBLEMS,
    /**
     * The method did not converge and its iterates diverged far beyond the size of the data and of the objective
     * (by a factor 1e6, {@code IpmSettings.illPosedRatio}): the normalised iterate is an approximate certificate that one side has no
     * strictly feasible point, so the optimum of the other side is not attained (or only approached as its
     * iterates grow without bound). The returned point's value is not certified; {@link SdpResult#lowerBound()}
     * holds a verified lower bound on (P)'s optimal value when one was found. The message says which side.
     */
    ILL_POSED;

    /** Lower-case name used in JSON output. */
    public String label() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
