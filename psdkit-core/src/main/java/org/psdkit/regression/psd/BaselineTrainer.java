package org.psdkit.regression.psd;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.psdkit.data.Dataset;
import org.psdkit.data.Scaler;
import org.psdkit.kernel.Kernel;
import org.psdkit.linalg.Matrix;
import org.psdkit.model.ModelHeader;
import org.psdkit.model.ParameterException;
import org.psdkit.model.Trainer;
import org.psdkit.optim.ProgressListener;
import org.psdkit.psd.Nystrom;
import org.psdkit.psd.PsdOptions;

/**
 * Fits one of the non-negative regression baselines of Marteau-Ferey, Bach &amp; Rudi 2020, App. D ({@link Baselines}:
 * NCM, PNM, GLM) on raw data: the scaler is fitted on the training rows and kept in the model.
 *
 * <pre>{@code
 * NonNegativeRegressionModel<KernelExpansionModel> m = new BaselineTrainer(BaselineTrainer.Options.of(
 *         BaselineTrainer.Method.NCM, Kernels.parse("gaussian(sigma=0.7)"), Baselines.Options.of(1e-3))).fit(train);
 * }</pre>
 *
 * @param options the baseline, kernel, solver options, Nyström anchors and scaling
 */
public record BaselineTrainer(Options options)
        implements Trainer<NonNegativeRegressionModel<KernelExpansionModel>> {

    /**
     * Everything a baseline fit takes.
     *
     * @param method   which baseline
     * @param kernel   the kernel
     * @param baseline λ, tolerance, iteration budget and the seed of GLM's random starts (validated by their record)
     * @param nystrom  Nyström anchors ({@link Nystrom#exact()}: every training point); the rank threshold applies to
     *                 PNM only (NCM and GLM work on the coefficients of the anchors, no eigen-decomposition is cut)
     * @param scale    the feature scaling fitted on the training data
     */
    public record Options(Method method, Kernel kernel, Baselines.Options baseline, Nystrom nystrom,
                          Scaler.Kind scale) {

        /** Default scaling: none. */
        public static final Scaler.Kind DEFAULT_SCALE = Scaler.Kind.NONE;

        public Options {
            ParameterException.required("method", method);
            ParameterException.required("kernel", kernel);
            ParameterException.required("baseline", baseline);
            if (nystrom == null) {
                nystrom = Nystrom.exact();
            }
            if (scale == null) {
                scale = DEFAULT_SCALE;
            }
        }

        /** The exact model, no scaling. */
        public static Options of(Method method, Kernel kernel, Baselines.Options baseline) {
            return new Options(method, kernel, baseline, Nystrom.exact(), DEFAULT_SCALE);
        }

        public Options withMethod(Method m) {
            return new Options(m, kernel, baseline, nystrom, scale);
        }

        public Options withKernel(Kernel k) {
            return new Options(method, k, baseline, nystrom, scale);
        }

        public Options withBaseline(Baselines.Options b) {
            return new Options(method, kernel, b, nystrom, scale);
        }

        public Options withNystrom(Nystrom n) {
            return new Options(method, kernel, baseline, n, scale);
        }

        public Options withScale(Scaler.Kind s) {
            return new Options(method, kernel, baseline, nystrom, s);
        }
    }

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
        ParameterException.required("options", options);
    }

    @Override
    public NonNegativeRegressionModel<KernelExpansionModel> fit(Dataset train, ProgressListener listener) {
        Method method = options.method();
        Kernel kernel = options.kernel();
        if (train.y() == null) {
            throw new IllegalArgumentException(train.source() + ": " + method.type() + " needs a numeric target");
        }
        Scaler scaler = Scaler.fit(options.scale(), train.x());
        org.psdkit.linalg.Matrix x = scaler.apply(train.x());
        org.psdkit.kernel.Kernels.requireFinite(kernel, x, method.type());
        KernelExpansionModel m = method.fit(kernel, x, train.y(), options.baseline(), options.nystrom(), listener);
        Map<String, Object> hp = options.nystrom().putOptions(hyperParameters(options.baseline()));
        ModelHeader h = ModelHeader.of(method.type(), train, scaler, kernel.spec(), hp);
        return new NonNegativeRegressionModel<>(h, m, m.diagnostics());
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
