package org.psdkit.cli.bench;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.psdkit.bench.MulticlassSvmBenchmark;
import org.psdkit.bench.SvmBenchmark;
import org.psdkit.cli.Main;
import org.psdkit.cli.Reports;
import org.psdkit.optim.smo.Smo;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code psdkit bench svm}: SVM training time (shrinking, kernel cache) on seeded synthetic data against the former
 * path (no shrinking) in the same run ({@link SvmBenchmark}); writes the data as CSV for a peer.
 */
@Command(name = "svm", description = "SVM training time (Gaussian kernel, C = 10, d = 10) for n = 5000, 50000 "
        + "against the former no-shrinking path in the same run; writes the data as CSV for scikit-learn.")
public final class BenchSvmCommand implements Callable<Integer> {

    @Option(names = "--sizes", split = ",", defaultValue = "5000,50000",
            description = "Training-set sizes (default: ${DEFAULT-VALUE}).")
    int[] sizes;

    @Option(names = "--dim", defaultValue = "10", description = "Features (default: ${DEFAULT-VALUE}).")
    int dim;

    @Option(names = "-C", defaultValue = "10", description = "Penalty C (default: ${DEFAULT-VALUE}).")
    double c;

    @Option(names = "--gamma", defaultValue = "0.1",
            description = "Gaussian gamma = 1/(2 sigma^2), as scikit-learn (default: ${DEFAULT-VALUE}).")
    double gamma;

    @Option(names = "--tolerance", defaultValue = "1e-3", description = "SMO tolerance (default: ${DEFAULT-VALUE}).")
    double tolerance;

    @Option(names = "--cache-mb", defaultValue = "" + Smo.DEFAULT_CACHE_MB,
            description = "psdkit's kernel memory in MB (default: ${DEFAULT-VALUE}).")
    int cacheMb;

    @Option(names = "--baseline-max-n", defaultValue = "50000",
            description = "Largest n for the former no-shrinking path (default: ${DEFAULT-VALUE}).")
    int baselineMaxN;

    @Option(names = "--repeats", defaultValue = "1",
            description = "Timed fits of each kind per size, the best is reported (default: ${DEFAULT-VALUE}).")
    int repeats;

    @Option(names = "--seed", defaultValue = "1", description = "Data seed (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--data-dir", paramLabel = "DIR",
            description = "Write the training/test CSV and psdkit's test decisions here (for the peer), atomically; "
                    + "a re-run replaces the files a benchmark wrote there, other files of the same names are "
                    + "refused.")
    Path dir;

    @Option(names = "--json", description = "Print one JSON object on stdout.")
    boolean json;

    @Option(names = "--classes", description = "Instead: the multi-class SVM against scikit-learn's SVC on digits "
            + "(C = 10, gamma = 0.001) and wine (standardised, C = 1, gamma = 0.1): labels, pairwise decision values, "
            + "probabilities, class and sample weights, fit times in the same run (see --python, --cold).")
    boolean classes;

    @Option(names = "--python", defaultValue = "/usr/bin/python3", paramLabel = "EXE",
            description = "Python with scikit-learn for --classes (default: ${DEFAULT-VALUE}).")
    String python;

    @Option(names = "--cold", description = "With --classes: also time one fit in a fresh process each (wall).")
    boolean cold;

    @Override
    public Integer call() {
        if (classes) {
            return classes();
        }
        if (dir != null && !java.nio.file.Files.isDirectory(dir)) {
            throw new IllegalArgumentException("--data-dir: " + dir + " is not a directory");
        }
        List<Map<String, Object>> rows = new ArrayList<>();
        SvmBenchmark.Result res = SvmBenchmark.run(new SvmBenchmark.Options(sizes, dim, c, gamma, tolerance, cacheMb,
                baselineMaxN, repeats, seed, dir), new BenchProgress("bench svm: "), r -> rows.add(row(r)));
        Map<String, Object> rep = new LinkedHashMap<>();
        rep.put("benchmark", "svm");
        rep.put("kernel", res.kernel());
        rep.put("C", c);
        rep.put("tolerance", tolerance);
        rep.put("cacheMb", cacheMb);
        rep.put("kernelThreads", res.machine().kernelThreads());
        rep.put("blasThreads", res.machine().blasThreads());
        if (json) {
            rep.put("results", rows);
        }
        Reports.print(rep, json);
        return Main.EXIT_OK;
    }

    private Integer classes() {
        Path d = dir;
        try {
            if (d == null) {
                d = java.nio.file.Files.createTempDirectory("psdkit-bench-svm-classes");
            } else if (!java.nio.file.Files.isDirectory(d)) {
                throw new IllegalArgumentException("--data-dir: " + d + " is not a directory");
            }
        } catch (java.io.IOException e) {
            throw new IllegalArgumentException("cannot create a temporary directory: " + e.getMessage());
        }
        List<String> java = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx2g",
                "-cp", System.getProperty("java.class.path"), Main.class.getName());
        List<MulticlassSvmBenchmark.Row> res = MulticlassSvmBenchmark.run(new MulticlassSvmBenchmark.Options(
                List.of("digits", "wine"), new double[] {10, 1}, new double[] {0.001, 0.1}, tolerance,
                Math.max(1, repeats), seed, python, d, cold, java));
        Map<String, Object> rep = new LinkedHashMap<>();
        rep.put("benchmark", "svm --classes");
        rep.put("tolerance", tolerance);
        rep.put("repeats", Math.max(1, repeats));
        List<Map<String, Object>> rows = new ArrayList<>();
        for (MulticlassSvmBenchmark.Row r : res) {
            rows.add(r.toMap());
        }
        rep.put("results", rows);
        Reports.print(rep, json);
        return Main.EXIT_OK;
    }

    private Map<String, Object> row(SvmBenchmark.Row r) {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("n", r.n());
        row.put("path", r.path());
        row.put("psdkitSeconds", r.psdkitSeconds());
        row.put("iterations", r.iterations());
        row.put("supportVectors", r.supportVectors());
        row.put("testAccuracy", r.testAccuracy());
        if (r.hasBaseline()) {
            row.put("baselineSeconds", r.baselineSeconds());
            row.put("baselineIterations", r.baselineIterations());
            row.put("speedupVsBaseline", r.speedup());
            row.put("labelAgreement", r.labelAgreement());
            row.put("maxDecisionDiff", r.maxDecisionDiff());
        }
        if (r.trainFile() != null) {
            row.put("trainFile", r.trainFile().toString());
        }
        if (!json) {
            System.err.printf(Locale.ROOT, "n=%d (%s): psdkit %.3f s, %d iterations, %d SVs, test accuracy %.4f%s%n",
                    r.n(), r.path(), r.psdkitSeconds(), r.iterations(), r.supportVectors(), r.testAccuracy(),
                    r.hasBaseline() ? String.format(Locale.ROOT, "; former path %.3f s (x%.2f), labels agree %.4f, "
                            + "max |df| %.2e", r.baselineSeconds(), r.speedup(), r.labelAgreement(),
                            r.maxDecisionDiff()) : "");
        }
        return row;
    }
}
