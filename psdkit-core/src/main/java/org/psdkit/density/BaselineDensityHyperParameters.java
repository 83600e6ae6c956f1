package org.psdkit.density;

import java.util.Map;
import java.util.Optional;
import org.psdkit.model.HyperParameters;
import org.psdkit.psd.Anchors;
import org.psdkit.psd.Nystrom;

/**
 * The hyper-parameters of an {@code ncm-density}, {@code pnm-density} or {@code glm-density} model ({@link BaselineOptions}:
 * {@code lambda} as a text, then the anchors' {@code anchors, anchor_method, anchor_seed} of a Nyström fit). A typed
 * view of the model file's {@code options}, whose {@link #toMap()} is exactly those values in their order.
 *
 * @param values the options in their order ({@link #of} checks that every accessor reads them)
 */
public record BaselineDensityHyperParameters(Map<String, Object> values) implements HyperParameters {

    public BaselineDensityHyperParameters {
        values = HyperParameters.copyOf(values);
    }

    /** The view of {@code values}; throws {@link IllegalArgumentException} when an accessor cannot read them. */
    public static BaselineDensityHyperParameters of(Map<String, Object> values) {
        BaselineDensityHyperParameters h = new BaselineDensityHyperParameters(values);
        h.lambda();
        h.nystrom();
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

    /** The anchors the model expands on (count, method, seed), or empty for the exact model. */
    public Optional<Nystrom> nystrom() {
        return Nystrom.recorded(this, Anchors.Family.PSD);
    }

    @Override
    public String toString() {
        return values.toString();
    }
}
