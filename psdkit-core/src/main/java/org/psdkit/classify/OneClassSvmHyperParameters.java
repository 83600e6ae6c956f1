package org.psdkit.classify;

import java.util.Map;
import org.psdkit.model.HyperParameters;

/**
 * The hyper-parameters of a {@code one-class-svm} model ({@link OneClassSvmTrainer}: {@code nu, tolerance}): a typed
 * view of the model file's {@code options}, whose {@link #toMap()} is exactly those values in their order.
 *
 * @param values the options in their order ({@link #of} checks that every accessor reads them)
 */
public record OneClassSvmHyperParameters(Map<String, Object> values) implements HyperParameters {

    public OneClassSvmHyperParameters {
        values = HyperParameters.copyOf(values);
    }

    /** The view of {@code values}; throws {@link IllegalArgumentException} when an accessor cannot read them. */
    public static OneClassSvmHyperParameters of(Map<String, Object> values) {
        OneClassSvmHyperParameters h = new OneClassSvmHyperParameters(values);
        h.nu();
        h.tolerance();
        return h;
    }

    @Override
    public Map<String, Object> toMap() {
        return values;
    }

    /** ν, the bound on the fraction of outliers. */
    public double nu() {
        return number("nu");
    }

    /** The SMO stopping tolerance. */
    public double tolerance() {
        return number("tolerance");
    }

    @Override
    public String toString() {
        return values.toString();
    }
}
