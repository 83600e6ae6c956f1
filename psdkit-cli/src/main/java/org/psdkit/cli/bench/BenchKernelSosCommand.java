package org.psdkit.cli.bench;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.psdkit.bench.KernelSosBenchmark;
import org.psdkit.cli.KernelSpecs;
import org.psdkit.cli.Main;
import org.psdkit.cli.Reports;
import org.psdkit.kernel.Kernel;
import org.psdkit.sos.KernelSos;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code psdkit bench kernel-sos}: the Kernel SoS SDP (2) by its specialised solver against the general SDP solver
 * (rank-2 or dense coefficients) in the same run ({@link KernelSosBenchmark}). Times are thread CPU seconds (and wall
 * seconds).
 */
@Command(name = "kernel-sos", description = "Kernel SoS SDP time for n points: the specialised solver against the "
        + "general SDP solver with rank-2 (or dense) coefficients (in-run baseline).")
public final class BenchKernelSosCommand implements Callable<Integer> {

    @Option(names = "--n", split = ",", defaultValue = "50,100,200", description = "Sizes (default: ${DEFAULT-VALUE}).")
    int[] sizes;

    @Option(names = "--kernel", defaultValue = "gaussian(sigma=0.25) + 0.01*delta",
            description = "Kernel (default: ${DEFAULT-VALUE}).")
    String kernel;

    @Option(names = "--lambda", defaultValue = "0.01", description = "Lambda (default: ${DEFAULT-VALUE}).")
    double lambda;

    @Option(names = "--baseline-max-n", defaultValue = "200",
            description = "Largest n for the baseline (default: ${DEFAULT-VALUE}).")
    int baselineMaxN;

    @Option(names = "--baseline", defaultValue = "rank-2",
            description = "Baseline route of the general solver: rank-2 or dense (default: ${DEFAULT-VALUE}).")
    String baseline;

    @Option(names = "--time-limit", defaultValue = "300", description = "Time limit per solve, s (default: ${DEFAULT-VALUE}).")
    double timeLimit;

    @Option(names = "--warmup", defaultValue = "0", paramLabel = "W", description = "Untimed solves of each size "
            + "before the timed ones (the first solves of a JVM run partly interpreted; default: ${DEFAULT-VALUE}).")
    int warmup;

    @Option(names = "--repeat", defaultValue = "1", paramLabel = "R",
            description = "Timed solves of each size; the mean is reported (default: ${DEFAULT-VALUE}).")
    int repeat;

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
        if (warmup < 0) {
            throw new IllegalArgumentException("--warmup must be >= 0, got " + warmup);
        }
        if (repeat < 1) {
            throw new IllegalArgumentException("--repeat must be >= 1, got " + repeat);
        }
        KernelSos.Route route = switch (baseline) {
            case "rank-2" -> KernelSos.Route.RANK_TWO;
            case "dense" -> KernelSos.Route.DENSE;
            default -> throw new IllegalArgumentException("--baseline must be rank-2 or dense, got '" + baseline + "'");
        };
        Kernel k = KernelSpecs.parse(kernel);
        Map<String, Object> rep = new LinkedHashMap<>();
        rep.put("benchmark", "kernel-sos");
        rep.put("warmup", warmup);
        rep.put("repeat", repeat);
        System.err.printf(Locale.ROOT, "%6s %8s %8s %5s %12s   %10s %10s %5s %7s %9s%n", "n", "cpu_s", "wall_s", "it",
                "objective", "base_cpu", "base_wall", "it", "ratio", "alpha_dif");
        KernelSosBenchmark.run(new KernelSosBenchmark.Options(sizes, k, lambda, baselineMaxN, timeLimit, route,
                        warmup, repeat),
                new BenchProgress("bench kernel-sos: "), r -> rep.put("n" + r.n(), row(r)));
        Reports.print(rep, json);
        return Main.EXIT_OK;
    }

    private static Map<String, Object> row(KernelSosBenchmark.Row r) {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("cpu_seconds", r.cpuSeconds());
        row.put("seconds", r.seconds());
        row.put("iterations", r.iterations());
        row.put("objective", r.objective());
        if (r.denseFailure() != null) {
            row.put("baseline_failed", r.denseFailure());
            System.err.printf(Locale.ROOT, "%6d %8.2f %8.2f %5d %12.6g   baseline failed: %s%n", r.n(),
                    r.cpuSeconds(), r.seconds(), r.iterations(), r.objective(), r.denseFailure());
            return row;
        }
        String dense = "-";
        KernelSosBenchmark.Dense d = r.dense();
        if (d != null) {
            row.put("baseline_cpu_seconds", d.cpuSeconds());
            row.put("baseline_seconds", d.seconds());
            row.put("baseline_iterations", d.iterations());
            row.put("baseline_objective", d.objective());
            row.put("alpha_relative_difference", d.alphaDifference());
            row.put("ratio", r.ratio());
            dense = String.format(Locale.ROOT, "%10.2f %10.2f %5d %7.2f %9.1e", d.cpuSeconds(), d.seconds(),
                    d.iterations(), r.ratio(), d.alphaDifference());
        }
        System.err.printf(Locale.ROOT, "%6d %8.2f %8.2f %5d %12.6g   %s%n", r.n(), r.cpuSeconds(), r.seconds(),
                r.iterations(), r.objective(), dense);
        return row;
    }
}
