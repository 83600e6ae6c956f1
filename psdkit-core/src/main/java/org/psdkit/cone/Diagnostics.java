package org.psdkit.cone;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Solver diagnostics carried by a fitted model (gap/dual NaN for the primal baselines), and the feature space of its
 * PSD blocks: {@code rank} eigen-directions of the kernel matrix of the {@code anchors} expansion points above
 * {@code rankThreshold}·λ_max (the objective and gap are those of the problem restricted to them); rank 0 and
 * threshold NaN when the method has no PSD block.
 */
public record Diagnostics(int iterations, double primal, double dual, double gap, double infeasibility,
                          boolean converged, int restarts, double seconds, int rank, double rankThreshold,
                          int anchors) implements org.psdkit.model.Diagnostics {

    /** The keys of {@link #toMap()}, in order. */
    public static final java.util.List<String> KEYS = java.util.List.of("iterations", "primal", "dual", "gap",
            "relative_gap", "infeasibility", "converged", "restarts", "seconds", "rank", "rank_threshold", "anchors");

    /** What a model read from a file carries when its {@code diagnostics} say nothing. */
    public static final Diagnostics STORED = new Diagnostics(0, Double.NaN, Double.NaN, Double.NaN, Double.NaN, true,
            0, 0);

    /** Diagnostics without a PSD feature space. */
    public Diagnostics(int iterations, double primal, double dual, double gap, double infeasibility,
                       boolean converged, int restarts, double seconds) {
        this(iterations, primal, dual, gap, infeasibility, converged, restarts, seconds, 0, Double.NaN, 0);
    }

    public static Diagnostics of(ConeDualSolver.Result r, long startNanos) {
        return new Diagnostics(r.iterations(), r.primal(), r.dual(), r.gap(), r.infeasibility(), r.converged(),
                r.restarts(), (System.nanoTime() - startNanos) * 1e-9);
    }

    /**
     * The relative duality gap (P − D)/(1 + |P|) of {@link ConeDualSolver#relativeGap}, the quantity {@code converged}
     * was decided on (with the infeasibility); NaN for the primal baselines, which have no dual.
     */
    public double relativeGap() {
        return ConeDualSolver.relativeGap(primal, gap);
    }

    /** These diagnostics with the feature space of the fit. */
    public Diagnostics withFeatureSpace(int featureRank, double threshold, int expansionPoints) {
        return new Diagnostics(iterations, primal, dual, gap, infeasibility, converged, restarts, seconds,
                featureRank, threshold, expansionPoints);
    }

    /** The fields by name, in declaration order (the model file's {@code diagnostics} object). */
    @Override
    public Map<String, Object> toMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("iterations", iterations);
        m.put("primal", primal);
        m.put("dual", dual);
        m.put("gap", gap);
        m.put("relative_gap", relativeGap());
        m.put("infeasibility", infeasibility);
        m.put("converged", converged);
        m.put("restarts", restarts);
        m.put("seconds", seconds);
        m.put("rank", rank);
        m.put("rank_threshold", rankThreshold);
        m.put("anchors", anchors);
        return m;
    }

    /** Reads {@link #toMap()}'s fields back; missing or non-numeric fields take the values of {@link #STORED}. */
    public static Diagnostics fromMap(Map<String, Object> m) {
        return new Diagnostics((int) number(m, "iterations", 0), number(m, "primal", Double.NaN),
                number(m, "dual", Double.NaN), number(m, "gap", Double.NaN), number(m, "infeasibility", Double.NaN),
                !(m.get("converged") instanceof Boolean b) || b, (int) number(m, "restarts", 0),
                number(m, "seconds", 0), (int) number(m, "rank", 0), number(m, "rank_threshold", Double.NaN),
                (int) number(m, "anchors", 0));
    }

    /**
     * The diagnostics a model file recorded, when it holds exactly {@link #toMap()}'s keys with numbers and a boolean
     * {@code converged}; otherwise null (the file is then read as {@link org.psdkit.model.Diagnostics#recorded}).
     */
    public static Diagnostics typed(Map<String, Object> m) {
        if (m == null || m.size() != KEYS.size() || !m.keySet().containsAll(KEYS)
                || !(m.get("converged") instanceof Boolean)) {
            return null;
        }
        for (String k : KEYS) {
            if (!k.equals("converged") && !(m.get(k) instanceof Number)) {
                return null;
            }
        }
        return fromMap(m);
    }

    private static double number(Map<String, Object> m, String key, double dflt) {
        Object v = m.get(key);
        if (v instanceof Number n) {
            return n.doubleValue();
        }
        if (v instanceof String s) {
            // JSON has no NaN or infinity: model files hold them as the strings "NaN", "Infinity", "-Infinity"
            switch (s) {
                case "NaN" -> {
                    return Double.NaN;
                }
                case "Infinity" -> {
                    return Double.POSITIVE_INFINITY;
                }
                case "-Infinity" -> {
                    return Double.NEGATIVE_INFINITY;
                }
                default -> {
                    return dflt;
                }
            }
        }
        return dflt;
    }
}
