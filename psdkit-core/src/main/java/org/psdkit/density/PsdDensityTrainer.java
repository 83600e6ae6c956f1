package org.psdkit.density;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.psdkit.data.Dataset;
import org.psdkit.data.Scaler;
import org.psdkit.kernel.Kernel;
import org.psdkit.linalg.Matrix;
import org.psdkit.model.Trainer;
import org.psdkit.optim.ProgressListener;
import org.psdkit.psd.Anchors;

/**
 * Fits a PSD-model density p = f·ν ({@link PsdDensityEstimator}, Marteau-Ferey, Bach &amp; Rudi 2020, eq. 12) on raw
 * data: the scaler is fitted on the training rows and kept in the model, and the training target, if any, is
 * ignored. Progress: task {@code "density"}, measure {@code "gap"}: the relative duality gap, at every
 * certificate of the primal solver (every iteration of the dual FISTA).
 *
 * <pre>{@code
 * DensityPipeline m = new PsdDensityTrainer(Kernels.parse("gaussian(sigma=0.7)"), new BaseMeasure.Lebesgue(),
 *         PsdDensityOptions.of(1e-3, PsdDensityOptions.SEC6_FROBENIUS_RATIO), 0, 1, Scaler.Kind.NONE).fit(data);
 * }</pre>
 *
 * @param kernel  the kernel (scaled coordinates)
 * @param base    the base measure ν (scaled coordinates; its dimension, if fixed, must match the data)
 * @param options λ₁, λ₂, their scale, tolerance and budgets (validated by their record)
 * @param anchors Nyström: expand on this many training points (0, or at least the number of rows: all points, the
 *                exact model)
 * @param seed    seed of the choice of anchors
 * @param scale   the feature scaling fitted on the training data
 * @param anchorMethod how the anchors are chosen ({@link Anchors.Method})
 */
public record PsdDensityTrainer(Kernel kernel, BaseMeasure base, PsdDensityOptions options, int anchors, long seed,
                                Scaler.Kind scale, Anchors.Method anchorMethod) implements Trainer<DensityPipeline> {

    /** Anchors chosen uniformly at random. */
    public PsdDensityTrainer(Kernel kernel, BaseMeasure base, PsdDensityOptions options, int anchors, long seed,
                             Scaler.Kind scale) {
        this(kernel, base, options, anchors, seed, scale, Anchors.Method.UNIFORM);
    }

    /** The model type written in model files. */
    public static final String TYPE = PsdDensity.TYPE;

    public PsdDensityTrainer {
        if (kernel == null) {
            throw new IllegalArgumentException("kernel must not be null");
        }
        if (base == null) {
            throw new IllegalArgumentException("base measure must not be null");
        }
        if (options == null) {
            throw new IllegalArgumentException("options must not be null");
        }
        if (anchors < 0) {
            throw new IllegalArgumentException("anchors must be >= 0, got " + anchors);
        }
        if (scale == null) {
            scale = Scaler.Kind.NONE;
        }
        if (anchorMethod == null) {
            anchorMethod = Anchors.Method.UNIFORM;
        }
    }

    @Override
    public DensityPipeline fit(Dataset train, ProgressListener listener) {
        ProgressListener l = ProgressListener.orNone(listener);
        Scaler scaler = Scaler.fit(scale, train.x());
        Matrix x = scaler.apply(train.x());
        org.psdkit.kernel.Kernels.requireFinite(kernel, x, "psd density");
        Matrix anch = null;
        if (anchors > 0 && anchors < x.rows()) {
            anch = x.selectRows(Anchors.select(kernel, x, anchors, anchorMethod, seed));
        }
        PsdDensity m = PsdDensityEstimator.fit(x, anch, kernel, base, options, l);
        Map<String, Object> hp = hyperParameters(anch == null ? x.rows() : anchors);
        if (anch != null) {
            org.psdkit.psd.Nystrom.of(anchors, anchorMethod, seed).putStringOptions(hp);
        }
        return DensityPipeline.of(train, scaler, m.kernel().spec(), hp, m);
    }

    /**
     * The options as model files hold them ({@code lambda1, lambda2, lambda_scale, anchors}, as strings), with the
     * number of expansion points actually used; {@link #fit} adds {@code anchor_method} and {@code anchor_seed} when
     * the anchors are a subset of the rows.
     */
    public Map<String, Object> hyperParameters(int anchorsUsed) {
        Map<String, Object> h = new LinkedHashMap<>();
        h.put("lambda1", String.valueOf(options.lambda1()));
        h.put("lambda2", String.valueOf(options.lambda2()));
        h.put("lambda_scale", options.scale().name().toLowerCase(Locale.ROOT));
        h.put("anchors", String.valueOf(anchorsUsed));
        return h;
    }
}
