package org.psdkit.cli;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.psdkit.kernel.Kernel;
import org.psdkit.linalg.Linalg;
import org.psdkit.model.KernelSos;
import org.psdkit.experiments.toy.KernelSosExample;
import org.psdkit.optim.sdp.SdpOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code psdkit bench kernel-sos}: the Kernel SoS SDP (2) on n points of the paper's example, with every α_l's
 * coefficients passed as rank-2 factors (what {@code fit kernel-sos} does) against the same SDP with dense
 * coefficient matrices, in the same run. Times are thread CPU seconds (and wall seconds).
 */
@Command(name = "kernel-sos", description = "Kernel SoS SDP time for n points: rank-2 coefficients against dense "
        + "coefficients (in-run baseline).")
public final class BenchKernelSosCommand implements Callable<Integer> {

    @Option(names = "--n", split = ",", defaultValue = "50,100,200", description = "Sizes (default: ${DEFAULT-VALUE}).")
    int[] sizes;

    @Option(names = "--kernel", defaultValue = "gaussian(sigma=0.25) + 0.01*delta",
            description = "Kernel (default: ${DEFAULT-VALUE}).")
    String kernel;

    @Option(names = "--lambda", defaultValue = "0.01", description = "Lambda (default: ${DEFAULT-VALUE}).")
    double lambda;

    @Option(names = "--baseline-max-n", defaultValue = "200",
            description = "Largest n for the dense baseline (default: ${DEFAULT-VALUE}).")
    int baselineMaxN;

    @Option(names = "--time-limit", defaultValue = "300", description = "Time limit per solve, s (default: ${DEFAULT-VALUE}).")
    double timeLimit;

    @Option(names = "--json", description = "Print one JSON object on stdout.")
    boolean json;

    @Override
    public Integer call() {
        for (int n : sizes) {
            if (n < 2) {
                throw new IllegalArgumentException("--n: sizes must be >= 2, got " + n);
            }
        }
        if (!(lambda >= 0)) {
            throw new IllegalArgumentException("--lambda must be >= 0, got " + lambda);
        }
        Kernel k = KernelSpecs.parse(kernel);
        Linalg.warmUp();
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        Map<String, Object> rep = new LinkedHashMap<>();
        rep.put("benchmark", "kernel-sos");
        System.err.printf(Locale.ROOT, "%6s %8s %8s %5s %12s   %10s %10s %5s %7s%n", "n", "cpu_s", "wall_s", "it",
                "objective", "dense_cpu", "dense_wall", "it", "ratio");
        for (int n : sizes) {
            KernelSosExample.Sample s = KernelSosExample.sample(n, 0.5, 1);
            SdpOptions o = SdpOptions.defaults().withCpuTimeLimit(timeLimit);
            long c0 = mx.getCurrentThreadCpuTime();
            long w0 = System.nanoTime();
            KernelSos fast = KernelSos.fit(k, s.x(), s.y(), new KernelSos.Options(lambda, o, true));
            double cpu = (mx.getCurrentThreadCpuTime() - c0) * 1e-9;
            double wall = (System.nanoTime() - w0) * 1e-9;
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("cpu_seconds", cpu);
            row.put("seconds", wall);
            row.put("iterations", fast.sdpResult().iterations());
            row.put("objective", fast.objective());
            String dense = "-";
            if (n <= baselineMaxN) {
                c0 = mx.getCurrentThreadCpuTime();
                w0 = System.nanoTime();
                KernelSos slow;
                try {
                    slow = KernelSos.fit(k, s.x(), s.y(), new KernelSos.Options(lambda, o, false));
                } catch (IllegalStateException e) {
                    row.put("dense_failed", e.getMessage());
                    System.err.printf(Locale.ROOT, "%6d %8.2f %8.2f %5d %12.6g   dense baseline failed: %s%n", n, cpu,
                            wall, fast.sdpResult().iterations(), fast.objective(), e.getMessage());
                    rep.put("n" + n, row);
                    continue;
                }
                double dcpu = (mx.getCurrentThreadCpuTime() - c0) * 1e-9;
                double dwall = (System.nanoTime() - w0) * 1e-9;
                row.put("dense_cpu_seconds", dcpu);
                row.put("dense_seconds", dwall);
                row.put("dense_iterations", slow.sdpResult().iterations());
                row.put("dense_objective", slow.objective());
                row.put("ratio", dcpu / cpu);
                dense = String.format(Locale.ROOT, "%10.2f %10.2f %5d %7.2f", dcpu, dwall,
                        slow.sdpResult().iterations(), dcpu / cpu);
            }
            System.err.printf(Locale.ROOT, "%6d %8.2f %8.2f %5d %12.6g   %s%n", n, cpu, wall,
                    fast.sdpResult().iterations(), fast.objective(), dense);
            rep.put("n" + n, row);
        }
        Reports.print(rep, json);
        return Main.EXIT_OK;
    }
}
