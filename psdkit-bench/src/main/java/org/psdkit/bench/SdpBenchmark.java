package org.psdkit.bench;

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
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.psdkit.linalg.Linalg;
import org.psdkit.optim.ProgressListener;
import org.psdkit.optim.sdp.SdpOptions;
import org.psdkit.optim.sdp.SdpProblem;
import org.psdkit.optim.sdp.SdpProfile;
import org.psdkit.optim.sdp.SdpResult;
import org.psdkit.optim.sdp.SdpSolver;
import org.psdkit.optim.sdp.SdpaFormat;

/**
 * Every SDPLIB problem of a folder (smallest first), solved by the interior-point method and by a baseline in the
 * same run: the same solver forming the Schur complement densely (G_j = X A_j Z⁻¹ by GEMM for every constraint), or
 * without Mehrotra's corrector. Per problem: the status, iterations, time, error against the published value and
 * against CSDP 6.2.0 (both |Δ|/max(1, |ref|), as in the data README), and the baseline's time ratio. Times are thread
 * CPU seconds (wall seconds too), so that a loaded machine affects them less. Behind {@code psdkit bench sdp}.
 */
public final class SdpBenchmark {
    private SdpBenchmark() {
    }

    /** The baseline solver run on every problem. */
    public enum Baseline {
        /** Dense Schur complement. */
        DENSE("dense"),
        /** No Mehrotra corrector. */
        NO_CORRECTOR("no-corrector"),
        /** No baseline. */
        NONE("none");

        private final String label;

        Baseline(String label) {
            this.label = label;
        }

        /** {@code dense}, {@code no-corrector} or {@code none}. */
        public String label() {
            return label;
        }

        /** The baseline named {@code s} (case and surrounding blanks ignored). */
        public static Baseline parse(String s) {
            String t = s == null ? "" : s.trim().toLowerCase(Locale.ROOT);
            for (Baseline b : values()) {
                if (b.label.equals(t)) {
                    return b;
                }
            }
            throw new IllegalArgumentException("baseline must be dense, no-corrector or none, got " + s);
        }
    }

    /** One row of the data README's problem table; {@code published} null and {@code expected} set for an infeasible case. */
    public record Reference(String name, int m, int n, Double published, String expected, Double csdp) {
    }

    /**
     * Options of one run.
     *
     * @param dir       folder with the {@code .dat-s} files and the README.md table
     * @param maxSize   skip problems with n = sum of block sizes &gt; maxSize or m &gt; 2 maxSize
     * @param timeLimit time limit per solve in CPU seconds of the solving thread
     * @param baseline  the baseline
     * @param problems  only these problems (null: all)
     * @param warmups   untimed solves of each problem before the timed ones
     * @param repeats   timed solves of each problem; the row reports their mean wall and mean CPU time (GC pauses and
     *                  other rare costs are then spread over the solves, as when averaging a peer's repeated runs)
     * @param doubleDouble whether psdkit's solves may restart in double-double ({@link SdpOptions#doubleDouble});
     *                  false times the double-precision run alone: the work of a solver without that end-game
     *                  (CSDP), whose answers on the problems that need it are not certified either
     */
    public record Options(Path dir, int maxSize, double timeLimit, Baseline baseline, List<String> problems,
                          int warmups, int repeats, boolean doubleDouble) {
        /** Repeated timed solves, the double-double restart allowed. */
        public Options(Path dir, int maxSize, double timeLimit, Baseline baseline, List<String> problems,
                       int warmups, int repeats) {
            this(dir, maxSize, timeLimit, baseline, problems, warmups, repeats, true);
        }

        /** Without warm-up solves: every problem is solved once, timed. */
        public Options(Path dir, int maxSize, double timeLimit, Baseline baseline, List<String> problems) {
            this(dir, maxSize, timeLimit, baseline, problems, 0, 1);
        }

        public Options {
            if (warmups < 0) {
                throw new IllegalArgumentException("warmups must be >= 0, got " + warmups);
            }
            if (repeats < 1) {
                throw new IllegalArgumentException("repeats must be >= 1, got " + repeats);
            }
            if (dir == null) {
                throw new IllegalArgumentException("dir must not be null");
            }
            if (maxSize < 1) {
                throw new IllegalArgumentException("maxSize must be >= 1, got " + maxSize);
            }
            if (!(timeLimit > 0)) {
                throw new IllegalArgumentException("timeLimit must be > 0, got " + timeLimit);
            }
            if (baseline == null) {
                throw new IllegalArgumentException("baseline must not be null");
            }
            problems = problems == null ? null : List.copyOf(problems);
        }
    }

    /** The baseline's solve of one problem. */
    public record BaselineRun(double cpuSeconds, String status, int iterations) {
    }

    /**
     * One problem.
     *
     * @param reference      its README row
     * @param status         SDPA status of the solve
     * @param iterations     interior-point iterations
     * @param cpuSeconds     thread CPU seconds
     * @param seconds        wall seconds reported by the solver
     * @param objective      objective in SDPA conventions
     * @param relativeGap    relative duality gap reached
     * @param errorPublished |Δ|/max(1, |published|), null for an infeasible case
     * @param errorCsdp      |Δ|/max(1, |CSDP|), null for an infeasible case or without a CSDP value
     * @param certified      whether the returned point certifies its value ({@link #certified(SdpResult)})
     * @param baseline       the baseline's solve, null without a baseline
     * @param profile        where the solve's wall time went (Schur assembly, its factorisation, step, other,
     *                       double-double restart)
     */
    public record Row(Reference reference, String status, int iterations, double cpuSeconds, double seconds,
                      double objective, double relativeGap, Double errorPublished, Double errorCsdp,
                      boolean certified, BaselineRun baseline, SdpProfile profile) {
        /** Whether the problem is an infeasible case (no published optimum). */
        public boolean infeasibleCase() {
            return reference.published() == null;
        }

        /** Baseline CPU seconds over ours (NaN without a baseline). */
        public double ratio() {
            return baseline == null ? Double.NaN : baseline.cpuSeconds() / Math.max(cpuSeconds, 1e-9);
        }
    }

    /**
     * The rows and the totals.
     *
     * @param baseline                the baseline
     * @param rows                    one row per problem solved
     * @param withinCsdp              problems within 1e-6 of CSDP
     * @param comparedWithCsdp        problems with a CSDP value
     * @param certified               problems whose value is certified
     * @param totalCpuSeconds         our CPU seconds summed over the problems that also ran the baseline (0 without one)
     * @param baselineTotalCpuSeconds the baseline's CPU seconds summed over the problems
     */
    public record Result(Baseline baseline, List<Row> rows, int withinCsdp, int comparedWithCsdp, int certified,
                         double totalCpuSeconds, double baselineTotalCpuSeconds) {
        public Result {
            rows = List.copyOf(rows);
        }

        /** Baseline total over ours. */
        public double totalRatio() {
            return baselineTotalCpuSeconds / Math.max(totalCpuSeconds, 1e-9);
        }
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

    /** The problems of the folder that a run with these options solves, smallest n²·m first. */
    public static List<Reference> problems(Options o) throws IOException {
        Path folder = o.dir();
        Map<String, Reference> refs = readReferences(folder.resolve("README.md"));
        List<Reference> todo = new ArrayList<>();
        for (Reference r : refs.values()) {
            if (o.problems() != null && !o.problems().contains(r.name())) {
                continue;
            }
            if (r.n() > o.maxSize() || r.m() > 2 * o.maxSize()) {
                continue;
            }
            if (!Files.isRegularFile(folder.resolve(r.name() + ".dat-s"))) {
                continue;
            }
            todo.add(r);
        }
        if (o.problems() != null) {
            for (String name : o.problems()) {
                if (!refs.containsKey(name)) {
                    throw new IllegalArgumentException("problems: '" + name + "' is not in " + folder.resolve("README.md"));
                }
            }
        }
        todo.sort((a, b) -> Long.compare((long) a.n() * a.n() * a.m(), (long) b.n() * b.n() * b.m()));
        return todo;
    }

    /** Runs the benchmark; {@code listener} gets one report per solve (may be null). */
    public static Result run(Options options, ProgressListener listener) throws IOException {
        return run(options, listener, null);
    }

    /** Runs the benchmark and hands each row to {@code onRow} as soon as it is measured (may be null). */
    public static Result run(Options o, ProgressListener listener, Consumer<? super Row> onRow) throws IOException {
        List<Reference> todo = problems(o);
        Baseline base = o.baseline();
        Phases phases = new Phases(listener, (long) todo.size() * (base == Baseline.NONE ? 1 : 2));
        Linalg.warmUp();
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        List<Row> rows = new ArrayList<>();
        double sumOurs = 0;
        double sumBase = 0;
        int within = 0;
        int comparable = 0;
        int certifiedCount = 0;
        for (Reference ref : todo) {
            phases.start(ref.name());
            SdpProblem p = SdpaFormat.read(o.dir().resolve(ref.name() + ".dat-s"));
            SdpOptions so = SdpOptions.defaults().withCpuTimeLimit(o.timeLimit()).withDoubleDouble(o.doubleDouble());
            // untimed solves first (the JIT's steady state: a problem of a few milliseconds is otherwise timed
            // mostly in the interpreter and the first compilation tiers)
            for (int w = 0; w < o.warmups(); w++) {
                SdpSolver.solve(p, so);
            }
            // the solver is deterministic, so every timed solve returns the same point; the times are means
            double[] cpus = new double[o.repeats()];
            double[] walls = new double[o.repeats()];
            SdpResult r = null;
            for (int k = 0; k < o.repeats(); k++) {
                long c0 = mx.getCurrentThreadCpuTime();
                r = SdpSolver.solve(p, so);
                cpus[k] = (mx.getCurrentThreadCpuTime() - c0) * 1e-9;
                walls[k] = r.seconds();
            }
            double cpu = mean(cpus);
            double wall = mean(walls);
            phases.end();
            SdpaFormat.SdpaView v = SdpaFormat.sdpaView(r);
            boolean infeasibleCase = ref.published() == null;
            Double errPub = infeasibleCase ? null : relErr(v.objective(), ref.published());
            Double errCsdp = infeasibleCase || ref.csdp() == null ? null : relErr(v.objective(), ref.csdp());
            boolean certified = !infeasibleCase && certified(r);
            certifiedCount += certified ? 1 : 0;
            if (errCsdp != null) {
                comparable++;
                within += errCsdp <= 1e-6 ? 1 : 0;
            }
            BaselineRun baseRun = null;
            if (base != Baseline.NONE) {
                phases.start(ref.name() + ": baseline " + base.label());
                SdpOptions ob = base == Baseline.DENSE ? so.withSchur(SdpOptions.SchurMode.DENSE)
                        : so.withCorrector(false);
                long b0 = mx.getCurrentThreadCpuTime();
                SdpResult rb = SdpSolver.solve(p, ob);
                double baseCpu = (mx.getCurrentThreadCpuTime() - b0) * 1e-9;
                phases.end();
                baseRun = new BaselineRun(baseCpu, SdpaFormat.sdpaView(rb).status(), rb.iterations());
                sumOurs += cpu;
                sumBase += baseCpu;
            }
            Row row = new Row(ref, v.status(), r.iterations(), cpu, wall, v.objective(), r.relativeGap(),
                    errPub, errCsdp, certified, baseRun, r.profile());
            rows.add(row);
            if (onRow != null) {
                onRow.accept(row);
            }
        }
        return new Result(base, rows, within, comparable, certifiedCount, sumOurs, sumBase);
    }

    static double mean(double[] values) {
        double s = 0;
        for (double v : values) {
            s += v;
        }
        return s / values.length;
    }

    private static Double relErr(double value, double ref) {
        return Math.abs(value - ref) / Math.max(1.0, Math.abs(ref));
    }

    /** Parses the table "| problem | m | blocks | block sizes | n | bytes | class | published optimum | src | CSDP ...". */
    public static Map<String, Reference> readReferences(Path readme) throws IOException {
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
