package org.psdkit.density;

import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.psdkit.model.HyperParameters;
import org.psdkit.psd.Anchors;
import org.psdkit.psd.Nystrom;

/**
 * The hyper-parameters of a {@code psd-density} model ({@link PsdDensityTrainer}: {@code lambda1, lambda2,
 * lambda_scale, anchors} as texts, then {@code anchor_method, anchor_seed} when the anchors are a subset of the rows). A
 * typed view of the model file's {@code options}, whose {@link #toMap()} is exactly those values in their order.
 *
 * @param values the options in their order ({@link #of} checks that every accessor reads them)
 */
public record PsdDensityHyperParameters(Map<String, Object> values) implements HyperParameters {

    public PsdDensityHyperParameters {
        values = HyperParameters.copyOf(values);
    }

    /** The view of {@code values}; throws {@link IllegalArgumentException} when an accessor cannot read them. */
    public static PsdDensityHyperParameters of(Map<String, Object> values) {
        PsdDensityHyperParameters h = new PsdDensityHyperParameters(values);
        h.lambda1();
        h.lambda2();
        h.lambdaScale();
        h.anchors();
        h.nystrom();
        return h;
    }

    @Override
    public Map<String, Object> toMap() {
        return values;
    }

    /** λ₁ of the trace penalty. */
    public double lambda1() {
        return number("lambda1");
    }

    /** λ₂ of the Frobenius penalty. */
    public double lambda2() {
        return number("lambda2");
    }

    /** How λ is scaled. */
    public PsdDensityOptions.LambdaScale lambdaScale() {
        return PsdDensityOptions.LambdaScale.valueOf(text("lambda_scale").toUpperCase(Locale.ROOT));
    }

    /** The number of expansion points used. */
    public int anchors() {
        return Math.toIntExact(integer("anchors"));
    }

    /** The anchors' method and seed when the expansion points are a subset of the rows, or empty. */
    public Optional<Nystrom> nystrom() {
        return Nystrom.recorded(this, Anchors.Family.PSD);
    }

    @Override
    public String toString() {
        return values.toString();
    }
}
