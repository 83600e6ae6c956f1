package org.psdkit.cli.bench;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import org.psdkit.bench.KrrAutoBenchmark;
import org.psdkit.cli.DataFiles;
import org.psdkit.cli.Main;
import org.psdkit.cli.Progress;
import org.psdkit.cli.Reports;
import org.psdkit.data.CsvReader;
import org.psdkit.data.Dataset;
import org.psdkit.data.Scaler;
import org.psdkit.kernel.GaussianKernel;
import org.psdkit.regression.KrrAutoTrainer;
import org.psdkit.regression.KrrTrainer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code psdkit bench krr-auto}: automatic σ and λ against a 10 × 10 grid searched by 5-fold CV, same run
 * ({@link KrrAutoBenchmark}).
 */
@Command(name = "krr-auto", description = "KRR with automatic sigma and lambda (fit krr --auto) against a 10 x 10 "
        + "(sigma, lambda) grid searched by 5-fold CV: test RMSE and time of both, same run.")
public final class BenchKrrAutoCommand implements Callable<Integer> {

    @Option(names = "--data", paramLabel = "FILE",
            description = "Regression CSV, target last (default: ../shared/data/california-housing.csv).")
    Path data;

    @Option(names = "--n", defaultValue = "5000", description = "Training rows; the rest is the test set (default: ${DEFAULT-VALUE}).")
    int n;

    @Option(names = "--sigmas", defaultValue = "0.1,10", paramLabel = "LO,HI",
            description = "The grid's 10 sigma values, log-spaced on the z-scored features (default: ${DEFAULT-VALUE}).")
    String sigmas;

    @Option(names = "--lambdas", defaultValue = "1e-4,10", paramLabel = "LO,HI",
            description = "The grid's 10 lambda values, log-spaced (default: ${DEFAULT-VALUE}).")
    String lambdas;

    @Option(names = "--objective", defaultValue = "loo", paramLabel = "loo|gcv|holdout",
            description = "Objective of the automatic search (default: ${DEFAULT-VALUE}).")
    String objective;

    @Option(names = "--ard", description = "One bandwidth per feature in the automatic search.")
    boolean ard;

    @Option(names = "--seed", defaultValue = "1", description = "Seed of the split and the folds (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--json", description = "Print one JSON object on stdout.")
    boolean json;

    @Override
    public Integer call() {
        Path file = data != null ? data : DataFiles.shared("california-housing.csv", "--data");
        Dataset all = CsvReader.read(file, CsvReader.Options.regression());
        if (n < 10 || n > all.n() - 1) {
            throw new IllegalArgumentException("--n: " + n + " is not in [10, " + (all.n() - 1) + "]");
        }
        double[] s = range("--sigmas", sigmas);
        double[] l = range("--lambdas", lambdas);
        KrrAutoTrainer.Options o = KrrAutoTrainer.Options.of(KrrTrainer.Options.of(new GaussianKernel(1), 1e-3)
                .withScale(Scaler.Kind.ZSCORE)).withObjective(KrrAutoTrainer.Objective.parse(objective)).withArd(ard);
        KrrAutoBenchmark.Result r;
        try (Progress p = Progress.start("krr-auto grid", 5L * s.length)) {
            r = KrrAutoBenchmark.run(all, n, o, s, l, 5, seed, p.listener());
        }
        Map<String, Object> rep = new LinkedHashMap<>();
        rep.put("benchmark", "krr-auto");
        rep.put("data", file.getFileName().toString());
        rep.put("n", r.n());
        rep.put("test", r.test());
        rep.put("gridRmse", r.gridRmse());
        rep.put("autoRmse", r.autoRmse());
        rep.put("rmseRatio", r.rmseRatio());
        rep.put("gridSeconds", r.gridSeconds());
        rep.put("autoSeconds", r.autoSeconds());
        rep.put("timeRatio", r.timeRatio());
        rep.put("gridCpuSeconds", r.gridCpu());
        rep.put("autoCpuSeconds", r.autoCpu());
        rep.put("cpuRatio", r.cpuRatio());
        rep.put("gridSigma", r.gridSigma());
        rep.put("gridLambda", r.gridLambda());
        rep.put("autoKernel", r.autoKernel());
        rep.put("autoLambda", r.autoLambda());
        rep.put("objective", o.objective().label());
        rep.put("evaluations", r.evaluations());
        rep.put("searchRows", r.searchRows());
        Reports.print(rep, json);
        return Main.EXIT_OK;
    }

    /** 10 values log-spaced between the two positive numbers of {@code LO,HI}. */
    private static double[] range(String flag, String text) {
        String[] parts = text.split(",");
        double lo;
        double hi;
        try {
            lo = Double.parseDouble(parts[0].trim());
            hi = parts.length == 2 ? Double.parseDouble(parts[1].trim()) : Double.NaN;
        } catch (NumberFormatException e) {
            hi = Double.NaN;
            lo = Double.NaN;
        }
        if (!(lo > 0) || !(hi > lo) || Double.isInfinite(hi)) {
            throw new IllegalArgumentException(flag + ": '" + text + "' is not LO,HI with 0 < LO < HI");
        }
        return KrrAutoBenchmark.logspace(lo, hi, 10);
    }
}
