package org.psdkit.cli.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.psdkit.bench.PsdSamplingBench;
import org.psdkit.bench.PsdScaleBenchmark;
import org.psdkit.cli.Main;
import org.psdkit.cli.Progress;
import org.psdkit.cli.Reports;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code psdkit bench psd-scale}: the primal L-BFGS density solver against the dual FISTA run in the same benchmark
 * ({@link PsdScaleBenchmark}); {@code --n N} adds the large Nyström case.
 */
@Command(name = "psd-scale", description = "PSD density solver from n=300 to 10^6: primal L-BFGS vs dual FISTA measured "
        + "in the same run (time ratio, objective difference); --n adds the large anchored case.")
public final class BenchPsdScaleCommand implements Callable<Integer> {
    /** The case name that runs {@link PsdSamplingBench} (the sampling targets: 10⁴ draws). */
    static final String SAMPLING = "sampling";
    /** Draws of the new sampler per sampling case (the 10⁴). */
    static final int SAMPLING_DRAWS = 10_000;
    /** Draws of the sequential sampler, the in-run baseline (seconds per draw at d = 10). */
    static final int SAMPLING_BASELINE_DRAWS = 2;
    @Option(names = "--cases", split = ",", defaultValue = "2d-n300,d10-n1000,d10-n2000,d10-n20000-a500,sampling",
            description = "Default cases to run, 'none' for none; 'sampling' runs bench psd-sample's 2d and d10 "
                    + "cases (10^4 draws against 2 of the sequential sampler) (default: ${DEFAULT-VALUE}).")
    List<String> cases;
    @Option(names = "--n", defaultValue = "0", description = "Rows of the large d=10 case (e.g. 1000000; 0: not run).")
    int bigN;
    @Option(names = "--anchors", defaultValue = "1000", description = "Anchors of the large case (default: ${DEFAULT-VALUE}).")
    int anchors;
    @Option(names = "--tol", defaultValue = "1e-4", description = "Relative gap of the large case (default: ${DEFAULT-VALUE}).")
    double tol;
    @Option(names = "--dual-time-limit", defaultValue = "300",
            description = "Seconds for the dual FISTA per case; its gap at the limit is reported (default: ${DEFAULT-VALUE}).")
    double dualTimeLimit;
    @Option(names = "--dir", paramLabel = "DIR", description = "Directory for the large case's CSV, written "
            + "atomically; a re-run replaces the file a benchmark wrote there, another file of the same name is "
            + "refused (default: a temporary one, deleted).")
    Path dir;
    @Option(names = "--warm-start-baseline", description = "Also fit the large case with the single 20,000-row warm "
            + "start to gap 1e-3 (the earlier default) on the same data, as the baseline of the default warm-start ladder.")
    boolean bigBaseline;
    @Option(names = "--optimum-tol", defaultValue = "0", paramLabel = "T",
            description = "> 0: also solve each compared case with the primal solver to relative gap T (not timed) "
                    + "and report both timed fits' distance to that optimum (0: not run; default: ${DEFAULT-VALUE}).")
    double optimumTol;
    @Option(names = "--compare-tol", defaultValue = "1e-6", paramLabel = "T",
            description = "Relative gap both solvers stop at in the compared cases (default: ${DEFAULT-VALUE}).")
    double compareTol;
    @Option(names = "--json", description = "Print one JSON object on stdout.")
    boolean json;

    @Override
    public Integer call() throws IOException {
        if (bigN < 0 || (bigN > 0 && (anchors < 1 || anchors > bigN))) {
            throw new IllegalArgumentException("--n must be >= 0 and --anchors between 1 and --n");
        }
        if (!(tol > 0) || !(dualTimeLimit > 0)) {
            throw new IllegalArgumentException("--tol and --dual-time-limit must be > 0");
        }
        if (!(optimumTol >= 0) || optimumTol >= 1) {
            throw new IllegalArgumentException("--optimum-tol must be >= 0 and < 1, got " + optimumTol);
        }
        if (!(compareTol > 0) || compareTol >= 1) {
            throw new IllegalArgumentException("--compare-tol must be > 0 and < 1, got " + compareTol);
        }
        LinkedHashSet<String> cs = new LinkedHashSet<>();
        boolean sampling = false;
        for (String c : cases) {
            if (c.trim().equals(SAMPLING)) {
                sampling = true;
            } else if (!c.trim().equalsIgnoreCase("none")) {
                if (!PsdScaleBenchmark.CASES.contains(c.trim())) {
                    throw new IllegalArgumentException("--cases: '" + c + "' is not one of "
                            + PsdScaleBenchmark.CASES + ", " + SAMPLING + " or none");
                }
                cs.add(c.trim());
            }
        }
        if (dir != null && !Files.isDirectory(dir)) {
            throw new IllegalArgumentException("--dir: " + dir + " is not a directory");
        }
        boolean temp = dir == null;
        Path d = temp ? Files.createTempDirectory("psdkit-psd-scale") : dir;
        List<Map<String, Object>> rows = new ArrayList<>();
        try {
            long t0 = System.nanoTime();
            org.psdkit.optim.ProgressListener big = e -> Progress.info(String.format(java.util.Locale.ROOT,
                    "bench psd-scale n=%d: %s iteration %d, %s %.3g (%.1f s into that solve, %.1f s since start)",
                    bigN, e.task(), e.step(), e.measure(), e.value(), e.seconds(), (System.nanoTime() - t0) * 1e-9));
            PsdScaleBenchmark.run(new PsdScaleBenchmark.Options(cs, bigN, anchors, tol, dualTimeLimit, d,
                    bigBaseline, big, optimumTol, compareTol), row -> {
                Map<String, Object> r = new LinkedHashMap<>();
                r.put("case", row.name());
                r.put("n", row.n());
                r.put("d", row.d());
                r.put("anchors", row.anchors());
                r.put("rank", row.rank());
                r.put("solver", row.solver());
                r.put("iterations", row.iterations());
                r.put("seconds", row.seconds());
                r.put("relative_gap", row.relativeGap());
                r.put("converged", row.converged());
                r.put("objective", row.objective());
                if (!Double.isNaN(row.readSeconds())) {
                    r.put("cpu_seconds", row.cpuSeconds());
                    r.put("read_seconds", row.readSeconds());
                    r.put("fit_seconds", row.seconds() - row.readSeconds());
                    r.put("anchors_features_warm_start_seconds", row.featureSeconds());
                    r.put("full_data_solve_seconds", row.solveSeconds());
                    r.put("test_loglik", row.testLoglik());
                    r.put("exact_" + PsdScaleBenchmark.REFERENCE_ROWS + "_test_loglik", row.referenceLoglik());
                    r.put("exact_" + PsdScaleBenchmark.REFERENCE_ROWS + "_seconds", row.referenceSeconds());
                    if (!Double.isNaN(row.baselineSeconds())) {
                        r.put("coarse_warm_start_seconds", row.baselineSeconds());
                        r.put("coarse_warm_start_relative_gap", row.baselineGap());
                        r.put("coarse_warm_start_objective", row.baselineObjective());
                    }
                } else if (!Double.isNaN(row.baselineSeconds())) {
                    r.put("cpu_seconds", row.cpuSeconds());
                    r.put("dual_fista_seconds", row.baselineSeconds());
                    r.put("dual_fista_cpu_seconds", row.baselineCpuSeconds());
                    r.put("dual_fista_relative_gap", row.baselineGap());
                    r.put("dual_fista_converged", row.baselineConverged());
                    r.put("dual_fista_objective", row.baselineObjective());
                    r.put("time_ratio", row.ratio());
                    r.put("objective_difference", row.objectiveDifference());
                    if (!Double.isNaN(row.optimum())) {
                        r.put("optimum_objective", row.optimum());
                        r.put("optimum_gap", row.optimumGap());
                        r.put("objective_vs_optimum", row.objectiveVsOptimum());
                        r.put("dual_fista_objective_vs_optimum", row.baselineObjectiveVsOptimum());
                    }
                }
                rows.add(r);
                Progress.info("bench psd-scale " + row.name() + ": " + r);
            });
        } finally {
            if (temp) {
                try (var s = Files.list(d)) {
                    for (Path p : s.toList()) {
                        Files.deleteIfExists(p);
                    }
                }
                Files.deleteIfExists(d);
            }
        }
        List<Map<String, Object>> samples = new ArrayList<>();
        if (sampling) {
            PsdSamplingBench.run(new PsdSamplingBench.Options(List.of("2d", "d10"), null, null, SAMPLING_DRAWS,
                    SAMPLING_BASELINE_DRAWS, 1), r -> {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("case", "sampling-" + r.name());
                m.put("n", r.n());
                m.put("d", r.d());
                m.put("draws", r.draws());
                m.put("seconds", r.seconds());
                m.put("sequential_draws", r.baselineDraws());
                m.put("sequential_seconds", r.baselineSeconds());
                m.put("per_draw_speedup", r.speedup());
                m.put("fraction_x1_positive", r.fractionPositive());
                m.put("probability_x1_positive", r.probabilityPositive());
                samples.add(m);
                Progress.info("bench psd-scale sampling-" + r.name() + ": " + m);
            });
        }
        Map<String, Object> rep = new LinkedHashMap<>();
        rep.put("benchmark", "psd-scale");
        rep.put("rows", rows);
        if (sampling) {
            rep.put("sampling", samples);
        }
        Reports.print(rep, json);
        return Main.EXIT_OK;
    }
}
