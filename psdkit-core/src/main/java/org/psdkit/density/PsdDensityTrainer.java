package org.psdkit.density;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.psdkit.data.Dataset;
import org.psdkit.data.Scaler;
import org.psdkit.kernel.Kernel;
import org.psdkit.linalg.Matrix;
import org.psdkit.model.ParameterException;
import org.psdkit.model.Trainer;
import org.psdkit.optim.ProgressListener;
import org.psdkit.psd.Anchors;
import org.psdkit.psd.Nystrom;

/**
 * Fits a PSD-model density p = f·ν ({@link PsdDensityEstimator}, Marteau-Ferey, Bach &amp; Rudi 2020, eq. 12) on raw
 * data: the scaler is fitted on the training rows and kept in the model, and the training target, if any, is
 * ignored. Progress: task {@code "density"}, measure {@code "gap"}: the relative duality gap, at every
 * certificate of the primal solver (every iteration of the dual FISTA).
 *
 * <p>With sample weights ({@link Dataset#weights()}) the fit maximises the weighted log-likelihood
 * Σ w_i log f(x_i) / Σ w_i on the rows of positive weight (a zero weight leaves its row out), by the dual solver
 * ({@link PsdDensityOptions.Solver#DUAL_FISTA}) whatever the options' solver.
 *
 * <pre>{@code
 * DensityPipeline m = new PsdDensityTrainer(PsdDensityTrainer.Options.of(Kernels.parse("gaussian(sigma=0.7)"),
 *         new BaseMeasure.Lebesgue(), PsdDensityOptions.of(1e-3, PsdDensityOptions.SEC6_FROBENIUS_RATIO))
 *         .withScale(Scaler.Kind.ZSCORE)).fit(data);
 * }</pre>
 *
 * @param options kernel, base measure, the solver's options, Nyström anchors and scaling
 */
public record PsdDensityTrainer(Options options) implements Trainer<DensityPipeline> {

    /** The model type written in model files. */
    public static final String TYPE = PsdDensity.TYPE;

    /**
     * Everything a PSD density fit takes.
     *
     * @param kernel  the kernel (scaled coordinates)
     * @param base    the base measure ν (scaled coordinates; its dimension, if fixed, must match the data)
     * @param psd     λ₁, λ₂, their scale, tolerance, budgets, rank threshold and solver (validated by their record)
     * @param nystrom Nyström: expand on {@code nystrom.anchors()} training points chosen by its method and seed (0, or
     *                at least the number of rows: all points, the exact model); the feature map's rank threshold is
     *                {@code psd.rankThreshold()}, {@code nystrom.rankThreshold()} is not used
     * @param scale   the feature scaling fitted on the training data
     */
    public record Options(Kernel kernel, BaseMeasure base, PsdDensityOptions psd, Nystrom nystrom,
                          Scaler.Kind scale) {

        /** Default scaling: none. */
        public static final Scaler.Kind DEFAULT_SCALE = Scaler.Kind.NONE;

        public Options {
            ParameterException.required("kernel", kernel);
            ParameterException.required("base", base);
            ParameterException.required("psd", psd);
            if (nystrom == null) {
                nystrom = Nystrom.exact();
            }
            if (scale == null) {
                scale = DEFAULT_SCALE;
            }
        }

        /** The exact model (every training point an expansion point), no scaling. */
        public static Options of(Kernel kernel, BaseMeasure base, PsdDensityOptions psd) {
            return new Options(kernel, base, psd, Nystrom.exact(), DEFAULT_SCALE);
        }

        public Options withKernel(Kernel k) {
            return new Options(k, base, psd, nystrom, scale);
        }

        public Options withBase(BaseMeasure b) {
            return new Options(kernel, b, psd, nystrom, scale);
        }

        public Options withPsd(PsdDensityOptions p) {
            return new Options(kernel, base, p, nystrom, scale);
        }

        public Options withNystrom(Nystrom n) {
            return new Options(kernel, base, psd, n, scale);
        }

        public Options withScale(Scaler.Kind s) {
            return new Options(kernel, base, psd, nystrom, s);
        }
    }

    public PsdDensityTrainer {
        ParameterException.required("options", options);
    }

    @Override
    public DensityPipeline fit(Dataset train, ProgressListener listener) {
        ProgressListener l = ProgressListener.orNone(listener);
        Kernel kernel = options.kernel();
        Nystrom ny = options.nystrom();
        Scaler scaler = Scaler.fit(options.scale(), train.x());
        Matrix x = scaler.apply(train.x());
        double[] w = train.weights();
        if (w != null) {
            double[] all = w;
            int[] keep = java.util.stream.IntStream.range(0, all.length).filter(i -> all[i] > 0).toArray();
            if (keep.length < all.length) {
                x = x.selectRows(keep);
                w = new double[keep.length];
                for (int k = 0; k < keep.length; k++) {
                    w[k] = all[keep[k]];
                }
            }
        }
        org.psdkit.kernel.Kernels.requireFinite(kernel, x, "psd density");
        Matrix anch = null;
        if (ny.anchors() > 0 && ny.anchors() < x.rows()) {
            anch = x.selectRows(Anchors.select(kernel, x, ny.anchors(), ny.method(), ny.seed()));
        }
        PsdDensity m = w == null ? PsdDensityEstimator.fit(x, anch, kernel, options.base(), options.psd(), l)
                : PsdDensityEstimator.fit(x, anch, kernel, options.base(), options.psd(),
                        PsdDensityEstimator.WarmStart.DEFAULT, l, w);
        Map<String, Object> hp = hyperParameters(anch == null ? x.rows() : ny.anchors());
        if (anch != null) {
            ny.putStringOptions(hp);
        }
        return DensityPipeline.of(train, scaler, m.kernel().spec(), hp, m);
    }

    /**
     * The options as model files hold them ({@code lambda1, lambda2, lambda_scale, anchors}, as strings), with the
     * number of expansion points actually used; {@link #fit} adds {@code anchor_method} and {@code anchor_seed} when
     * the anchors are a subset of the rows.
     */
    public Map<String, Object> hyperParameters(int anchorsUsed) {
        PsdDensityOptions o = options.psd();
        Map<String, Object> h = new LinkedHashMap<>();
        h.put("lambda1", String.valueOf(o.lambda1()));
        h.put("lambda2", String.valueOf(o.lambda2()));
        h.put("lambda_scale", o.scale().name().toLowerCase(Locale.ROOT));
        h.put("anchors", String.valueOf(anchorsUsed));
        return h;
    }
}
