package org.psdkit.classify;

import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import org.psdkit.model.HyperParameters;

/**
 * The hyper-parameters of an {@code svm} model, binary or one-vs-one ({@link SvmTrainer}): {@code C} (or {@code nu} for
 * the binary ν-SVC), then {@code classWeight}, {@code sampleWeights}, {@code probability} and {@code seed} when they
 * apply. A typed view of the model file's {@code options}, whose {@link #toMap()} is exactly those values in their
 * order.
 *
 * @param values the options in their order ({@link #of} checks that every accessor reads them)
 */
public record SvmHyperParameters(Map<String, Object> values) implements HyperParameters {

    public SvmHyperParameters {
        values = HyperParameters.copyOf(values);
    }

    /** The view of {@code values}; throws {@link IllegalArgumentException} when an accessor cannot read them. */
    public static SvmHyperParameters of(Map<String, Object> values) {
        SvmHyperParameters h = new SvmHyperParameters(values);
        h.c();
        h.nu();
        h.classWeight();
        h.sampleWeights();
        h.probability();
        h.seed();
        return h;
    }

    @Override
    public Map<String, Object> toMap() {
        return values;
    }

    /** The box constraint C, or empty for ν-SVC. */
    public OptionalDouble c() {
        return has("C") ? OptionalDouble.of(number("C")) : OptionalDouble.empty();
    }

    /** ν of ν-SVC, or empty for C-SVC. */
    public OptionalDouble nu() {
        return has("nu") ? OptionalDouble.of(number("nu")) : OptionalDouble.empty();
    }

    /** The class weights as recorded ({@link ClassWeights#toString()}), or empty. */
    public Optional<String> classWeight() {
        return has("classWeight") ? Optional.of(text("classWeight")) : Optional.empty();
    }

    /** Whether the fit used sample weights. */
    public boolean sampleWeights() {
        return has("sampleWeights") && flag("sampleWeights");
    }

    /** Whether class probabilities were calibrated (one-vs-one with Platt scaling). */
    public boolean probability() {
        return has("probability") && flag("probability");
    }

    /** The seed of the probability calibration, or empty. */
    public OptionalLong seed() {
        return has("seed") ? OptionalLong.of(integer("seed")) : OptionalLong.empty();
    }

    @Override
    public String toString() {
        return values.toString();
    }
}
