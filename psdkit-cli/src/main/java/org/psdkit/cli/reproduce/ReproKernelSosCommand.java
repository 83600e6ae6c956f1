package org.psdkit.cli.reproduce;

import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.psdkit.cli.Main;
import org.psdkit.cli.Reports;
import org.psdkit.experiments.KernelSosReproduction;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code psdkit reproduce kernel-sos}: options and output of {@link KernelSosReproduction}. */
@Command(name = "kernel-sos", description = "Bagnell & Farahmand Fig. 1: Kernel SoS by its SDP, with NCM (kernel k^2) "
        + "and the Marteau-Ferey, Bach & Rudi 2020 PSD model on the same data; writes a PNG and prints test RMSE and minimum prediction.")
public final class ReproKernelSosCommand implements Callable<Integer> {

    @Option(names = "--out", defaultValue = "kernel-sos.png", paramLabel = "PNG",
            description = "Figure file (default: ${DEFAULT-VALUE}).")
    Path out;

    @Option(names = "--n", defaultValue = "50", description = "Training points (default: ${DEFAULT-VALUE}).")
    int n;

    @Option(names = "--noise", defaultValue = "0.5", description = "Noise standard deviation (default: ${DEFAULT-VALUE}).")
    double noise;

    @Option(names = "--sigmas", split = ",", defaultValue = "0.25,0.75",
            description = "Gaussian widths (default: ${DEFAULT-VALUE}).")
    double[] sigmas;

    @Option(names = "--lambda", defaultValue = "0.01", description = "Kernel SoS / NCM lambda (default: ${DEFAULT-VALUE}).")
    double lambda;

    @Option(names = "--psd-lambda", defaultValue = "0.001",
            description = "PSD model lambda of lambda(||A||_* + c||A||_F^2) (default: ${DEFAULT-VALUE}).")
    double psdLambda;

    @Option(names = "--psd-frobenius", defaultValue = "0.005",
            description = "PSD model c (default: ${DEFAULT-VALUE}, Marteau-Ferey, Bach & Rudi 2020 Sec. 6's 0.01/2).")
    double psdFrobenius;

    @Option(names = "--seed", defaultValue = "1", description = "Data seed (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--test", defaultValue = "1000", description = "Test points (default: ${DEFAULT-VALUE}).")
    int testPoints;

    @Option(names = "--json", description = "Print one JSON object on stdout.")
    boolean json;

    @Override
    public Integer call() throws IOException {
        if (n < 2) {
            throw new IllegalArgumentException("--n must be >= 2, got " + n);
        }
        if (!(noise >= 0)) {
            throw new IllegalArgumentException("--noise must be >= 0, got " + noise);
        }
        for (double s : sigmas) {
            if (!(s > 0) || Double.isInfinite(s)) {
                throw new IllegalArgumentException("--sigmas: every sigma must be > 0, got " + s);
            }
        }
        if (!(lambda >= 0) || !(psdLambda > 0) || !(psdFrobenius > 0)) {
            throw new IllegalArgumentException("--lambda must be >= 0, --psd-lambda and --psd-frobenius > 0");
        }
        if (testPoints < 2) {
            throw new IllegalArgumentException("--test must be >= 2, got " + testPoints);
        }
        org.psdkit.cli.OutputPaths.check("--out", out);
        KernelSosReproduction.Result res;
        try (ReproProgress progress = new ReproProgress()) {
            res = KernelSosReproduction.run(new KernelSosReproduction.Options(n, noise, sigmas, lambda, psdLambda,
                    psdFrobenius, seed, testPoints, out), progress);
        }
        List<Map<String, Object>> rows = res.rows();
        System.err.printf(Locale.ROOT, "%-12s %6s %10s %10s %10s %10s %8s%n", "method", "sigma", "rmse_true",
                "rmse_test", "min_pred", "alpha_min", "seconds");
        for (Map<String, Object> r : rows) {
            System.err.printf(Locale.ROOT, "%-12s %6.2f %10.4f %10.4f %10.4f %10s %8.2f%n", r.get("method"),
                    (Double) r.get("sigma"), (Double) r.get("rmse_true"), (Double) r.get("rmse_test"),
                    (Double) r.get("min_prediction"),
                    r.get("alpha_min") == null ? "-" : String.format(Locale.ROOT, "%.2e", (Double) r.get("alpha_min")),
                    (Double) r.get("seconds"));
        }
        Map<String, Object> rep = new LinkedHashMap<>();
        rep.put("experiment", "kernel-sos");
        rep.put("n", n);
        rep.put("noise", noise);
        rep.put("lambda", lambda);
        rep.put("psd_lambda", psdLambda);
        rep.put("psd_frobenius", psdFrobenius);
        rep.put("seed", seed);
        rep.put("figure", out.toString());
        rep.put("rows", rows);
        if (!json) {
            System.err.println("wrote " + out);
        }
        Reports.print(json ? rep : Map.of("figure", out.toString()), json);
        return Main.EXIT_OK;
    }
}
