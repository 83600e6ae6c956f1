package org.psdkit.optim;

/**
 * Options of {@link Fista}.
 *
 * @param maxIterations    iteration budget (≥ 1)
 * @param timeLimitSeconds wall-clock budget (> 0, may be infinite)
 * @param lipschitz        a Lipschitz constant of ∇h (fixed step 1/L, one evaluation of h per iteration), or NaN
 *                         for backtracking (two or more evaluations per iteration)
 * @param adaptiveRestart  gradient-based adaptive restart of the momentum (O'Donoghue and Candès, 2015)
 */
public record FistaOptions(int maxIterations, double timeLimitSeconds, double lipschitz, boolean adaptiveRestart) {

    /** Initial Lipschitz guess of backtracking when none is given. */
    public static final double BACKTRACK_INITIAL_LIPSCHITZ = 1.0;
    /** Backtracking multiplies L by this factor until the quadratic upper bound holds (the usual doubling). */
    public static final double BACKTRACK_FACTOR = 2.0;

    public FistaOptions {
        if (maxIterations < 1) {
            throw new IllegalArgumentException("maxIterations must be >= 1, got " + maxIterations);
        }
        if (!(timeLimitSeconds > 0)) {
            throw new IllegalArgumentException("timeLimitSeconds must be > 0, got " + timeLimitSeconds);
        }
        if (!Double.isNaN(lipschitz) && !(lipschitz > 0 && Double.isFinite(lipschitz))) {
            throw new IllegalArgumentException("lipschitz must be > 0 and finite (or NaN for backtracking), got "
                    + lipschitz);
        }
    }

    public static FistaOptions withLipschitz(double lipschitz, int maxIterations) {
        return new FistaOptions(maxIterations, Double.POSITIVE_INFINITY, lipschitz, true);
    }

    public static FistaOptions backtracking(int maxIterations) {
        return new FistaOptions(maxIterations, Double.POSITIVE_INFINITY, Double.NaN, true);
    }

    public FistaOptions withTimeLimit(double seconds) {
        return new FistaOptions(maxIterations, seconds, lipschitz, adaptiveRestart);
    }

    public FistaOptions withRestart(boolean restart) {
        return new FistaOptions(maxIterations, timeLimitSeconds, lipschitz, restart);
    }
}
