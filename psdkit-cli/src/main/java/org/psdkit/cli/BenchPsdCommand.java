package org.psdkit.cli;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Callable;
import org.psdkit.kernel.GaussianKernel;
import org.psdkit.linalg.Linalg;
import org.psdkit.linalg.Matrix;
import org.psdkit.optim.ConjugateLoss;
import org.psdkit.optim.Fista;
import org.psdkit.optim.FistaOptions;
import org.psdkit.optim.FistaResult;
import org.psdkit.optim.Losses;
import org.psdkit.optim.PsdDualTerm;
import org.psdkit.psd.EmpiricalFeatureMap;
import org.psdkit.psd.SolverDiagnostics;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code psdkit bench psd}: the dual FISTA solver of PSD-model regression. For each n and input dimension: time per
 * iteration, the share of it spent in the one r×r eigen-decomposition, time and iterations to a relative duality
 * gap of 1e-6, and two baselines measured in the same run: the bare {@code Linalg.eigh} of an r×r symmetric matrix
 * (the floor of one iteration) and plain proximal gradient without acceleration (the same step, no momentum).
 */
@Command(name = "psd", description = "PSD-model dual solver: time per iteration, eigen-decomposition share, time to "
        + "relative gap 1e-6, against a bare eigh and plain proximal gradient measured in the same run.")
public final class BenchPsdCommand implements Callable<Integer> {

    @Option(names = "--sizes", split = ",", defaultValue = "200,500,1000,2000", paramLabel = "N,N,...",
            description = "Numbers of points (default: ${DEFAULT-VALUE}).")
    int[] sizes;

    @Option(names = "--dims", split = ",", defaultValue = "1,10", paramLabel = "D,D,...",
            description = "Input dimensions (default: ${DEFAULT-VALUE}).")
    int[] dims;

    @Option(names = "--tol", defaultValue = "1e-6", paramLabel = "X",
            description = "Relative duality gap to reach (default: ${DEFAULT-VALUE}).")
    double tol;

    @Option(names = "--time-limit", defaultValue = "120", paramLabel = "SECONDS",
            description = "Budget of each solver run (default: ${DEFAULT-VALUE}).")
    double timeLimit;

    @Option(names = "--plain-max-n", defaultValue = "200", paramLabel = "N",
            description = "Run the unaccelerated baseline up to this n (default: ${DEFAULT-VALUE}).")
    int plainMaxN;

    @Option(names = "--seed", defaultValue = "1", description = "Random seed (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--json", description = "Print one JSON object on stdout.")
    boolean json;

    /** Regularisation of the benchmark problem (λ₁ = λ₂, the 1/(2n) squared-loss convention). */
    static final double LAMBDA = 1e-3;
    /** Noise standard deviation of the synthetic targets. */
    static final double NOISE = 0.1;
    /** Repetitions of the bare eigen-decomposition baseline (the median is reported). */
    static final int EIGH_REPEATS = 3;

    /** Gaussian bandwidth: 1-D data on [−3, 3] uses 0.5; d-D data on [−1, 1]^d uses 0.5·√d (unit-scale distances). */
    static double sigma(int d) {
        return d == 1 ? 0.5 : 0.5 * Math.sqrt(d);
    }

    @Override
    public Integer call() {
        for (int n : sizes) {
            if (n < 2) {
                throw new IllegalArgumentException("--sizes: n must be >= 2, got " + n);
            }
        }
        for (int d : dims) {
            if (d < 1) {
                throw new IllegalArgumentException("--dims: d must be >= 1, got " + d);
            }
        }
        if (!(tol > 0) || !(timeLimit > 0)) {
            throw new IllegalArgumentException("--tol and --time-limit must be > 0");
        }
        Linalg.warmUp();
        List<Map<String, Object>> rows = new ArrayList<>();
        if (!json) {
            System.err.printf(Locale.ROOT, "psdkit bench psd: OpenBLAS threads %d, lambda1 = lambda2 = %s, "
                    + "target relative gap %s%n", Linalg.threads(), Reports.fmt(LAMBDA), Reports.fmt(tol));
            System.err.println("    n   d  rank r  iters  s/iter    eigh(r) s  iter/eigh  eigh share  "
                    + "s to gap   status      plain PG: iters, s to gap");
        }
        for (int d : dims) {
            for (int n : sizes) {
                rows.add(runOne(n, d));
            }
        }
        Map<String, Object> rep = new LinkedHashMap<>();
        rep.put("bench", "psd");
        rep.put("threads", Linalg.threads());
        rep.put("tol", tol);
        rep.put("rows", rows);
        Reports.print(rep, json);
        return Main.EXIT_OK;
    }

    Map<String, Object> runOne(int n, int d) {
        Random rnd = new Random(seed * 1000003L + n * 31L + d);
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
        EmpiricalFeatureMap map = EmpiricalFeatureMap.of(new GaussianKernel(sigma(d)), x);
        int r = map.rank();
        ConjugateLoss loss = Losses.squared(y);
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("n", n);
        row.put("d", d);
        row.put("rank", r);
        // accelerated solver
        Run acc = solve(map, loss, true);
        // baseline 1: bare eigen-decomposition of an r×r symmetric matrix
        double eighSeconds = bareEigh(r, rnd);
        row.put("iterations", acc.iterations);
        row.put("seconds_per_iteration", acc.perIteration);
        row.put("eigh_seconds", eighSeconds);
        row.put("iteration_over_eigh", acc.perIteration / eighSeconds);
        row.put("eigh_share", acc.eighShare);
        row.put("seconds_to_gap", acc.reached ? acc.seconds : null);
        row.put("relative_gap", acc.relGap);
        row.put("status", acc.status);
        Run plain = null;
        if (n <= plainMaxN) {
            plain = solve(map, loss, false);
            row.put("plain_iterations", plain.iterations);
            row.put("plain_seconds_to_gap", plain.reached ? plain.seconds : null);
            row.put("plain_status", plain.status);
            row.put("plain_over_accelerated_time", plain.reached && acc.reached ? plain.seconds / acc.seconds : null);
        }
        if (!json) {
            System.err.printf(Locale.ROOT, "%5d %3d  %6d  %5d  %8.2e  %8.2e  %9.2f  %9.1f%%  %8.2f   %-10s  %s%n",
                    n, d, r, acc.iterations, acc.perIteration, eighSeconds, acc.perIteration / eighSeconds,
                    100 * acc.eighShare, acc.seconds, acc.status,
                    plain == null ? "-" : String.format(Locale.ROOT, "%d, %.2f s (%s)", plain.iterations,
                            plain.seconds, plain.status));
        }
        return row;
    }

    record Run(int iterations, double seconds, double perIteration, double eighShare, double relGap, boolean reached,
               String status) {
    }

    Run solve(EmpiricalFeatureMap map, ConjugateLoss loss, boolean accelerated) {
        int n = map.size();
        try (PsdDualTerm h = new PsdDualTerm(map.trainingFeatures(), LAMBDA, LAMBDA)) {
            double lip = h.lipschitz();
            double[] best = {Double.POSITIVE_INFINITY};
            FistaOptions fo = new FistaOptions(Integer.MAX_VALUE, timeLimit, lip, true);
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

    boolean gapReached(PsdDualTerm h, ConjugateLoss loss, double[] a, double hv, double[] best) {
        double conj = loss.conjugate(a);
        double primal = loss.value(h.predictions()) + h.regulariser();
        double dual = -conj - hv;
        double rel = SolverDiagnostics.relative(primal - dual, primal, dual);
        best[0] = Math.min(best[0], rel);
        return rel <= tol;
    }

    /** x⁺ = prox of L* with step 1/Lip at x − ∇h(x)/Lip, no momentum; the same stopping test. */
    FistaResult plainProximalGradient(PsdDualTerm h, ConjugateLoss loss, double lip, double[] best) {
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
            if ((System.nanoTime() - t0) * 1e-9 > timeLimit) {
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
