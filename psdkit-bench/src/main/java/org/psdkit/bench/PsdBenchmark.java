package org.psdkit.bench;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.function.Consumer;
import org.psdkit.kernel.GaussianKernel;
import org.psdkit.linalg.Linalg;
import org.psdkit.linalg.Matrix;
import org.psdkit.optim.ConjugateLoss;
import org.psdkit.optim.Fista;
import org.psdkit.optim.FistaOptions;
import org.psdkit.optim.FistaResult;
import org.psdkit.optim.Losses;
import org.psdkit.optim.ProgressListener;
import org.psdkit.optim.PsdDualTerm;
import org.psdkit.psd.EmpiricalFeatureMap;
import org.psdkit.psd.SolverDiagnostics;

/**
 * The dual FISTA solver of PSD-model regression. For each n and input dimension: time per iteration, the share of
 * it spent in the one r×r eigen-decomposition, time and iterations to a relative duality gap, and two baselines
 * measured in the same run: the bare {@code Linalg.eigh} of an r×r symmetric matrix (the floor of one iteration) and
 * plain proximal gradient without acceleration (the same step, no momentum). Behind {@code psdkit bench psd}.
 */
public final class PsdBenchmark {

    /** Regularisation of the benchmark problem (λ₁ = λ₂, the 1/(2n) squared-loss convention). */
    public static final double LAMBDA = 1e-3;
    /** Noise standard deviation of the synthetic targets. */
    static final double NOISE = 0.1;
    /** Repetitions of the bare eigen-decomposition baseline (the median is reported). */
    static final int EIGH_REPEATS = 3;

    /**
     * Options of one run.
     *
     * @param sizes     numbers of points (each &gt;= 2)
     * @param dims      input dimensions (each &gt;= 1)
     * @param tol       relative duality gap to reach
     * @param timeLimit budget of each solver run, seconds
     * @param plainMaxN run the unaccelerated baseline up to this n
     * @param seed      random seed of the synthetic data
     */
    public record Options(int[] sizes, int[] dims, double tol, double timeLimit, int plainMaxN, long seed) {
        public Options {
            sizes = Validate.sizes("sizes", sizes, 2);
            if (dims == null || dims.length == 0) {
                throw new IllegalArgumentException("dims: give at least one dimension");
            }
            for (int d : dims) {
                if (d < 1) {
                    throw new IllegalArgumentException("dims: d must be >= 1, got " + d);
                }
            }
            dims = dims.clone();
            if (!(tol > 0) || !(timeLimit > 0)) {
                throw new IllegalArgumentException("tol and timeLimit must be > 0");
            }
        }
    }

    /**
     * One solver run.
     *
     * @param iterations   iterations done
     * @param seconds      wall seconds (to the gap when {@code reached})
     * @param perIteration seconds per iteration
     * @param eighShare    share of the time spent in the eigen-decompositions
     * @param relGap       best relative duality gap seen
     * @param reached      whether the gap reached {@code tol}
     * @param status       the solver status ({@code CONVERGED}, {@code TIME_LIMIT}, …)
     */
    public record Run(int iterations, double seconds, double perIteration, double eighShare, double relGap,
                      boolean reached, String status) {
    }

    /**
     * One (n, d).
     *
     * @param n           number of points
     * @param d           input dimension
     * @param rank        rank r of the empirical feature map
     * @param accelerated the FISTA run
     * @param eighSeconds median time of a bare r×r eigen-decomposition
     * @param plain       the unaccelerated baseline, null when n &gt; plainMaxN
     */
    public record Row(int n, int d, int rank, Run accelerated, double eighSeconds, Run plain) {
        /** One FISTA iteration over the bare eigen-decomposition. */
        public double iterationOverEigh() {
            return accelerated.perIteration() / eighSeconds;
        }
    }

    /** The OpenBLAS threads, the tolerance and one row per (d, n), d outermost. */
    public record Result(int threads, double tol, List<Row> rows) {
        public Result {
            rows = List.copyOf(rows);
        }
    }

    private final Options options;

    private PsdBenchmark(Options options) {
        this.options = options;
    }

    /** Gaussian bandwidth: 1-D data on [−3, 3] uses 0.5; d-D data on [−1, 1]^d uses 0.5·√d (unit-scale distances). */
    static double sigma(int d) {
        return d == 1 ? 0.5 : 0.5 * Math.sqrt(d);
    }

    /** Runs the benchmark; {@code listener} gets one report per solver run (may be null). */
    public static Result run(Options options, ProgressListener listener) {
        return run(options, listener, null);
    }

    /** Runs the benchmark and hands each row to {@code onRow} as soon as it is measured (may be null). */
    public static Result run(Options o, ProgressListener listener, Consumer<? super Row> onRow) {
        long runs = 0;
        for (int n : o.sizes()) {
            runs += n <= o.plainMaxN() ? 2 : 1;
        }
        Phases phases = new Phases(listener, runs * o.dims().length);
        Linalg.warmUp();
        PsdBenchmark b = new PsdBenchmark(o);
        List<Row> rows = new ArrayList<>();
        for (int d : o.dims()) {
            for (int n : o.sizes()) {
                Row r = b.runOne(n, d, phases);
                rows.add(r);
                if (onRow != null) {
                    onRow.accept(r);
                }
            }
        }
        return new Result(Linalg.threads(), o.tol(), rows);
    }

    private Row runOne(int n, int d, Phases phases) {
        Random rnd = new Random(options.seed() * 1000003L + n * 31L + d);
        Matrix x = Matrix.zeros(n, d);
        double[] y = new double[n];
        double lo = d == 1 ? -3 : -1;
        double hi = d == 1 ? 3 : 1;
        for (int i = 0; i < n; i++) {
            double s = 0;
            for (int j = 0; j < d; j++) {
                double v = lo + (hi - lo) * rnd.nextDouble();
                x.set(i, j, v);
                s += v;
            }
            double t = d == 1 ? s : s / Math.sqrt(d) * 2;
            y[i] = Math.max(0, Math.sin(t)) * t * t + NOISE * rnd.nextGaussian();
        }
        phases.start("n=" + n + " d=" + d + ": FISTA");
        EmpiricalFeatureMap map = EmpiricalFeatureMap.of(new GaussianKernel(sigma(d)), x);
        int r = map.rank();
        ConjugateLoss loss = Losses.squared(y);
        // accelerated solver
        Run acc = solve(map, loss, true);
        // baseline 1: bare eigen-decomposition of an r×r symmetric matrix
        double eighSeconds = bareEigh(r, rnd);
        phases.end();
        Run plain = null;
        if (n <= options.plainMaxN()) {
            phases.start("n=" + n + " d=" + d + ": plain proximal gradient (baseline)");
            plain = solve(map, loss, false);
            phases.end();
        }
        return new Row(n, d, r, acc, eighSeconds, plain);
    }

    private Run solve(EmpiricalFeatureMap map, ConjugateLoss loss, boolean accelerated) {
        int n = map.size();
        try (PsdDualTerm h = new PsdDualTerm(map.trainingFeatures(), LAMBDA, LAMBDA)) {
            double lip = h.lipschitz();
            double[] best = {Double.POSITIVE_INFINITY};
            FistaOptions fo = new FistaOptions(Integer.MAX_VALUE, options.timeLimit(), lip, true);
            long t0 = System.nanoTime();
            FistaResult res;
            if (accelerated) {
                res = Fista.minimize(h, loss.conjugateAsProx(), new double[n], fo,
                        (it, a, hv, g) -> gapReached(h, loss, a, hv, best), null);
            } else {
                res = plainProximalGradient(h, loss, lip, best);
            }
            double secs = (System.nanoTime() - t0) * 1e-9;
            boolean reached = res.status() == FistaResult.Status.CONVERGED;
            double perIt = secs / Math.max(1, res.iterations());
            double share = h.eighSeconds() / Math.max(secs, 1e-12);
            return new Run(res.iterations(), secs, perIt, share, best[0], reached, res.status().name());
        }
    }

    private boolean gapReached(PsdDualTerm h, ConjugateLoss loss, double[] a, double hv, double[] best) {
        double conj = loss.conjugate(a);
        double primal = loss.value(h.predictions()) + h.regulariser();
        double dual = -conj - hv;
        double rel = SolverDiagnostics.relative(primal - dual, primal, dual);
        best[0] = Math.min(best[0], rel);
        return rel <= options.tol();
    }

    /** x⁺ = prox of L* with step 1/Lip at x − ∇h(x)/Lip, no momentum; the same stopping test. */
    private FistaResult plainProximalGradient(PsdDualTerm h, ConjugateLoss loss, double lip, double[] best) {
        int n = h.dimension();
        double[] x = new double[n];
        double[] g = new double[n];
        long t0 = System.nanoTime();
        int it = 0;
        while (true) {
            it++;
            double hv = h.valueAndGradient(x, g);
            if (gapReached(h, loss, x, hv, best)) {
                return new FistaResult(x, it, (System.nanoTime() - t0) * 1e-9, 0, lip,
                        FistaResult.Status.CONVERGED);
            }
            if ((System.nanoTime() - t0) * 1e-9 > options.timeLimit()) {
                return new FistaResult(x, it, (System.nanoTime() - t0) * 1e-9, 0, lip,
                        FistaResult.Status.TIME_LIMIT);
            }
            for (int i = 0; i < n; i++) {
                x[i] -= g[i] / lip;
            }
            loss.proxConjugate(1 / lip, x, x);
        }
    }

    /** Median time of {@link Linalg#eigh} on a random r×r symmetric matrix (includes its copies). */
    static double bareEigh(int r, Random rnd) {
        Matrix a = Matrix.zeros(r, r);
        for (int j = 0; j < r; j++) {
            for (int i = 0; i <= j; i++) {
                double v = rnd.nextGaussian();
                a.set(i, j, v);
                a.set(j, i, v);
            }
        }
        double[] t = new double[EIGH_REPEATS];
        for (int k = 0; k < EIGH_REPEATS; k++) {
            long t0 = System.nanoTime();
            Linalg.eigh(a);
            t[k] = (System.nanoTime() - t0) * 1e-9;
        }
        Arrays.sort(t);
        return t[EIGH_REPEATS / 2];
    }
}
