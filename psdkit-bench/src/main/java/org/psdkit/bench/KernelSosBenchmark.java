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
 * The Kernel SoS SDP (2) on n points of the paper's example, with every α_l's coefficients passed as rank-2 factors
 * (what {@code fit kernel-sos} does) against the same SDP with dense coefficient matrices, in the same run. Times are
 * thread CPU seconds (and wall seconds). Behind {@code psdkit bench kernel-sos}.
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
     * @param baselineMaxN largest n for the dense baseline
     * @param timeLimit    CPU time limit per solve, seconds
     */
    public record Options(int[] sizes, Kernel kernel, double lambda, int baselineMaxN, double timeLimit) {
        public Options {
            sizes = Validate.sizes("sizes", sizes, 2);
            if (kernel == null) {
                throw new IllegalArgumentException("kernel must not be null");
            }
            if (!(lambda >= 0)) {
                throw new IllegalArgumentException("lambda must be >= 0, got " + lambda);
            }
        }
    }

    /** The dense-coefficient baseline of one size: CPU and wall seconds, iterations, objective. */
    public record Dense(double cpuSeconds, double seconds, int iterations, double objective) {
    }

    /**
     * One size.
     *
     * @param n            number of points
     * @param cpuSeconds   thread CPU seconds of the rank-2 solve
     * @param seconds      wall seconds of the rank-2 solve
     * @param iterations   interior-point iterations
     * @param objective    objective reached
     * @param dense        the dense baseline, null when skipped (n &gt; baselineMaxN) or failed
     * @param denseFailure the baseline's error message when it failed, else null
     */
    public record Row(int n, double cpuSeconds, double seconds, int iterations, double objective, Dense dense,
                      String denseFailure) {
        /** Dense CPU seconds over rank-2 CPU seconds (NaN without a baseline). */
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
            phases.start("n=" + n + ": rank-2 coefficients");
            long c0 = mx.getCurrentThreadCpuTime();
            long w0 = System.nanoTime();
            KernelSos fast = KernelSos.fit(k, s.x(), s.y(), new KernelSos.Options(lambda, so, true));
            double cpu = (mx.getCurrentThreadCpuTime() - c0) * 1e-9;
            double wall = (System.nanoTime() - w0) * 1e-9;
            phases.end();
            Dense dense = null;
            String failure = null;
            if (n <= o.baselineMaxN()) {
                phases.start("n=" + n + ": dense coefficients (baseline)");
                c0 = mx.getCurrentThreadCpuTime();
                w0 = System.nanoTime();
                try {
                    KernelSos slow = KernelSos.fit(k, s.x(), s.y(), new KernelSos.Options(lambda, so, false));
                    double dcpu = (mx.getCurrentThreadCpuTime() - c0) * 1e-9;
                    double dwall = (System.nanoTime() - w0) * 1e-9;
                    dense = new Dense(dcpu, dwall, slow.sdpResult().iterations(), slow.objective());
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
