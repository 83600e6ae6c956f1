package org.psdkit.cone;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.function.Function;
import org.psdkit.data.Dataset;
import org.psdkit.data.Splits;
import org.psdkit.kernel.GaussianKernel;
import org.psdkit.kernel.Kernel;
import org.psdkit.linalg.Matrix;
import org.psdkit.model.Model;
import org.psdkit.model.ParameterException;
import org.psdkit.model.Trainer;
import org.psdkit.optim.ProgressListener;
import org.psdkit.select.CrossValidation;
import org.psdkit.select.GridSearch;

/**
 * The kernel × λ grid of the vector-valued (cone) models, chosen by K-fold cross-validation: every grid point is
 * fitted on K − 1 folds and scored on the remaining one (lower is better: held-out Gaussian NLL or pinball loss); the
 * point with the lowest mean score wins. The loop is {@link CrossValidation#evaluate} on the folds of
 * {@link Splits#kFold} (the same folds for the same seed as {@code psdkit cv}); a fit that fails numerically or
 * scores +∞/NaN (e.g. PNM's variance ≤ 0 on a held-out point) counts as +∞.
 *
 * @param kernels the candidate kernels, or {@code null} for {@link #defaultGaussians} of the training inputs
 * @param lambdas the candidate λ values (each > 0), or {@code null} for the family's default grid
 * @param folds   K ≥ 2
 * @param seed    seed of the fold permutation
 */
public record ConeGrid(List<Kernel> kernels, double[] lambdas, int folds, long seed) {

    /**
     * Default σ grid as multiples of the data's spread s = √(mean over features of the variance): kernel widths
     * from a tenth of the spread (local fits on n ≈ 100–1000 points) to the spread itself (near-global fits).
     */
    public static final double[] DEFAULT_SIGMA_MULTIPLES = {0.1, 0.2, 0.5, 1.0};

    /** One grid point: a kernel and a λ. */
    public record Candidate(Kernel kernel, double lambda) {
    }

    /** One grid point's result: mean and sample standard deviation of the fold scores (NaN if the mean is +∞). */
    public record Point(String kernel, double lambda, double score, double sd) {
    }

    /** The winner and the whole table (in grid order: kernels outer, λ inner). */
    public record Outcome(Kernel kernel, double lambda, double score, int folds, List<Point> table) {
    }

    public ConeGrid {
        if (kernels != null) {
            if (kernels.isEmpty()) {
                throw new ParameterException("kernels", "must not be empty (null for the default Gaussians)");
            }
            kernels = List.copyOf(kernels);
        }
        if (lambdas != null) {
            if (lambdas.length == 0) {
                throw new ParameterException("lambdas", "must not be empty (null for the default grid)");
            }
            lambdas = lambdas.clone();
            for (double l : lambdas) {
                if (!(l > 0) || !Double.isFinite(l)) {
                    throw new ParameterException("lambdas", "must be > 0, got " + l);
                }
            }
        }
        if (folds < 2) {
            throw new ParameterException("folds", "must be >= 2, got " + folds);
        }
    }

    /** The default Gaussians and the family's default λ grid. */
    public static ConeGrid defaults(int folds, long seed) {
        return new ConeGrid(null, null, folds, seed);
    }

    @Override
    public double[] lambdas() {
        return lambdas == null ? null : lambdas.clone();
    }

    /** Gaussian kernels with σ = multiple × spread of x (three significant digits). */
    public static List<Kernel> defaultGaussians(Matrix x) {
        return defaultGaussians(x, null);
    }

    /** {@link #defaultGaussians(Matrix)}; a refusal names {@code source} (the data's file) when not null. */
    private static List<Kernel> defaultGaussians(Matrix x, String source) {
        int d = x.cols();
        int n = x.rows();
        double tot = 0;
        for (int j = 0; j < d; j++) {
            double mean = 0;
            for (int i = 0; i < n; i++) {
                mean += x.get(i, j);
            }
            mean /= n;
            double v = 0;
            for (int i = 0; i < n; i++) {
                v += (x.get(i, j) - mean) * (x.get(i, j) - mean);
            }
            tot += v / Math.max(1, n - 1);
        }
        double spread = Math.sqrt(tot / d);
        if (!(spread > 0)) {
            spread = 1;
        }
        double smallest = round3(DEFAULT_SIGMA_MULTIPLES[0] * spread);
        if (Double.isInfinite(1.0 / (2 * smallest * smallest))) {
            throw new IllegalArgumentException(String.format(Locale.ROOT, "%sthe inputs' spread (root mean "
                    + "variance of the features) is %.3g, too small for the default Gaussian kernels: sigma = %.3g "
                    + "makes 1/(2 sigma^2) overflow double precision; rescale the features (zscore or minmax "
                    + "scaling) or give a kernel", source == null ? "" : source + ": ", spread, smallest));
        }
        List<Kernel> ks = new ArrayList<>();
        for (double m : DEFAULT_SIGMA_MULTIPLES) {
            ks.add(new GaussianKernel(round3(m * spread)));
        }
        return ks;
    }

    private static double round3(double v) {
        // three significant digits keep kernel specs readable in reports and model files
        return Double.parseDouble(String.format(Locale.ROOT, "%.3g", v));
    }

    /** The grid points on {@code x}: kernels outer, λ inner. */
    public List<Candidate> candidates(Matrix x, double[] defaultLambdas) {
        return candidates(x, defaultLambdas, null);
    }

    private List<Candidate> candidates(Matrix x, double[] defaultLambdas, String source) {
        List<Kernel> ks = kernels == null ? defaultGaussians(x, source) : kernels;
        double[] ls = lambdas == null ? defaultLambdas : lambdas;
        List<Candidate> out = new ArrayList<>();
        for (Kernel k : ks) {
            for (double l : ls) {
                out.add(new Candidate(k, l));
            }
        }
        return out;
    }

    /**
     * The K folds of {@link Splits#kFold} for this seed, the rows of each part kept in data order (the fits see the
     * rows in the order of the file).
     */
    public Splits.TrainTest[] parts(int n) {
        if (folds > n) {
            throw new ParameterException("folds", "must be in [2, n=" + n + "], got " + folds);
        }
        Splits.TrainTest[] parts = Splits.kFold(n, folds, seed);
        for (int f = 0; f < parts.length; f++) {
            int[] tr = parts[f].train().clone();
            int[] te = parts[f].test().clone();
            Arrays.sort(tr);
            Arrays.sort(te);
            parts[f] = new Splits.TrainTest(tr, te);
        }
        return parts;
    }

    /**
     * The grid search over {@code points} on this grid's {@link #parts}: metric {@code score}, lower is better, NaN
     * counted as +∞.
     */
    public <M extends Model> GridSearch<Candidate, M> gridSearch(List<Candidate> points,
                                                                 Function<Candidate, ? extends Trainer<M>> trainers,
                                                                 BiFunction<Model, Dataset, Double> score) {
        return GridSearch.over(points, trainers, new GridSearch.Scoring("score", true, (m, test) -> {
            double s = score.apply(m, test);
            return Map.of("score", Double.isNaN(s) ? Double.POSITIVE_INFINITY : s);
        }), this::parts);
    }

    /**
     * Cross-validates every grid point on {@code data} (already in the model's input space: the trainers see it as
     * it is) and returns the winner.
     *
     * @param defaultLambdas the family's λ grid when {@link #lambdas()} is null
     * @param trainers       the trainer of one grid point
     * @param score          held-out score of a fitted model on a test part (lower is better)
     * @param listener       one {@code "cv"} event per fit
     */
    public <M extends Model> Outcome select(Dataset data, double[] defaultLambdas,
                                            Function<Candidate, ? extends Trainer<M>> trainers,
                          BiFunction<Model, Dataset, Double> score, ProgressListener listener) {
        List<Candidate> points = candidates(data.x(), defaultLambdas, data.source());
        List<CrossValidation.Result<Candidate>> rows = gridSearch(points, trainers, score).evaluate(data, listener);
        List<Point> table = new ArrayList<>();
        Candidate best = null;
        double bestScore = Double.POSITIVE_INFINITY;
        for (CrossValidation.Result<Candidate> r : rows) {
            double mean = r.error() == null ? r.mean("score") : Double.POSITIVE_INFINITY;
            double sd = Double.isFinite(mean) ? r.sd("score") : Double.NaN;
            table.add(new Point(r.params().kernel().spec(), r.params().lambda(), mean, sd));
            if (best == null || mean < bestScore) {
                best = r.params();
                bestScore = mean;
            }
        }
        return new Outcome(best.kernel(), best.lambda(), bestScore, folds, table);
    }
}
