package org.psdkit.regression.psd;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.psdkit.data.Dataset;
import org.psdkit.data.Scaler;
import org.psdkit.kernel.Kernel;
import org.psdkit.linalg.Matrix;
import org.psdkit.model.ModelHeader;
import org.psdkit.model.Trainer;
import org.psdkit.optim.ProgressListener;
import org.psdkit.psd.Nystrom;
import org.psdkit.psd.PsdOptions;

/**
 * Fits one of the non-negative regression baselines of Marteau-Ferey, Bach &amp; Rudi 2020, App. D ({@link Baselines}:
 * NCM, PNM, GLM) on raw data: the scaler is fitted on the training rows and kept in the model.
 *
 * <pre>{@code
 * NonNegativeRegressionModel<KernelExpansionModel> m = new BaselineTrainer(BaselineTrainer.Method.NCM,
 *         Kernels.parse("gaussian(sigma=0.7)"), Baselines.Options.of(1e-3), Scaler.Kind.NONE).fit(train);
 * }</pre>
 *
 * @param method  which baseline
 * @param kernel  the kernel
 * @param options λ, tolerance, iteration budget and the seed of GLM's random starts (validated by their record)
 * @param scale   the feature scaling fitted on the training data
 * @param nystrom Nyström anchors ({@link Nystrom#exact()}: every training point); the rank threshold applies to PNM
 *                only (NCM and GLM work on the coefficients of the anchors, no eigen-decomposition is cut)
 */
public record BaselineTrainer(Method method, Kernel kernel, Baselines.Options options, Scaler.Kind scale,
                              Nystrom nystrom)
        implements Trainer<NonNegativeRegressionModel<KernelExpansionModel>> {

    /** The baselines of App. D; {@link #type()} is the model type in files. */
    public enum Method {
        /** Non-negative coefficients f = Σ a_i k(x, x_i), a ≥ 0 (eq. 34). */
        NCM(false),
        /** f = Σ a_i k(x, x_i) with f(x_i) ≥ 0 at the training points only (eq. 36). */
        PNM(false),
        /** f = exp(Σ a_i k(x, x_i)) (eq. 32). */
        GLM(true);

        private final boolean exponential;

        Method(boolean exponential) {
            this.exponential = exponential;
        }

        /** The model type: {@code ncm}, {@code pnm}, {@code glm}. */
        public String type() {
            return name().toLowerCase(Locale.ROOT);
        }

        /** True if the model is exp of a kernel expansion (GLM). */
        public boolean exponential() {
            return exponential;
        }

        /** The method of a model type. */
        public static Method of(String type) {
            for (Method m : values()) {
                if (m.type().equals(type)) {
                    return m;
                }
            }
            throw new IllegalArgumentException("unknown baseline '" + type + "'; known: ncm, pnm, glm");
        }

        /** Fits on scaled inputs. */
        public KernelExpansionModel fit(Kernel k, Matrix x, double[] y, Baselines.Options o, ProgressListener l) {
            return fit(k, x, y, o, Nystrom.exact(), l);
        }

        /** Fits on scaled inputs, expanded on the anchors {@code ny} chooses among the rows of x. */
        public KernelExpansionModel fit(Kernel k, Matrix x, double[] y, Baselines.Options o, Nystrom ny,
                                        ProgressListener l) {
            Matrix anchors = ny == null ? null : ny.select(k, x);
            return switch (this) {
                case NCM -> Baselines.ncm(k, x, anchors, y, o, l);
                case PNM -> Baselines.pnm(k, x, anchors, y, o, ny == null ? PsdOptions.DEFAULT_RANK_THRESHOLD
                        : ny.rankThreshold(), l);
                case GLM -> Baselines.glm(k, x, anchors, y, o, l);
            };
        }
    }

    public BaselineTrainer {
        if (method == null) {
            throw new IllegalArgumentException("method must not be null");
        }
        if (kernel == null) {
            throw new IllegalArgumentException("kernel must not be null");
        }
        if (options == null) {
            throw new IllegalArgumentException("options must not be null");
        }
        if (scale == null) {
            scale = Scaler.Kind.NONE;
        }
        if (nystrom == null) {
            nystrom = Nystrom.exact();
        }
    }

    /** The exact model (every training point an expansion point). */
    public BaselineTrainer(Method method, Kernel kernel, Baselines.Options options, Scaler.Kind scale) {
        this(method, kernel, options, scale, Nystrom.exact());
    }

    @Override
    public NonNegativeRegressionModel<KernelExpansionModel> fit(Dataset train, ProgressListener listener) {
        if (train.y() == null) {
            throw new IllegalArgumentException(train.source() + ": " + method.type() + " needs a numeric target");
        }
        Scaler scaler = Scaler.fit(scale, train.x());
        org.psdkit.linalg.Matrix x = scaler.apply(train.x());
        org.psdkit.kernel.Kernels.requireFinite(kernel, x, method.type());
        KernelExpansionModel m = method.fit(kernel, x, train.y(), options, nystrom,
                listener);
        Map<String, Object> hp = nystrom.putOptions(hyperParameters(options));
        ModelHeader h = ModelHeader.of(method.type(), train, scaler, kernel.spec(), hp);
        return new NonNegativeRegressionModel<>(h, m, m.diagnostics().toMap());
    }

    /** The options as written in model files ({@code lambda, tol, max_iter}; the seed is not kept). */
    public static Map<String, Object> hyperParameters(Baselines.Options o) {
        Map<String, Object> h = new LinkedHashMap<>();
        h.put("lambda", o.lambda());
        h.put("tol", o.tolerance());
        h.put("max_iter", o.maxIterations());
        return h;
    }
}
