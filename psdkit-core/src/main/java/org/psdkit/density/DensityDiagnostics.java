package org.psdkit.density;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a density fit reports: primal objective (in the user's λ scale), dual value, relative duality gap,
 * iterations, seconds, whether the tolerance was met, and the integral ∫ f dν of the solver's candidate before the
 * final exact rescaling (its distance from 1 measures how well the constraint was met by the iterate itself),
 * the feature space the problem was solved in: {@code rank} eigen-directions of the Gram matrix of the expansion
 * points above {@code rankThreshold}·λ_max (NaN: no threshold, e.g. NCM's n coefficients) and the number of
 * expansion points {@code anchors} (n for the exact model). The objective and gap are those of the problem
 * restricted to these directions, not of the full span of k(·, x_i). {@code eigenSeconds} is not written to model
 * files.
 */
public record DensityDiagnostics(double objective, double dual, double relativeGap, int iterations, double seconds,
                                 boolean converged, double integralBeforeRescale, int rank, double eigenSeconds,
                                 double rankThreshold, int anchors) implements org.psdkit.model.Diagnostics {

    /** The keys of {@link #toMap()}, in order. */
    public static final List<String> KEYS = List.of("objective", "dual", "relativeGap", "iterations", "seconds",
            "converged", "integralBeforeRescale", "rank", "rank_threshold", "anchors");

    /**
     * The model file's {@code diagnostics} object: objective, dual, relativeGap, iterations, seconds, converged,
     * integralBeforeRescale, rank, rank_threshold (null when not finite) and anchors.
     */
    @Override
    public Map<String, Object> toMap() {
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("objective", objective);
        d.put("dual", dual);
        d.put("relativeGap", relativeGap);
        d.put("iterations", iterations);
        d.put("seconds", seconds);
        d.put("converged", converged);
        d.put("integralBeforeRescale", integralBeforeRescale);
        d.put("rank", rank);
        d.put("rank_threshold", Double.isFinite(rankThreshold) ? rankThreshold : null);
        d.put("anchors", anchors);
        return d;
    }

    /**
     * The diagnostics a model file recorded ({@link #toMap()}'s form), or null when a key is missing or not of its
     * type (the file is then read as {@link org.psdkit.model.Diagnostics#recorded}). {@code eigenSeconds} is NaN.
     */
    public static DensityDiagnostics fromMap(Map<String, Object> m) {
        if (m == null || !m.keySet().containsAll(KEYS) || m.size() != KEYS.size()
                || !(m.get("converged") instanceof Boolean conv)) {
            return null;
        }
        Double obj = number(m.get("objective"));
        Double dual = number(m.get("dual"));
        Double gap = number(m.get("relativeGap"));
        Double it = number(m.get("iterations"));
        Double secs = number(m.get("seconds"));
        Double integral = number(m.get("integralBeforeRescale"));
        Double rank = number(m.get("rank"));
        Object rtv = m.get("rank_threshold");
        Double rt = rtv == null ? Double.valueOf(Double.NaN) : number(rtv);
        Double anchors = number(m.get("anchors"));
        if (obj == null || dual == null || gap == null || it == null || secs == null || integral == null
                || rank == null || rt == null || anchors == null) {
            return null;
        }
        return new DensityDiagnostics(obj, dual, gap, it.intValue(), secs, conv, integral, rank.intValue(),
                Double.NaN, rt, anchors.intValue());
    }

    /**
     * The diagnostics of a fit run by a distributed engine: those of the fit, then {@code engine} (e.g.
     * {@code spark}) last.
     *
     * @param fit    what the solver reported
     * @param engine the engine that ran the fit
     */
    public record OnEngine(DensityDiagnostics fit, String engine) implements org.psdkit.model.Diagnostics {
        public OnEngine {
            org.psdkit.model.ParameterException.required("fit", fit);
            org.psdkit.model.ParameterException.required("engine", engine);
        }

        @Override
        public Map<String, Object> toMap() {
            Map<String, Object> d = fit.toMap();
            d.put("engine", engine);
            return d;
        }

        /** The record of a model file's diagnostics ({@link #toMap()}'s form), or null as {@link #fromMap}. */
        public static OnEngine fromMap(Map<String, Object> m) {
            if (m == null || !(m.get("engine") instanceof String e)) {
                return null;
            }
            Map<String, Object> rest = new LinkedHashMap<>(m);
            rest.remove("engine");
            DensityDiagnostics f = DensityDiagnostics.fromMap(rest);
            return f == null ? null : new OnEngine(f, e);
        }
    }

    private static Double number(Object v) {
        if (v instanceof Number n) {
            return n.doubleValue();
        }
        if (v instanceof String s) {
            // JSON has no NaN or infinity: model files hold them as the strings "NaN", "Infinity", "-Infinity"
            return switch (s) {
                case "NaN" -> Double.NaN;
                case "Infinity" -> Double.POSITIVE_INFINITY;
                case "-Infinity" -> Double.NEGATIVE_INFINITY;
                default -> null;
            };
        }
        return null;
    }
}
