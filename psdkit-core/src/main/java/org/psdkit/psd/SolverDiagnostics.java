package org.psdkit.psd;

import java.util.LinkedHashMap;
import java.util.Map;

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
 * @param rankThreshold relative eigenvalue threshold of the feature map (eigen-directions of K at or below
 *                    rankThreshold·λ_max were dropped; the objective and gap are those of the problem restricted to
 *                    the featureRank others); NaN when the model has no feature map (the baselines' n coefficients)
 * @param anchors     number of expansion points (n for the exact model)
 */
public record SolverDiagnostics(int iterations, double dualityGap, double objective, double dualObjective,
                                double seconds, int rank, int featureRank, String status, double rankThreshold,
                                int anchors) implements org.psdkit.model.Diagnostics {

    /** The keys of {@link #toMap()}, in order. */
    public static final java.util.List<String> KEYS = java.util.List.of("iterations", "duality_gap", "objective",
            "dual_objective", "seconds", "rank", "feature_rank", "status", "rank_threshold", "anchors");

    /** Diagnostics of a model without a feature map: no threshold, {@code featureRank} expansion points. */
    public SolverDiagnostics(int iterations, double dualityGap, double objective, double dualObjective,
                             double seconds, int rank, int featureRank, String status) {
        this(iterations, dualityGap, objective, dualObjective, seconds, rank, featureRank, status, Double.NaN,
                featureRank);
    }

    /** Relative duality gap: gap / max(|primal|, |dual|) (0 when both vanish). */
    public double relativeGap() {
        return relative(dualityGap, objective, dualObjective);
    }

    /** gap / max(|primal|, |dual|), 0 when both vanish. */
    public static double relative(double gap, double primal, double dual) {
        double scale = Math.max(Math.abs(primal), Math.abs(dual));
        return scale == 0 ? (gap == 0 ? 0 : Double.POSITIVE_INFINITY) : gap / scale;
    }

    /**
     * The diagnostics as model files hold them ({@code iterations, duality_gap, objective, dual_objective, seconds,
     * rank, feature_rank, status, rank_threshold, anchors}); a number that is not finite is {@code null}.
     */
    @Override
    public Map<String, Object> toMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("iterations", iterations);
        m.put("duality_gap", finiteOrNull(dualityGap));
        m.put("objective", finiteOrNull(objective));
        m.put("dual_objective", finiteOrNull(dualObjective));
        m.put("seconds", seconds);
        m.put("rank", rank);
        m.put("feature_rank", featureRank);
        m.put("status", status);
        m.put("rank_threshold", finiteOrNull(rankThreshold));
        m.put("anchors", anchors);
        return m;
    }

    /** Diagnostics from their map form ({@link #toMap()}); missing or null numbers are NaN or 0. */
    public static SolverDiagnostics fromMap(Map<String, ?> m) {
        return new SolverDiagnostics((int) number(m, "iterations", 0), number(m, "duality_gap", Double.NaN),
                number(m, "objective", Double.NaN), number(m, "dual_objective", Double.NaN),
                number(m, "seconds", Double.NaN), (int) number(m, "rank", 0), (int) number(m, "feature_rank", 0),
                m.get("status") == null ? "stored" : m.get("status").toString(),
                number(m, "rank_threshold", Double.NaN), (int) number(m, "anchors", number(m, "feature_rank", 0)));
    }

    /**
     * The diagnostics a model file recorded, when it holds exactly {@link #toMap()}'s keys with numbers (or null) and
     * a text status; otherwise null (the file is then read as {@link org.psdkit.model.Diagnostics#recorded}).
     */
    public static SolverDiagnostics typed(Map<String, ?> m) {
        if (m == null || m.size() != KEYS.size() || !m.keySet().containsAll(KEYS)
                || !(m.get("status") instanceof String)) {
            return null;
        }
        for (String k : KEYS) {
            Object v = m.get(k);
            if (!k.equals("status") && v != null && !(v instanceof Number)) {
                return null;
            }
        }
        for (String k : new String[] {"iterations", "seconds", "rank", "feature_rank", "anchors"}) {
            if (m.get(k) == null) {
                return null;
            }
        }
        return fromMap(m);
    }

    private static double number(Map<String, ?> m, String key, double dflt) {
        return m.get(key) instanceof Number n ? n.doubleValue() : dflt;
    }

    private static Double finiteOrNull(double v) {
        return Double.isFinite(v) ? v : null;
    }
}
