package org.psdkit.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.psdkit.experiments.toy.KernelSosExample;
import org.psdkit.kernel.Kernel;
import org.psdkit.linalg.Linalg;
import org.psdkit.optim.ProgressListener;
import org.psdkit.optim.sdp.SdpOptions;
import org.psdkit.sos.KernelSos;

/**
 * The Kernel SoS SDP (2) on n points of the paper's example, solved by the specialised interior-point method
 * ({@link KernelSos.Route#SPECIALISED}, what {@code fit kernel-sos} does) against a baseline route of the general
 * solver in the same run: by default the previous default, rank-2 coefficients ({@link KernelSos.Route#RANK_TWO}),
 * or dense coefficient matrices ({@link KernelSos.Route#DENSE}). Times are thread CPU seconds (and wall seconds).
 * Behind {@code psdkit bench kernel-sos}.
 */
public final class KernelSosBenchmark {
    private KernelSosBenchmark() {
    }

    /**
     * Options of one run.
     *
     * @param sizes        numbers of points (each &gt;= 2)
     * @param kernel       the kernel
     * @param lambda       λ &gt;= 0
     * @param baselineMaxN largest n for the baseline
     * @param timeLimit    CPU time limit per solve, seconds
     * @param baseline     the baseline route (not {@link KernelSos.Route#SPECIALISED})
     * @param warmup       untimed specialised solves of each size before the timed ones (&gt;= 0): the first solves
     *                     of a JVM run partly interpreted, so a single timed solve moves by ±30% with what ran before
     * @param repeat       timed specialised solves of each size (&gt;= 1); the row reports their mean
     */
    public record Options(int[] sizes, Kernel kernel, double lambda, int baselineMaxN, double timeLimit,
                          KernelSos.Route baseline, int warmup, int repeat) {
        /** With the rank-2 general solver as the baseline, one timed solve per size, no warm-up. */
        public Options(int[] sizes, Kernel kernel, double lambda, int baselineMaxN, double timeLimit) {
            this(sizes, kernel, lambda, baselineMaxN, timeLimit, KernelSos.Route.RANK_TWO);
        }

        /** One timed solve per size, no warm-up. */
        public Options(int[] sizes, Kernel kernel, double lambda, int baselineMaxN, double timeLimit,
                       KernelSos.Route baseline) {
            this(sizes, kernel, lambda, baselineMaxN, timeLimit, baseline, 0, 1);
        }

        public Options {
            if (warmup < 0) {
                throw new IllegalArgumentException("warmup must be >= 0, got " + warmup);
            }
            if (repeat < 1) {
                throw new IllegalArgumentException("repeat must be >= 1, got " + repeat);
            }
            if (baseline == null || baseline == KernelSos.Route.SPECIALISED) {
                throw new IllegalArgumentException("baseline must be a general-solver route, got " + baseline);
            }
            sizes = Validate.sizes("sizes", sizes, 2);
            if (kernel == null) {
                throw new IllegalArgumentException("kernel must not be null");
            }
            if (!(lambda >= 0)) {
                throw new IllegalArgumentException("lambda must be >= 0, got " + lambda);
            }
        }
    }

    /** The baseline of one size: CPU and wall seconds, iterations, objective, α (to compare with). */
    public record Dense(double cpuSeconds, double seconds, int iterations, double objective, double alphaDifference) {
    }

    /**
     * One size.
     *
     * @param n            number of points
     * @param cpuSeconds   thread CPU seconds of the specialised solve (mean of the timed solves)
     * @param seconds      wall seconds of the specialised solve (mean of the timed solves)
     * @param iterations   interior-point iterations
     * @param objective    objective reached
     * @param dense        the dense baseline, null when skipped (n &gt; baselineMaxN) or failed
     * @param denseFailure the baseline's error message when it failed, else null
     */
    public record Row(int n, double cpuSeconds, double seconds, int iterations, double objective, Dense dense,
                      String denseFailure) {
        /** Baseline CPU seconds over specialised CPU seconds (NaN without a baseline). */
        public double ratio() {
            return dense == null ? Double.NaN : dense.cpuSeconds() / cpuSeconds;
        }
    }

    /** One row per size. */
    public record Result(List<Row> rows) {
        public Result {
            rows = List.copyOf(rows);
        }
    }

    /** Runs the benchmark; {@code listener} gets one report per solve (may be null). */
    public static Result run(Options options, ProgressListener listener) {
        return run(options, listener, null);
    }

    /** Runs the benchmark and hands each row to {@code onRow} as soon as it is measured (may be null). */
    public static Result run(Options o, ProgressListener listener, Consumer<? super Row> onRow) {
        Kernel k = o.kernel();
        double lambda = o.lambda();
        long solves = 0;
        for (int n : o.sizes()) {
            solves += o.warmup() + o.repeat() + (n <= o.baselineMaxN() ? 1 : 0);
        }
        Phases phases = new Phases(listener, solves);
        Linalg.warmUp();
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        List<Row> rows = new ArrayList<>();
        for (int n : o.sizes()) {
            KernelSosExample.Sample s = KernelSosExample.sample(n, 0.5, 1);
            SdpOptions so = SdpOptions.defaults().withCpuTimeLimit(o.timeLimit());
            KernelSos.Options fo = new KernelSos.Options(lambda, so, KernelSos.Route.SPECIALISED);
            for (int w = 0; w < o.warmup(); w++) {
                phases.start("n=" + n + ": specialised solver (warm-up " + (w + 1) + ")");
                KernelSos.fit(k, s.x(), s.y(), fo);
                phases.end();
            }
            double cpu = 0;
            double wall = 0;
            KernelSos fast = null;
            for (int r = 0; r < o.repeat(); r++) {
                phases.start("n=" + n + ": specialised solver" + (o.repeat() > 1 ? " (" + (r + 1) + "/" + o.repeat()
                        + ")" : ""));
                long c0 = mx.getCurrentThreadCpuTime();
                long w0 = System.nanoTime();
                fast = KernelSos.fit(k, s.x(), s.y(), fo);
                cpu += (mx.getCurrentThreadCpuTime() - c0) * 1e-9 / o.repeat();
                wall += (System.nanoTime() - w0) * 1e-9 / o.repeat();
                phases.end();
            }
            Dense dense = null;
            String failure = null;
            if (n <= o.baselineMaxN()) {
                phases.start("n=" + n + ": " + o.baseline() + " (baseline)");
                long c0 = mx.getCurrentThreadCpuTime();
                long w0 = System.nanoTime();
                try {
                    KernelSos slow = KernelSos.fit(k, s.x(), s.y(), new KernelSos.Options(lambda, so, o.baseline()));
                    double dcpu = (mx.getCurrentThreadCpuTime() - c0) * 1e-9;
                    double dwall = (System.nanoTime() - w0) * 1e-9;
                    dense = new Dense(dcpu, dwall, slow.sdpResult().iterations(), slow.objective(),
                            KrrBenchmark.relDiff(fast.alpha(), slow.alpha()));
                } catch (IllegalStateException e) {
                    failure = e.getMessage();
                }
                phases.end();
            }
            Row row = new Row(n, cpu, wall, fast.sdpResult().iterations(), fast.objective(), dense, failure);
            rows.add(row);
            if (onRow != null) {
                onRow.accept(row);
            }
        }
        return new Result(rows);
    }
}
