package org.psdkit.cli.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.psdkit.bench.DensityBenchmark;
import org.psdkit.cli.Main;
import org.psdkit.cli.Progress;
import org.psdkit.cli.Reports;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code psdkit bench density}: PSD-model density training in d = 10 against a bare eigh of n×n measured in the same
 * run ({@link DensityBenchmark}).
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
        List<Map<String, Object>> rows = new ArrayList<>();
        DensityBenchmark.Result res = DensityBenchmark.run(new DensityBenchmark.Options(sizes, timeLimit, tol, sigma,
                lambda), new BenchProgress("bench density: "), row -> {
                    Map<String, Object> r = new LinkedHashMap<>();
                    r.put("n", row.n());
                    r.put("converged", row.converged());
                    r.put("relative_gap", row.relativeGap());
                    r.put("iterations", row.iterations());
                    r.put("solver_seconds", row.solverSeconds());
                    r.put("total_seconds", row.totalSeconds());
                    r.put("seconds_per_iteration", row.secondsPerIteration());
                    r.put("eigen_share", row.eigenShare());
                    r.put("baseline_eigh_seconds", row.baselineEighSeconds());
                    r.put("iteration_over_eigh", row.iterationOverEigh());
                    r.put("integral", row.integral());
                    rows.add(r);
                    Progress.info("bench density n=" + row.n() + ": " + r);
                });
        Map<String, Object> rep = new LinkedHashMap<>();
        rep.put("benchmark", "density");
        rep.put("d", res.d());
        rep.put("threads", res.threads());
        rep.put("rows", rows);
        Reports.print(rep, json);
        return Main.EXIT_OK;
    }
}
