package org.psdkit.sos;

import java.util.Map;
import org.psdkit.model.HyperParameters;

/**
 * The hyper-parameters of a {@code kernel-sos} model ({@link KernelSosTrainer}: {@code lambda}): a typed view of the
 * model file's {@code options}, whose {@link #toMap()} is exactly those values in their order.
 *
 * @param values the options in their order ({@link #of} checks that every accessor reads them)
 */
public record KernelSosHyperParameters(Map<String, Object> values) implements HyperParameters {

    public KernelSosHyperParameters {
        values = HyperParameters.copyOf(values);
    }

    /** The view of {@code values}; throws {@link IllegalArgumentException} when an accessor cannot read them. */
    public static KernelSosHyperParameters of(Map<String, Object> values) {
        KernelSosHyperParameters h = new KernelSosHyperParameters(values);
        h.lambda();
        return h;
    }

    @Override
    public Map<String, Object> toMap() {
        return values;
    }

    /** λ of the penalty. */
    public double lambda() {
        return number("lambda");
    }

    @Override
    public String toString() {
        return values.toString();
    }
}
