package org.psdkit.cli.bench;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.function.Supplier;
import org.psdkit.kernel.Kernel;
import org.psdkit.kernel.Kernels;
import org.psdkit.kernel.ParallelColumns;
import org.psdkit.linalg.EighWorkspace;
import org.psdkit.linalg.Linalg;
import org.psdkit.linalg.Matrix;
import org.psdkit.linalg.reference.ReferenceLinalg;

/**
 * The linear-algebra benchmark behind {@code psdkit bench linalg}: native eigh / Cholesky / GEMM times and GFLOP/s
 * for several n, each with the ratio against a plain-Java baseline measured in the same run
 * ({@link ReferenceLinalg}); the reusable eigen workspace against {@link Linalg#eigh}; and the Gaussian Gram
 * matrix (GEMM + parallel exp) against a double loop over {@code eval}. Times are the best of {@code repeats}
 * runs after one warm-up run.
 *
 * <p>Nominal flop counts: GEMM 2n³, Cholesky n³/3, symmetric eigen-decomposition with vectors 4n³ (tridiagonal
 * reduction 4n³/3 plus forming and applying the orthogonal factor ≈ 8n³/3; the divide-and-conquer or QL part
 * varies) — a fixed convention for comparing runs, not a count of what each library executes.
 */
public final class LinalgBenchmark {

    /** Options of one run. */
    public record Options(int[] sizes, int[] workspaceSizes, int repeats, int baselineMaxN, int gramN, int gramD,
                          boolean gram, long seed) {
        public Options {
            for (int n : workspaceSizes) {
                if (n < 1) {
                    throw new IllegalArgumentException("--workspace-sizes: sizes must be >= 1, got " + n);
                }
            }
            if (sizes.length == 0) {
                throw new IllegalArgumentException("--sizes: give at least one size");
            }
            for (int n : sizes) {
                if (n < 1) {
                    throw new IllegalArgumentException("--sizes: sizes must be >= 1, got " + n);
                }
            }
            if (repeats < 1) {
                throw new IllegalArgumentException("--repeats must be >= 1, got " + repeats);
            }
            if (gramN < 2 || gramD < 1) {
                throw new IllegalArgumentException("--gram-n must be >= 2 and --gram-d >= 1, got " + gramN + ", "
                        + gramD);
            }
        }
    }

    /** One measured line: operation, size, psdkit seconds and GFLOP/s, baseline seconds (NaN if skipped). */
    public record Row(String op, int n, double seconds, double gflops, double baselineSeconds, String baseline,
                      String note) {
        public double speedup() {
            return baselineSeconds / seconds;
        }
    }

    /**
     * Size of the untimed JIT warm-up of the plain-Java baselines: big enough for their loops to be compiled
     * (HotSpot compiles after ~1e4 loop back-edges), small enough to take well under a second.
     */
    static final int WARMUP_N = 150;

    /** Calls per timing in the workspace comparison: ≈ 2e6 / n² (≥ 10 ms at n = 50), at most this many. */
    static final int MAX_WORKSPACE_CALLS = 200;

    private final Options options;
    private final PrintStream out;

    public LinalgBenchmark(Options options, PrintStream out) {
        this.options = options;
        this.out = out;
    }

    static Matrix gaussian(int rows, int cols, long seed) {
        Random r = new Random(seed);
        Matrix m = Matrix.zeros(rows, cols);
        double[] a = m.data();
        for (int k = 0; k < a.length; k++) {
            a[k] = r.nextGaussian();
        }
        return m;
    }

    static Matrix spd(int n, long seed) {
        Matrix g = gaussian(n, n, seed);
        Matrix a = Linalg.syrk(g, true);
        a.addToDiagonal(n);
        return a;
    }

    /** Best wall time of {@code repeats} runs, after {@code warmups} untimed runs. */
    static double time(int warmups, int repeats, Supplier<Object> task) {
        Object sink = null;
        for (int i = 0; i < warmups; i++) {
            sink = task.get();
        }
        double best = Double.POSITIVE_INFINITY;
        for (int i = 0; i < repeats; i++) {
            long t0 = System.nanoTime();
            sink = task.get();
            best = Math.min(best, (System.nanoTime() - t0) * 1e-9);
        }
        if (sink == null) {
            throw new IllegalStateException("benchmark task returned nothing");
        }
        return best;
    }

    public List<Row> run() {
        List<Row> rows = new ArrayList<>();
        Linalg.warmUp();
        out.printf(Locale.ROOT, "psdkit bench linalg: OpenBLAS threads %d, kernel threads %d, %d cores; best of %d "
                        + "runs after a warm-up; baselines (plain Java) up to n = %d%n", Linalg.threads(),
                ParallelColumns.threads(), Runtime.getRuntime().availableProcessors(), options.repeats(),
                options.baselineMaxN());
        // JIT warm-up of the baselines on a small problem so that their first timed run is compiled code
        Matrix small = spd(Math.min(WARMUP_N, options.sizes()[0]), 1);
        ReferenceLinalg.gemm(small, small);
        ReferenceLinalg.cholesky(small);
        ReferenceLinalg.eigh(small);
        header();
        for (int n : options.sizes()) {
            Matrix a = gaussian(n, n, options.seed() + n);
            Matrix b = gaussian(n, n, options.seed() + n + 1);
            Matrix s = spd(n, options.seed() + n + 2);
            boolean base = n <= options.baselineMaxN();
            double flopsGemm = 2.0 * n * n * n;
            double t = time(1, options.repeats(), () -> Linalg.gemm(1.0, a, false, b, false));
            double tb = base ? time(0, 1, () -> ReferenceLinalg.gemm(a, b)) : Double.NaN;
            print(rows, new Row("gemm", n, t, flopsGemm / t / 1e9, tb, "plain Java j-k-i loop", ""));

            double flopsChol = n * (double) n * n / 3.0;
            t = time(1, options.repeats(), () -> Linalg.choleskyStrict(s));
            tb = base ? time(0, 1, () -> ReferenceLinalg.cholesky(s)) : Double.NaN;
            print(rows, new Row("cholesky", n, t, flopsChol / t / 1e9, tb, "plain Java left-looking Cholesky", ""));

            double flopsEig = 4.0 * n * n * n;
            t = time(1, options.repeats(), () -> Linalg.eigh(s));
            tb = base ? time(0, 1, () -> ReferenceLinalg.eigh(s)) : Double.NaN;
            print(rows, new Row("eigh", n, t, flopsEig / t / 1e9, tb, "plain Java Householder + QL", ""));
        }
        workspace(rows);
        if (options.gram()) {
            gram(rows);
        }
        return rows;
    }

    /** Reusable dsyevd_work buffers vs {@link Linalg#eigh} (Java arrays copied by JavaCPP on each call). */
    private void workspace(List<Row> rows) {
        for (int n : options.workspaceSizes()) {
            Matrix s = spd(n, options.seed() + 7 * n);
            int inner = Math.max(1, Math.min(MAX_WORKSPACE_CALLS, 2_000_000 / (n * n)));
            double[] values = new double[n];
            Matrix vectors = Matrix.zeros(n, n);
            try (EighWorkspace ws = new EighWorkspace(n)) {
                double t = time(1, options.repeats(), () -> {
                    for (int i = 0; i < inner; i++) {
                        ws.decompose(s, values, vectors);
                    }
                    return values;
                }) / inner;
                double tb = time(1, options.repeats(), () -> {
                    Object e = null;
                    for (int i = 0; i < inner; i++) {
                        e = Linalg.eigh(s);
                    }
                    return e;
                }) / inner;
                print(rows, new Row("eigh-workspace", n, t, 4.0 * n * n * n / t / 1e9, tb, "Linalg.eigh (double[])",
                        ""));
            }
        }
    }

    private void gram(List<Row> rows) {
        int n = options.gramN();
        int d = options.gramD();
        Matrix x = gaussian(n, d, options.seed() + 99);
        double sigma = Math.sqrt(d);
        Kernel fast = Kernels.gaussian(sigma);
        Kernel loop = new Kernel() { // only eval: the interface's default Gram matrix is a double loop over eval
            @Override
            public double eval(double[] p, double[] q) {
                return fast.eval(p, q);
            }

            @Override
            public String spec() {
                return fast.spec();
            }
        };
        double flops = (double) n * n * d; // nominal: the syrk; the exp dominates in practice
        int before = ParallelColumns.threads();
        double tb = time(1, 1, () -> loop.gram(x));
        Matrix ref = loop.gram(x);
        double t;
        double t1;
        double diff;
        try {
            ParallelColumns.setThreads(1);
            t1 = time(1, options.repeats(), () -> fast.gram(x));
            ParallelColumns.setThreads(Runtime.getRuntime().availableProcessors());
            t = time(1, options.repeats(), () -> fast.gram(x));
            diff = fast.gram(x).minus(ref).maxAbs();
        } finally {
            ParallelColumns.setThreads(before);
        }
        String note = String.format(Locale.ROOT, "d=%d; max |difference| %.1e", d, diff);
        print(rows, new Row("gram-gaussian-1thr", n, t1, flops / t1 / 1e9, tb, "double loop over eval", note));
        print(rows, new Row("gram-gaussian", n, t, flops / t / 1e9, tb, "double loop over eval",
                note + String.format(Locale.ROOT, "; %d threads, %.2fx over 1 thread",
                        Runtime.getRuntime().availableProcessors(), t1 / t)));
    }

    private void header() {
        out.printf(Locale.ROOT, "%-20s %6s %11s %9s %11s %9s  %s%n", "operation", "n", "psdkit s", "GFLOP/s",
                "baseline s", "speed-up", "baseline");
    }

    private void print(List<Row> rows, Row r) {
        rows.add(r);
        String base = Double.isNaN(r.baselineSeconds()) ? String.format(Locale.ROOT, "%11s %9s  %s", "-", "-",
                "skipped (n > --baseline-max-n " + options.baselineMaxN() + ")")
                : String.format(Locale.ROOT, "%11.4f %8.1fx  %s", r.baselineSeconds(), r.speedup(), r.baseline());
        out.printf(Locale.ROOT, "%-20s %6d %11.4f %9.2f %s%s%n", r.op(), r.n(), r.seconds(), r.gflops(), base,
                r.note().isEmpty() ? "" : "  [" + r.note() + "]");
        out.flush();
    }
}
