package org.psdkit.cone.hetero;

import java.util.Map;
import java.util.Optional;
import org.psdkit.model.HyperParameters;
import org.psdkit.psd.Anchors;
import org.psdkit.psd.Nystrom;

/**
 * The hyper-parameters of a {@code hetero} model ({@link HeteroTrainer}: {@code method, lambda, frobeniusWeight}, then
 * the anchors' {@code anchors, anchor_method, anchor_seed} of a Nyström fit). A typed view of the model file's
 * {@code options}, whose {@link #toMap()} is exactly those values in their order.
 *
 * @param values the options in their order ({@link #of} checks that every accessor reads them)
 */
public record HeteroHyperParameters(Map<String, Object> values) implements HyperParameters {

    public HeteroHyperParameters {
        values = HyperParameters.copyOf(values);
    }

    /** The view of {@code values}; throws {@link IllegalArgumentException} when an accessor cannot read them. */
    public static HeteroHyperParameters of(Map<String, Object> values) {
        HeteroHyperParameters h = new HeteroHyperParameters(values);
        h.method();
        h.lambda();
        h.frobeniusWeight();
        h.nystrom();
        return h;
    }

    @Override
    public Map<String, Object> toMap() {
        return values;
    }

    /** The model of the two functions. */
    public HeteroscedasticRegression.Method method() {
        return HeteroscedasticRegression.Method.parse(text("method"));
    }

    /** λ of the penalty. */
    public double lambda() {
        return number("lambda");
    }

    /** The weight of the Frobenius term of the penalty. */
    public double frobeniusWeight() {
        return number("frobeniusWeight");
    }

    /** The anchors the model expands on (count, method, seed), or empty for the exact model. */
    public Optional<Nystrom> nystrom() {
        return Nystrom.recorded(this, Anchors.Family.PSD);
    }

    @Override
    public String toString() {
        return values.toString();
    }
}
