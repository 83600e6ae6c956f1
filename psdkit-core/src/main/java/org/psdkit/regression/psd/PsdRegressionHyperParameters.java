package org.psdkit.regression.psd;

import java.util.Map;
import java.util.Optional;
import org.psdkit.model.HyperParameters;
import org.psdkit.psd.Anchors;
import org.psdkit.psd.Nystrom;

/**
 * The hyper-parameters of a {@code psd-regression} model ({@link PsdRegressionTrainer}: {@code lambda1, lambda2, tol,
 * max_iter}, then the anchors' {@code anchors, anchor_method, anchor_seed} of a Nyström fit). A typed view of the model
 * file's {@code options}, whose {@link #toMap()} is exactly those values in their order.
 *
 * @param values the options in their order ({@link #of} checks that every accessor reads them)
 */
public record PsdRegressionHyperParameters(Map<String, Object> values) implements HyperParameters {

    public PsdRegressionHyperParameters {
        values = HyperParameters.copyOf(values);
    }

    /** The view of {@code values}; throws {@link IllegalArgumentException} when an accessor cannot read them. */
    public static PsdRegressionHyperParameters of(Map<String, Object> values) {
        PsdRegressionHyperParameters h = new PsdRegressionHyperParameters(values);
        h.lambda1();
        h.lambda2();
        h.tolerance();
        h.maxIterations();
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

    /** The solver's stopping tolerance. */
    public double tolerance() {
        return number("tol");
    }

    /** The solver's iteration cap. */
    public int maxIterations() {
        return Math.toIntExact(integer("max_iter"));
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
