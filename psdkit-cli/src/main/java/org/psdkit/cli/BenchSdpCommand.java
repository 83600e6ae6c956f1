package org.psdkit.cli;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import org.psdkit.linalg.Linalg;
import org.psdkit.optim.sdp.SdpOptions;
import org.psdkit.optim.sdp.SdpProblem;
import org.psdkit.optim.sdp.SdpResult;
import org.psdkit.optim.sdp.SdpSolver;
import org.psdkit.optim.sdp.SdpaFormat;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code psdkit bench sdp}: every SDPLIB problem of the shared data folder (smallest first), solved by the
 * interior-point method and by a baseline in the same run: the same solver forming the Schur complement densely
 * (G_j = X A_j Z⁻¹ by GEMM for every constraint), or without Mehrotra's corrector. Prints per problem the status,
 * iterations, time, error against the published value and against CSDP 6.2.0 (both |Δ|/max(1, |ref|), as in the data
 * README), and the baseline's time ratio. Times are thread CPU seconds (wall seconds too), so that a loaded machine
 * affects them less.
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

    @Option(names = "--json", description = "Print one JSON object on stdout.")
    boolean json;

    /** One row of the data README's problem table. */
    record Reference(String name, int m, int n, Double published, String expected, Double csdp) {
    }

    @Override
    public Integer call() throws IOException {
        if (maxSize < 1) {
            throw new IllegalArgumentException("--max-size must be >= 1, got " + maxSize);
        }
        if (!(timeLimit > 0)) {
            throw new IllegalArgumentException("--time-limit must be > 0, got " + timeLimit);
        }
        String base = baseline.trim().toLowerCase(Locale.ROOT);
        if (!base.equals("dense") && !base.equals("no-corrector") && !base.equals("none")) {
            throw new IllegalArgumentException("--baseline must be dense, no-corrector or none, got " + baseline);
        }
        Path folder = dir != null ? dir : DataFiles.shared("sdplib/README.md", "--dir").getParent();
        Map<String, Reference> refs = readReferences(folder.resolve("README.md"));
        List<Reference> todo = new ArrayList<>();
        for (Reference r : refs.values()) {
            if (only != null && !only.contains(r.name())) {
                continue;
            }
            if (r.n() > maxSize || r.m() > 2 * maxSize) {
                continue;
            }
            if (!Files.isRegularFile(folder.resolve(r.name() + ".dat-s"))) {
                continue;
            }
            todo.add(r);
        }
        if (only != null) {
            for (String name : only) {
                if (!refs.containsKey(name)) {
                    throw new IllegalArgumentException("--problems: '" + name + "' is not in " + folder.resolve("README.md"));
                }
            }
        }
        todo.sort((a, b) -> Long.compare((long) a.n() * a.n() * a.m(), (long) b.n() * b.n() * b.m()));
        Linalg.warmUp();
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        List<Map<String, Object>> rows = new ArrayList<>();
        System.err.printf(Locale.ROOT, "%-10s %5s %5s  %-18s %4s %8s %8s  %15s %9s %9s %4s  %8s %6s%n", "problem", "m",
                "n", "status", "it", "cpu_s", "wall_s", "objective", "err_pub", "err_csdp", "cert", "base_s", "ratio");
        double sumOurs = 0;
        double sumBase = 0;
        int within = 0;
        int comparable = 0;
        int certifiedCount = 0;
        for (Reference ref : todo) {
            SdpProblem p = SdpaFormat.read(folder.resolve(ref.name() + ".dat-s"));
            SdpOptions o = SdpOptions.defaults().withCpuTimeLimit(timeLimit);
            long c0 = mx.getCurrentThreadCpuTime();
            SdpResult r = SdpSolver.solve(p, o);
            double cpu = (mx.getCurrentThreadCpuTime() - c0) * 1e-9;
            SdpaFormat.SdpaView v = SdpaFormat.sdpaView(r);
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("problem", ref.name());
            row.put("m", ref.m());
            row.put("n", ref.n());
            row.put("status", v.status());
            row.put("iterations", r.iterations());
            row.put("cpu_seconds", cpu);
            row.put("seconds", r.seconds());
            boolean infeasibleCase = ref.published() == null;
            row.put("objective", infeasibleCase ? null : v.objective());
            row.put("relative_gap", r.relativeGap());
            Double errPub = infeasibleCase ? null : relErr(v.objective(), ref.published());
            Double errCsdp = infeasibleCase || ref.csdp() == null ? null : relErr(v.objective(), ref.csdp());
            row.put("published", infeasibleCase ? ref.expected() : ref.published());
            row.put("error_published", errPub);
            row.put("error_csdp", errCsdp);
            if (infeasibleCase) {
                row.put("expected_status", ref.expected());
            }
            boolean certified = !infeasibleCase && certified(r);
            row.put("certified", certified);
            certifiedCount += certified ? 1 : 0;
            if (errCsdp != null) {
                comparable++;
                within += errCsdp <= 1e-6 ? 1 : 0;
            }
            Double baseCpu = null;
            if (!base.equals("none")) {
                SdpOptions ob = base.equals("dense") ? o.withSchur(SdpOptions.SchurMode.DENSE) : o.withCorrector(false);
                long b0 = mx.getCurrentThreadCpuTime();
                SdpResult rb = SdpSolver.solve(p, ob);
                baseCpu = (mx.getCurrentThreadCpuTime() - b0) * 1e-9;
                row.put("baseline_cpu_seconds", baseCpu);
                row.put("baseline_status", SdpaFormat.sdpaView(rb).status());
                row.put("baseline_iterations", rb.iterations());
                row.put("ratio", baseCpu / Math.max(cpu, 1e-9));
                sumOurs += cpu;
                sumBase += baseCpu;
            }
            rows.add(row);
            System.err.printf(Locale.ROOT, "%-10s %5d %5d  %-18s %4d %8.2f %8.2f  %15s %9s %9s %4s  %8s %6s%n",
                    ref.name(), ref.m(), ref.n(), v.status(), r.iterations(), cpu, r.seconds(),
                    infeasibleCase ? ref.expected() : String.format(Locale.ROOT, "%.8g", v.objective()),
                    fmtErr(errPub), fmtErr(errCsdp), infeasibleCase ? "-" : certified ? "yes" : "no",
                    baseCpu == null ? "-" : String.format(Locale.ROOT, "%.2f", baseCpu),
                    baseCpu == null ? "-" : String.format(Locale.ROOT, "%.2f", baseCpu / Math.max(cpu, 1e-9)));
        }
        Map<String, Object> rep = new LinkedHashMap<>();
        rep.put("benchmark", "sdp");
        rep.put("baseline", base);
        rep.put("problems", rows.size());
        rep.put("within_1e-6_of_csdp", within);
        rep.put("compared_with_csdp", comparable);
        rep.put("certified_1e-6", certifiedCount);
        rep.put("total_cpu_seconds", sumOurs);
        if (!base.equals("none")) {
            rep.put("baseline_total_cpu_seconds", sumBase);
            rep.put("total_ratio", sumBase / Math.max(sumOurs, 1e-9));
        }
        if (json) {
            rep.put("rows", rows);
        }
        Reports.print(rep, json);
        return Main.EXIT_OK;
    }

    /**
     * Relative gap at most this (1e-6, the accuracy issue 6 asks of SDPLIB values) and both relative infeasibilities
     * at most {@link #CERTIFIED_INFEASIBILITY}: the returned point then certifies its value without a reference.
     */
    static final double CERTIFIED_GAP = 1e-6;
    /** 1e-7: a tenth of the accuracy asked, so that infeasibility cannot account for a 1e-6 error on well-posed problems. */
    static final double CERTIFIED_INFEASIBILITY = 1e-7;

    static boolean certified(SdpResult r) {
        return r.relativeGap() <= CERTIFIED_GAP && r.primalInfeasibility() <= CERTIFIED_INFEASIBILITY
                && r.dualInfeasibility() <= CERTIFIED_INFEASIBILITY;
    }

    private static Double relErr(double value, double ref) {
        return Math.abs(value - ref) / Math.max(1.0, Math.abs(ref));
    }

    private static String fmtErr(Double e) {
        return e == null ? "-" : String.format(Locale.ROOT, "%.1e", e);
    }

    /** Parses the table "| problem | m | blocks | block sizes | n | bytes | class | published optimum | src | CSDP ...". */
    static Map<String, Reference> readReferences(Path readme) throws IOException {
        if (!Files.isRegularFile(readme)) {
            throw new IllegalArgumentException(readme + ": no such file (the SDPLIB folder needs its README.md table)");
        }
        Map<String, Reference> out = new LinkedHashMap<>();
        try (Stream<String> lines = Files.lines(readme)) {
            for (String line : (Iterable<String>) lines::iterator) {
                if (!line.startsWith("| ")) {
                    continue;
                }
                String[] c = line.split("\\|", -1);
                if (c.length < 12) {
                    continue;
                }
                String name = c[1].trim();
                int m;
                int n;
                try {
                    m = Integer.parseInt(c[2].trim());
                    n = Integer.parseInt(c[5].trim());
                } catch (NumberFormatException e) {
                    continue; // header or separator row
                }
                String pub = c[8].trim();
                Double published = parseLeadingNumber(pub);
                Double csdp = parseLeadingNumber(c[10].trim());
                out.put(name, new Reference(name, m, n, published, published == null ? pub.replace(' ', '_') : null,
                        csdp));
            }
        }
        if (out.isEmpty()) {
            throw new IllegalArgumentException(readme + ": no problem table found");
        }
        return out;
    }

    private static Double parseLeadingNumber(String s) {
        String t = s.split("\\s+")[0];
        try {
            return Double.parseDouble(t);
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
