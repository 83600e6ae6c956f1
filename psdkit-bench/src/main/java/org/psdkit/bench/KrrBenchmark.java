package org.psdkit.bench;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;
import org.psdkit.data.Dataset;
import org.psdkit.data.Scaler;
import org.psdkit.data.Splits;
import org.psdkit.kernel.Kernel;
import org.psdkit.linalg.Linalg;
import org.psdkit.linalg.Matrix;
import org.psdkit.linalg.SpdSolve;
import org.psdkit.optim.ProgressListener;
import org.psdkit.regression.KernelRidge;

/**
 * Kernel ridge regression fit time on subsamples of a regression data set (z-scored features), against two baselines
 * run in the same call on the same Gram matrix: the eigen route (LAPACK dsyevd, α = V (Λ + λI)⁻¹ Vᵀ y) and a
 * plain-Java Cholesky solve. Behind {@code psdkit bench krr} (California housing).
 */
public final class KrrBenchmark {
    private KrrBenchmark() {
    }

    /**
     * Options of one run.
     *
     * @param data    the regression data set the subsamples are drawn from
     * @param sizes   subsample sizes, each in [2, rows of {@code data}]
     * @param kernel  the kernel
     * @param lambda  the regularisation, &gt; 0 (the eigen route needs K + λI definite)
     * @param repeats timed psdkit fits per size (the best is reported)
     * @param javaMaxN largest n for the slow plain-Java Cholesky baseline
     * @param seed    subsample seed
     * @param eigenMaxN largest n for the eigen-route baseline (dsyevd is ~10× a Cholesky: minutes at n = 10,000)
     */
    public record Options(Dataset data, int[] sizes, Kernel kernel, double lambda, int repeats, int javaMaxN,
                          long seed, int eigenMaxN) {
        /** Options with the eigen-route baseline at every size. */
        public Options(Dataset data, int[] sizes, Kernel kernel, double lambda, int repeats, int javaMaxN, long seed) {
            this(data, sizes, kernel, lambda, repeats, javaMaxN, seed, Integer.MAX_VALUE);
        }

        public Options {
            if (data == null || data.y() == null) {
                throw new IllegalArgumentException("data must be a regression data set with a numeric target");
            }
            if (kernel == null) {
                throw new IllegalArgumentException("kernel must not be null");
            }
            if (!(lambda > 0)) {
                throw new IllegalArgumentException("lambda must be > 0 for this benchmark, got " + lambda);
            }
            if (repeats < 1) {
                throw new IllegalArgumentException("repeats must be >= 1, got " + repeats);
            }
            sizes = Validate.sizes("sizes", sizes, 2);
            for (int n : sizes) {
                if (n > data.n()) {
                    throw new IllegalArgumentException("sizes: " + n + " is not in [2, " + data.n() + "]");
                }
            }
        }
    }

    /**
     * One subsample size. Seconds of the baselines include the Gram time, so that all three are whole fits.
     *
     * @param n                        subsample size
     * @param d                        features
     * @param psdkitSeconds            best {@link KernelRidge#fit} time (Gram + LAPACK Cholesky + two solves)
     * @param gramSeconds              time of the Gram matrix alone (Java array, {@link Kernel#gram})
     * @param previousRouteSeconds     the route before the in-place solver: Java Gram matrix, then
     *                                 {@link SpdSolve#solve} (a copy, a clone for Cholesky, a native copy and back)
     * @param maxRelDiffVsPreviousRoute max |α − α_prev| / max |α_prev|
     * @param eigenRouteSeconds        eigen-route baseline
     * @param maxRelDiffVsEigenRoute   max |α − α_eig| / max |α_eig|
     * @param plainJavaCholeskySeconds plain-Java Cholesky baseline, NaN when n &gt; {@code javaMaxN}
     * @param maxRelDiffVsPlainJava    max |α − α_java| / max |α_java|, NaN when skipped
     */
    public record Row(int n, int d, double psdkitSeconds, double gramSeconds, double previousRouteSeconds,
                      double maxRelDiffVsPreviousRoute, double eigenRouteSeconds,
                      double maxRelDiffVsEigenRoute, double plainJavaCholeskySeconds, double maxRelDiffVsPlainJava) {

        public double speedupVsPreviousRoute() {
            return previousRouteSeconds / psdkitSeconds;
        }

        /** Whether the eigen-route baseline was run. */
        public boolean hasEigenRoute() {
            return !Double.isNaN(eigenRouteSeconds);
        }

        public double speedupVsEigenRoute() {
            return eigenRouteSeconds / psdkitSeconds;
        }

        /** Whether the plain-Java baseline was run. */
        public boolean hasPlainJava() {
            return !Double.isNaN(plainJavaCholeskySeconds);
        }

        public double speedupVsPlainJava() {
            return plainJavaCholeskySeconds / psdkitSeconds;
        }
    }

    /** The kernel (its spec), λ, the OpenBLAS threads and one row per size. */
    public record Result(String kernel, double lambda, int blasThreads, List<Row> rows) {
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
        Dataset all = o.data();
        Kernel k = o.kernel();
        double lambda = o.lambda();
        int baselines = 0;
        for (int n : o.sizes()) {
            baselines += (n <= o.javaMaxN() ? 1 : 0) + (n <= o.eigenMaxN() ? 1 : 0);
        }
        Phases phases = new Phases(listener, o.sizes().length + baselines);
        Linalg.warmUp();
        List<Row> rows = new ArrayList<>();
        for (int n : o.sizes()) {
            int[] idx = Arrays.copyOf(Splits.permutation(all.n(), o.seed()), n);
            Dataset sub = Splits.subset(all, idx);
            Matrix x = Scaler.fit(Scaler.Kind.ZSCORE, sub.x()).apply(sub.x());
            double[] y = sub.y();
            KernelRidge.Options opts = KernelRidge.Options.standard(lambda);
            phases.start("n=" + n + ": psdkit fit x" + o.repeats());
            // psdkit: KernelRidge.fit = Gram matrix + LAPACK Cholesky + two triangular solves
            double best = Double.POSITIVE_INFINITY;
            KernelRidge fitted = null;
            for (int r = 0; r < o.repeats(); r++) {
                long t0 = System.nanoTime();
                fitted = KernelRidge.fit(k, x, y, opts);
                best = Math.min(best, (System.nanoTime() - t0) * 1e-9);
            }
            long g0 = System.nanoTime();
            Matrix gram = k.gram(x);
            double gramSec = (System.nanoTime() - g0) * 1e-9;
            // baseline 0: the previous route, copies of the Java Gram matrix into a Cholesky (+ the Gram time)
            long p0 = System.nanoTime();
            double[] alphaPrev = SpdSolve.solve(gram, lambda, Matrix.column(y)).x().col(0);
            double prevSec = (System.nanoTime() - p0) * 1e-9 + gramSec;
            phases.end();
            double eigSec = Double.NaN;
            double eigDiff = Double.NaN;
            if (n <= o.eigenMaxN()) {
                phases.start("n=" + n + ": eigen-route baseline");
                // baseline 1: eigen route on the same Gram matrix (+ the Gram time, so that both are whole fits)
                long e0 = System.nanoTime();
                double[] alphaEig = SpdSolve.eigenSolve(gram, lambda, Matrix.column(y)).x().col(0);
                eigSec = (System.nanoTime() - e0) * 1e-9 + gramSec;
                eigDiff = relDiff(fitted.alpha(), alphaEig);
                phases.end();
            }
            double javaSec = Double.NaN;
            double javaDiff = Double.NaN;
            if (n <= o.javaMaxN()) {
                phases.start("n=" + n + ": plain-Java Cholesky baseline");
                long j0 = System.nanoTime();
                double[] alphaJava = plainJavaCholeskySolve(gram, lambda, y);
                javaSec = (System.nanoTime() - j0) * 1e-9 + gramSec;
                javaDiff = relDiff(fitted.alpha(), alphaJava);
                phases.end();
            }
            Row row = new Row(n, x.cols(), best, gramSec, prevSec, relDiff(fitted.alpha(), alphaPrev), eigSec, eigDiff,
                    javaSec, javaDiff);
            rows.add(row);
            if (onRow != null) {
                onRow.accept(row);
            }
        }
        return new Result(k.spec(), lambda, Linalg.threads(), rows);
    }

    /** max_i |a_i − b_i| / max_i |b_i| (also {@link KernelSosBenchmark}'s agreement check). */
    static double relDiff(double[] a, double[] b) {
        double num = 0;
        double den = 0;
        for (int i = 0; i < a.length; i++) {
            num = Math.max(num, Math.abs(a[i] - b[i]));
            den = Math.max(den, Math.abs(b[i]));
        }
        return num / den;
    }

    /**
     * The baseline: (K + λI) α = y by a textbook row-oriented Cholesky–Banachiewicz factorisation in plain Java
     * (row-major copy for contiguous inner products) and two triangular solves.
     */
    public static double[] plainJavaCholeskySolve(Matrix k, double lambda, double[] y) {
        int n = y.length;
        double[][] l = new double[n][];
        for (int i = 0; i < n; i++) {
            l[i] = new double[i + 1];
            double[] li = l[i];
            for (int j = 0; j <= i; j++) {
                double[] lj = l[j];
                double s = k.get(i, j) + (i == j ? lambda : 0);
                for (int p = 0; p < j; p++) {
                    s -= li[p] * lj[p];
                }
                if (i == j) {
                    if (!(s > 0)) {
                        throw new IllegalStateException("plain-Java Cholesky: matrix not positive definite at " + i);
                    }
                    li[i] = Math.sqrt(s);
                } else {
                    li[j] = s / lj[j];
                }
            }
        }
        double[] z = new double[n];
        for (int i = 0; i < n; i++) {
            double s = y[i];
            for (int p = 0; p < i; p++) {
                s -= l[i][p] * z[p];
            }
            z[i] = s / l[i][i];
        }
        double[] a = new double[n];
        for (int i = n - 1; i >= 0; i--) {
            double s = z[i];
            for (int p = i + 1; p < n; p++) {
                s -= l[p][i] * a[p];
            }
            a[i] = s / l[i][i];
        }
        return a;
    }
}
