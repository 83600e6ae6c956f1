package org.psdkit.cli.bench;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.psdkit.bench.KrrBenchmark;
import org.psdkit.cli.DataFiles;
import org.psdkit.cli.KernelSpecs;
import org.psdkit.cli.Main;
import org.psdkit.cli.Reports;
import org.psdkit.data.CsvReader;
import org.psdkit.data.Dataset;
import org.psdkit.kernel.Kernel;
import org.psdkit.linalg.Matrix;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code psdkit bench krr}: kernel ridge regression fit time on California-housing subsamples (z-scored features,
 * Gaussian kernel), against two baselines run in the same command on the same Gram matrix ({@link KrrBenchmark}).
 */
@Command(name = "krr", description = "KRR fit time (Gram + Cholesky) for n = 2000, 5000, 10000 against in-run baselines.")
public final class BenchKrrCommand implements Callable<Integer> {

    @Option(names = "--data", paramLabel = "FILE", description = "California housing CSV (default: ../shared/data/california-housing.csv).")
    Path data;

    @Option(names = "--sizes", split = ",", defaultValue = "2000,5000,10000", description = "Subsample sizes (default: ${DEFAULT-VALUE}).")
    int[] sizes;

    @Option(names = "--kernel", defaultValue = "gaussian(sigma=1)", description = "Kernel (default: ${DEFAULT-VALUE}).")
    String kernel;

    @Option(names = "--lambda", defaultValue = "0.01", description = "Regularisation (default: ${DEFAULT-VALUE}).")
    double lambda;

    @Option(names = "--repeats", defaultValue = "3", description = "Timed psdkit fits per size; the best is reported (default: ${DEFAULT-VALUE}).")
    int repeats;

    @Option(names = "--java-max-n", defaultValue = "2000",
            description = "Largest n for the slow plain-Java Cholesky baseline (default: ${DEFAULT-VALUE}).")
    int javaMaxN;

    @Option(names = "--eigen-max-n", defaultValue = "5000",
            description = "Largest n for the eigen-route baseline (default: ${DEFAULT-VALUE}).")
    int eigenMaxN;

    @Option(names = "--seed", defaultValue = "1", description = "Subsample seed (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--json", description = "Print one JSON object on stdout.")
    boolean json;

    @Override
    public Integer call() {
        if (!(lambda > 0)) {
            throw new IllegalArgumentException("--lambda must be > 0 for this benchmark, got " + lambda);
        }
        if (repeats < 1) {
            throw new IllegalArgumentException("--repeats must be >= 1");
        }
        Kernel k = KernelSpecs.parse(kernel);
        Path file = data != null ? data : DataFiles.shared("california-housing.csv", "--data");
        Dataset all = CsvReader.read(file, CsvReader.Options.regression());
        for (int n : sizes) {
            if (n < 2 || n > all.n()) {
                throw new IllegalArgumentException("--sizes: " + n + " is not in [2, " + all.n() + "]");
            }
        }
        List<Map<String, Object>> rows = new ArrayList<>();
        KrrBenchmark.Result res = KrrBenchmark.run(new KrrBenchmark.Options(all, sizes, k, lambda, repeats, javaMaxN,
                seed, eigenMaxN), new BenchProgress("bench krr: "), r -> rows.add(row(r)));
        Map<String, Object> rep = new LinkedHashMap<>();
        rep.put("benchmark", "krr");
        rep.put("data", file.toString());
        rep.put("kernel", res.kernel());
        rep.put("lambda", res.lambda());
        rep.put("blasThreads", res.blasThreads());
        if (json) {
            rep.put("results", rows);
        }
        Reports.print(rep, json);
        return Main.EXIT_OK;
    }

    private Map<String, Object> row(KrrBenchmark.Row r) {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("n", r.n());
        row.put("d", r.d());
        row.put("psdkitSeconds", r.psdkitSeconds());
        row.put("gramSeconds", r.gramSeconds());
        row.put("previousRouteSeconds", r.previousRouteSeconds());
        row.put("speedupVsPreviousRoute", r.speedupVsPreviousRoute());
        row.put("maxRelDiffVsPreviousRoute", r.maxRelDiffVsPreviousRoute());
        if (r.hasEigenRoute()) {
            row.put("eigenRouteSeconds", r.eigenRouteSeconds());
            row.put("speedupVsEigenRoute", r.speedupVsEigenRoute());
            row.put("maxRelDiffVsEigenRoute", r.maxRelDiffVsEigenRoute());
        }
        if (r.hasPlainJava()) {
            row.put("plainJavaCholeskySeconds", r.plainJavaCholeskySeconds());
            row.put("speedupVsPlainJava", r.speedupVsPlainJava());
            row.put("maxRelDiffVsPlainJava", r.maxRelDiffVsPlainJava());
        }
        if (!json) {
            System.err.printf(Locale.ROOT, "n=%d: psdkit fit %.3f s (Gram %.3f s); previous route %.3f s (x%.2f)%s%s%n",
                    r.n(), r.psdkitSeconds(), r.gramSeconds(), r.previousRouteSeconds(), r.speedupVsPreviousRoute(),
                    r.hasEigenRoute() ? String.format(Locale.ROOT, "; eigen route %.3f s (x%.1f)",
                            r.eigenRouteSeconds(), r.speedupVsEigenRoute()) : "",
                    r.hasPlainJava() ? String.format(Locale.ROOT, "; plain-Java Cholesky %.3f s (x%.1f)",
                            r.plainJavaCholeskySeconds(), r.speedupVsPlainJava()) : "");
        }
        return row;
    }

}
