package org.psdkit.bench;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Consumer;
import org.psdkit.density.BaseMeasure;
import org.psdkit.density.DensityDiagnostics;
import org.psdkit.density.Mixtures;
import org.psdkit.density.PsdDensity;
import org.psdkit.density.PsdDensityEstimator;
import org.psdkit.density.PsdDensityTrainer;
import org.psdkit.density.PsdDensityOptions;
import org.psdkit.kernel.GaussianKernel;
import org.psdkit.linalg.Linalg;
import org.psdkit.linalg.Matrix;
import org.psdkit.optim.ProgressListener;

/**
 * PSD-model density training in d = 10 (the App. E mixture {@link Mixtures#appE}, base measure N(0, 25 I)) for several
 * n: time to a relative duality gap (or the gap reached within the time limit), iterations, time per
 * iteration, the share spent in dsyevd, and the ratio of one iteration to a bare dsyevd of an n×n matrix timed in the
 * same run (the baseline; the solver does one eigen-decomposition per iteration: the gradient at the extrapolated
 * point, whose candidate also gives the duality gap). Behind {@code psdkit bench density}.
 */
public final class DensityBenchmark {
    private DensityBenchmark() {
    }

    /** Dimension of the data. */
    public static final int D = 10;

    /** Repetitions of the baseline dsyevd; the median is reported. */
    static final int BASELINE_REPS = 3;

    /**
     * Options of one run.
     *
     * @param sizes     values of n (each &gt;= 2)
     * @param timeLimit seconds per size
     * @param tol       target relative duality gap
     * @param sigma     Gaussian kernel width
     * @param lambda    normalised λ (with the App. E Frobenius ratio 0.1)
     */
    public record Options(int[] sizes, double timeLimit, double tol, double sigma, double lambda) {
        public Options {
            if (!(timeLimit > 0) || !(tol > 0) || !(sigma > 0) || !(lambda > 0)) {
                throw new IllegalArgumentException("timeLimit, tol, sigma and lambda must be > 0");
            }
            sizes = Validate.sizes("sizes", sizes, 2);
        }
    }

    /**
     * One size.
     *
     * @param n                   sample size
     * @param converged           whether the gap reached {@code tol}
     * @param relativeGap         the relative duality gap reached
     * @param iterations          solver iterations
     * @param solverSeconds       seconds inside the solver
     * @param totalSeconds        seconds of the whole fit
     * @param secondsPerIteration solver seconds per iteration
     * @param eigenShare          share of the solver time spent in eigen-decompositions
     * @param baselineEighSeconds median time of a bare dsyevd of an n×n matrix
     * @param iterationOverEigh   one iteration over the bare dsyevd
     * @param integral            the fitted density's integral
     */
    public record Row(int n, boolean converged, double relativeGap, int iterations, double solverSeconds,
                      double totalSeconds, double secondsPerIteration, double eigenShare, double baselineEighSeconds,
                      double iterationOverEigh, double integral) {
    }

    /** The dimension, the OpenBLAS threads and one row per size. */
    public record Result(int d, int threads, List<Row> rows) {
        public Result {
            rows = List.copyOf(rows);
        }
    }

    /** Runs the benchmark; {@code listener} gets one report per measurement (may be null). */
    public static Result run(Options options, ProgressListener listener) {
        return run(options, listener, null);
    }

    /** Runs the benchmark and hands each row to {@code onRow} as soon as it is measured (may be null). */
    public static Result run(Options o, ProgressListener listener, Consumer<? super Row> onRow) {
        Phases phases = new Phases(listener, 2L * o.sizes().length);
        Linalg.warmUp();
        List<Row> rows = new ArrayList<>();
        BaseMeasure nu = BaseMeasure.Gaussian.isotropic(D, 0, 25);
        for (int n : o.sizes()) {
            phases.start("n=" + n + ": bare eigh baseline");
            double eigh = baselineEigh(n);
            phases.end();
            phases.start("n=" + n + ": PSD-model fit");
            Matrix x = Mixtures.appE().sample(n, 1);
            long t0 = System.nanoTime();
            PsdDensity m = PsdDensityEstimator.fit(x, null, PsdDensityTrainer.Options.of(new GaussianKernel(o.sigma()),
                    nu, PsdDensityOptions.of(o.lambda(), PsdDensityOptions.APPE_FROBENIUS_RATIO).withTolerance(o.tol())
                            .withMaxIterations(1_000_000).withTimeLimit(o.timeLimit())), null);
            double total = (System.nanoTime() - t0) * 1e-9;
            phases.end();
            DensityDiagnostics dg = m.diagnostics();
            double perIt = dg.seconds() / dg.iterations();
            Row r = new Row(n, dg.converged(), dg.relativeGap(), dg.iterations(), dg.seconds(), total, perIt,
                    dg.eigenSeconds() / dg.seconds(), eigh, perIt / eigh, m.integral());
            rows.add(r);
            if (onRow != null) {
                onRow.accept(r);
            }
        }
        return new Result(D, Linalg.threads(), rows);
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
        Arrays.sort(t);
        return t[BASELINE_REPS / 2];
    }
}
