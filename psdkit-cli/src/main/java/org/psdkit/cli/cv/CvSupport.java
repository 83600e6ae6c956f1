package org.psdkit.cli.cv;

import java.util.Map;
import org.psdkit.cli.Params;
import org.psdkit.data.Dataset;
import org.psdkit.model.Metrics;
import org.psdkit.model.Predictor;

/**
 * What {@code psdkit cv <type>} needs from a model type: its tunable parameters with defaults, a trainer from
 * parameters, and how to score predictions. The cv command does the folds, the scaling (fitted on each training fold
 * only), the grid and the report.
 */
public interface CvSupport {

    /**
     * Every parameter the trainer reads, with its default value as text, in display order (e.g.
     * {@code kernel=gaussian(sigma=1), lambda=0.001}). Grid and {@code --param} names must be keys of this map or
     * parameters that appear as {@code name=} inside the {@code kernel} value (see {@link Params#kernelSpec()}).
     */
    Map<String, String> defaults();

    /**
     * True for the density types: the data has no target (every column is a feature), and the cv command hands the
     * folds to {@link #fit} unscaled, the trainer scaling them itself (its parameter {@code scale}, set from
     * {@code --scale}), so held-out densities are in the data's units.
     */
    default boolean unsupervised() {
        return false;
    }

    /** True if the target holds class labels. */
    default boolean classifier() {
        return false;
    }

    /**
     * Checks one parameter set before any fitting (the cv command calls it for every grid point and reports the
     * first failure with exit status 2). The default parses {@code kernel} and checks {@code lambda >= 0} when
     * present.
     */
    default void validate(Params params) {
        if (params.has("kernel")) {
            params.kernel();
        }
        if (params.has("lambda")) {
            params.getNonNegative("lambda");
        }
    }

    /** Fits on an already scaled training set. */
    Predictor fit(Dataset scaledTrain, Params params);

    /**
     * True if the trainer fits sample weights ({@code cv --weight COLUMN}): each training fold's fit then gets its
     * rows' weights ({@link Dataset#weights()} of the set {@link #fit} receives) and {@link #score} the held-out rows'
     * weights. A type that returns false is refused with {@code --weight}.
     */
    default boolean takesWeights() {
        return false;
    }

    /**
     * Scores a fitted predictor on a scaled test set; the default is regression on output column 0, weighted by the
     * test rows' sample weights when they have them (weighted means of the losses, as scikit-learn's
     * {@code sample_weight} in its metrics).
     */
    default Map<String, Double> score(Predictor fitted, Dataset scaledTest) {
        return Metrics.regression(scaledTest.y(), fitted.predict(scaledTest.x()).col(0), scaledTest.weights());
    }

    /** The score that selects the best grid point. */
    default String selectBy() {
        return "rmse";
    }

    /** True if smaller {@link #selectBy()} values are better. */
    default boolean lowerIsBetter() {
        return true;
    }
}
