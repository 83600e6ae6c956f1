package org.psdkit.cli.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.psdkit.bench.NuBenchmark;
import org.psdkit.cli.Main;
import org.psdkit.cli.Reports;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code psdkit bench nu}: the one-class SVM, ν-SVC and ν-SVR against scikit-learn's OneClassSVM, NuSVC and NuSVR
 * run live on the same data ({@link NuBenchmark}): fit times and their ratio, label agreement, output differences.
 */
@Command(name = "nu", description = "One-class SVM, nu-SVC and nu-SVR against scikit-learn's OneClassSVM, NuSVC and "
        + "NuSVR on the same seeded data (run live): fit time ratio, label agreement, output differences.")
public final class BenchNuCommand implements Callable<Integer> {

    @Option(names = "-n", defaultValue = "3000", description = "Training rows per problem (default: ${DEFAULT-VALUE}).")
    int n;

    @Option(names = "--test", defaultValue = "2000", description = "Test rows per problem (default: ${DEFAULT-VALUE}).")
    int test;

    @Option(names = "--repeats", defaultValue = "3",
            description = "Timed fits per side, the best is reported (default: ${DEFAULT-VALUE}).")
    int repeats;

    @Option(names = "--seed", defaultValue = "1", description = "Data seed (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--python", defaultValue = "/usr/bin/python3", paramLabel = "EXE",
            description = "Python interpreter with scikit-learn (default: ${DEFAULT-VALUE}, Debian's python3-sklearn).")
    String python;

    @Option(names = "--peer-script", defaultValue = "docs/benchmarks/nu_sklearn.py", paramLabel = "FILE",
            description = "The scikit-learn side (default: ${DEFAULT-VALUE}, from the repository root).")
    Path script;

    @Option(names = "--data-dir", paramLabel = "DIR",
            description = "Where the CSV files go (default: a new temporary directory).")
    Path dir;

    @Option(names = "--json", description = "Print one JSON object on stdout.")
    boolean json;

    @Override
    public Integer call() throws Exception {
        Path d = dir != null ? dir : Files.createTempDirectory("psdkit-bench-nu");
        List<NuBenchmark.Row> rows = NuBenchmark.run(new NuBenchmark.Options(n, test, repeats, seed, d, python,
                script), new BenchProgress("bench nu: "));
        Map<String, Object> rep = new LinkedHashMap<>();
        rep.put("benchmark", "nu");
        rep.put("n", n);
        rep.put("test", test);
        rep.put("dataDir", d.toString());
        List<Map<String, Object>> out = new ArrayList<>();
        for (NuBenchmark.Row r : rows) {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("problem", r.problem());
            row.put("psdkitSeconds", r.psdkitSeconds());
            row.put("sklearnSeconds", r.sklearnSeconds());
            row.put("ratio", r.ratio());
            row.put("supportVectors", r.supportVectors());
            row.put("sklearnSupportVectors", r.peerSupportVectors());
            if (!Double.isNaN(r.labelAgreement())) {
                row.put("labelAgreement", r.labelAgreement());
            }
            row.put("maxRelativeDiff", r.maxRelativeDiff());
            out.add(row);
            if (!json) {
                System.err.printf(Locale.ROOT, "%s: psdkit %.3f s, scikit-learn %.3f s (ratio %.2f), SVs %d / %d, "
                        + "%s max relative output difference %.2e%n", r.problem(), r.psdkitSeconds(),
                        r.sklearnSeconds(), r.ratio(), r.supportVectors(), r.peerSupportVectors(),
                        Double.isNaN(r.labelAgreement()) ? "" : String.format(Locale.ROOT, "labels agree %.4f,",
                                r.labelAgreement()), r.maxRelativeDiff());
            }
        }
        if (json) {
            rep.put("results", out);
        }
        Reports.print(rep, json);
        return Main.EXIT_OK;
    }
}
