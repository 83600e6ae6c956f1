package org.psdkit.select;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.function.Function;
import org.psdkit.data.Dataset;
import org.psdkit.data.Scaler;
import org.psdkit.data.Splits;
import org.psdkit.linalg.LinalgException;
import org.psdkit.model.Metrics;
import org.psdkit.model.Model;
import org.psdkit.model.Predictor;
import org.psdkit.model.Trainer;
import org.psdkit.optim.ProgressListener;

/**
 * k-fold cross-validation, repeated random splits and grid search for any model. The scaler is fitted on each
 * training part only and applied to its test part; the trainer sees scaled data.
 *
 * <pre>{@code
 * Splits.TrainTest[] folds = Splits.kFold(data.n(), 5, 42);
 * List<CrossValidation.Result<double[]>> table = CrossValidation.grid(data, folds, Scaler.Kind.ZSCORE, points,
 *         (train, p) -> KernelRidge.fit(new GaussianKernel(p[0]), train.x(), train.y(), Options.standard(p[1])),
 *         CrossValidation::regressionScores, null);
 * CrossValidation.Result<double[]> best = CrossValidation.best(table, "rmse", true);
 * }</pre>
 */
public final class CrossValidation {
    private CrossValidation() {
    }

    /**
     * The scores of one grid point over all parts.
     *
     * @param params the grid point
     * @param scores metric name → one value per part
     * @param error  null, or the message of the numerical failure that stopped this point
     */
    public record Result<P>(P params, Map<String, double[]> scores, String error) {
        public double mean(String metric) {
            double[] v = values(metric);
            double s = 0;
            for (double x : v) {
                s += x;
            }
            return s / v.length;
        }

        /** Sample standard deviation over the parts (0 for one part). */
        public double sd(String metric) {
            double[] v = values(metric);
            if (v.length < 2) {
                return 0;
            }
            double m = mean(metric);
            double s = 0;
            for (double x : v) {
                s += (x - m) * (x - m);
            }
            return Math.sqrt(s / (v.length - 1));
        }

        private double[] values(String metric) {
            double[] v = scores.get(metric);
            if (v == null) {
                throw new IllegalArgumentException("no metric '" + metric + "'; have " + scores.keySet());
            }
            return v;
        }
    }

    /** RMSE, MAE and R² of output column 0 against the test target. */
    public static Map<String, Double> regressionScores(Predictor fitted, Dataset scaledTest) {
        return Metrics.regression(scaledTest.y(), fitted.predict(scaledTest.x()).col(0));
    }

    /** {@code repeats} random train/test splits with seeds seed, seed+1, … (the 80/20 × 30 protocol). */
    public static Splits.TrainTest[] repeatedSplits(int n, double testFraction, int repeats, long seed) {
        if (repeats < 1) {
            throw new IllegalArgumentException("repeats must be >= 1, got " + repeats);
        }
        Splits.TrainTest[] parts = new Splits.TrainTest[repeats];
        for (int r = 0; r < repeats; r++) {
            parts[r] = Splits.trainTest(n, testFraction, seed + r);
        }
        return parts;
    }

    /** Scaled (train, test) pairs, the scaler fitted on each training part. */
    public static Dataset[][] scaledParts(Dataset raw, Splits.TrainTest[] parts, Scaler.Kind scale) {
        Dataset[][] out = new Dataset[parts.length][2];
        for (int f = 0; f < parts.length; f++) {
            Dataset tr = Splits.subset(raw, parts[f].train());
            Dataset te = Splits.subset(raw, parts[f].test());
            Scaler s = Scaler.fit(scale, tr.x());
            out[f][0] = s.apply(tr);
            out[f][1] = s.apply(te);
        }
        return out;
    }

    /**
     * Evaluates every grid point on every part, in order (points outer, parts inner). A point whose fit throws a
     * numerical failure ({@link LinalgException}, {@link ArithmeticException}, {@link IllegalStateException}) is
     * recorded with its error and skipped; user errors ({@link IllegalArgumentException}) propagate.
     *
     * @param onStep called after each fit (progress), may be null
     */
    public static <P> List<Result<P>> grid(Dataset raw, Splits.TrainTest[] parts, Scaler.Kind scale, List<P> points,
                                           BiFunction<Dataset, P, ? extends Predictor> fit,
                                           BiFunction<Predictor, Dataset, Map<String, Double>> score,
                                           Runnable onStep) {
        Dataset[][] scaled = scaledParts(raw, parts, scale);
        List<Result<P>> out = new ArrayList<>();
        for (P p : points) {
            Map<String, double[]> scores = new LinkedHashMap<>();
            String error = null;
            for (int f = 0; f < parts.length && error == null; f++) {
                try {
                    Predictor fitted = fit.apply(scaled[f][0], p);
                    for (Map.Entry<String, Double> e : score.apply(fitted, scaled[f][1]).entrySet()) {
                        scores.computeIfAbsent(e.getKey(), k -> new double[parts.length])[f] = e.getValue();
                    }
                } catch (LinalgException | ArithmeticException | IllegalStateException e) {
                    error = String.valueOf(e.getMessage());
                }
                if (onStep != null) {
                    onStep.run();
                }
            }
            out.add(new Result<>(p, error == null ? scores : Map.of(), error));
        }
        return out;
    }

    /** The point with the best mean {@code metric} among those without error; null if every point failed. */
    public static <P> Result<P> best(List<Result<P>> table, String metric, boolean lowerIsBetter) {
        Result<P> best = null;
        for (Result<P> r : table) {
            if (r.error() != null) {
                continue;
            }
            double v = r.mean(metric);
            if (best == null || (lowerIsBetter ? v < best.mean(metric) : v > best.mean(metric))) {
                best = r;
            }
        }
        return best;
    }

    /**
     * Evaluates every grid point on every part with a {@link Trainer} made for that point: the trainer fits the RAW
     * training part (its own scaling included) and {@code score} sees the fitted model and the RAW test part. Order,
     * error handling and the result table are those of {@link #grid}. This is the one cross-validation loop of every
     * family.
     *
     * @param trainers the trainer of a grid point (its options validated when it is built)
     * @param listener receives one {@code "cv"} event per fit, with the total number of fits
     */
    public static <P> List<Result<P>> evaluate(Dataset raw, Splits.TrainTest[] parts, List<P> points,
                                               Function<P, ? extends Trainer<?>> trainers,
                                               BiFunction<Model, Dataset, Map<String, Double>> score,
                                               ProgressListener listener) {
        ProgressListener l = ProgressListener.orNone(listener);
        Dataset[][] split = new Dataset[parts.length][2];
        for (int f = 0; f < parts.length; f++) {
            split[f][0] = Splits.subset(raw, parts[f].train());
            split[f][1] = Splits.subset(raw, parts[f].test());
        }
        long total = (long) points.size() * parts.length;
        long done = 0;
        long t0 = System.nanoTime();
        List<Result<P>> out = new ArrayList<>();
        for (P p : points) {
            Trainer<?> trainer = trainers.apply(p);
            Map<String, double[]> scores = new LinkedHashMap<>();
            String error = null;
            for (int f = 0; f < parts.length && error == null; f++) {
                try {
                    Model fitted = trainer.fit(split[f][0]);
                    for (Map.Entry<String, Double> e : score.apply(fitted, split[f][1]).entrySet()) {
                        scores.computeIfAbsent(e.getKey(), k -> new double[parts.length])[f] = e.getValue();
                    }
                } catch (LinalgException | ArithmeticException | IllegalStateException e) {
                    error = String.valueOf(e.getMessage());
                }
                done++;
                l.onProgress(ProgressListener.Event.of("cv", done, total, (System.nanoTime() - t0) * 1e-9));
            }
            out.add(new Result<>(p, error == null ? scores : Map.of(), error));
        }
        return out;
    }

    /** RMSE, MAE and R² of a model's output column 0 on a raw test set. */
    public static Map<String, Double> regressionScores(Model fitted, Dataset rawTest) {
        return Metrics.regression(rawTest.y(), fitted.predict(rawTest.x()).col(0));
    }

    /**
     * RMSE, MAE and R² of a model's output column 0 on a raw test set, weighted by its rows' sample weights
     * ({@link Metrics#regression(double[], double[], double[])}; unweighted when it has none).
     */
    public static Map<String, Double> weightedRegressionScores(Model fitted, Dataset rawTest) {
        return Metrics.regression(rawTest.y(), fitted.predict(rawTest.x()).col(0), rawTest.weights());
    }
}
