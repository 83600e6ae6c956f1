package org.psdkit.classify.mkl;

import java.util.Map;
import org.psdkit.model.HyperParameters;

/**
 * The hyper-parameters of a one-vs-one {@code tk-svm} or {@code simplemkl} model of more than two classes
 * ({@link MulticlassLearnedSvm}: {@code classes, oneVsOne}; each pair's own C, ε and kernel settings are the pair's
 * {@link LearnedKernelHyperParameters}). A typed view of the model file's {@code options}, whose {@link #toMap()} is
 * exactly those values in their order.
 *
 * @param values the options in their order ({@link #of} checks that every accessor reads them)
 */
public record LearnedOneVsOneHyperParameters(Map<String, Object> values) implements HyperParameters {

    public LearnedOneVsOneHyperParameters {
        values = HyperParameters.copyOf(values);
    }

    /** The view of {@code values}; throws {@link IllegalArgumentException} when an accessor cannot read them. */
    public static LearnedOneVsOneHyperParameters of(Map<String, Object> values) {
        LearnedOneVsOneHyperParameters h = new LearnedOneVsOneHyperParameters(values);
        h.classes();
        h.oneVsOne();
        return h;
    }

    @Override
    public Map<String, Object> toMap() {
        return values;
    }

    /** The number of classes. */
    public int classes() {
        return Math.toIntExact(integer("classes"));
    }

    /** Whether the model is one-vs-one (always true). */
    public boolean oneVsOne() {
        return flag("oneVsOne");
    }

    @Override
    public String toString() {
        return values.toString();
    }
}
