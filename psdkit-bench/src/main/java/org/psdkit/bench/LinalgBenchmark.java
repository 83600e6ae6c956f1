package org.psdkit.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.psdkit.kernel.Kernel;
import org.psdkit.kernel.Kernels;
import org.psdkit.kernel.ParallelColumns;
import org.psdkit.linalg.EighWorkspace;
import org.psdkit.linalg.Linalg;
import org.psdkit.linalg.Matrix;
import org.psdkit.linalg.reference.ReferenceLinalg;
import org.psdkit.optim.ProgressListener;

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

    /**
     * Options of one run.
     *
     * @param sizes          matrix sizes n of the eigh / Cholesky / GEMM rows
     * @param workspaceSizes sizes of the eigen-workspace comparison
     * @param repeats        timed runs per measurement (the best is reported)
     * @param baselineMaxN   largest n for the slow plain-Java baselines (run once each)
     * @param gramN          points of the Gram benchmark
     * @param gramD          dimension of the Gram benchmark
     * @param gram           whether to run the Gram benchmark
     * @param seed           seed of the random test matrices
     */
    public record Options(int[] sizes, int[] workspaceSizes, int repeats, int baselineMaxN, int gramN, int gramD,
                          boolean gram, long seed) {
        public Options {
            if (workspaceSizes == null) {
                throw new IllegalArgumentException("workspaceSizes must not be null");
            }
            for (int n : workspaceSizes) {
                if (n < 1) {
                    throw new IllegalArgumentException("workspaceSizes: sizes must be >= 1, got " + n);
                }
            }
            workspaceSizes = workspaceSizes.clone();
            sizes = Validate.sizes("sizes", sizes, 1);
            if (repeats < 1) {
                throw new IllegalArgumentException("repeats must be >= 1, got " + repeats);
            }
            if (gramN < 2 || gramD < 1) {
                throw new IllegalArgumentException("gramN must be >= 2 and gramD >= 1, got " + gramN + ", " + gramD);
            }
        }
    }

    /**
     * One measured line: operation, size, psdkit seconds and GFLOP/s, baseline seconds (NaN if skipped because
     * n &gt; {@code baselineMaxN}), what the baseline is, and a note (empty or a remark on the measurement).
     */
    public record Row(String op, int n, double seconds, double gflops, double baselineSeconds, String baseline,
                      String note) {
        /** Baseline time over psdkit time (NaN when the baseline was skipped). */
        public double speedup() {
            return baselineSeconds / seconds;
        }

        /** Whether the baseline was run. */
        public boolean hasBaseline() {
            return !Double.isNaN(baselineSeconds);
        }
    }

    /** What a run measured: the threads it ran with and its rows in the order they were measured. */
    public record Result(Machine machine, List<Row> rows) {
        public Result {
            rows = List.copyOf(rows);
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
    private final Phases phases;
    private final Consumer<? super Row> onRow;
    private final List<Row> rows = new ArrayList<>();

    private LinalgBenchmark(Options options, ProgressListener listener, Consumer<? super Row> onRow) {
        this.options = options;
        this.phases = new Phases(listener, 3L * options.sizes().length + options.workspaceSizes().length
                + (options.gram() ? 1 : 0));
        this.onRow = onRow == null ? r -> { } : onRow;
    }

    /** Runs the benchmark; {@code listener} gets one report per measurement (may be null). */
    public static Result run(Options options, ProgressListener listener) {
        return run(options, listener, null);
    }

    /** Runs the benchmark and hands each row to {@code onRow} as soon as it is measured (may be null). */
    public static Result run(Options options, ProgressListener listener, Consumer<? super Row> onRow) {
        return new LinalgBenchmark(options, listener, onRow).run();
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

    private Result run() {
        Machine machine = Machine.warmUp();
        // JIT warm-up of the baselines on a small problem so that their first timed run is compiled code
        Matrix small = spd(Math.min(WARMUP_N, options.sizes()[0]), 1);
        ReferenceLinalg.gemm(small, small);
        ReferenceLinalg.cholesky(small);
        ReferenceLinalg.eigh(small);
        for (int n : options.sizes()) {
            Matrix a = gaussian(n, n, options.seed() + n);
            Matrix b = gaussian(n, n, options.seed() + n + 1);
            Matrix s = spd(n, options.seed() + n + 2);
            boolean base = n <= options.baselineMaxN();
            phases.start("gemm n=" + n);
            double flopsGemm = 2.0 * n * n * n;
            double t = time(1, options.repeats(), () -> Linalg.gemm(1.0, a, false, b, false));
            double tb = base ? time(0, 1, () -> ReferenceLinalg.gemm(a, b)) : Double.NaN;
            add(new Row("gemm", n, t, flopsGemm / t / 1e9, tb, "plain Java j-k-i loop", ""));

            phases.start("cholesky n=" + n);
            double flopsChol = n * (double) n * n / 3.0;
            t = time(1, options.repeats(), () -> Linalg.choleskyStrict(s));
            tb = base ? time(0, 1, () -> ReferenceLinalg.cholesky(s)) : Double.NaN;
            add(new Row("cholesky", n, t, flopsChol / t / 1e9, tb, "plain Java left-looking Cholesky", ""));

            phases.start("eigh n=" + n);
            double flopsEig = 4.0 * n * n * n;
            t = time(1, options.repeats(), () -> Linalg.eigh(s));
            tb = base ? time(0, 1, () -> ReferenceLinalg.eigh(s)) : Double.NaN;
            add(new Row("eigh", n, t, flopsEig / t / 1e9, tb, "plain Java Householder + QL", ""));
        }
        workspace();
        if (options.gram()) {
            gram();
        }
        return new Result(machine, rows);
    }

    /** Reusable dsyevd_work buffers vs {@link Linalg#eigh} (Java arrays copied by JavaCPP on each call). */
    private void workspace() {
        for (int n : options.workspaceSizes()) {
            phases.start("eigh-workspace n=" + n);
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
                add(new Row("eigh-workspace", n, t, 4.0 * n * n * n / t / 1e9, tb, "Linalg.eigh (double[])", ""));
            }
        }
    }

    private void gram() {
        int n = options.gramN();
        int d = options.gramD();
        phases.start("gram-gaussian n=" + n);
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
        rows.add(new Row("gram-gaussian-1thr", n, t1, flops / t1 / 1e9, tb, "double loop over eval", note));
        onRow.accept(rows.get(rows.size() - 1));
        add(new Row("gram-gaussian", n, t, flops / t / 1e9, tb, "double loop over eval",
                note + String.format(Locale.ROOT, "; %d threads, %.2fx over 1 thread",
                        Runtime.getRuntime().availableProcessors(), t1 / t)));
    }

    /** Records a row, ends its phase and hands the row on. */
    private void add(Row r) {
        rows.add(r);
        phases.end();
        onRow.accept(r);
    }
}
