package org.psdkit.cli.reproduce;

import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.psdkit.cli.Main;
import org.psdkit.cli.Reports;
import org.psdkit.experiments.ConeReproductions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code psdkit reproduce hetero} and {@code psdkit reproduce quantile}: options and output of {@link ConeReproductions}. */
public final class ReproConeCommands {

    private ReproConeCommands() {
    }

    /**
     * Checks the options, the folds included (the cross-validation would refuse them only after the figures' folder
     * exists), then creates the folder ({@link org.psdkit.cli.OutputPaths#folder}): a refusal leaves nothing behind.
     */
    static void check(int n, int testN, double[] sigmas, double[] lambdas, int folds, Path outDir) {
        if (n < 10 || testN < 1) {
            throw new IllegalArgumentException("--n must be >= 10 and --test-n >= 1");
        }
        if (folds < 2) {
            throw new IllegalArgumentException("--folds must be >= 2, got " + folds);
        }
        if (folds > n) {
            throw new IllegalArgumentException("--folds must be in [2, n=" + n + "], got " + folds);
        }
        for (double x : lambdas) {
            if (!(x > 0)) {
                throw new IllegalArgumentException("--lambdas must be > 0, got " + x);
            }
        }
        for (double s : sigmas) {
            if (!(s > 0)) {
                throw new IllegalArgumentException("--sigmas must be > 0, got " + s);
            }
        }
        org.psdkit.cli.OutputPaths.folder("--out-dir", outDir);
    }

    /** {@code psdkit reproduce hetero}. */
    @Command(name = "hetero", description = "Marteau-Ferey, Bach & Rudi 2020 Fig. 1 centre row: heteroscedastic regression on the Le, Smola & "
            + "Canu (2005) toy data (n = 80), theta = 1/v by PNM, NCM, GLM and the PSD model; PNGs and test NLL table.")
    public static final class Hetero implements Callable<Integer> {

        @Option(names = "--out-dir", defaultValue = "reproduce-hetero", paramLabel = "DIR",
                description = "Folder for the PNGs (default: ${DEFAULT-VALUE}).")
        Path outDir;

        @Option(names = "--n", defaultValue = "80", description = "Training points (default: ${DEFAULT-VALUE}).")
        int n;

        @Option(names = "--test-n", defaultValue = "5000", description = "Test points (default: ${DEFAULT-VALUE}).")
        int testN;

        @Option(names = "--sigmas", split = ",", defaultValue = "0.05,0.1,0.2,0.4", paramLabel = "S1,S2,...",
                description = "Gaussian widths tried by cross-validation (default: ${DEFAULT-VALUE}).")
        double[] sigmas;

        @Option(names = "--lambdas", split = ",", defaultValue = "0.1,0.01,0.001", paramLabel = "L1,L2,...",
                description = "Lambdas tried by cross-validation (default: ${DEFAULT-VALUE}).")
        double[] lambdas;

        @Option(names = "--folds", defaultValue = "5", description = "Folds (default: ${DEFAULT-VALUE}).")
        int folds;

        @Option(names = "--json", description = "Print one JSON object on stdout.")
        boolean json;

        @Override
        public Integer call() throws IOException {
            check(n, testN, sigmas, lambdas, folds, outDir);
            ConeReproductions.HeteroResult res;
            try (ReproProgress progress = new ReproProgress()) {
                res = ConeReproductions.hetero(new ConeReproductions.HeteroOptions(n, testN, sigmas, lambdas, folds,
                        outDir), progress);
            }
            if (!json) {
                System.err.printf(Locale.ROOT, "%-5s %-24s %-8s %10s %8s %12s %12s %8s%n", "model", "kernel", "lambda",
                        "test NLL", "RMSE", "min var(x)", "max var(x)", "seconds");
                for (Map<String, Object> row : res.table()) {
                    System.err.printf(Locale.ROOT, "%-5s %-24s %-8s %10.4f %8.4f %12.4g %12.4g %8.1f%n", row.get("model"),
                            row.get("kernel"), Reports.fmt((double) row.get("lambda")), (double) row.get("test_nll"),
                            (double) row.get("test_rmse"), (double) row.get("min_variance_grid"),
                            (double) row.get("max_variance_grid"), (double) row.get("seconds"));
                }
            }
            Map<String, Object> rep = new LinkedHashMap<>();
            rep.put("data", res.data());
            rep.put("true_model_test_nll", res.trueModelTestNll());
            rep.put("table", res.table());
            rep.put("png", res.png().toString());
            if (!json) {
                System.err.printf(Locale.ROOT, "true model's test NLL: %.4f; figures in %s%n", res.trueModelTestNll(),
                        outDir);
            }
            Reports.print(rep, json);
            return Main.EXIT_OK;
        }
    }

    /** {@code psdkit reproduce quantile}. */
    @Command(name = "quantile", description = "Marteau-Ferey, Bach & Rudi 2020 Fig. 1 bottom row: quartiles on the App. E data (n = 500) by PNM, "
            + "NCM, GLM, the PSD model and independent kernel quantile regressions; PNGs and a table of test pinball "
            + "loss, coverage and crossings.")
    public static final class Quantile implements Callable<Integer> {

        @Option(names = "--out-dir", defaultValue = "reproduce-quantile", paramLabel = "DIR",
                description = "Folder for the PNGs (default: ${DEFAULT-VALUE}).")
        Path outDir;

        @Option(names = "--n", defaultValue = "500", description = "Training points (default: ${DEFAULT-VALUE}).")
        int n;

        @Option(names = "--test-n", defaultValue = "5000", description = "Test points (default: ${DEFAULT-VALUE}).")
        int testN;

        @Option(names = "--sigmas", split = ",", defaultValue = "0.05,0.1,0.2", paramLabel = "S1,S2,...",
                description = "Gaussian widths tried by cross-validation (default: ${DEFAULT-VALUE}).")
        double[] sigmas;

        @Option(names = "--lambdas", split = ",", defaultValue = "0.01,0.001", paramLabel = "L1,L2,...",
                description = "Lambdas tried by cross-validation (default: ${DEFAULT-VALUE}).")
        double[] lambdas;

        @Option(names = "--folds", defaultValue = "3", description = "Folds (default: ${DEFAULT-VALUE}).")
        int folds;

        @Option(names = "--json", description = "Print one JSON object on stdout.")
        boolean json;

        @Override
        public Integer call() throws IOException {
            check(n, testN, sigmas, lambdas, folds, outDir);
            ConeReproductions.QuantileResult res;
            try (ReproProgress progress = new ReproProgress()) {
                res = ConeReproductions.quantile(new ConeReproductions.QuantileOptions(n, testN, sigmas, lambdas,
                        folds, outDir), progress);
            }
            if (!json) {
                System.err.printf(Locale.ROOT, "%-11s %-22s %-7s %9s %9s %9s %9s %6s %6s %6s %6s %6s %6s %7s%n",
                        "model", "kernel", "lambda", "pin.25", "pin.5", "pin.75", "pinball", "cov25", "cov50", "cov75",
                        "X test", "X[0,1]", "X wide", "seconds");
                for (Map<String, Object> row : res.table()) {
                    @SuppressWarnings("unchecked")
                    Map<String, Object> pin = (Map<String, Object>) row.get("test_pinball");
                    @SuppressWarnings("unchecked")
                    Map<String, Object> cov = (Map<String, Object>) row.get("test_coverage");
                    System.err.printf(Locale.ROOT, "%-11s %-22s %-7s %9.5f %9.5f %9.5f %9.5f %6.3f %6.3f %6.3f %6d %6d "
                                    + "%6d %7.1f%n", row.get("model"), row.get("kernel"),
                            Reports.fmt((double) row.get("lambda")), pin.get("q0.25"), pin.get("q0.5"),
                            pin.get("q0.75"), row.get("test_pinball_total"), cov.get("q0.25"), cov.get("q0.5"),
                            cov.get("q0.75"), row.get("crossings_test_rows"), row.get("crossings_grid_0_1"),
                            row.get("crossings_grid_-2_3"), row.get("seconds"));
                }
            }
            Map<String, Object> rep = new LinkedHashMap<>();
            rep.put("data", res.data());
            rep.put("true_quantiles_test_pinball_total", res.trueQuantilesTestPinball());
            rep.put("table", res.table());
            rep.put("png", res.png().toString());
            if (!json) {
                System.err.printf(Locale.ROOT, "true quantiles' test pinball (sum over tau): %.5f; figures in %s%n",
                        res.trueQuantilesTestPinball(), outDir);
            }
            Reports.print(rep, json);
            return Main.EXIT_OK;
        }
    }
}
