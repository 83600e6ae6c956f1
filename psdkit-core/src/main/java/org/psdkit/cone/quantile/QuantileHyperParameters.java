package org.psdkit.cone.quantile;

import java.util.Map;
import java.util.Optional;
import org.psdkit.model.HyperParameters;
import org.psdkit.psd.Anchors;
import org.psdkit.psd.Nystrom;

/**
 * The hyper-parameters of a {@code quantile} model ({@link QuantileTrainer}: {@code method, taus, lambda,
 * frobeniusWeight}, then the anchors' {@code anchors, anchor_method, anchor_seed} of a Nyström fit). A typed view of the
 * model file's {@code options}, whose {@link #toMap()} is exactly those values in their order.
 *
 * @param values the options in their order ({@link #of} checks that every accessor reads them)
 */
public record QuantileHyperParameters(Map<String, Object> values) implements HyperParameters {

    public QuantileHyperParameters {
        values = HyperParameters.copyOf(values);
    }

    /** The view of {@code values}; throws {@link IllegalArgumentException} when an accessor cannot read them. */
    public static QuantileHyperParameters of(Map<String, Object> values) {
        QuantileHyperParameters h = new QuantileHyperParameters(values);
        h.method();
        h.taus();
        h.lambda();
        h.frobeniusWeight();
        h.nystrom();
        return h;
    }

    @Override
    public Map<String, Object> toMap() {
        return values;
    }

    /** The model of the quantile functions. */
    public QuantileRegression.Method method() {
        return QuantileRegression.Method.parse(text("method"));
    }

    /** The quantile levels τ, in order. */
    public double[] taus() {
        return numbers("taus");
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
