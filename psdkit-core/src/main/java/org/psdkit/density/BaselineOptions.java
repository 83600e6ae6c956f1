package org.psdkit.density;

import java.util.Map;

/** Checks and model-file options shared by the baseline density trainers (NCM, PNM, GLM). */
final class BaselineOptions {
    private BaselineOptions() {
    }

    static void check(org.psdkit.kernel.Kernel kernel, BaseMeasure base, double lambda, double tolerance,
                      int maxIterations) {
        if (kernel == null) {
            throw new IllegalArgumentException("kernel must not be null");
        }
        if (base == null) {
            throw new IllegalArgumentException("base measure must not be null");
        }
        if (!(lambda > 0) || !Double.isFinite(lambda)) {
            throw new IllegalArgumentException("lambda must be > 0 and finite, got " + lambda);
        }
        if (!(tolerance > 0)) {
            throw new IllegalArgumentException("tolerance must be > 0, got " + tolerance);
        }
        if (maxIterations < 1) {
            throw new IllegalArgumentException("maxIterations must be >= 1, got " + maxIterations);
        }
    }

    /**
     * The options as model files hold them: {@code {"lambda": "0.001"}}; a Nyström model adds {@code anchors} (the
     * number requested), {@code anchor_method} and {@code anchor_seed} (the anchors themselves are the model's points).
     */
    static Map<String, Object> hyperParameters(double lambda, org.psdkit.psd.Nystrom nystrom) {
        Map<String, Object> h = new java.util.LinkedHashMap<>();
        h.put("lambda", String.valueOf(lambda));
        return nystrom == null ? h : nystrom.putStringOptions(h);
    }
}
