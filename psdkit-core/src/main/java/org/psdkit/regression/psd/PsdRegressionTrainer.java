package org.psdkit.regression.psd;


import java.util.LinkedHashMap;
import java.util.Map;
import org.psdkit.data.Dataset;
import org.psdkit.data.Scaler;
import org.psdkit.kernel.Kernel;
import org.psdkit.linalg.Matrix;
import org.psdkit.model.ModelHeader;
import org.psdkit.model.ParameterException;
import org.psdkit.model.Trainer;
import org.psdkit.optim.ProgressListener;
import org.psdkit.psd.Anchors;
import org.psdkit.psd.Nystrom;
import org.psdkit.psd.PsdModel;
import org.psdkit.psd.PsdOptions;

/**
 * Fits non-negative regression with a PSD model f(x) = v(x)ᵀ B v(x), B ⪰ 0 ({@link PsdRegression}; Marteau-Ferey,
 * Bach &amp; Rudi 2020, eq. 12, solved on its dual by FISTA) on raw data: the scaler is fitted on the training rows
 * and kept in the model. Progress is reported once per FISTA iteration.
 *
 * <pre>{@code
 * NonNegativeRegressionModel<PsdModel> m = new PsdRegressionTrainer(PsdRegressionTrainer.Options.of(
 *         Kernels.parse("gaussian(sigma=0.5)"), PsdOptions.of(1e-3, 1e-3))).fit(train);
 * }</pre>
 *
 * @param options kernel, solver options, Nyström anchors and scaling
 */
public record PsdRegressionTrainer(Options options) implements Trainer<NonNegativeRegressionModel<PsdModel>> {

    /**
     * Everything a PSD regression fit takes.
     *
     * @param kernel  the kernel
     * @param psd     λ₁, λ₂, tolerance, iteration and time budget, rank threshold (validated by their record)
     * @param nystrom Nyström: expand on {@code nystrom.anchors()} training points chosen by its method and seed (0, or
     *                at least the number of rows: all points, the exact model); the feature map's rank threshold is
     *                {@code psd.rankThreshold()}
     * @param scale   the feature scaling fitted on the training data
     */
    public record Options(Kernel kernel, PsdOptions psd, Nystrom nystrom, Scaler.Kind scale) {

        /** Default scaling: none. */
        public static final Scaler.Kind DEFAULT_SCALE = Scaler.Kind.NONE;

        public Options {
            ParameterException.required("kernel", kernel);
            ParameterException.required("psd", psd);
            if (nystrom == null) {
                nystrom = Nystrom.exact();
            }
            if (scale == null) {
                scale = DEFAULT_SCALE;
            }
        }

        /** The exact model, no scaling. */
        public static Options of(Kernel kernel, PsdOptions psd) {
            return new Options(kernel, psd, Nystrom.exact(), DEFAULT_SCALE);
        }

        public Options withKernel(Kernel k) {
            return new Options(k, psd, nystrom, scale);
        }

        public Options withPsd(PsdOptions p) {
            return new Options(kernel, p, nystrom, scale);
        }

        public Options withNystrom(Nystrom n) {
            return new Options(kernel, psd, n, scale);
        }

        public Options withScale(Scaler.Kind s) {
            return new Options(kernel, psd, nystrom, s);
        }
    }

    public PsdRegressionTrainer {
        ParameterException.required("options", options);
    }

    @Override
    public NonNegativeRegressionModel<PsdModel> fit(Dataset train, ProgressListener listener) {
        if (train.y() == null) {
            throw new IllegalArgumentException(train.source() + ": PSD regression needs a numeric target");
        }
        Kernel kernel = options.kernel();
        Nystrom ny = options.nystrom();
        Scaler scaler = Scaler.fit(options.scale(), train.x());
        Matrix x = scaler.apply(train.x());
        org.psdkit.kernel.Kernels.requireFinite(kernel, x, "psd-regression");
        Matrix anch = ny.anchors() > 0 && ny.anchors() < x.rows()
                ? x.selectRows(Anchors.select(kernel, x, ny.anchors(), ny.method(), ny.seed())) : null;
        PsdModel m = PsdRegression.fit(kernel, x, anch, train.y(), options.psd(), listener);
        Map<String, Object> hp = hyperParameters(options.psd());
        if (anch != null) {
            ny.putOptions(hp);
        }
        ModelHeader h = ModelHeader.of(PsdModel.TYPE, train, scaler, kernel.spec(), hp);
        return new NonNegativeRegressionModel<>(h, m, m.diagnostics());
    }

    /** The options as written in model files ({@code lambda1, lambda2, tol, max_iter}). */
    public static Map<String, Object> hyperParameters(PsdOptions o) {
        Map<String, Object> h = new LinkedHashMap<>();
        h.put("lambda1", o.lambda1());
        h.put("lambda2", o.lambda2());
        h.put("tol", o.tolerance());
        h.put("max_iter", o.maxIterations());
        return h;
    }
}
