package org.psdkit.regression;

import java.util.LinkedHashMap;
import java.util.Map;
import org.psdkit.data.Dataset;
import org.psdkit.data.Scaler;
import org.psdkit.kernel.Kernel;
import org.psdkit.model.ModelHeader;
import org.psdkit.model.Pipeline;
import org.psdkit.model.Trainer;
import org.psdkit.optim.ProgressListener;

/**
 * Fits kernel ridge regression ({@link KernelRidge}) on raw data: the scaler is fitted on the training rows and kept
 * in the model.
 *
 * <pre>{@code
 * Pipeline<KernelRidge> m = new KrrTrainer(Kernels.parse("gaussian(sigma=3)"), KernelRidge.Options.standard(0.01),
 *         Scaler.Kind.ZSCORE).fit(train);
 * }</pre>
 *
 * @param kernel  the kernel
 * @param options λ, form, nugget and centring (validated by their record)
 * @param scale   the feature scaling fitted on the training data
 */
public record KrrTrainer(Kernel kernel, KernelRidge.Options options, Scaler.Kind scale)
        implements Trainer<Pipeline<KernelRidge>> {

    /** The model type written in model files. */
    public static final String TYPE = "krr";

    public KrrTrainer {
        if (kernel == null) {
            throw new IllegalArgumentException("kernel must not be null");
        }
        if (options == null) {
            throw new IllegalArgumentException("options must not be null");
        }
        if (scale == null) {
            scale = Scaler.Kind.NONE;
        }
    }

    @Override
    public Pipeline<KernelRidge> fit(Dataset train, ProgressListener listener) {
        if (train.y() == null) {
            throw new IllegalArgumentException(train.source() + ": kernel ridge regression needs a numeric target");
        }
        Scaler scaler = Scaler.fit(scale, train.x());
        KernelRidge m = KernelRidge.fit(kernel, scaler.apply(train.x()), train.y(), options);
        return of(ModelHeader.of(TYPE, train, scaler, m.kernel().spec(), hyperParameters(options)), m,
                diagnostics(m));
    }

    /** The options as written in model files ({@code lambda, form, nugget, center}). */
    public static Map<String, Object> hyperParameters(KernelRidge.Options o) {
        Map<String, Object> h = new LinkedHashMap<>();
        h.put("lambda", o.lambda());
        h.put("form", o.form().label());
        h.put("nugget", o.nugget());
        h.put("center", o.center());
        return h;
    }

    /** What a fit reports: solver route, diagonal jitter, numerical rank, condition estimate, seconds. */
    public static Map<String, Object> diagnostics(KernelRidge m) {
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("route", m.diagnostics().route());
        d.put("jitter", m.diagnostics().jitter());
        d.put("rank", m.diagnostics().rank());
        d.put("conditionEstimate", m.diagnostics().conditionEstimate());
        d.put("seconds", m.seconds());
        return d;
    }

    /** The model of a fit made elsewhere (cross-validation on a cached Gram matrix). */
    public static Pipeline<KernelRidge> of(ModelHeader header, KernelRidge inner, Map<String, Object> diagnostics) {
        return new Pipeline<>(header, inner, diagnostics);
    }
}
