package org.psdkit.select;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.IntFunction;
import org.psdkit.data.Dataset;
import org.psdkit.data.Splits;
import org.psdkit.model.Model;
import org.psdkit.model.ParameterException;
import org.psdkit.model.Trainer;
import org.psdkit.optim.ProgressListener;

/**
 * Hyper-parameters chosen by k-fold cross-validation, as a trainer: for every grid point it builds that point's
 * trainer, scores it on the folds ({@link CrossValidation#evaluate}: each fold's trainer fits the RAW training part,
 * scaling included), keeps the point with the best mean score and refits it on all the data. It wraps any trainer, so
 * no family needs a "null means cross-validate" option.
 *
 * <pre>{@code
 * Trainer<Pipeline<KernelRidge>> cv = GridSearch.over(List.of(1e-3, 1e-2, 1e-1),
 *         lambda -> new KrrTrainer(options.withLambda(lambda)), GridSearch.Scoring.RMSE, 5, 42);
 * Pipeline<KernelRidge> best = cv.fit(train);
 * }</pre>
 *
 * @param <P> a grid point
 * @param <M> the model type of every point's trainer
 */
public final class GridSearch<P, M extends Model> implements Trainer<M> {

    /**
     * How a fitted model is scored on a raw held-out part.
     *
     * @param metric        the metric whose fold mean decides
     * @param lowerIsBetter whether a lower mean wins
     * @param score         the scores of a fitted model on a raw test part (must contain {@code metric})
     */
    public record Scoring(String metric, boolean lowerIsBetter,
                          BiFunction<Model, Dataset, Map<String, Double>> score) {
        /** The root-mean-square error of output column 0 (regression). */
        public static final Scoring RMSE = new Scoring("rmse", true, CrossValidation::regressionScores);
        /**
         * The root-mean-square error of output column 0 weighted by the test rows' sample weights (unweighted when
         * the data have none): √(Σ w_i r_i² / Σ w_i), scikit-learn's metrics with {@code sample_weight}.
         */
        public static final Scoring WEIGHTED_RMSE = new Scoring("rmse", true,
                CrossValidation::weightedRegressionScores);

        public Scoring {
            ParameterException.required("metric", metric);
            ParameterException.required("score", score);
        }
    }

    /**
     * What the search found.
     *
     * @param model the best point's trainer fitted on all the data
     * @param best  the best point
     * @param table every point's fold scores, in grid order (a failed point has its error)
     */
    public record Search<P, M>(M model, P best, List<CrossValidation.Result<P>> table) {
    }

    private final List<P> points;
    private final Function<P, ? extends Trainer<M>> trainers;
    private final Scoring scoring;
    private final IntFunction<Splits.TrainTest[]> parts;

    private GridSearch(List<P> points, Function<P, ? extends Trainer<M>> trainers, Scoring scoring,
                       IntFunction<Splits.TrainTest[]> parts) {
        if (points == null || points.isEmpty()) {
            throw new ParameterException("grid", "must have at least one point");
        }
        this.points = List.copyOf(points);
        this.trainers = Objects.requireNonNull(trainers, "trainers");
        this.scoring = ParameterException.required("scoring", scoring);
        this.parts = Objects.requireNonNull(parts, "parts");
    }

    /**
     * A search over {@code points} with {@code folds}-fold cross-validation; the folds are
     * {@link Splits#kFold}{@code (n, folds, seed)}.
     */
    public static <P, M extends Model> GridSearch<P, M> over(List<P> points, Function<P, ? extends Trainer<M>> trainers,
                                                              Scoring scoring, int folds, long seed) {
        ParameterException.atLeast("folds", folds, 2);
        return new GridSearch<>(points, trainers, scoring, n -> Splits.kFold(n, folds, seed));
    }

    /**
     * A search over {@code points} on the train/test parts {@code parts} gives for n rows (a family whose
     * cross-validation keeps each part's rows in data order, as {@code ConeGrid} does).
     */
    public static <P, M extends Model> GridSearch<P, M> over(List<P> points, Function<P, ? extends Trainer<M>> trainers,
                                                              Scoring scoring, IntFunction<Splits.TrainTest[]> parts) {
        return new GridSearch<>(points, trainers, scoring, parts);
    }

    /** The grid, in order. */
    public List<P> points() {
        return points;
    }

    /** Runs the search and refits the best point; the listener sees one {@code "cv"} event per fold fit. */
    public Search<P, M> search(Dataset train, ProgressListener listener) {
        List<CrossValidation.Result<P>> table = evaluate(train, listener);
        CrossValidation.Result<P> best = CrossValidation.best(table, scoring.metric(), scoring.lowerIsBetter());
        if (best == null) {
            throw new IllegalStateException("every grid point failed in cross-validation; first: "
                    + table.get(0).params() + ": " + table.get(0).error());
        }
        M model = trainers.apply(best.params()).fit(train, listener);
        return new Search<>(model, best.params(), table);
    }

    /**
     * Every point's fold scores, in grid order, without choosing or refitting (a family with its own choice rule
     * reads the table); the listener sees one {@code "cv"} event per fold fit.
     */
    public List<CrossValidation.Result<P>> evaluate(Dataset train, ProgressListener listener) {
        return CrossValidation.evaluate(train, parts.apply(train.n()), points, trainers, scoring.score(), listener);
    }

    @Override
    public M fit(Dataset train, ProgressListener listener) {
        return search(train, listener).model();
    }
}
