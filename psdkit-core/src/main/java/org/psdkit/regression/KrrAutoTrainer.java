package org.psdkit.regression;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.psdkit.data.Dataset;
import org.psdkit.data.Scaler;
import org.psdkit.data.Splits;
import org.psdkit.kernel.GaussianKernel;
import org.psdkit.kernel.Kernel;
import org.psdkit.kernel.LibraryKernel;
import org.psdkit.linalg.Cholesky;
import org.psdkit.linalg.Linalg;
import org.psdkit.linalg.LinalgException;
import org.psdkit.linalg.Matrix;
import org.psdkit.model.Diagnostics;
import org.psdkit.model.ParameterException;
import org.psdkit.model.Pipeline;
import org.psdkit.model.Trainer;
import org.psdkit.optim.Lbfgs;
import org.psdkit.optim.ProgressListener;

/**
 * Exact Gaussian kernel ridge regression whose bandwidth(s) and λ are chosen by gradient-based minimisation of the
 * leave-one-out error, GCV or a held-out error, with a few restarts (in the spirit of the hyper-parameter
 * optimisation of Meanti, Carratino, De Vito &amp; Rosasco 2022, "Efficient hyperparameter tuning for large scale
 * kernel ridge regression"); the chosen σ and λ land in an ordinary {@code krr} model, the search path in its
 * diagnostics.
 *
 * <p>The search runs on θ = (log ℓ, log λ) with one bandwidth ℓ = σ, or one per feature (automatic relevance
 * determination, k(x, t) = exp(−Σ_k (x_k − t_k)²/(2ℓ_k²))), by L-BFGS ({@link Lbfgs}) from {@code restarts} starts
 * around the median pairwise distance. With A = K + λI, G = A⁻¹ and α = G y, every objective f has
 * df = Σ_ij dA_ij C_ij for a symmetric n×n matrix C (derived below), so ∂f/∂log λ = λ tr C and
 * ∂f/∂log ℓ_k = Σ_ij K_ij C_ij (x_ik − x_jk)²/ℓ_k²: one Cholesky factorisation (and, for LOO and GCV, the inverse
 * and one symmetric product) per evaluation.
 * <ul>
 *   <li>LOO: e_i = α_i / G_ii (Golub, Heath &amp; Wahba 1979; see {@link KrrLoo}), f = Σ e_i²/n; with u_i = e_i/G_ii,
 *       β = G u and w_i = e_i²/G_ii, C = (2/n)(G diag(w) G − (βαᵀ + αβᵀ)/2).</li>
 *   <li>GCV: f = n αᵀα / (tr G)² (the GCV of {@link KrrLoo}, (‖λα‖²/n)/(λ tr G/n)²); with γ = G α,
 *       C = f (2G²/tr G − (γαᵀ + αγᵀ)/αᵀα).</li>
 *   <li>Held-out: α = (K_TT + λI)⁻¹ y_T on the training part T, r = y_V − K_VT α on the held-out part V,
 *       f = ‖r‖²/|V|; with b = (K_TT + λI)⁻¹ K_TV r, C_TT = (bαᵀ + αbᵀ)/|V|, C_VT = −r αᵀ/|V|, C_VV = 0.</li>
 * </ul>
 * L-BFGS minimises log f (its gradient ∇f/f is scale-free). On more rows than {@link Options#searchRows(int)} the
 * search runs on a seeded subsample; λ then scales with the number of rows (the standard form's λ multiplies a sum
 * over the rows), and a few L-BFGS iterations on all rows polish (σ, λ) from there (path entries with restart
 * {@link #POLISH}).
 *
 * @param options the base KRR options, the objective, ARD, restarts, iterations and the search's rows
 */
public record KrrAutoTrainer(Options options) implements Trainer<Pipeline<KernelRidge>> {

    /** The task name of the progress events. */
    public static final String TASK = "krr-auto";

    /** What the search minimises. */
    public enum Objective {
        LOO, GCV, HOLDOUT;

        /** Parses {@code loo|gcv|holdout} (case-insensitive); errors name the parameter {@code objective}. */
        public static Objective parse(String s) {
            String t = s == null ? "" : s.trim().toLowerCase(Locale.ROOT);
            return switch (t) {
                case "loo" -> LOO;
                case "gcv" -> GCV;
                case "holdout" -> HOLDOUT;
                default -> throw new ParameterException("objective", "must be loo, gcv or holdout, got '" + s + "'");
            };
        }

        /** The lower-case name used in diagnostics and on the command line. */
        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /**
     * Everything an automatic fit takes; the constructor checks every field.
     *
     * @param base       the KRR options: a Gaussian kernel (its σ is replaced), the standard form, centring and
     *                   scaling (its λ is replaced)
     * @param objective  what is minimised ({@code null}: {@link #DEFAULT_OBJECTIVE})
     * @param ard        one bandwidth per feature instead of one for all
     * @param restarts   starting points of the search, ≥ 1
     * @param iterations L-BFGS iterations per start, ≥ 1
     * @param searchRows the search runs on at most this many rows (a seeded subsample), ≥ 10, or
     *                   {@link #AUTO_ROWS} for {@link #searchRows(int)}
     * @param holdout    the held-out fraction of the search's rows for {@link Objective#HOLDOUT}, in (0, 1)
     * @param seed       seed of the subsample and of the held-out split
     */
    public record Options(KrrTrainer.Options base, Objective objective, boolean ard, int restarts, int iterations,
                          int searchRows, double holdout, long seed) {
        /** Leave-one-out by default (scikit-learn's {@code RidgeCV} criterion). */
        public static final Objective DEFAULT_OBJECTIVE = Objective.LOO;
        /** Three starts: the median heuristic, half and twice it. */
        public static final int DEFAULT_RESTARTS = 3;
        /** L-BFGS iterations per start; two or three parameters settle in a few. */
        public static final int DEFAULT_ITERATIONS = 12;
        /** {@code searchRows} = 0: the rows of the search follow the data ({@link #searchRows(int)}). */
        public static final int AUTO_ROWS = 0;
        /** The automatic search takes at least this many rows (all of them on smaller data). */
        public static final int MIN_AUTO_ROWS = 500;
        /**
         * The automatic search takes one row in this many beyond {@link #MIN_AUTO_ROWS}: an evaluation costs about
         * six Cholesky factorisations of the search's size, (1/4)³ = 1/64 of the cost on all rows, so some seventy
         * evaluations and the polish on all rows (a few evaluations of six factorisations each) cost a fraction of
         * a 5-fold grid of 100 points (500 factorisations of 0.8n rows).
         */
        public static final int AUTO_ROWS_FRACTION = 4;
        /** The held-out fraction of {@link Objective#HOLDOUT}. */
        public static final double DEFAULT_HOLDOUT = 0.2;
        /** Seed of the subsample and the held-out split. */
        public static final long DEFAULT_SEED = 1;

        public Options {
            ParameterException.required("options", base);
            if (!(base.kernel() instanceof GaussianKernel)) {
                throw new ParameterException("kernel", "must be gaussian(...) for the automatic search, got "
                        + base.kernel().spec());
            }
            if (base.form() != KernelRidge.Form.STANDARD) {
                throw new ParameterException("form", "must be standard for the automatic search, got "
                        + base.form().label());
            }
            if (objective == null) {
                objective = DEFAULT_OBJECTIVE;
            }
            ParameterException.atLeast("restarts", restarts, 1);
            ParameterException.atLeast("iterations", iterations, 1);
            if (searchRows != AUTO_ROWS) {
                ParameterException.atLeast("searchRows", searchRows, 10);
            }
            ParameterException.unitOpen("holdout", holdout);
        }

        /** The defaults around {@code base}: leave-one-out, one bandwidth. */
        public static Options of(KrrTrainer.Options base) {
            return new Options(base, DEFAULT_OBJECTIVE, false, DEFAULT_RESTARTS, DEFAULT_ITERATIONS,
                    AUTO_ROWS, DEFAULT_HOLDOUT, DEFAULT_SEED);
        }

        /** The rows the search takes from {@code n}: {@code searchRows}, or n/4 but at least 500 when automatic. */
        public int searchRows(int n) {
            if (searchRows != AUTO_ROWS) {
                return Math.min(n, searchRows);
            }
            return Math.min(n, Math.max(MIN_AUTO_ROWS, n / AUTO_ROWS_FRACTION));
        }

        public Options withObjective(Objective o) {
            return new Options(base, o, ard, restarts, iterations, searchRows, holdout, seed);
        }

        public Options withArd(boolean a) {
            return new Options(base, objective, a, restarts, iterations, searchRows, holdout, seed);
        }

        public Options withRestarts(int r) {
            return new Options(base, objective, ard, r, iterations, searchRows, holdout, seed);
        }

        public Options withIterations(int i) {
            return new Options(base, objective, ard, restarts, i, searchRows, holdout, seed);
        }

        public Options withSearchRows(int rows) {
            return new Options(base, objective, ard, restarts, iterations, rows, holdout, seed);
        }

        public Options withHoldout(double h) {
            return new Options(base, objective, ard, restarts, iterations, searchRows, h, seed);
        }

        public Options withSeed(long s) {
            return new Options(base, objective, ard, restarts, iterations, searchRows, holdout, s);
        }
    }

    /**
     * One evaluation of the search.
     *
     * @param restart the start it belongs to (0-based), or {@link KrrAutoTrainer#POLISH} for the polish on all rows
     * @param sigma   the bandwidth(s): one value, or one per feature with ARD
     * @param lambda  λ on the search's rows
     * @param rmse    the square root of the objective, in the target's units
     */
    public record Step(int restart, double[] sigma, double lambda, double rmse) {
        Map<String, Object> toMap(boolean ard) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("restart", restart);
            m.put("sigma", ard ? toList(sigma) : (Object) sigma[0]);
            m.put("lambda", lambda);
            m.put("rmse", rmse);
            return m;
        }

        static Step of(Map<?, ?> m) {
            Object s = m.get("sigma");
            double[] sig = s instanceof List<?> l ? l.stream().mapToDouble(v -> (Double) v).toArray()
                    : new double[] {(Double) s};
            return new Step((Integer) m.get("restart"), sig, (Double) m.get("lambda"), (Double) m.get("rmse"));
        }
    }

    /**
     * What the search did, the model file's {@code diagnostics.auto} object.
     *
     * @param objective   what was minimised
     * @param ard         one bandwidth per feature
     * @param restarts    starts run
     * @param searchRows  rows the search ran on
     * @param evaluations evaluations of the objective (each one factorisation)
     * @param rmse        the square root of the best objective, in the target's units (on all rows after the
     *                    polish when the search ran on a subsample)
     * @param seconds     wall time of the search (the final fit excluded)
     * @param path        every evaluation in order
     */
    public record Search(Objective objective, boolean ard, int restarts, int searchRows, int evaluations, double rmse,
                         double seconds, List<Step> path) {
        public Search {
            path = List.copyOf(path);
        }

        public Map<String, Object> toMap() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("objective", objective.label());
            m.put("ard", ard);
            m.put("restarts", restarts);
            m.put("searchRows", searchRows);
            m.put("evaluations", evaluations);
            m.put("rmse", rmse);
            m.put("seconds", seconds);
            List<Object> p = new ArrayList<>();
            for (Step s : path) {
                p.add(s.toMap(ard));
            }
            m.put("path", p);
            return m;
        }

        /** The record of a model file's {@code diagnostics.auto}; throws if a key is missing or of another type. */
        public static Search of(Map<?, ?> m) {
            List<Step> steps = new ArrayList<>();
            for (Object o : (List<?>) m.get("path")) {
                steps.add(Step.of((Map<?, ?>) o));
            }
            return new Search(Objective.parse((String) m.get("objective")), (Boolean) m.get("ard"),
                    (Integer) m.get("restarts"), (Integer) m.get("searchRows"), (Integer) m.get("evaluations"),
                    (Double) m.get("rmse"), (Double) m.get("seconds"), steps);
        }
    }

    /**
     * The diagnostics of an automatic fit: the exact fit's keys ({@link KrrTrainer.Fit}), then {@code auto}.
     *
     * @param fit    the final fit's diagnostics
     * @param search the search
     */
    public record Fit(KrrTrainer.Fit fit, Search search) implements Diagnostics {
        @Override
        public Map<String, Object> toMap() {
            Map<String, Object> m = fit.toMap();
            m.put("auto", search.toMap());
            return m;
        }

        /** The record of a model file's diagnostics; throws if a key is missing or of another type. */
        public static Fit of(Map<String, Object> m) {
            Map<String, Object> rest = new LinkedHashMap<>(m);
            Object auto = rest.remove("auto");
            return new Fit(KrrTrainer.Fit.of(rest), Search.of((Map<?, ?>) auto));
        }
    }

    public KrrAutoTrainer {
        ParameterException.required("options", options);
    }

    @Override
    public Pipeline<KernelRidge> fit(Dataset train, ProgressListener listener) {
        ProgressListener progress = ProgressListener.orNone(listener);
        if (train.y() == null) {
            throw new IllegalArgumentException(train.source() + ": kernel ridge regression needs a numeric target");
        }
        if (train.weights() != null || train.targets() != null) {
            throw new IllegalArgumentException(train.source() + ": the automatic search of sigma and lambda fits one "
                    + "unweighted target");
        }
        int n = train.n();
        if (n < 10) {
            throw new IllegalArgumentException(train.source() + ": the automatic search needs at least 10 rows, got "
                    + n);
        }
        long t0 = System.nanoTime();
        KrrTrainer.Options base = options.base();
        Matrix x = Scaler.fit(base.scale(), train.x()).apply(train.x());
        SearchTarget target = SearchTarget.of(train.y(), base.center());
        double[] y = target.y();
        double yScale = target.scale();
        int ns = options.searchRows(n);
        int[] rows = Arrays.copyOf(Splits.permutation(n, options.seed()), ns);
        if (ns == n && options.objective() != Objective.HOLDOUT) {
            rows = identity(n); // all rows in their order
        }
        Matrix xs = x.selectRows(rows);
        double[] ys = new double[ns];
        for (int i = 0; i < ns; i++) {
            ys[i] = y[rows[i]];
        }
        int trainRows = trainRows(ns);
        boolean ard = options.ard();
        int d = x.cols();
        int p = ard ? d : 1;
        double med = medianDistance(xs, options.seed());
        double[] lo = lowerBounds(p, med);
        double[] hi = upperBounds(p, med);
        List<Step> path = new ArrayList<>();
        int[] restart = {0};
        double[] best = null;
        double bestValue = Double.POSITIVE_INFINITY;
        Objective obj = options.objective();
        Lbfgs.Options lbfgs = Lbfgs.Options.of(GRADIENT_TOLERANCE, options.iterations());
        Lbfgs.Objective f = logObjective(xs, ys, trainRows, lo, hi, path, restart, yScale, progress, t0);
        for (int r = 0; r < options.restarts(); r++) {
            restart[0] = r;
            double[] theta0 = start(r, p, med);
            Lbfgs.Result res;
            try {
                res = Lbfgs.minimize(f, theta0, lbfgs);
            } catch (IllegalArgumentException e) {
                continue; // the start is not positive definite: the other starts go on
            }
            if (res.value() < bestValue) {
                bestValue = res.value();
                best = res.x();
            }
        }
        if (best == null) {
            throw new IllegalStateException("kernel ridge: the automatic search found no positive definite start");
        }
        int fitRows = trainRows;
        if (ns < n) {
            // λ multiplies a sum over the rows: scale it to all rows, then polish (σ, λ) on all rows by a few
            // L-BFGS iterations from there
            double[] theta0 = best.clone();
            theta0[p] += Math.log((double) trainRows(n) / trainRows);
            theta0[p] = Math.max(lo[p], Math.min(hi[p], theta0[p]));
            int[] all = obj == Objective.HOLDOUT ? Splits.permutation(n, options.seed()) : identity(n);
            double[] ya = new double[n];
            for (int i = 0; i < n; i++) {
                ya[i] = y[all[i]];
            }
            restart[0] = POLISH;
            Lbfgs.Objective fa = logObjective(obj == Objective.HOLDOUT ? x.selectRows(all) : x, ya, trainRows(n), lo,
                    hi, path, restart, yScale, progress, t0);
            try {
                Lbfgs.Result res = Lbfgs.minimize(fa, theta0, Lbfgs.Options.of(GRADIENT_TOLERANCE,
                        POLISH_ITERATIONS));
                best = res.x();
                bestValue = res.value();
            } catch (IllegalArgumentException e) {
                best = theta0; // not positive definite on all rows: the subsample's point, λ scaled
            }
            fitRows = trainRows(n);
        }
        double[] sigma = new double[p];
        for (int k = 0; k < p; k++) {
            sigma[k] = Math.exp(best[k]);
        }
        double lambda = Math.exp(best[p]);
        double rmse = Math.sqrt(Math.exp(bestValue)) * yScale;
        if (obj == Objective.HOLDOUT) {
            lambda *= (double) n / fitRows; // the held-out part joins the final fit
        }
        double seconds = (System.nanoTime() - t0) * 1e-9;
        Kernel kernel = kernel(sigma, d);
        Pipeline<KernelRidge> m = new KrrTrainer(base.withKernel(kernel).withLambda(lambda)).fit(train);
        KrrTrainer.Fit fit = (KrrTrainer.Fit) m.diagnostics();
        Search search = new Search(obj, ard, options.restarts(), ns, path.size(), rmse, seconds, path);
        return KrrTrainer.of(m.header(), m.inner(), new Fit(fit, search));
    }

    /**
     * The fitted kernel: {@code gaussian(sigma=σ)}, or with one bandwidth per feature the Gaussian member of the
     * kernel library on standardised features, exp(−Σ_k ((x_k − t_k)/ℓ_k)²/2) ({@link LibraryKernel} with σ = 1,
     * centre 0 and scale ℓ), which model files already hold.
     */
    public static Kernel kernel(double[] sigma, int d) {
        if (sigma.length == 1) {
            return new GaussianKernel(sigma[0]);
        }
        return new LibraryKernel(1.0, 0, -1, 1.0, new LibraryKernel.Standardization(new double[d], sigma));
    }

    /**
     * The r-th starting point θ = (log ℓ_1, …, log ℓ_p, log λ) around the median pairwise distance {@code med}: the
     * bandwidths {@code med} × 1, 0.5, 2, then 8× further out; λ 1e-2, 1e-1, 1e-3 (the target scaled to unit mean
     * square, the kernel to unit diagonal).
     */
    public static double[] start(int r, int p, double med) {
        double[] theta0 = new double[p + 1];
        double sig0 = med * START_SIGMA[r % START_SIGMA.length] * Math.pow(8, r / START_SIGMA.length);
        Arrays.fill(theta0, 0, p, Math.log(sig0));
        theta0[p] = Math.log(START_LAMBDA[r % START_LAMBDA.length]);
        return theta0;
    }

    /**
     * The target as the searches see it: centred (with centring) and divided by its root mean square, so that the
     * objective is O(1) for the gradient tolerance; the minimisers do not change.
     *
     * @param y     the standardised target (a new array)
     * @param scale the root mean square of the centred target (1 when it is zero), which turns the objective's root
     *              back into the target's units
     */
    public record SearchTarget(double[] y, double scale) {
        /** The standardised copy of {@code target}, centred on its mean when {@code center}. */
        public static SearchTarget of(double[] target, boolean center) {
            int n = target.length;
            double[] y = target.clone();
            double mean = 0;
            if (center) {
                for (double v : y) {
                    mean += v;
                }
                mean /= n;
            }
            double ms = 0;
            for (int i = 0; i < n; i++) {
                y[i] -= mean;
                ms += y[i] * y[i];
            }
            double scale = ms > 0 ? Math.sqrt(ms / n) : 1;
            for (int i = 0; i < n; i++) {
                y[i] /= scale;
            }
            return new SearchTarget(y, scale);
        }
    }

    /** The lower ends of the search's box: bandwidths {@link #BANDWIDTH_RANGE} times below {@code med}, λ ≥ 1e-10. */
    public static double[] lowerBounds(int p, double med) {
        double[] lo = new double[p + 1];
        for (int k = 0; k < p; k++) {
            lo[k] = Math.log(med) - Math.log(BANDWIDTH_RANGE);
        }
        lo[p] = Math.log(MIN_LAMBDA);
        return lo;
    }

    /** The upper ends of the search's box: bandwidths {@link #BANDWIDTH_RANGE} times above {@code med}, λ ≤ 1e4. */
    public static double[] upperBounds(int p, double med) {
        double[] hi = new double[p + 1];
        for (int k = 0; k < p; k++) {
            hi[k] = Math.log(med) + Math.log(BANDWIDTH_RANGE);
        }
        hi[p] = Math.log(MAX_LAMBDA);
        return hi;
    }

    /** The bandwidth(s) of a start are the median heuristic times these factors, then 8× further out. */
    private static final double[] START_SIGMA = {1, 0.5, 2};
    /** λ of the starts (the target scaled to unit mean square, the kernel to unit diagonal). */
    private static final double[] START_LAMBDA = {1e-2, 1e-1, 1e-3};
    /** L-BFGS stops when ‖∇log f‖ ≤ this · max(1, ‖θ‖). */
    public static final double GRADIENT_TOLERANCE = 1e-4;
    /** Bandwidths stay within this factor of the median pairwise distance. */
    public static final double BANDWIDTH_RANGE = 1e3;
    static final double MIN_LAMBDA = 1e-10;
    static final double MAX_LAMBDA = 1e4;
    /** L-BFGS iterations of the polish on all rows after a search on a subsample. */
    public static final int POLISH_ITERATIONS = 3;
    /** The {@link Step#restart()} of the polish on all rows. */
    public static final int POLISH = -1;

    /** The training rows of {@code rows} search rows: all, or all but the held-out part. */
    private int trainRows(int rows) {
        return options.objective() == Objective.HOLDOUT
                ? Math.max(2, Math.min(rows - 1, (int) Math.round((1 - options.holdout()) * rows))) : rows;
    }

    /**
     * log f(θ) and its gradient ∇f/f on points x and targets y ({@link #evaluate}): see
     * {@link #logObjective(Evaluator, double[], double[], Objective, List, int[], double, ProgressListener, long)}.
     */
    private Lbfgs.Objective logObjective(Matrix x, double[] y, int trainRows, double[] lo, double[] hi,
                                         List<Step> path, int[] restart, double yScale, ProgressListener progress,
                                         long t0) {
        Objective obj = options.objective();
        boolean ard = options.ard();
        return logObjective((theta, grad) -> evaluate(x, y, trainRows, obj, ard, theta, grad), lo, hi, obj, path,
                restart, yScale, progress, t0);
    }

    /**
     * An objective f(θ) of the search at θ = (log ℓ_1, …, log ℓ_p, log λ), its gradient ∂f/∂θ into {@code grad};
     * +∞ where the regularised system is not numerically positive definite.
     */
    @FunctionalInterface
    public interface Evaluator {
        double evaluate(double[] theta, double[] grad);
    }

    /**
     * log f(θ) and its gradient ∇f/f: scale-free, so the gradient tolerance means the same on every data set; +∞
     * outside the box [lo, hi] (θ = (log ℓ_1, …, log ℓ_p, log λ), p = lo.length − 1). Every finite evaluation is
     * appended to {@code path} under restart {@code restart[0]} and reported to {@code progress} (task {@link #TASK},
     * the root of f times {@code yScale}).
     */
    public static Lbfgs.Objective logObjective(Evaluator evaluator, double[] lo, double[] hi, Objective obj,
                                               List<Step> path, int[] restart, double yScale,
                                               ProgressListener progress, long t0) {
        int p = lo.length - 1;
        // the last evaluation: L-BFGS evaluates the point its line search accepted once more
        double[][] last = {null, null, {Double.NaN}};
        return (theta, grad) -> {
            for (int k = 0; k <= p; k++) {
                if (!(theta[k] >= lo[k] && theta[k] <= hi[k])) {
                    return Double.POSITIVE_INFINITY;
                }
            }
            if (last[0] != null && Arrays.equals(last[0], theta)) {
                System.arraycopy(last[1], 0, grad, 0, grad.length);
                return last[2][0];
            }
            double v = evaluator.evaluate(theta, grad);
            if (!(v > 0) || !Double.isFinite(v)) {
                return Double.POSITIVE_INFINITY;
            }
            for (int k = 0; k <= p; k++) {
                grad[k] /= v;
            }
            double[] sig = new double[p];
            for (int k = 0; k < p; k++) {
                sig[k] = Math.exp(theta[k]);
            }
            double rmse = Math.sqrt(v) * yScale;
            path.add(new Step(restart[0], sig, Math.exp(theta[p]), rmse));
            progress.onProgress(new ProgressListener.Event(TASK, path.size(), 0, obj.label() + " rmse", rmse,
                    (System.nanoTime() - t0) * 1e-9));
            last[0] = theta.clone();
            last[1] = grad.clone();
            last[2][0] = Math.log(v);
            return Math.log(v);
        };
    }

    private static final GaussianKernel UNIT_GAUSSIAN = new GaussianKernel(1.0);

    private static int[] identity(int n) {
        int[] r = new int[n];
        for (int i = 0; i < n; i++) {
            r[i] = i;
        }
        return r;
    }

    /** The columns of x divided by their bandwidths (one for all, or one each). */
    public static Matrix scaled(Matrix x, double[] sigma, int d) {
        Matrix z = x.copy();
        int n = x.rows();
        double[] a = z.data();
        for (int k = 0; k < d; k++) {
            double s = 1.0 / (sigma.length == 1 ? sigma[0] : sigma[k]);
            for (int i = 0; i < n; i++) {
                a[i + k * n] *= s;
            }
        }
        return z;
    }

    /** The median distance between pairs of (at most 400) rows: the usual starting bandwidth. */
    public static double medianDistance(Matrix x, long seed) {
        int n = x.rows();
        int m = Math.min(n, 400);
        int[] idx = Arrays.copyOf(Splits.permutation(n, seed + 1), m);
        double[] dist = new double[m * (m - 1) / 2];
        int c = 0;
        for (int i = 0; i < m; i++) {
            double[] a = x.row(idx[i]);
            for (int j = 0; j < i; j++) {
                double[] b = x.row(idx[j]);
                double s = 0;
                for (int k = 0; k < a.length; k++) {
                    s += (a[k] - b[k]) * (a[k] - b[k]);
                }
                dist[c++] = Math.sqrt(s);
            }
        }
        Arrays.sort(dist, 0, c);
        double med = c == 0 ? 1 : dist[c / 2];
        return med > 0 && Double.isFinite(med) ? med : 1;
    }

    /**
     * The objective at θ = (log ℓ_1, …, log ℓ_p, log λ) (p = 1, or p = d with ARD) on points x and targets y, and its
     * gradient into {@code grad} (if not null); +∞ when K + λI is not numerically positive definite. For
     * {@link Objective#HOLDOUT} the first {@code trainRows} rows are the training part, the others the held-out part.
     */
    static double evaluate(Matrix x, double[] y, int trainRows, Objective obj, boolean ard, double[] theta,
                           double[] grad) {
        int n = x.rows();
        int d = x.cols();
        int p = ard ? d : 1;
        double[] sigma = new double[p];
        for (int k = 0; k < p; k++) {
            sigma[k] = Math.exp(theta[k]);
        }
        double lambda = Math.exp(theta[p]);
        Matrix z = scaled(x, sigma, d);
        Matrix k = UNIT_GAUSSIAN.gram(z);
        Matrix c;
        double value;
        try {
            if (obj == Objective.HOLDOUT) {
                int t = trainRows;
                int v = n - t;
                Matrix a = Matrix.zeros(t, t);
                for (int j = 0; j < t; j++) {
                    System.arraycopy(k.data(), j * n, a.data(), j * t, t);
                }
                a.addToDiagonal(lambda);
                Cholesky ch = Linalg.choleskyStrict(a);
                double[] alpha = ch.solve(Arrays.copyOf(y, t));
                double[] r = new double[v];
                double s = 0;
                for (int i = 0; i < v; i++) {
                    double f = 0;
                    for (int j = 0; j < t; j++) {
                        f += k.get(t + i, j) * alpha[j];
                    }
                    r[i] = y[t + i] - f;
                    s += r[i] * r[i];
                }
                value = s / v;
                if (grad == null) {
                    return value;
                }
                double[] ktvr = new double[t];
                for (int j = 0; j < t; j++) {
                    double acc = 0;
                    for (int i = 0; i < v; i++) {
                        acc += k.get(t + i, j) * r[i];
                    }
                    ktvr[j] = acc;
                }
                double[] b = ch.solve(ktvr);
                c = Matrix.zeros(n, n);
                double[] cd = c.data();
                for (int j = 0; j < t; j++) {
                    for (int i = 0; i < t; i++) {
                        cd[i + j * n] = (b[i] * alpha[j] + alpha[i] * b[j]) / v;
                    }
                    for (int i = 0; i < v; i++) {
                        double e = -r[i] * alpha[j] / v;
                        cd[(t + i) + j * n] = e;
                        cd[j + (t + i) * n] = e;
                    }
                }
            } else {
                Matrix a = k.copy();
                a.addToDiagonal(lambda);
                Matrix g = Linalg.inverseSpd(a);
                double[] alpha = Linalg.gemv(g, false, y);
                if (obj == Objective.LOO) {
                    double[] u = new double[n];
                    double[] sw = new double[n];
                    double s = 0;
                    for (int i = 0; i < n; i++) {
                        double gii = g.get(i, i);
                        double e = alpha[i] / gii;
                        s += e * e;
                        u[i] = e / gii;
                        sw[i] = Math.abs(e) / Math.sqrt(gii);
                    }
                    value = s / n;
                    if (grad == null) {
                        return value;
                    }
                    double[] beta = Linalg.gemv(g, false, u);
                    Matrix f = g.copy(); // G diag(√w)
                    double[] fd = f.data();
                    for (int j = 0; j < n; j++) {
                        for (int i = 0; i < n; i++) {
                            fd[i + j * n] *= sw[j];
                        }
                    }
                    c = Linalg.syrk(f, false); // G diag(w) G
                    double[] cd = c.data();
                    for (int j = 0; j < n; j++) {
                        for (int i = 0; i < n; i++) {
                            cd[i + j * n] = (2.0 / n) * (cd[i + j * n] - 0.5 * (beta[i] * alpha[j] + alpha[i] * beta[j]));
                        }
                    }
                } else {
                    double tr = g.trace();
                    double aa = Linalg.dot(alpha, alpha);
                    value = n * aa / (tr * tr);
                    if (grad == null) {
                        return value;
                    }
                    double[] gamma = Linalg.gemv(g, false, alpha);
                    c = Linalg.syrk(g, false); // G²
                    double[] cd = c.data();
                    for (int j = 0; j < n; j++) {
                        for (int i = 0; i < n; i++) {
                            cd[i + j * n] = value * (2 * cd[i + j * n] / tr
                                    - (gamma[i] * alpha[j] + alpha[i] * gamma[j]) / aa);
                        }
                    }
                }
            }
        } catch (LinalgException e) {
            return Double.POSITIVE_INFINITY;
        }
        if (!Double.isFinite(value)) {
            return Double.POSITIVE_INFINITY;
        }
        // ∂f/∂log λ = λ tr C; ∂f/∂log ℓ_k = Σ_ij P_ij (z_ik − z_jk)² with P = K ∘ C (symmetric)
        //                                = 2 Σ_i (P1)_i z_ik² − 2 Σ_i z_ik (P Z)_ik
        grad[p] = lambda * c.trace();
        double[] pd = c.data();
        double[] kd = k.data();
        double[] rs = new double[n];
        for (int j = 0; j < n; j++) {
            for (int i = 0; i < n; i++) {
                double v = pd[i + j * n] * kd[i + j * n];
                pd[i + j * n] = v;
                rs[i] += v;
            }
        }
        Matrix pz = Linalg.gemm(1.0, c, false, z, false);
        if (!ard) {
            grad[0] = 0;
        }
        for (int kk = 0; kk < d; kk++) {
            double s = 0;
            for (int i = 0; i < n; i++) {
                double zi = z.get(i, kk);
                s += rs[i] * zi * zi - zi * pz.get(i, kk);
            }
            if (ard) {
                grad[kk] = 2 * s;
            } else {
                grad[0] += 2 * s;
            }
        }
        return value;
    }

    private static List<Double> toList(double[] v) {
        List<Double> l = new ArrayList<>(v.length);
        for (double e : v) {
            l.add(e);
        }
        return l;
    }
}
