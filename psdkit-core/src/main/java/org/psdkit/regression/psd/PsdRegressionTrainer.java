package org.psdkit.regression.psd;


import java.util.LinkedHashMap;
import java.util.Map;
import org.psdkit.data.Dataset;
import org.psdkit.data.Scaler;
import org.psdkit.kernel.Kernel;
import org.psdkit.linalg.Matrix;
import org.psdkit.model.ModelHeader;
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
 * NonNegativeRegressionModel<PsdModel> m = new PsdRegressionTrainer(Kernels.parse("gaussian(sigma=0.5)"),
 *         PsdOptions.of(1e-3, 1e-3), Scaler.Kind.NONE).fit(train);
 * }</pre>
 *
 * @param kernel  the kernel
 * @param options λ₁, λ₂, tolerance, iteration and time budget (validated by their record)
 * @param scale   the feature scaling fitted on the training data
 * @param anchors Nyström: expand on this many training points chosen by {@code anchorMethod} (0, or at least the
 *                number of rows: all points, the exact model)
 * @param anchorMethod how the anchors are chosen
 * @param seed    seed of the anchor choice
 */
public record PsdRegressionTrainer(Kernel kernel, PsdOptions options, Scaler.Kind scale, int anchors,
                                   Anchors.Method anchorMethod, long seed)
        implements Trainer<NonNegativeRegressionModel<PsdModel>> {

    /** The exact model (every training point an expansion point). */
    public PsdRegressionTrainer(Kernel kernel, PsdOptions options, Scaler.Kind scale) {
        this(kernel, options, scale, 0, Anchors.Method.UNIFORM, 1L);
    }

    public PsdRegressionTrainer {
        if (kernel == null) {
            throw new IllegalArgumentException("kernel must not be null");
        }
        if (options == null) {
            throw new IllegalArgumentException("options must not be null");
        }
        if (scale == null) {
            scale = Scaler.Kind.NONE;
        }
        if (anchors < 0) {
            throw new IllegalArgumentException("anchors must be >= 0, got " + anchors);
        }
        if (anchorMethod == null) {
            anchorMethod = Anchors.Method.UNIFORM;
        }
    }

    @Override
    public NonNegativeRegressionModel<PsdModel> fit(Dataset train, ProgressListener listener) {
        if (train.y() == null) {
            throw new IllegalArgumentException(train.source() + ": PSD regression needs a numeric target");
        }
        Scaler scaler = Scaler.fit(scale, train.x());
        Matrix x = scaler.apply(train.x());
        org.psdkit.kernel.Kernels.requireFinite(kernel, x, "psd-regression");
        Matrix anch = anchors > 0 && anchors < x.rows()
                ? x.selectRows(Anchors.select(kernel, x, anchors, anchorMethod, seed)) : null;
        PsdModel m = PsdRegression.fit(kernel, x, anch, train.y(), options, listener);
        Map<String, Object> hp = hyperParameters(options);
        if (anch != null) {
            Nystrom.of(anchors, anchorMethod, seed).putOptions(hp);
        }
        ModelHeader h = ModelHeader.of(PsdModel.TYPE, train, scaler, kernel.spec(), hp);
        return new NonNegativeRegressionModel<>(h, m, m.diagnostics().toMap());
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
