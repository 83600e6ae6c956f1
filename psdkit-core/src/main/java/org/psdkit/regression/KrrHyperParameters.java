package org.psdkit.regression;

import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import org.psdkit.model.HyperParameters;
import org.psdkit.psd.Anchors;
import org.psdkit.psd.Nystrom;

/**
 * The hyper-parameters of a {@code krr} model, exact ({@link KrrTrainer}: {@code lambda, form, nugget, center}) or
 * Nyström ({@code regression.nystrom.NystromKrrTrainer}: the same, then {@code anchors, anchorMethod, seed,
 * tolerance}): a typed view of the model file's {@code options}, whose {@link #toMap()} is exactly those values in
 * their order.
 *
 * @param values the options in their order ({@link #of} checks that every accessor reads them)
 */
public record KrrHyperParameters(Map<String, Object> values) implements HyperParameters {

    public KrrHyperParameters {
        values = HyperParameters.copyOf(values);
    }

    /** The view of {@code values}; throws {@link IllegalArgumentException} when an accessor cannot read them. */
    public static KrrHyperParameters of(Map<String, Object> values) {
        KrrHyperParameters h = new KrrHyperParameters(values);
        h.lambda();
        h.form();
        h.nugget();
        h.center();
        h.nystrom();
        h.tolerance();
        return h;
    }

    @Override
    public Map<String, Object> toMap() {
        return values;
    }

    /** λ of (K + λI)α = y. */
    public double lambda() {
        return number("lambda");
    }

    /** The standard or representer form. */
    public KernelRidge.Form form() {
        return KernelRidge.Form.parse(text("form"));
    }

    /** σ² of the representer form. */
    public double nugget() {
        return number("nugget");
    }

    /** Whether y was centred (an unpenalised intercept); false when not recorded. */
    public boolean center() {
        return has("center") && flag("center");
    }

    /** The anchors of a Nyström fit (count used, method, seed), or empty for an exact fit. */
    public Optional<Nystrom> nystrom() {
        if (!has("anchors")) {
            return Optional.empty();
        }
        return Optional.of(Nystrom.of(Math.toIntExact(integer("anchors")),
                Anchors.Method.parseLegacy(text("anchorMethod"), Anchors.Family.KRR), integer("seed")));
    }

    /** The relative residual at which a Nyström fit's conjugate gradient stopped, or empty for an exact fit. */
    public OptionalDouble tolerance() {
        return has("tolerance") ? OptionalDouble.of(number("tolerance")) : OptionalDouble.empty();
    }

    @Override
    public String toString() {
        return values.toString();
    }
}
