package org.psdkit.model;

import java.util.List;
import org.psdkit.data.Dataset;
import org.psdkit.linalg.Matrix;

/**
 * A fitted model of any psdkit family, as users see it: it takes rows of RAW features (the columns named by
 * {@link #featureNames()}, in that order) and applies its own feature scaling. Every family implements it (ridge,
 * krr, svr, svm, tk-svm, simplemkl, psd-regression and its NCM/PNM/GLM baselines, the densities and kde, hetero,
 * quantile, kernel-sos); {@link org.psdkit.io.ModelIO} saves and loads all of them.
 *
 * <p>Models are immutable and safe to call from several threads.
 */
public interface Model {

    /** The model type as written in model files ({@code "krr"}, {@code "psd-density"}, …). */
    String type();

    /** Input columns, in the order {@link #predict} expects them. */
    List<String> featureNames();

    /** The target column the model was trained on, or {@code null} (densities). */
    String targetName();

    /**
     * Names of the numeric output columns, the same as {@code psdkit predict} writes: {@code prediction},
     * {@code decision}, {@code density}, {@code mean}/{@code variance}, {@code q0.25}, …
     */
    List<String> outputColumns();

    /** Outputs for rows of raw features: n × {@code outputColumns().size()}. */
    Matrix predict(Matrix rawX);

    /** Outputs for rows of raw features, one output row per input row. */
    default double[][] predict(double[][] rows) {
        if (rows.length == 0) {
            return new double[0][];
        }
        return predict(Matrix.of(rows)).toRowArrays();
    }

    /** Outputs for one row of raw features. */
    default double[] predict(double[] row) {
        return predict(new double[][] {row})[0];
    }

    /**
     * The hyper-parameters the model was fitted with (λ, C, ε, σ, taus, …), read-only, in a stable order;
     * {@link HyperParameters#toMap()} is the model file's {@code options}.
     */
    HyperParameters hyperParameters();

    /**
     * What the fit reported (iterations, duality gap, route, seconds, …): the family's typed record, or the values a
     * model file recorded; {@link Diagnostics#toMap()} is empty if nothing was reported.
     */
    Diagnostics diagnostics();

    /** True for models without a target (densities). */
    default boolean unsupervised() {
        return false;
    }

    /**
     * Metrics on a raw data set: {@code rmse, mae, r2} for regression ({@link Evaluation.Regression}),
     * {@code accuracy} for classifiers, {@code loglik, integral, …} for densities, the pinball loss for quantiles:
     * the family's record, whose {@link Evaluation#toMap()} is in the order of the report.
     */
    Evaluation evaluate(Dataset raw);
}
