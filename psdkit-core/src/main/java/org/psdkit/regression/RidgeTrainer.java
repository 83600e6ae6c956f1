package org.psdkit.regression;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.psdkit.data.Dataset;
import org.psdkit.data.Scaler;
import org.psdkit.kernel.FeatureMap;
import org.psdkit.kernel.Kernel;
import org.psdkit.kernel.Kernels;
import org.psdkit.linalg.Matrix;
import org.psdkit.model.Diagnostics;
import org.psdkit.model.ModelHeader;
import org.psdkit.model.ParameterException;
import org.psdkit.model.Pipeline;
import org.psdkit.model.Trainer;
import org.psdkit.optim.ProgressListener;

/**
 * Fits linear ridge regression ({@link RidgeRegression}) on raw data, in the raw features or in the explicit finite
 * feature space of a kernel; the scaler is fitted on the training rows and kept in the model. Both forms give a
 * primal model (weights and bias): the dual one through w = Φᵀα.
 *
 * <pre>{@code
 * Pipeline<RidgeRegression> m = new RidgeTrainer(RidgeTrainer.Options.of(1.0).withScale(Scaler.Kind.MINMAX))
 *         .fit(train);
 * }</pre>
 *
 * @param options the kernel of the feature map, λ, intercept, form and scaling (validated by their record)
 */
public record RidgeTrainer(Options options) implements Trainer<Pipeline<RidgeRegression>> {

    /** The model type written in model files. */
    public static final String TYPE = "ridge";

    /** Which system is solved: the d'×d' primal one or the n×n dual one. */
    public enum Form {
        /** w = (ΦᵀΦ + λI)⁻¹ Φᵀy. */
        PRIMAL,
        /** α = (K + λI)⁻¹ y with K the kernel of φ, then w = Φᵀα. */
        DUAL;

        /** The name in model files: {@code primal}, {@code dual}. */
        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }

        /** {@code primal} or {@code dual}; an error names the parameter {@code form}. */
        public static Form parse(String s) {
            String t = s == null ? "" : s.trim().toLowerCase(Locale.ROOT);
            return switch (t) {
                case "primal" -> PRIMAL;
                case "dual" -> DUAL;
                default -> throw new ParameterException("form", "must be primal or dual, got '" + s + "'");
            };
        }
    }

    /**
     * Everything a ridge fit takes; the constructor checks every field.
     *
     * @param features  the kernel whose explicit feature map φ is used, or {@code null} for the raw features (the
     *                  linear kernel); a kernel without a finite feature map is refused by the fit, which knows d
     * @param lambda    regularisation λ ≥ 0 (finite)
     * @param intercept fit an unpenalised intercept by centring
     * @param form      which linear system is solved ({@code null}: {@link #DEFAULT_FORM})
     * @param scale     the feature scaling fitted on the training data ({@code null}: {@link #DEFAULT_SCALE})
     */
    public record Options(Kernel features, double lambda, boolean intercept, Form form, Scaler.Kind scale) {
        /** λ of {@link #of(double)}'s callers that take the default (the command line's {@code --lambda}). */
        public static final double DEFAULT_LAMBDA = 1.0;
        /** An unpenalised intercept is fitted by default. */
        public static final boolean DEFAULT_INTERCEPT = true;
        /** The primal system by default. */
        public static final Form DEFAULT_FORM = Form.PRIMAL;
        /** No feature scaling by default. */
        public static final Scaler.Kind DEFAULT_SCALE = Scaler.Kind.NONE;

        public Options {
            ParameterException.nonNegative("lambda", lambda);
            if (form == null) {
                form = DEFAULT_FORM;
            }
            if (scale == null) {
                scale = DEFAULT_SCALE;
            }
        }

        /** Primal ridge on the raw features with an intercept, unscaled. */
        public static Options of(double lambda) {
            return new Options(null, lambda, DEFAULT_INTERCEPT, DEFAULT_FORM, DEFAULT_SCALE);
        }

        /** The defaults: λ = {@value #DEFAULT_LAMBDA}, raw features, intercept, primal, unscaled. */
        public static Options defaults() {
            return of(DEFAULT_LAMBDA);
        }

        public Options withFeatures(Kernel k) {
            return new Options(k, lambda, intercept, form, scale);
        }

        public Options withLambda(double l) {
            return new Options(features, l, intercept, form, scale);
        }

        public Options withIntercept(boolean i) {
            return new Options(features, lambda, i, form, scale);
        }

        public Options withForm(Form f) {
            return new Options(features, lambda, intercept, f, scale);
        }

        public Options withScale(Scaler.Kind s) {
            return new Options(features, lambda, intercept, form, s);
        }
    }

    public RidgeTrainer {
        ParameterException.required("options", options);
    }

    @Override
    public Pipeline<RidgeRegression> fit(Dataset train, ProgressListener listener) {
        if (train.y() == null) {
            throw new IllegalArgumentException(train.source() + ": ridge regression needs a numeric target");
        }
        Kernel features = options.features();
        UnaryOperator<Matrix> phi = featureMap(features, train.d());
        Scaler scaler = Scaler.fit(options.scale(), train.x());
        Matrix x = scaler.apply(train.x());
        RidgeRegression m = train.targets() != null
                ? RidgeRegression.fitSeveral(features == null ? Kernels.linear() : features, phi, x, train.targets(),
                        train.weights(), options.lambda(), options.intercept(), options.form() == Form.DUAL)
                : options.form() == Form.PRIMAL
                ? RidgeRegression.fitPrimal(phi, x, train.y(), train.weights(), options.lambda(),
                        options.intercept())
                : RidgeRegression.fitViaDual(features == null ? Kernels.linear() : features, phi, x, train.y(),
                        train.weights(), options.lambda(), options.intercept());
        ModelHeader h = ModelHeader.of(TYPE, train, scaler, features == null ? null : features.spec(),
                hyperParameters(options.lambda(), options.intercept(), options.form()));
        return of(h, m);
    }

    /** The options as written in model files ({@code lambda, intercept, form}). */
    public static Map<String, Object> hyperParameters(double lambda, boolean intercept, Form form) {
        Map<String, Object> h = new LinkedHashMap<>();
        h.put("lambda", lambda);
        h.put("intercept", intercept);
        h.put("form", form.label());
        return h;
    }

    /**
     * The explicit feature map of {@code features} on d inputs as a matrix function (identity for {@code null});
     * an error if the kernel has no finite feature map.
     */
    public static UnaryOperator<Matrix> featureMap(Kernel features, int d) {
        if (features == null) {
            return UnaryOperator.identity();
        }
        FeatureMap fm = features.featureMap(d).orElseThrow(() -> new IllegalArgumentException("kernel "
                + features.spec() + " has no explicit finite feature map (use kernel ridge regression for it)"));
        return fm::map;
    }

    /**
     * The model of a ridge fit: its header's options as {@link RidgeHyperParameters} (as recorded when a model file
     * lacks its keys); ridge reports no diagnostics.
     */
    public static Pipeline<RidgeRegression> of(ModelHeader header, RidgeRegression inner) {
        return new Pipeline<>(header, inner, org.psdkit.model.HyperParameters.typed(header.hyperParameters(),
                RidgeHyperParameters::of), Diagnostics.NONE);
    }
}
