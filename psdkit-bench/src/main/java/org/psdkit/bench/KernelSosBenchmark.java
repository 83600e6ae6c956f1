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
     */
    public record Options(int[] sizes, Kernel kernel, double lambda, int baselineMaxN, double timeLimit,
                          KernelSos.Route baseline) {
        /** With the rank-2 general solver as the baseline. */
        public Options(int[] sizes, Kernel kernel, double lambda, int baselineMaxN, double timeLimit) {
            this(sizes, kernel, lambda, baselineMaxN, timeLimit, KernelSos.Route.RANK_TWO);
        }

        public Options {
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
     * @param cpuSeconds   thread CPU seconds of the specialised solve
     * @param seconds      wall seconds of the specialised solve
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
            solves += n <= o.baselineMaxN() ? 2 : 1;
        }
        Phases phases = new Phases(listener, solves);
        Linalg.warmUp();
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        List<Row> rows = new ArrayList<>();
        for (int n : o.sizes()) {
            KernelSosExample.Sample s = KernelSosExample.sample(n, 0.5, 1);
            SdpOptions so = SdpOptions.defaults().withCpuTimeLimit(o.timeLimit());
            phases.start("n=" + n + ": specialised solver");
            long c0 = mx.getCurrentThreadCpuTime();
            long w0 = System.nanoTime();
            KernelSos fast = KernelSos.fit(k, s.x(), s.y(), new KernelSos.Options(lambda, so, KernelSos.Route.SPECIALISED));
            double cpu = (mx.getCurrentThreadCpuTime() - c0) * 1e-9;
            double wall = (System.nanoTime() - w0) * 1e-9;
            phases.end();
            Dense dense = null;
            String failure = null;
            if (n <= o.baselineMaxN()) {
                phases.start("n=" + n + ": " + o.baseline() + " (baseline)");
                c0 = mx.getCurrentThreadCpuTime();
                w0 = System.nanoTime();
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
