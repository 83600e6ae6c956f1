package org.psdkit.cli.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.psdkit.bench.SdpBenchmark;
import org.psdkit.cli.DataFiles;
import org.psdkit.cli.Main;
import org.psdkit.cli.Reports;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code psdkit bench sdp}: every SDPLIB problem of the shared data folder (smallest first), solved by the
 * interior-point method and by a baseline in the same run ({@link SdpBenchmark}). Times are thread CPU seconds.
 */
@Command(name = "sdp", description = "SDPLIB problems: time, iterations and error per problem, against an in-run "
        + "baseline (dense Schur complement or no corrector).")
public final class BenchSdpCommand implements Callable<Integer> {

    @Option(names = "--dir", paramLabel = "DIR",
            description = "Folder with the .dat-s files and README.md (default: shared/data/sdplib).")
    Path dir;

    @Option(names = "--max-size", defaultValue = "1000", paramLabel = "N",
            description = "Skip problems with n = sum of block sizes > N or m > 2N (default: ${DEFAULT-VALUE}).")
    int maxSize;

    @Option(names = "--time-limit", defaultValue = "60", paramLabel = "S",
            description = "Time limit per solve in CPU seconds of the solving thread (default: ${DEFAULT-VALUE}).")
    double timeLimit;

    @Option(names = "--baseline", defaultValue = "dense", paramLabel = "dense|no-corrector|none",
            description = "Baseline solver run on every problem (default: ${DEFAULT-VALUE}).")
    String baseline;

    @Option(names = "--problems", split = ",", paramLabel = "NAMES",
            description = "Only these problems (comma-separated names).")
    List<String> only;

    @Option(names = "--warmup", defaultValue = "0", paramLabel = "N",
            description = "Untimed solves of each problem before the timed one (the JVM's steady state; default: 0).")
    int warmup;

    @Option(names = "--repeat", defaultValue = "1", paramLabel = "N",
            description = "Timed solves of each problem; cpu_s and wall_s are their means (default: ${DEFAULT-VALUE}).")
    int repeat;

    @Option(names = "--no-double-double",
            description = "Time psdkit without its double-double restart: the double-precision run alone, the work "
                    + "of a solver without that end-game (CSDP); the 'cert' column shows which answers still hold the "
                    + "1e-6 certificate.")
    boolean noDoubleDouble;

    @Option(names = "--json", description = "Print one JSON object on stdout.")
    boolean json;

    @Override
    public Integer call() throws IOException {
        if (maxSize < 1) {
            throw new IllegalArgumentException("--max-size must be >= 1, got " + maxSize);
        }
        if (warmup < 0) {
            throw new IllegalArgumentException("--warmup must be >= 0, got " + warmup);
        }
        if (repeat < 1) {
            throw new IllegalArgumentException("--repeat must be >= 1, got " + repeat);
        }
        if (!(timeLimit > 0)) {
            throw new IllegalArgumentException("--time-limit must be > 0, got " + timeLimit);
        }
        SdpBenchmark.Baseline base;
        try {
            base = SdpBenchmark.Baseline.parse(baseline);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--baseline must be dense, no-corrector or none, got " + baseline);
        }
        Path folder = dir != null ? dir : DataFiles.shared("sdplib/README.md", "--dir").getParent();
        Map<String, SdpBenchmark.Reference> refs = SdpBenchmark.readReferences(folder.resolve("README.md"));
        if (only != null) {
            for (String name : only) {
                if (!refs.containsKey(name)) {
                    throw new IllegalArgumentException("--problems: '" + name + "' is not in " + folder.resolve("README.md"));
                }
            }
        }
        System.err.printf(Locale.ROOT, "%-10s %5s %5s  %-18s %4s %8s %8s  %15s %9s %9s %4s  %8s %6s  %5s %5s %5s %5s %5s%n", "problem", "m",
                "n", "status", "it", "cpu_s", "wall_s", "objective", "err_pub", "err_csdp", "cert", "base_s", "ratio",
                "schur", "fact", "step", "other", "dd");
        List<Map<String, Object>> rows = new ArrayList<>();
        SdpBenchmark.Result res = SdpBenchmark.run(new SdpBenchmark.Options(folder, maxSize, timeLimit, base, only, warmup, repeat,
                        !noDoubleDouble),
                new BenchProgress("bench sdp: "), r -> rows.add(row(r)));
        Map<String, Object> rep = new LinkedHashMap<>();
        rep.put("benchmark", "sdp");
        rep.put("baseline", base.label());
        rep.put("double_double", !noDoubleDouble);
        rep.put("problems", rows.size());
        rep.put("within_1e-6_of_csdp", res.withinCsdp());
        rep.put("compared_with_csdp", res.comparedWithCsdp());
        rep.put("certified_1e-6", res.certified());
        rep.put("warmup", warmup);
        rep.put("repeat", repeat);
        if (base != SdpBenchmark.Baseline.NONE) {
            // summed over the problems the baseline also solved (SdpBenchmark.Result), so the ratio compares like with like
            rep.put("total_cpu_seconds", res.totalCpuSeconds());
            rep.put("baseline_total_cpu_seconds", res.baselineTotalCpuSeconds());
            rep.put("total_ratio", res.totalRatio());
        }
        rep.put("cpu_seconds_all_problems", rows.stream().mapToDouble(r -> (Double) r.get("cpu_seconds")).sum());
        if (json) {
            rep.put("rows", rows);
        }
        Reports.print(rep, json);
        return Main.EXIT_OK;
    }

    private static Map<String, Object> row(SdpBenchmark.Row r) {
        SdpBenchmark.Reference ref = r.reference();
        boolean infeasibleCase = r.infeasibleCase();
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("problem", ref.name());
        row.put("m", ref.m());
        row.put("n", ref.n());
        row.put("status", r.status());
        row.put("iterations", r.iterations());
        row.put("cpu_seconds", r.cpuSeconds());
        row.put("seconds", r.seconds());
        row.put("objective", infeasibleCase ? null : r.objective());
        row.put("relative_gap", r.relativeGap());
        row.put("published", infeasibleCase ? ref.expected() : ref.published());
        row.put("error_published", r.errorPublished());
        row.put("error_csdp", r.errorCsdp());
        if (infeasibleCase) {
            row.put("expected_status", ref.expected());
        }
        row.put("certified", r.certified());
        SdpBenchmark.BaselineRun b = r.baseline();
        if (b != null) {
            row.put("baseline_cpu_seconds", b.cpuSeconds());
            row.put("baseline_status", b.status());
            row.put("baseline_iterations", b.iterations());
            row.put("ratio", r.ratio());
        }
        row.put("profile", org.psdkit.cli.sdp.SdpCommand.profile(r.profile()));
        double total = Math.max(r.profile().totalSeconds(), 1e-12);
        System.err.printf(Locale.ROOT, "%-10s %5d %5d  %-18s %4d %8.3f %8.3f  %15s %9s %9s %4s  %8s %6s  %5s %5s %5s %5s %5s%n",
                ref.name(), ref.m(), ref.n(), r.status(), r.iterations(), r.cpuSeconds(), r.seconds(),
                infeasibleCase ? ref.expected() : String.format(Locale.ROOT, "%.8g", r.objective()),
                fmtErr(r.errorPublished()), fmtErr(r.errorCsdp()), infeasibleCase ? "-" : r.certified() ? "yes" : "no",
                b == null ? "-" : String.format(Locale.ROOT, "%.2f", b.cpuSeconds()),
                b == null ? "-" : String.format(Locale.ROOT, "%.2f", r.ratio()),
                pct(r.profile().schurSeconds(), total), pct(r.profile().factorSeconds(), total),
                pct(r.profile().stepSeconds(), total), pct(r.profile().otherSeconds(), total),
                r.profile().ddRestart() ? pct(r.profile().ddSeconds(), total) : "-");
        return row;
    }

    /** A share of the solve's wall time in percent. */
    private static String pct(double part, double total) {
        return String.format(Locale.ROOT, "%.0f%%", 100 * part / total);
    }

    private static String fmtErr(Double e) {
        return e == null ? "-" : String.format(Locale.ROOT, "%.1e", e);
    }
}
