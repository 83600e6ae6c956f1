package org.psdkit.cli.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.psdkit.bench.KrrScaleBenchmark;
import org.psdkit.bench.KrrScaleCurves;
import org.psdkit.cli.Main;
import org.psdkit.cli.Reports;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code psdkit bench krr-scale}: Nyström KRR on synthetic d = 10 regression against exact KRR and (with
 * {@code --sklearn}) scikit-learn's Nystroem + Ridge run beside it on the same CSV files ({@link KrrScaleBenchmark}).
 */
@Command(name = "krr-scale", description = "Nystrom KRR (fit krr --anchors) at n up to 10^6 against exact KRR and "
        + "scikit-learn Nystroem + Ridge on the same synthetic CSV data.")
public final class BenchKrrScaleCommand implements Callable<Integer> {

    @Option(names = "--configs", split = ",", defaultValue = "20000:2000,200000:2000,1000000:5000", paramLabel = "N:M",
            description = "Training rows and anchors per run (default: ${DEFAULT-VALUE}).")
    List<String> configs;

    @Option(names = "--test", defaultValue = "10000", description = "Test rows (default: ${DEFAULT-VALUE}).")
    int nTest;

    @Option(names = "--sigma", defaultValue = "3", description = "Gaussian kernel width (default: ${DEFAULT-VALUE}).")
    double sigma;

    @Option(names = "--lambda", defaultValue = "1", description = "lambda of (K_nm'K_nm + lambda K_mm) alpha = K_nm'y, "
            + "= Ridge(alpha) (default: ${DEFAULT-VALUE}).")
    double lambda;

    @Option(names = "--cg-tol", defaultValue = "1e-6", description = "CG relative residual (default: ${DEFAULT-VALUE}).")
    double tolerance;

    @Option(names = "--exact-max-n", defaultValue = "20000",
            description = "Run exact KRR beside Nystrom up to this n (default: ${DEFAULT-VALUE}).")
    int exactMaxN;

    @Option(names = "--sklearn", description = "Also run scikit-learn (python3) beside it.")
    boolean sklearn;

    @Option(names = "--sklearn-min-n", defaultValue = "100000",
            description = "Smallest n for the scikit-learn peer (default: ${DEFAULT-VALUE}).")
    int sklearnMinN;

    @Option(names = "--python", defaultValue = "python3", paramLabel = "EXE",
            description = "Python interpreter with scikit-learn, e.g. /usr/bin/python3 for Debian's python3-sklearn "
                    + "(default: ${DEFAULT-VALUE}).")
    String python;

    @Option(names = "--storage", defaultValue = "auto", paramLabel = "auto|recompute|float|gram|gram-single|sketch[,...]",
            description = "Where K_nm lives between CG iterations; a comma list fits each on the same data, in "
                    + "order (default: ${DEFAULT-VALUE}).")
    String storage;

    @Option(names = "--dir", paramLabel = "DIR", description = "Directory for the CSV files, written atomically; a "
            + "re-run replaces the files a benchmark wrote there, other files of the same names are refused "
            + "(default: a temporary one, deleted).")
    Path dir;

    @Option(names = "--seed", defaultValue = "1", description = "Data and anchor seed (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--json", description = "Print one JSON object on stdout.")
    boolean json;

    @Option(names = "--curves", paramLabel = "DIR", description = "Run a sweep instead of --configs: every n of --sizes "
            + "with every m of --anchors-list, and every m of --fixed-n-anchors at --fixed-n; write "
            + KrrScaleCurves.CSV + " (one row per fit, rewritten after each), " + KrrScaleCurves.VS_N + " and "
            + KrrScaleCurves.VS_M + " (time and test RMSE against n and against m) into DIR.")
    Path curves;

    @Option(names = "--sizes", split = ",", defaultValue = "5000,10000,30000,100000", paramLabel = "N",
            description = "With --curves: training rows of the sweep over n (default: ${DEFAULT-VALUE}).")
    List<Integer> sizes;

    @Option(names = "--anchors-list", split = ",", defaultValue = "500,1000,2000", paramLabel = "M",
            description = "With --curves: anchors, one line per value in the plot against n (default: ${DEFAULT-VALUE}).")
    List<Integer> anchorsList;

    @Option(names = "--fixed-n", defaultValue = "30000", paramLabel = "N",
            description = "With --curves: training rows of the sweep over m (default: ${DEFAULT-VALUE}).")
    int fixedN;

    @Option(names = "--fixed-n-anchors", split = ",", defaultValue = "250,500,1000,2000,4000", paramLabel = "M",
            description = "With --curves: anchors of the sweep over m at --fixed-n (default: ${DEFAULT-VALUE}).")
    List<Integer> fixedNAnchors;

    @Override
    public Integer call() throws IOException {
        List<KrrScaleBenchmark.Config> cs = new ArrayList<>();
        if (curves != null) {
            checkPositive("--sizes", sizes, 2);
            checkPositive("--anchors-list", anchorsList, 1);
            checkPositive("--fixed-n-anchors", fixedNAnchors, 1);
            if (fixedN < 2) {
                throw new IllegalArgumentException("--fixed-n must be >= 2, got " + fixedN);
            }
            try {
                cs.addAll(KrrScaleCurves.configs(sizes, anchorsList, fixedN, fixedNAnchors));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("--sizes/--anchors-list/--fixed-n-anchors: " + e.getMessage());
            }
            org.psdkit.cli.OutputPaths.folder("--curves", curves);
        } else {
            for (String c : configs) {
                try {
                    cs.add(KrrScaleBenchmark.Config.parse(c));
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException("--" + e.getMessage());
                }
            }
        }
        if (!(sigma > 0) || !(lambda > 0)) {
            throw new IllegalArgumentException("--sigma and --lambda must be > 0");
        }
        if (!(tolerance > 0) || tolerance >= 1) {
            throw new IllegalArgumentException("--cg-tol must be in (0, 1), got " + tolerance);
        }
        List<org.psdkit.regression.nystrom.Storage> st = new ArrayList<>();
        for (String s : storage.split(",")) {
            try {
                st.add(org.psdkit.regression.nystrom.Storage.parse(s));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("--storage: '" + s + "' is not auto, recompute, float, gram, gram-single or sketch");
            }
        }
        if (dir != null && !Files.isDirectory(dir)) {
            throw new IllegalArgumentException("--dir: " + dir + " is not a directory");
        }
        boolean temp = dir == null;
        Path d = temp ? Files.createTempDirectory("psdkit-krr-scale") : dir;
        List<Map<String, Object>> rows = new ArrayList<>();
        List<KrrScaleCurves.Point> points = new ArrayList<>();
        double loadStart = loadAverage();
        try {
            KrrScaleBenchmark.run(new KrrScaleBenchmark.Options(cs, nTest, sigma, lambda, tolerance, exactMaxN,
                    sklearn, sklearnMinN, python, st, d, seed), r -> {
                        Map<String, Object> m = row(r);
                        rows.add(m);
                        if (curves != null) {
                            double load = loadAverage();
                            if (!Double.isNaN(load)) {
                                m.put("loadAverage", load);
                            }
                            points.add(new KrrScaleCurves.Point(r, load));
                            try {
                                KrrScaleCurves.writeCsv(curves, points);
                            } catch (IOException e) {
                                throw new UncheckedIOException(e);
                            }
                        }
                    });
            if (curves != null) {
                double lo = loadStart;
                double hi = loadStart;
                for (KrrScaleCurves.Point p : points) {
                    lo = Math.min(lo, p.load());
                    hi = Math.max(hi, p.load());
                }
                String title = String.format(Locale.ROOT, "Nystrom KRR, synthetic d = %d, Gaussian sigma = %s, lambda = %s "
                        + "(%d cores%s)", KrrScaleBenchmark.D, fmt(sigma), fmt(lambda),
                        Runtime.getRuntime().availableProcessors(), Double.isNaN(lo) || Double.isNaN(hi) ? ""
                                : String.format(Locale.ROOT, ", load average %.1f-%.1f", lo, hi));
                KrrScaleCurves.writeFigures(curves, points, anchorsList, fixedN, title);
            }
        } catch (UncheckedIOException e) {
            throw e.getCause();
        } finally {
            if (temp) {
                try (var s = Files.list(d)) {
                    for (Path p : (Iterable<Path>) s::iterator) {
                        Files.deleteIfExists(p);
                    }
                } catch (IOException | UncheckedIOException e) {
                    // best effort
                }
                Files.deleteIfExists(d);
            }
        }
        Map<String, Object> rep = new LinkedHashMap<>();
        rep.put("benchmark", "krr-scale");
        rep.put("sigma", sigma);
        rep.put("lambda", lambda);
        rep.put("cgTolerance", tolerance);
        rep.put("maxHeapBytes", Runtime.getRuntime().maxMemory());
        rep.put("cores", Runtime.getRuntime().availableProcessors());
        if (curves != null) {
            rep.put("curves", Map.of("csv", curves.resolve(KrrScaleCurves.CSV).toString(),
                    "vsN", curves.resolve(KrrScaleCurves.VS_N).toString(),
                    "vsM", curves.resolve(KrrScaleCurves.VS_M).toString()));
        }
        if (json) {
            rep.put("results", rows);
        }
        Reports.print(rep, json);
        return Main.EXIT_OK;
    }

    private static void checkPositive(String flag, List<Integer> values, int min) {
        if (values == null || values.isEmpty()) {
            throw new IllegalArgumentException(flag + " must not be empty");
        }
        for (int v : values) {
            if (v < min) {
                throw new IllegalArgumentException(flag + ": every value must be >= " + min + ", got " + v);
            }
        }
    }

    private static String fmt(double v) {
        return v == Math.rint(v) && Math.abs(v) < 1e9 ? Long.toString((long) v) : Double.toString(v);
    }

    /** The one-minute load average of the machine, NaN when the JVM does not report it. */
    private static double loadAverage() {
        double l = java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
        return l < 0 ? Double.NaN : l;
    }

    private Map<String, Object> row(KrrScaleBenchmark.Row r) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("n", r.n());
        m.put("m", r.m());
        m.put("readSeconds", r.readSeconds());
        m.put("fitSeconds", r.fitSeconds());
        m.put("fitCpuSeconds", r.fitCpuSeconds());
        m.put("iterations", r.iterations());
        m.put("residual", r.residual());
        m.put("storage", r.storage());
        m.put("profile", r.profile());
        m.put("rmse", r.rmse());
        if (!Double.isNaN(r.exactRmse())) {
            m.put("exactSeconds", r.exactSeconds());
            m.put("exactRmse", r.exactRmse());
            m.put("rmseRatioVsExact", r.rmse() / r.exactRmse());
        }
        if (!Double.isNaN(r.sklearnFitSeconds())) {
            m.put("sklearnReadSeconds", r.sklearnReadSeconds());
            m.put("sklearnFitSeconds", r.sklearnFitSeconds());
            m.put("sklearnRmse", r.sklearnRmse());
            m.put("timeRatioVsSklearn", r.fitSeconds() / r.sklearnFitSeconds());
            m.put("rmseRatioVsSklearn", r.rmse() / r.sklearnRmse());
        }
        if (r.sklearnError() != null) {
            m.put("sklearnError", r.sklearnError());
        }
        String line = String.format(Locale.ROOT, "n=%d m=%d: read %.1f s, fit %.1f s (cpu %.1f s; %d CG iterations, residual %.1e, "
                + "K_nm %s), test rmse %.4f", r.n(), r.m(), r.readSeconds(), r.fitSeconds(), r.fitCpuSeconds(), r.iterations(),
                r.residual(), r.storage(), r.rmse());
        line += " " + r.profile();
        if (!Double.isNaN(r.exactRmse())) {
            line += String.format(Locale.ROOT, "; exact KRR %.1f s rmse %.4f (ratio %.4f)", r.exactSeconds(),
                    r.exactRmse(), r.rmse() / r.exactRmse());
        }
        if (!Double.isNaN(r.sklearnFitSeconds())) {
            line += String.format(Locale.ROOT, "; sklearn fit %.1f s rmse %.4f (time ratio %.3f, rmse ratio %.4f)",
                    r.sklearnFitSeconds(), r.sklearnRmse(), r.fitSeconds() / r.sklearnFitSeconds(),
                    r.rmse() / r.sklearnRmse());
        }
        if (r.sklearnError() != null) {
            line += "; sklearn: " + r.sklearnError();
        }
        System.err.println(line);
        return m;
    }
}
