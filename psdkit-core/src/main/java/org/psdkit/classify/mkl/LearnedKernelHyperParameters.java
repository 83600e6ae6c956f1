package org.psdkit.classify.mkl;

import java.util.Locale;
import java.util.Map;
import org.psdkit.kernel.TessellatedKernel;
import org.psdkit.model.HyperParameters;

/**
 * The hyper-parameters of a {@code tk-svm} ({@link TkSvmTrainer}) or {@code simplemkl} ({@link SimpleMklTrainer}) model:
 * {@code degree, orthant, gap, epsilon, C} (the order of the model file). A typed view of the model file's
 * {@code options}, whose {@link #toMap()} is exactly those values in their order.
 *
 * @param values the options in their order ({@link #of} checks that every accessor reads them)
 */
public record LearnedKernelHyperParameters(Map<String, Object> values) implements HyperParameters {

    public LearnedKernelHyperParameters {
        values = HyperParameters.copyOf(values);
    }

    /** The view of {@code values}; throws {@link IllegalArgumentException} when an accessor cannot read them. */
    public static LearnedKernelHyperParameters of(Map<String, Object> values) {
        LearnedKernelHyperParameters h = new LearnedKernelHyperParameters(values);
        h.degree();
        h.orthant();
        h.gap();
        h.epsilon();
        h.c();
        return h;
    }

    @Override
    public Map<String, Object> toMap() {
        return values;
    }

    /** The monomial degree of the tessellated kernels. */
    public int degree() {
        return Math.toIntExact(integer("degree"));
    }

    /** The orthant of the tessellated kernels. */
    public TessellatedKernel.Orthant orthant() {
        return TessellatedKernel.Orthant.valueOf(text("orthant").toUpperCase(Locale.ROOT));
    }

    /** The stopping gap of the kernel learning. */
    public double gap() {
        return number("gap");
    }

    /** The box margin ε of the tessellated kernels. */
    public double epsilon() {
        return number("epsilon");
    }

    /** The absolute box constraint C of the final fit. */
    public double c() {
        return number("C");
    }

    @Override
    public String toString() {
        return values.toString();
    }
}
