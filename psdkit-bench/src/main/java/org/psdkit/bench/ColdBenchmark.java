package org.psdkit.bench;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.function.Consumer;
import org.psdkit.data.Dataset;
import org.psdkit.linalg.Matrix;

/**
 * Commands timed as whole processes, as a user at the terminal times them: psdkit's command line ({@code bin/psdkit
 * fit …}, {@code predict}, {@code sdp solve}) against the peer that does the same work (a scikit-learn 1.2.1 script,
 * {@code psdkit-bench/scripts/cold_peers.py}, or CSDP), each run from start to exit with {@link ProcessBuilder}, on
 * the same generated CSV files. Every case runs {@code repeats} times, psdkit and peer alternating (psdkit first in odd
 * rounds, the peer first in even ones) and the rounds going through all cases before the next round starts, so that a
 * change of machine load hits both sides; the best time of each side is reported with their ratio.
 *
 * <p>A peer that cannot run (no {@code python3} with scikit-learn, no {@code csdp}, no script) leaves its column empty
 * with the reason; a command that fails (non-zero exit) is reported with its exit status and log file. The runs'
 * output goes to log files in {@link Options#dir}.
 */
public final class ColdBenchmark {
    private ColdBenchmark() {
    }

    /** Every case, in the order of the table. */
    public static final List<String> CASES = List.of("version", "krr-100", "svm-5000", "svm-50000", "krr-5000",
            "krr-10000", "predict-svm", "predict-krr", "nystrom-200000", "density-300", "sdp");

    /** The cases of a run without {@code --cases}: the ones that take seconds, not minutes. */
    public static final List<String> DEFAULT_CASES = List.of("version", "krr-100", "svm-5000", "krr-5000",
            "predict-svm", "predict-krr", "density-300");

    /** The SDPLIB problems of case {@code sdp} (issue 33's list). */
    public static final List<String> DEFAULT_SDP = List.of("arch0", "control5", "theta3", "mcp500-1", "gpp250-1",
            "ss30", "maxG11", "qap9", "hinf13");

    /**
     * SDPLIB problems whose CSDP answer fails the 1e-6 certificate: psdkit solves them with {@code
     * --no-double-double} (the double-precision run alone, the work CSDP does), so that both sides stop at the same
     * accuracy.
     */
    public static final List<String> NO_DOUBLE_DOUBLE = List.of("qap6", "qap7", "qap8", "qap9", "qap10", "hinf13",
            "hinf14", "hinf15");

    /**
     * The data files a run may generate in {@link Options#dir}. A file already there from an earlier run (recorded by
     * {@link GeneratedFiles} and unchanged) is used again: its content depends on nothing but its name.
     */
    static final List<String> GENERATED = List.of("krr-100.csv", "svm-5000.csv", "svm-50000.csv", "svm-test.csv",
            "cal-5000.csv", "cal-10000.csv", "cal-test.csv", "nys-200000.csv", "density-300.csv");

    /** Gaussian σ of the SVM cases: σ = √5, i.e. scikit-learn's gamma = 1/(2σ²) = 0.1 (as {@code bench svm}). */
    static final double SVM_SIGMA = Math.sqrt(5);
    static final double SVM_C = 10;
    /** KRR cases: σ = 1 (gamma 0.5), λ = alpha = 0.01 (as {@code bench krr}). */
    static final double KRR_SIGMA = 1;
    static final double KRR_LAMBDA = 0.01;
    /**
     * Nyström case: σ = 2 (gamma 0.125), λ = 1. psdkit's Nyström KRR minimises ‖y − K_nm α‖² + λ αᵀK_mm α with λ
     * unscaled; Nystroem features Φ = K_nm K_mm^{-1/2} and Ridge(alpha) minimise ‖y − Φw‖² + alpha ‖w‖², the same
     * problem with w = K_mm^{1/2} α, so alpha = λ (uniform anchors on both sides, no intercept).
     */
    static final double NYSTROM_SIGMA = 2;
    static final double NYSTROM_LAMBDA = 1;
    static final int NYSTROM_ANCHORS = 2000;

    /**
     * Settings of a run.
     *
     * @param dir        folder for the generated files, models, predictions and logs
     * @param psdkit     the command that starts psdkit ({@code [".../bin/psdkit"]} or {@code ["java", "-jar", …]})
     * @param python     the Python interpreter with scikit-learn ({@code /usr/bin/python3})
     * @param peerScript {@code cold_peers.py}, or null when not found
     * @param csdp       the CSDP executable, or null when not found
     * @param sdplib     folder of SDPLIB's {@code .dat-s} files, or null
     * @param california California housing CSV (cases krr-5000, krr-10000, predict-krr), or null
     * @param cases      case ids ({@link #CASES})
     * @param sdp        SDPLIB problems of case {@code sdp}
     * @param repeats    rounds (best of)
     * @param peerEnv    environment variables set for the peers only
     * @param log        progress lines
     */
    public record Options(Path dir, List<String> psdkit, String python, Path peerScript, String csdp, Path sdplib,
                          Path california, List<String> cases, List<String> sdp, int repeats,
                          Map<String, String> peerEnv, Consumer<String> log) {
        public Options {
            for (String c : cases) {
                if (!CASES.contains(c)) {
                    throw new IllegalArgumentException("--cases: unknown case '" + c + "'; known: "
                            + String.join(", ", CASES));
                }
            }
            if (repeats < 1) {
                throw new IllegalArgumentException("--repeats must be >= 1, got " + repeats);
            }
            cases = List.copyOf(cases);
            sdp = List.copyOf(sdp);
            psdkit = List.copyOf(psdkit);
            peerEnv = Map.copyOf(peerEnv);
        }
    }

    /**
     * One row of the table.
     *
     * @param id       the case ({@code svm-5000}, {@code sdp-arch0})
     * @param command  psdkit's command, as a user types it (paths relative to the run's folder)
     * @param peer     the peer's name, or null when the case has none
     * @param psdkit   psdkit's best wall seconds, NaN when it failed
     * @param peerTime the peer's best wall seconds, NaN when it has none, is missing or failed
     * @param target   the target for the ratio or psdkit's time, or "" when none
     * @param note     why a column is empty, or ""
     * @param psdkitCpu psdkit's least CPU seconds (user + system, all threads), NaN when not measured
     * @param peerCpu  the peer's least CPU seconds, NaN when not measured
     */
    public record Row(String id, String command, String peer, double psdkit, double peerTime, String target,
                      String note, double psdkitCpu, double peerCpu) {
        /** psdkit / peer, NaN without both. */
        public double ratio() {
            return psdkit / peerTime;
        }

        /** The row as a report map. */
        public Map<String, Object> toMap() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("case", id);
            m.put("command", command);
            m.put("peer", peer);
            m.put("psdkitSeconds", finite(psdkit));
            m.put("peerSeconds", finite(peerTime));
            m.put("ratio", finite(ratio()));
            m.put("psdkitCpuSeconds", finite(psdkitCpu));
            m.put("peerCpuSeconds", finite(peerCpu));
            m.put("target", target);
            m.put("note", note);
            return m;
        }
    }

    private static Double finite(double v) {
        return Double.isFinite(v) ? v : null;
    }

    /**
     * The outcome.
     *
     * @param loadBefore {@code /proc/loadavg} before the first run ("" where there is none)
     * @param loadAfter  the same after the last
     * @param rows       one per case (one per problem for {@code sdp})
     */
    public record Result(String loadBefore, String loadAfter, List<Row> rows) {
    }

    /**
     * A command line of one side: arguments, the setup that must have run once before it is timed, and the largest
     * exit status that still means a finished run ({@code 0} for every command but CSDP's).
     */
    private record Side(List<String> command, List<List<String>> setup, String missing, int lastGoodExit) {
        Side(List<String> command, List<List<String>> setup, String missing) {
            this(command, setup, missing, 0);
        }
    }

    /**
     * CSDP's exit statuses that end a solve (CSDP user's guide, "return codes"): 0 success, 1 primal infeasible,
     * 2 dual infeasible, 3 partial success (a solution at reduced accuracy). 4 and above are failures (iteration
     * limit, stuck, numerical trouble).
     */
    static final int CSDP_LAST_GOOD_EXIT = 3;

    private record Case(String id, String shown, String peerName, Side psdkit, Side peer, String target) {
    }

    /** Runs the cases and returns the table. */
    public static Result run(Options o) {
        try {
            Files.createDirectories(o.dir());
        } catch (IOException e) {
            throw new IllegalArgumentException("--dir " + o.dir() + ": cannot create (" + e.getMessage() + ")");
        }
        GeneratedFiles.requireReplaceable(o.dir(), GENERATED, "--dir");
        String sklearn = sklearnMissing(o);
        List<Case> cases = new ArrayList<>();
        for (String id : o.cases()) {
            cases.addAll(cases(id, o, sklearn));
        }
        String before = loadAverage();
        Map<String, double[]> best = new LinkedHashMap<>();
        Map<String, String> failed = new LinkedHashMap<>();
        Map<String, String> exits = new LinkedHashMap<>();
        for (Case c : cases) {
            best.put(c.id(), new double[] {Double.POSITIVE_INFINITY, Double.POSITIVE_INFINITY,
                Double.POSITIVE_INFINITY, Double.POSITIVE_INFINITY});
            runSetup(c.psdkit(), o, c.id(), failed, "psdkit");
            runSetup(c.peer(), o, c.id(), failed, "peer");
        }
        for (int round = 1; round <= o.repeats(); round++) {
            for (Case c : cases) {
                for (int k = 0; k < 2; k++) {
                    int side = round % 2 == 1 ? k : 1 - k; // psdkit first in odd rounds, the peer in even ones
                    Side s = side == 0 ? c.psdkit() : c.peer();
                    String key = c.id() + (side == 0 ? "/psdkit" : "/peer");
                    if (s == null || s.missing() != null || failed.containsKey(key)) {
                        continue;
                    }
                    Path logFile = o.dir().resolve("log-" + c.id() + (side == 0 ? "-psdkit" : "-peer") + ".txt");
                    double[] cpu = new double[1];
                    int[] exit = new int[1];
                    double t = time(s.command(), side == 1 ? o.peerEnv() : Map.of(), o.dir(), logFile, cpu, exit);
                    if (t >= 0 && exit[0] != 0) {
                        exits.put(key, "exit " + exit[0]);
                    }
                    if (t < 0 || exit[0] > s.lastGoodExit()) {
                        failed.put(key, "exit " + (t < 0 && exit[0] == 0 ? (int) -t : exit[0]) + ", see " + logFile);
                        t = -1;
                    } else {
                        double[] b = best.get(c.id());
                        b[side] = Math.min(b[side], t);
                        b[2 + side] = Math.min(b[2 + side], cpu[0]);
                    }
                    o.log().accept(String.format(Locale.ROOT, "round %d %-16s %-6s %s", round, c.id(),
                            side == 0 ? "psdkit" : "peer", t < 0 ? "failed (" + failed.get(key) + ")"
                                    : String.format(Locale.ROOT, "%.3f s (CPU %.3f s)", t, cpu[0])));
                }
            }
        }
        String after = loadAverage();
        List<Row> rows = new ArrayList<>();
        for (Case c : cases) {
            double[] b = best.get(c.id());
            List<String> notes = new ArrayList<>();
            String pf = failed.get(c.id() + "/psdkit");
            if (pf != null) {
                notes.add("psdkit failed: " + pf);
            }
            if (c.peer() != null) {
                if (c.peer().missing() != null) {
                    notes.add("peer missing: " + c.peer().missing());
                } else if (failed.containsKey(c.id() + "/peer")) {
                    notes.add("peer failed: " + failed.get(c.id() + "/peer"));
                } else if (exits.containsKey(c.id() + "/peer")) {
                    notes.add(c.peerName() + " " + exits.get(c.id() + "/peer")
                            + (c.peerName().equals("CSDP") ? " (" + csdpStatus(exits.get(c.id() + "/peer")) + ")"
                                    : ""));
                }
            }
            rows.add(new Row(c.id(), c.shown(), c.peerName(), Double.isFinite(b[0]) ? b[0] : Double.NaN,
                    Double.isFinite(b[1]) ? b[1] : Double.NaN, c.target(), String.join("; ", notes),
                    Double.isFinite(b[2]) ? b[2] : Double.NaN, Double.isFinite(b[3]) ? b[3] : Double.NaN));
        }
        return new Result(before, after, rows);
    }

    private static void runSetup(Side s, Options o, String id, Map<String, String> failed, String side) {
        if (s == null || s.missing() != null) {
            return;
        }
        for (List<String> cmd : s.setup()) {
            Path logFile = o.dir().resolve("log-" + id + "-" + side + "-setup.txt");
            o.log().accept("setup " + id + " " + side + ": " + String.join(" ", cmd));
            if (time(cmd, side.equals("peer") ? o.peerEnv() : Map.of(), o.dir(), logFile, new double[1]) < 0) {
                failed.put(id + "/" + side, "setup failed, see " + logFile);
                return;
            }
        }
    }

    /**
     * Runs one process to its end; wall seconds (from {@link ProcessBuilder#start} to its exit), or minus the exit
     * status when it failed. With {@link #TIME} present the process runs under it, and {@code cpu[0]} receives its
     * user + system seconds (all threads, children included; NaN otherwise): a figure that machine load inflates far
     * less than wall time.
     */
    static double time(List<String> command, Map<String, String> env, Path dir, Path logFile, double[] cpu) {
        int[] exit = new int[1];
        double t = time(command, env, dir, logFile, cpu, exit);
        return t >= 0 && exit[0] != 0 ? -exit[0] : t;
    }

    /** The meaning of a CSDP exit status {@code "exit N"} (see {@link #CSDP_LAST_GOOD_EXIT}). */
    static String csdpStatus(String exit) {
        return switch (exit) {
            case "exit 1" -> "primal infeasible";
            case "exit 2" -> "dual infeasible";
            case "exit 3" -> "partial success: solved at reduced accuracy";
            default -> "failure";
        };
    }

    /**
     * As {@link #time(List, Map, Path, Path, double[])}, but a process that ran to its end returns its wall seconds
     * whatever its exit status, which goes to {@code exit[0]}; minus a status only when it could not start (-127).
     */
    static double time(List<String> command, Map<String, String> env, Path dir, Path logFile, double[] cpu,
                       int[] exit) {
        exit[0] = 0;
        cpu[0] = Double.NaN;
        List<String> cmd = command;
        Path cpuFile = null;
        if (Files.isExecutable(TIME)) {
            cpuFile = logFile.resolveSibling(logFile.getFileName() + ".time");
            cmd = new ArrayList<>(List.of(TIME.toString(), "-o", cpuFile.toString(), "-f", "%U %S"));
            cmd.addAll(command);
        }
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(logFile.toFile());
        pb.environment().putAll(env);
        try {
            long t0 = System.nanoTime();
            Process p = pb.start();
            exit[0] = p.waitFor();
            double t = (System.nanoTime() - t0) * 1e-9;
            if (cpuFile != null) {
                cpu[0] = cpuSeconds(cpuFile);
            }
            return t;
        } catch (IOException e) {
            try {
                Files.writeString(logFile, "cannot start " + command + ": " + e.getMessage() + "\n");
            } catch (IOException ignored) {
                // the failure is reported in the table either way
            }
            return -127;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /** GNU time, which reports a finished child's CPU time. */
    static final Path TIME = Path.of("/usr/bin/time");

    /** The "user system" seconds GNU time wrote (its last line), NaN when unreadable. */
    private static double cpuSeconds(Path file) {
        try {
            List<String> lines = Files.readAllLines(file);
            String[] f = lines.isEmpty() ? new String[0] : lines.get(lines.size() - 1).trim().split("\\s+");
            return f.length == 2 ? Double.parseDouble(f[0]) + Double.parseDouble(f[1]) : Double.NaN;
        } catch (IOException | NumberFormatException e) {
            return Double.NaN;
        }
    }

    /** Why the scikit-learn peers cannot run, or null when they can. */
    private static String sklearnMissing(Options o) {
        if (o.peerScript() == null) {
            return "cold_peers.py not found (give --peer-script)";
        }
        if (!o.cases().stream().anyMatch(c -> !c.equals("version") && !c.equals("sdp"))) {
            return null;
        }
        Path logFile = o.dir().resolve("log-sklearn-check.txt");
        double t = time(List.of(o.python(), "-c", "import sklearn"), o.peerEnv(), o.dir(), logFile, new double[1]);
        return t < 0 ? o.python() + " cannot import sklearn (see " + logFile + ")" : null;
    }

    // ------------------------------------------------------------------------------------------------- the cases

    private static List<Case> cases(String id, Options o, String sklearn) {
        Path dir = o.dir();
        String svmSigma = "gaussian(sigma=" + SVM_SIGMA + ")";
        String svmGamma = Double.toString(1 / (2 * SVM_SIGMA * SVM_SIGMA));
        String krrKernel = "gaussian(sigma=" + KRR_SIGMA + ")";
        String krrGamma = Double.toString(1 / (2 * KRR_SIGMA * KRR_SIGMA));
        switch (id) {
            case "version":
                return List.of(new Case(id, "psdkit --version", null, side(o, List.of("--version")), null,
                        "<= 0.25 s"));
            case "krr-100": {
                writeOnce(dir, "krr-100.csv", () -> regression(100, 3, 1));
                return List.of(krrFit(id, o, sklearn, "krr-100.csv", krrKernel, krrGamma, "<= 0.5 s"));
            }
            case "svm-5000":
            case "svm-50000": {
                int n = Integer.parseInt(id.substring(4));
                svmFiles(dir, n);
                return List.of(svmFit(id, o, sklearn, n, svmSigma, svmGamma, n == 5000 ? "<= 1.0x" : "<= 0.9x"));
            }
            case "krr-5000":
            case "krr-10000": {
                int n = Integer.parseInt(id.substring(4));
                californiaFiles(o);
                return List.of(krrFit(id, o, sklearn, "cal-" + n + ".csv", krrKernel, krrGamma, "<= 0.8x"));
            }
            case "predict-svm": {
                svmFiles(dir, 5000);
                Case fit = svmFit("svm-5000", o, sklearn, 5000, svmSigma, svmGamma, "");
                return List.of(predict(id, o, sklearn, fit, "svm-5000", "svm-test.csv"));
            }
            case "predict-krr": {
                californiaFiles(o);
                Case fit = krrFit("krr-5000", o, sklearn, "cal-5000.csv", krrKernel, krrGamma, "");
                return List.of(predict(id, o, sklearn, fit, "krr-5000", "cal-test.csv"));
            }
            case "nystrom-200000": {
                writeOnce(dir, "nys-200000.csv", () -> regression(200_000, 8, 3));
                String k = "gaussian(sigma=" + NYSTROM_SIGMA + ")";
                List<String> args = List.of("fit", "krr", "--train", "nys-200000.csv", "--out", "model-" + id + ".json",
                        "--scale", "none", "--kernel", k, "--lambda", fmt(NYSTROM_LAMBDA), "--anchors",
                        Integer.toString(NYSTROM_ANCHORS), "--seed", "1");
                Side peer = peer(o, sklearn, List.of("nystroem-fit", "nys-200000.csv", "model-" + id + ".pkl",
                        fmt(NYSTROM_LAMBDA), Double.toString(1 / (2 * NYSTROM_SIGMA * NYSTROM_SIGMA)),
                        Integer.toString(NYSTROM_ANCHORS), "1"), List.of());
                return List.of(new Case(id, shown(args), "Nystroem+Ridge", side(o, args), peer, "<= 0.5x"));
            }
            case "density-300": {
                writeOnce(dir, "density-300.csv", () -> density(300, 4));
                List<String> args = List.of("fit", "density", "--no-target", "--train", "density-300.csv", "--out",
                        "model-" + id + ".json");
                Side peer = peer(o, sklearn, List.of("ocsvm-fit", "density-300.csv", "model-" + id + ".pkl", "0.5",
                        "0.5"), List.of());
                return List.of(new Case(id, shown(args), "OneClassSVM", side(o, args), peer, "<= 1.0 s"));
            }
            case "sdp": {
                List<Case> out = new ArrayList<>();
                for (String p : o.sdp()) {
                    Path file = o.sdplib() == null ? null : o.sdplib().resolve(p + ".dat-s");
                    String missing = file == null ? "no SDPLIB folder (give --sdplib)"
                            : !Files.isRegularFile(file) ? file + " not found" : null;
                    List<String> args = new ArrayList<>(List.of("sdp", "solve", file == null ? p + ".dat-s"
                            : file.toString()));
                    if (NO_DOUBLE_DOUBLE.contains(p)) {
                        args.add("--no-double-double");
                    }
                    Side ours = missing == null ? side(o, args) : new Side(List.of(), List.of(), missing);
                    Side peer = missing != null ? new Side(List.of(), List.of(), missing)
                            : o.csdp() == null ? new Side(List.of(), List.of(), "csdp not found on PATH")
                            : new Side(List.of(o.csdp(), file.toString()), List.of(), null, CSDP_LAST_GOOD_EXIT);
                    out.add(new Case("sdp-" + p, shown(args), "CSDP", ours, peer, "median <= 2x (CSDP >= 1 s)"));
                }
                return out;
            }
            default:
                throw new IllegalArgumentException("--cases: unknown case '" + id + "'");
        }
    }

    private static Case svmFit(String id, Options o, String sklearn, int n, String kernel, String gamma,
                               String target) {
        List<String> args = List.of("fit", "svm", "--train", "svm-" + n + ".csv", "--out", "model-" + id + ".json",
                "--scale", "none", "--kernel", kernel, "-C", fmt(SVM_C));
        Side peer = peer(o, sklearn, List.of("svm-fit", "svm-" + n + ".csv", "model-" + id + ".pkl", fmt(SVM_C),
                gamma), List.of());
        return new Case(id, shown(args), "SVC", side(o, args), peer, target);
    }

    private static Case krrFit(String id, Options o, String sklearn, String file, String kernel, String gamma,
                               String target) {
        List<String> args = List.of("fit", "krr", "--train", file, "--out", "model-" + id + ".json", "--scale", "none",
                "--kernel", kernel, "--lambda", fmt(KRR_LAMBDA));
        Side peer = peer(o, sklearn, List.of("krr-fit", file, "model-" + id + ".pkl", fmt(KRR_LAMBDA), gamma),
                List.of());
        return new Case(id, shown(args), "KernelRidge", side(o, args), peer, target);
    }

    /** Predicting with the model of {@code fit} (made once before the timed rounds when missing). */
    private static Case predict(String id, Options o, String sklearn, Case fit, String model, String data) {
        List<String> args = List.of("predict", "--model", "model-" + model + ".json", "--data", data, "--out",
                "pred-" + id + ".csv");
        Side ours = new Side(command(o, args), List.of(fit.psdkit().command()), null);
        Side peer = fit.peer().missing() != null ? fit.peer()
                : new Side(peerCommand(o, List.of("predict", "model-" + model + ".pkl", data, "pred-" + id + "-peer.csv")),
                        List.of(fit.peer().command()), null);
        return new Case(id, shown(args), fit.peerName(), ours, peer, "<= 0.5x");
    }

    private static Side side(Options o, List<String> args) {
        return new Side(command(o, args), List.of(), null);
    }

    private static List<String> command(Options o, List<String> args) {
        List<String> c = new ArrayList<>(o.psdkit());
        c.addAll(args);
        return c;
    }

    private static Side peer(Options o, String sklearn, List<String> args, List<List<String>> setup) {
        if (sklearn != null) {
            return new Side(List.of(), List.of(), sklearn);
        }
        return new Side(peerCommand(o, args), setup, null);
    }

    private static List<String> peerCommand(Options o, List<String> args) {
        List<String> c = new ArrayList<>(List.of(o.python(), o.peerScript().toString()));
        c.addAll(args);
        return c;
    }

    private static String shown(List<String> args) {
        return "psdkit " + String.join(" ", args);
    }

    private static String fmt(double v) {
        return v == Math.rint(v) && Math.abs(v) < 1e9 ? Long.toString((long) v) : Double.toString(v);
    }

    // ------------------------------------------------------------------------------------------------- the data

    /** n rows of d features N(0, 1) and y = sin(x₁) + x₂x₃/2 + 0.1 ε (d ≥ 3), seeded. */
    static String regression(int n, int d, long seed) {
        Random r = new Random(seed);
        StringBuilder sb = new StringBuilder(n * d * 22);
        for (int j = 0; j < d; j++) {
            sb.append('x').append(j + 1).append(',');
        }
        sb.append("y\n");
        double[] x = new double[d];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < d; j++) {
                x[j] = r.nextGaussian();
                sb.append(x[j]).append(',');
            }
            sb.append(Math.sin(x[0]) + 0.5 * x[1] * x[2] + 0.1 * r.nextGaussian()).append('\n');
        }
        return sb.toString();
    }

    /** n points in 2-D from two Gaussian blobs, seeded; header {@code x1,x2}. */
    static String density(int n, long seed) {
        Random r = new Random(seed);
        StringBuilder sb = new StringBuilder("x1,x2\n");
        for (int i = 0; i < n; i++) {
            boolean a = r.nextBoolean();
            double cx = a ? -1 : 1.5;
            double s = a ? 0.5 : 0.3;
            sb.append(cx + s * r.nextGaussian()).append(',').append(s * r.nextGaussian()).append('\n');
        }
        return sb.toString();
    }

    /** {@code svm-N.csv} ({@link SvmBenchmark#data}, seed 1) and {@code svm-test.csv} (5,000 rows, seed 2). */
    private static void svmFiles(Path dir, int n) {
        writeOnce(dir, "svm-" + n + ".csv", () -> csv(SvmBenchmark.data(n, 10, 1), true));
        writeOnce(dir, "svm-test.csv", () -> csv(SvmBenchmark.data(5000, 10, 2), true));
    }

    /**
     * California housing, rows permuted (seed 1) and every column but the target z-scored over all rows:
     * {@code cal-5000.csv} and {@code cal-10000.csv} (the first n rows) and {@code cal-test.csv} (the 5,000 after
     * the first 10,000).
     */
    private static void californiaFiles(Options o) {
        Path dir = o.dir();
        if (Files.isRegularFile(dir.resolve("cal-5000.csv")) && Files.isRegularFile(dir.resolve("cal-10000.csv"))
                && Files.isRegularFile(dir.resolve("cal-test.csv"))) {
            return;
        }
        if (o.california() == null) {
            throw new IllegalArgumentException("--california: the California housing CSV is needed by cases "
                    + "krr-5000, krr-10000 and predict-krr");
        }
        Dataset all = org.psdkit.data.CsvReader.read(o.california(), org.psdkit.data.CsvReader.Options.regression());
        int n = all.n();
        int d = all.d();
        if (n < 15000) {
            throw new IllegalArgumentException("--california " + o.california() + ": needs at least 15000 rows, has "
                    + n);
        }
        int[] perm = new int[n];
        for (int i = 0; i < n; i++) {
            perm[i] = i;
        }
        Random r = new Random(1);
        for (int i = n - 1; i > 0; i--) {
            int j = r.nextInt(i + 1);
            int t = perm[i];
            perm[i] = perm[j];
            perm[j] = t;
        }
        Matrix x = Matrix.zeros(n, d);
        double[] y = new double[n];
        for (int j = 0; j < d; j++) {
            double mean = 0;
            for (int i = 0; i < n; i++) {
                mean += all.x().get(i, j);
            }
            mean /= n;
            double var = 0;
            for (int i = 0; i < n; i++) {
                double v = all.x().get(i, j) - mean;
                var += v * v;
            }
            double sd = Math.sqrt(var / n);
            for (int i = 0; i < n; i++) {
                x.set(i, j, (all.x().get(perm[i], j) - mean) / (sd > 0 ? sd : 1));
            }
        }
        for (int i = 0; i < n; i++) {
            y[i] = all.y()[perm[i]];
        }
        write(dir, "cal-5000.csv", csv(x, y, 0, 5000, false));
        write(dir, "cal-10000.csv", csv(x, y, 0, 10000, false));
        write(dir, "cal-test.csv", csv(x, y, 10000, 15000, false));
    }

    private static String csv(Dataset d, boolean labels) {
        return csv(d.x(), d.y(), 0, d.n(), labels);
    }

    private static String csv(Matrix x, double[] y, int from, int to, boolean labels) {
        int d = x.cols();
        StringBuilder sb = new StringBuilder((to - from) * d * 22);
        for (int j = 0; j < d; j++) {
            sb.append('x').append(j + 1).append(',');
        }
        sb.append("y\n");
        for (int i = from; i < to; i++) {
            for (int j = 0; j < d; j++) {
                sb.append(x.get(i, j)).append(',');
            }
            if (labels) {
                sb.append(y[i] > 0 ? "1" : "-1");
            } else {
                sb.append(y[i]);
            }
            sb.append('\n');
        }
        return sb.toString();
    }

    private static void writeOnce(Path dir, String name, java.util.function.Supplier<String> text) {
        if (!Files.isRegularFile(dir.resolve(name))) {
            write(dir, name, text.get());
        }
    }

    private static void write(Path dir, String name, String text) {
        try {
            GeneratedFiles.write(dir, name, os -> os.write(text.getBytes(StandardCharsets.UTF_8)));
        } catch (IOException e) {
            throw new UncheckedIOException(dir.resolve(name) + ": cannot write: " + e.getMessage(), e);
        }
    }

    // ------------------------------------------------------------------------------------------------- helpers

    /** The first executable called {@code name} on the PATH, or null. */
    public static String onPath(String name) {
        String path = System.getenv("PATH");
        if (path == null) {
            return null;
        }
        for (String d : path.split(File.pathSeparator)) {
            Path p = Path.of(d.isEmpty() ? "." : d, name);
            if (Files.isRegularFile(p) && Files.isExecutable(p)) {
                return p.toString();
            }
        }
        return null;
    }

    /** {@code /proc/loadavg}'s first three fields, or "" where there is none. */
    static String loadAverage() {
        try {
            String[] f = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
            return f.length >= 3 ? f[0] + " " + f[1] + " " + f[2] : "";
        } catch (IOException | RuntimeException e) {
            return "";
        }
    }

    /** The table as text: one line per case. */
    public static List<String> table(Result r) {
        List<String> lines = new ArrayList<>();
        String f = "%-16s %9s %9s %7s %9s %9s %7s  %-14s %-26s %s";
        lines.add(String.format(Locale.ROOT, f, "case", "psdkit s", "peer s", "ratio", "psdkit", "peer", "CPU",
                "peer", "target", "note"));
        lines.add(String.format(Locale.ROOT, f, "", "(wall)", "(wall)", "(wall)", "CPU s", "CPU s", "ratio", "", "",
                ""));
        for (Row row : r.rows()) {
            lines.add(String.format(Locale.ROOT, f, row.id(), secs(row.psdkit()), secs(row.peerTime()),
                    times(row.ratio()), secs(row.psdkitCpu()), secs(row.peerCpu()),
                    times(row.psdkitCpu() / row.peerCpu()), row.peer() == null ? "-" : row.peer(), row.target(),
                    row.note()));
        }
        double[] sdp = sdpRatios(r, 1.0);
        if (sdp.length > 0) {
            lines.add(String.format(Locale.ROOT, "sdp: median wall ratio %.2fx over the %d problems with CSDP >= 1 s",
                    median(sdp), sdp.length));
        }
        lines.add("load average before " + r.loadBefore() + ", after " + r.loadAfter());
        return lines;
    }

    /** psdkit / CSDP of the {@code sdp-…} rows where CSDP took at least {@code minPeer} seconds and both ran. */
    public static double[] sdpRatios(Result r, double minPeer) {
        return r.rows().stream().filter(w -> w.id().startsWith("sdp-") && w.peerTime() >= minPeer
                && Double.isFinite(w.ratio())).mapToDouble(Row::ratio).toArray();
    }

    /** The median (the mean of the middle two for an even count). */
    public static double median(double[] v) {
        double[] s = v.clone();
        java.util.Arrays.sort(s);
        int n = s.length;
        return n == 0 ? Double.NaN : n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
    }

    private static String times(double r) {
        return Double.isFinite(r) ? String.format(Locale.ROOT, "%.2fx", r) : "-";
    }

    private static String secs(double s) {
        return Double.isFinite(s) ? String.format(Locale.ROOT, "%.3f", s) : "-";
    }
}
