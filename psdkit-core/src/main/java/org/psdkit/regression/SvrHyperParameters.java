package org.psdkit.regression;

import java.util.Map;
import java.util.OptionalDouble;
import org.psdkit.model.HyperParameters;

/**
 * The hyper-parameters of an {@code svr} model ({@link SvrTrainer}): {@code C, epsilon, tolerance} for ε-SVR or
 * {@code C, nu, tolerance} for ν-SVR, then {@code sampleWeights} when the fit was weighted. A typed view of the model
 * file's {@code options}, whose {@link #toMap()} is exactly those values in their order.
 *
 * @param values the options in their order ({@link #of} checks that every accessor reads them)
 */
public record SvrHyperParameters(Map<String, Object> values) implements HyperParameters {

    public SvrHyperParameters {
        values = HyperParameters.copyOf(values);
    }

    /** The view of {@code values}; throws {@link IllegalArgumentException} when an accessor cannot read them. */
    public static SvrHyperParameters of(Map<String, Object> values) {
        SvrHyperParameters h = new SvrHyperParameters(values);
        h.c();
        h.epsilon();
        h.nu();
        h.tolerance();
        h.sampleWeights();
        return h;
    }

    @Override
    public Map<String, Object> toMap() {
        return values;
    }

    /** The box constraint C. */
    public double c() {
        return number("C");
    }

    /** The width ε of the insensitive tube (ε-SVR), or empty for ν-SVR. */
    public OptionalDouble epsilon() {
        return has("epsilon") ? OptionalDouble.of(number("epsilon")) : OptionalDouble.empty();
    }

    /** ν of ν-SVR, or empty for ε-SVR. */
    public OptionalDouble nu() {
        return has("nu") ? OptionalDouble.of(number("nu")) : OptionalDouble.empty();
    }

    /** The SMO stopping tolerance. */
    public double tolerance() {
        return number("tolerance");
    }

    /** Whether the fit used sample weights. */
    public boolean sampleWeights() {
        return has("sampleWeights") && flag("sampleWeights");
    }

    @Override
    public String toString() {
        return values.toString();
    }
}
