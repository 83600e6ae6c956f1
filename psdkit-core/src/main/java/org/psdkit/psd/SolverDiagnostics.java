package org.psdkit.psd;

/**
 * How a PSD model was obtained.
 *
 * @param iterations  solver iterations
 * @param dualityGap  primal value at the returned model minus the dual value (≥ 0 up to rounding)
 * @param objective   primal objective at the returned model
 * @param dualObjective dual objective value
 * @param seconds     wall-clock training time (solver only)
 * @param rank        rank of B (number of columns of its factor)
 * @param featureRank dimension r of the empirical feature map (rank of K kept)
 * @param status      solver status (CONVERGED, MAX_ITERATIONS, TIME_LIMIT, NUMERICAL_FAILURE, or a baseline's own)
 */
public record SolverDiagnostics(int iterations, double dualityGap, double objective, double dualObjective,
                                double seconds, int rank, int featureRank, String status) {

    /** Relative duality gap: gap / max(|primal|, |dual|) (0 when both vanish). */
    public double relativeGap() {
        return relative(dualityGap, objective, dualObjective);
    }

    /** gap / max(|primal|, |dual|), 0 when both vanish. */
    public static double relative(double gap, double primal, double dual) {
        double scale = Math.max(Math.abs(primal), Math.abs(dual));
        return scale == 0 ? (gap == 0 ? 0 : Double.POSITIVE_INFINITY) : gap / scale;
    }
}
