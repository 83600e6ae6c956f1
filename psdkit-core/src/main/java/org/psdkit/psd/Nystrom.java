package org.psdkit.psd;

import org.psdkit.kernel.Kernel;
import org.psdkit.linalg.Matrix;
import org.psdkit.model.ParameterException;

/**
 * Nyström settings, the one record every Nyström model of the library is configured with: kernel ridge regression
 * ({@code regression.nystrom.NystromKrrTrainer.Options}) and the PSD families (density, PSD regression, the cone
 * families, the baselines NCM, PNM, GLM of Marteau-Ferey, Bach &amp; Rudi 2020 App. D). The model expands on m anchors
 * (App. B.5) while the loss still uses every data point; the model file then stores the anchors as its
 * {@code points}, so exact and Nyström models are read by the same code.
 *
 * @param anchors       number m of anchors; 0 = every training point, the exact model; m ≥ n takes every point, in
 *                      order, through the Nyström path (equal to the exact model up to the eigenvalue cut)
 * @param method        how anchors are chosen ({@link Anchors.Method})
 * @param seed          seed of the anchor choice (the same seed gives the same anchors)
 * @param rankThreshold relative eigenvalue threshold of the anchors' feature map, in (0, 1), for the models that
 *                      use one (PNM, GLM, the cone families); KRR and NCM work on the coefficients and ignore it
 */
public record Nystrom(int anchors, Anchors.Method method, long seed, double rankThreshold) {

    public Nystrom {
        ParameterException.atLeast("anchors", anchors, 0);
        ParameterException.required("anchorMethod", method);
        ParameterException.unitOpen("rankThreshold", rankThreshold);
    }

    /** The exact model (no anchors), default threshold {@link PsdOptions#DEFAULT_RANK_THRESHOLD}. */
    public static Nystrom exact() {
        return new Nystrom(0, Anchors.Method.UNIFORM, 0L, PsdOptions.DEFAULT_RANK_THRESHOLD);
    }

    /** {@code m} anchors chosen by {@code method} with {@code seed}, default threshold. */
    public static Nystrom of(int m, Anchors.Method method, long seed) {
        return new Nystrom(m, method, seed, PsdOptions.DEFAULT_RANK_THRESHOLD);
    }

    public Nystrom withAnchors(int m) {
        return new Nystrom(m, method, seed, rankThreshold);
    }

    public Nystrom withMethod(Anchors.Method m) {
        return new Nystrom(anchors, m, seed, rankThreshold);
    }

    public Nystrom withSeed(long s) {
        return new Nystrom(anchors, method, s, rankThreshold);
    }

    public Nystrom withRankThreshold(double t) {
        return new Nystrom(anchors, method, seed, t);
    }

    /** Whether the Nyström path is taken. */
    public boolean enabled() {
        return anchors > 0;
    }

    /**
     * Adds {@code anchors}, {@code anchor_method} and {@code anchor_seed} to a model file's options when
     * {@link #enabled()}, so that the model records how its expansion points were chosen; returns {@code options}.
     */
    public java.util.Map<String, Object> putOptions(java.util.Map<String, Object> options) {
        return put(options, false);
    }

    /** As {@link #putOptions}, the values as strings (the density families' model files hold their options so). */
    public java.util.Map<String, Object> putStringOptions(java.util.Map<String, Object> options) {
        return put(options, true);
    }

    private java.util.Map<String, Object> put(java.util.Map<String, Object> options, boolean strings) {
        if (enabled()) {
            options.put("anchors", strings ? String.valueOf(anchors) : anchors);
            options.put("anchor_method", method.id());
            options.put("anchor_seed", strings ? String.valueOf(seed) : seed);
        }
        return options;
    }

    /**
     * The anchors a model file's options record ({@code anchors}, {@code anchor_method}, {@code anchor_seed}, as
     * {@link #putOptions} or {@link #putStringOptions} write them; old method names as
     * {@link Anchors.Method#parseLegacy} reads them for {@code family}), or empty when they hold no
     * {@code anchor_method} (the exact model). The rank threshold is not recorded: the default.
     */
    public static java.util.Optional<Nystrom> recorded(org.psdkit.model.HyperParameters options,
                                                       Anchors.Family family) {
        if (!options.has("anchor_method")) {
            return java.util.Optional.empty();
        }
        return java.util.Optional.of(of(Math.toIntExact(options.integer("anchors")),
                Anchors.Method.parseLegacy(options.text("anchor_method"), family), options.integer("anchor_seed")));
    }

    /** The anchors' rows of x (every row, in order, when m ≥ n), or null when not {@link #enabled()}. */
    public Matrix select(Kernel kernel, Matrix x) {
        return enabled() ? Anchors.rows(x, Anchors.select(kernel, x, anchors, method, seed)) : null;
    }
}
