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
import org.psdkit.model.ModelHeader;
import org.psdkit.model.Pipeline;
import org.psdkit.model.Trainer;
import org.psdkit.optim.ProgressListener;

/**
 * Fits linear ridge regression ({@link RidgeRegression}) on raw data, in the raw features or in the explicit finite
 * feature space of a kernel; the scaler is fitted on the training rows and kept in the model. Both forms give a
 * primal model (weights and bias): the dual one through w = Φᵀα.
 *
 * <pre>{@code
 * Pipeline<RidgeRegression> m = new RidgeTrainer(1.0, true, RidgeTrainer.Form.PRIMAL, null, Scaler.Kind.MINMAX)
 *         .fit(train);
 * }</pre>
 *
 * @param lambda    regularisation λ ≥ 0 (finite)
 * @param intercept fit an unpenalised intercept by centring
 * @param form      which linear system is solved
 * @param features  the kernel whose explicit feature map φ is used, or {@code null} for the raw features (the
 *                  linear kernel)
 * @param scale     the feature scaling fitted on the training data
 */
public record RidgeTrainer(double lambda, boolean intercept, Form form, Kernel features, Scaler.Kind scale)
        implements Trainer<Pipeline<RidgeRegression>> {

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

        /** {@code primal} or {@code dual}. */
        public static Form parse(String s) {
            String t = s == null ? "" : s.trim().toLowerCase(Locale.ROOT);
            return switch (t) {
                case "primal" -> PRIMAL;
                case "dual" -> DUAL;
                default -> throw new IllegalArgumentException("form: '" + s + "' is not primal or dual");
            };
        }
    }

    public RidgeTrainer {
        RidgeRegression.checkLambda(lambda);
        if (form == null) {
            form = Form.PRIMAL;
        }
        if (scale == null) {
            scale = Scaler.Kind.NONE;
        }
    }

    /** Primal ridge on the raw features with an intercept. */
    public static RidgeTrainer linear(double lambda, Scaler.Kind scale) {
        return new RidgeTrainer(lambda, true, Form.PRIMAL, null, scale);
    }

    @Override
    public Pipeline<RidgeRegression> fit(Dataset train, ProgressListener listener) {
        if (train.y() == null) {
            throw new IllegalArgumentException(train.source() + ": ridge regression needs a numeric target");
        }
        UnaryOperator<Matrix> phi = featureMap(features, train.d());
        Scaler scaler = Scaler.fit(scale, train.x());
        Matrix x = scaler.apply(train.x());
        RidgeRegression m = form == Form.PRIMAL
                ? RidgeRegression.fitPrimal(phi, x, train.y(), lambda, intercept)
                : RidgeRegression.fitViaDual(features == null ? Kernels.linear() : features, phi, x, train.y(),
                        lambda, intercept);
        ModelHeader h = ModelHeader.of(TYPE, train, scaler, features == null ? null : features.spec(),
                hyperParameters(lambda, intercept, form));
        return new Pipeline<>(h, m, Map.of());
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
}
