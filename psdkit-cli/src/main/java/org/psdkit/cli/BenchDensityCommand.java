package org.psdkit.cli;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import org.psdkit.density.BaseMeasure;
import org.psdkit.density.Mixtures;
import org.psdkit.density.PsdDensity;
import org.psdkit.density.PsdDensityEstimator;
import org.psdkit.density.PsdDensityOptions;
import org.psdkit.kernel.GaussianKernel;
import org.psdkit.linalg.Linalg;
import org.psdkit.linalg.Matrix;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code psdkit bench density}: PSD-model density training in d = 10 (App. E data, base N(0, 25 I)) for several n:
 * time to a relative duality gap of 1e-6 (or the gap reached within the time limit), iterations, time per
 * iteration, the share spent in dsyevd, and the ratio of one iteration to a bare dsyevd of an n×n matrix timed in the
 * same run (the baseline; the solver does one eigen-decomposition per iteration: the gradient at the extrapolated
 * point, whose candidate also gives the duality gap).
 */
@Command(name = "density", description = "Density training in d=10: time to relative gap 1e-6, per-iteration time, "
        + "eigen-decomposition share, ratio to a bare eigh of n x n measured in the same run.")
public final class BenchDensityCommand implements Callable<Integer> {
    @Option(names = "--sizes", defaultValue = "500,1000,2000", split = ",", description = "Values of n.")
    int[] sizes;
    @Option(names = "--time-limit", defaultValue = "60", description = "Seconds per size (default: ${DEFAULT-VALUE}).")
    double timeLimit;
    @Option(names = "--tol", defaultValue = "1e-6", description = "Target relative duality gap.")
    double tol;
    @Option(names = "--sigma", defaultValue = "1", description = "Kernel width.")
    double sigma;
    @Option(names = "--lambda", defaultValue = "1e-3", description = "Normalised lambda (App. E ratio 0.1).")
    double lambda;
    @Option(names = "--json", description = "Print one JSON object on stdout.")
    boolean json;

    /** Repetitions of the baseline dsyevd; the median is reported. */
    static final int BASELINE_REPS = 3;

    @Override
    public Integer call() {
        if (!(timeLimit > 0) || !(tol > 0) || !(sigma > 0) || !(lambda > 0)) {
            throw new IllegalArgumentException("--time-limit, --tol, --sigma and --lambda must be > 0");
        }
        for (int n : sizes) {
            if (n < 2) {
                throw new IllegalArgumentException("--sizes must be >= 2, got " + n);
            }
        }
        Linalg.warmUp();
        List<Map<String, Object>> rows = new ArrayList<>();
        BaseMeasure nu = BaseMeasure.Gaussian.isotropic(10, 0, 25);
        for (int n : sizes) {
            double eigh = baselineEigh(n);
            Matrix x = Mixtures.appE().sample(n, 1);
            long t0 = System.nanoTime();
            PsdDensity m = PsdDensityEstimator.fit(x, null, new GaussianKernel(sigma), nu,
                    PsdDensityOptions.of(lambda, PsdDensityOptions.APPE_FROBENIUS_RATIO).withTolerance(tol)
                            .withMaxIterations(1_000_000).withTimeLimit(timeLimit), null);
            double total = (System.nanoTime() - t0) * 1e-9;
            var dg = m.diagnostics();
            double perIt = dg.seconds() / dg.iterations();
            Map<String, Object> r = new LinkedHashMap<>();
            r.put("n", n);
            r.put("converged", dg.converged());
            r.put("relative_gap", dg.relativeGap());
            r.put("iterations", dg.iterations());
            r.put("solver_seconds", dg.seconds());
            r.put("total_seconds", total);
            r.put("seconds_per_iteration", perIt);
            r.put("eigen_share", dg.eigenSeconds() / dg.seconds());
            r.put("baseline_eigh_seconds", eigh);
            r.put("iteration_over_eigh", perIt / eigh);
            r.put("integral", m.integral());
            rows.add(r);
            Progress.info("bench density n=" + n + ": " + r);
        }
        Map<String, Object> rep = new LinkedHashMap<>();
        rep.put("benchmark", "density");
        rep.put("d", 10);
        rep.put("threads", Linalg.threads());
        rep.put("rows", rows);
        Reports.print(rep, json);
        return Main.EXIT_OK;
    }

    /** Median wall time of dsyevd on a random symmetric n×n matrix. */
    static double baselineEigh(int n) {
        SplittableRandom r = new SplittableRandom(n);
        Matrix a = Matrix.zeros(n, n);
        for (int j = 0; j < n; j++) {
            for (int i = j; i < n; i++) {
                double v = r.nextGaussian();
                a.set(i, j, v);
                a.set(j, i, v);
            }
        }
        double[] t = new double[BASELINE_REPS];
        for (int k = 0; k < BASELINE_REPS; k++) {
            long t0 = System.nanoTime();
            Linalg.eigh(a);
            t[k] = (System.nanoTime() - t0) * 1e-9;
        }
        java.util.Arrays.sort(t);
        return t[BASELINE_REPS / 2];
    }
}
