package org.psdkit.regression;

import java.util.Map;
import org.psdkit.model.HyperParameters;

/**
 * The hyper-parameters of a {@code ridge} model ({@link RidgeTrainer}: {@code lambda, intercept, form}): a typed view of
 * the model file's {@code options}, whose {@link #toMap()} is exactly those values in their order.
 *
 * @param values the options in their order ({@link #of} checks that every accessor reads them)
 */
public record RidgeHyperParameters(Map<String, Object> values) implements HyperParameters {

    public RidgeHyperParameters {
        values = HyperParameters.copyOf(values);
    }

    /** The view of {@code values}; throws {@link IllegalArgumentException} when an accessor cannot read them. */
    public static RidgeHyperParameters of(Map<String, Object> values) {
        RidgeHyperParameters h = new RidgeHyperParameters(values);
        h.lambda();
        h.intercept();
        h.form();
        return h;
    }

    @Override
    public Map<String, Object> toMap() {
        return values;
    }

    /** λ of the ridge penalty. */
    public double lambda() {
        return number("lambda");
    }

    /** Whether an unpenalised intercept was fitted. */
    public boolean intercept() {
        return flag("intercept");
    }

    /** The primal or dual form of the solve. */
    public RidgeTrainer.Form form() {
        return RidgeTrainer.Form.parse(text("form"));
    }

    @Override
    public String toString() {
        return values.toString();
    }
}
