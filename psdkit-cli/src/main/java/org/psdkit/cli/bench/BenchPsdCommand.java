package org.psdkit.cli.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.psdkit.bench.Machine;
import org.psdkit.bench.PsdBenchmark;
import org.psdkit.cli.Main;
import org.psdkit.cli.Reports;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code psdkit bench psd}: the dual FISTA solver of PSD-model regression against a bare eigh and plain proximal
 * gradient measured in the same run ({@link PsdBenchmark}).
 */
@Command(name = "psd", description = "PSD-model dual solver: time per iteration, eigen-decomposition share, time to "
        + "relative gap 1e-6, against a bare eigh and plain proximal gradient measured in the same run.")
public final class BenchPsdCommand implements Callable<Integer> {

    @Option(names = "--sizes", split = ",", defaultValue = "200,500,1000,2000", paramLabel = "N,N,...",
            description = "Numbers of points (default: ${DEFAULT-VALUE}).")
    int[] sizes;

    @Option(names = "--dims", split = ",", defaultValue = "1,10", paramLabel = "D,D,...",
            description = "Input dimensions (default: ${DEFAULT-VALUE}).")
    int[] dims;

    @Option(names = "--tol", defaultValue = "1e-6", paramLabel = "X",
            description = "Relative duality gap to reach (default: ${DEFAULT-VALUE}).")
    double tol;

    @Option(names = "--time-limit", defaultValue = "120", paramLabel = "SECONDS",
            description = "Budget of each solver run (default: ${DEFAULT-VALUE}).")
    double timeLimit;

    @Option(names = "--plain-max-n", defaultValue = "200", paramLabel = "N",
            description = "Run the unaccelerated baseline up to this n (default: ${DEFAULT-VALUE}).")
    int plainMaxN;

    @Option(names = "--seed", defaultValue = "1", description = "Random seed (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--json", description = "Print one JSON object on stdout.")
    boolean json;

    @Override
    public Integer call() {
        for (int n : sizes) {
            if (n < 2) {
                throw new IllegalArgumentException("--sizes: n must be >= 2, got " + n);
            }
        }
        for (int d : dims) {
            if (d < 1) {
                throw new IllegalArgumentException("--dims: d must be >= 1, got " + d);
            }
        }
        if (!(tol > 0) || !(timeLimit > 0)) {
            throw new IllegalArgumentException("--tol and --time-limit must be > 0");
        }
        PsdBenchmark.Options o = new PsdBenchmark.Options(sizes, dims, tol, timeLimit, plainMaxN, seed);
        if (!json) {
            System.err.printf(Locale.ROOT, "psdkit bench psd: OpenBLAS threads %d, lambda1 = lambda2 = %s, "
                    + "target relative gap %s%n", Machine.warmUp().blasThreads(), Reports.fmt(PsdBenchmark.LAMBDA),
                    Reports.fmt(tol));
            System.err.println("    n   d  rank r  iters  s/iter    eigh(r) s  iter/eigh  eigh share  "
                    + "s to gap   status      plain PG: iters, s to gap");
        }
        List<Map<String, Object>> rows = new ArrayList<>();
        PsdBenchmark.Result res = PsdBenchmark.run(o, new BenchProgress("bench psd: "), r -> rows.add(row(r)));
        Map<String, Object> rep = new LinkedHashMap<>();
        rep.put("bench", "psd");
        rep.put("threads", res.threads());
        rep.put("tol", res.tol());
        rep.put("rows", rows);
        Reports.print(rep, json);
        return Main.EXIT_OK;
    }

    private Map<String, Object> row(PsdBenchmark.Row r) {
        PsdBenchmark.Run acc = r.accelerated();
        PsdBenchmark.Run plain = r.plain();
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("n", r.n());
        row.put("d", r.d());
        row.put("rank", r.rank());
        row.put("iterations", acc.iterations());
        row.put("seconds_per_iteration", acc.perIteration());
        row.put("eigh_seconds", r.eighSeconds());
        row.put("iteration_over_eigh", r.iterationOverEigh());
        row.put("eigh_share", acc.eighShare());
        row.put("seconds_to_gap", acc.reached() ? acc.seconds() : null);
        row.put("relative_gap", acc.relGap());
        row.put("status", acc.status());
        if (plain != null) {
            row.put("plain_iterations", plain.iterations());
            row.put("plain_seconds_to_gap", plain.reached() ? plain.seconds() : null);
            row.put("plain_status", plain.status());
            row.put("plain_over_accelerated_time", plain.reached() && acc.reached() ? plain.seconds() / acc.seconds()
                    : null);
        }
        if (!json) {
            System.err.printf(Locale.ROOT, "%5d %3d  %6d  %5d  %8.2e  %8.2e  %9.2f  %9.1f%%  %8.2f   %-10s  %s%n",
                    r.n(), r.d(), r.rank(), acc.iterations(), acc.perIteration(), r.eighSeconds(),
                    r.iterationOverEigh(), 100 * acc.eighShare(), acc.seconds(), acc.status(),
                    plain == null ? "-" : String.format(Locale.ROOT, "%d, %.2f s (%s)", plain.iterations(),
                            plain.seconds(), plain.status()));
        }
        return row;
    }
}
