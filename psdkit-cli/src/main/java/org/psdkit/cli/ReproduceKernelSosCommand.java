package org.psdkit.cli;

import java.awt.Color;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.psdkit.cli.plot.Figure;
import org.psdkit.cli.plot.Panel;
import org.psdkit.kernel.Kernel;
import org.psdkit.kernel.Kernels;
import org.psdkit.linalg.Matrix;
import org.psdkit.model.KernelSos;
import org.psdkit.model.KernelSosExample;
import org.psdkit.psd.PsdModel;
import org.psdkit.psd.PsdOptions;
import org.psdkit.psd.PsdRegression;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code psdkit reproduce kernel-sos}: Fig. 1 of Bagnell &amp; Farahmand (OPT 2015). f_c(x) = sin x + cos 3x − (x/2)² + 3
 * on [−5, 5], 50 points with noise sd 0.5, κ = Gaussian(σ) + 0.01δ for σ ∈ {0.25, 0.75}, λ = 0.01, fitted by the
 * SDP (2); beside it the non-negative-coefficients model with kernel κ² (what (2) relaxes to, seed 002 App. F) and
 * the PSD model of seed 002 (Gaussian(σ), Ω = λ_psd(‖A‖_* + c‖A‖²_F), squared loss (1/2n)Σ(f−y)²) on the same data.
 * Prints a table of test RMSE (against f_c on a grid, and on fresh noisy points) and minimum predicted value.
 */
@Command(name = "kernel-sos", description = "Bagnell & Farahmand Fig. 1: Kernel SoS by its SDP, with NCM (kernel k^2) "
        + "and the seed-002 PSD model on the same data; writes a PNG and prints test RMSE and minimum prediction.")
public final class ReproduceKernelSosCommand implements Callable<Integer> {

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
            description = "PSD model c (default: ${DEFAULT-VALUE}, seed 002 Sec. 6's 0.01/2).")
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
        Reports.checkOutputFolder(out, "--out");
        KernelSosExample.Sample train = KernelSosExample.sample(n, noise, seed);
        KernelSosExample.Sample test = KernelSosExample.sample(testPoints, noise, seed + 1);
        int gridSize = 1001;
        Matrix grid = Matrix.zeros(gridSize, 1);
        double[] gx = new double[gridSize];
        double[] truth = new double[gridSize];
        for (int i = 0; i < gridSize; i++) {
            gx[i] = KernelSosExample.LOW + (KernelSosExample.HIGH - KernelSosExample.LOW) * i / (gridSize - 1);
            grid.set(i, 0, gx[i]);
            truth[i] = KernelSosExample.target(gx[i]);
        }
        Figure fig = new Figure(String.format(Locale.ROOT,
                "Kernel SoS (OPT 2015, Fig. 1): %d points, noise sd %.2g, lambda %.3g", n, noise, lambda), 2);
        List<Map<String, Object>> rows = new ArrayList<>();
        System.err.printf(Locale.ROOT, "%-12s %6s %10s %10s %10s %10s %8s%n", "method", "sigma", "rmse_true",
                "rmse_test", "min_pred", "alpha_min", "seconds");
        for (double sigma : sigmas) {
            Kernel kappa = Kernels.parse(String.format(Locale.ROOT, "gaussian(sigma=%s) + 0.01*delta", sigma));
            long t0 = System.nanoTime();
            KernelSos sos = KernelSos.fit(kappa, train.x(), train.y(), KernelSos.Options.of(lambda));
            double tSos = (System.nanoTime() - t0) * 1e-9;
            t0 = System.nanoTime();
            double[] ncmAlpha = KernelSos.fitNcm(kappa, train.x(), train.y(), lambda);
            KernelSos ncm = KernelSos.of(kappa, train.x(), ncmAlpha);
            double tNcm = (System.nanoTime() - t0) * 1e-9;
            Kernel gauss = Kernels.gaussian(sigma);
            t0 = System.nanoTime();
            PsdModel psd = PsdRegression.fit(gauss, train.x(), train.y(), PsdOptions.paper(psdLambda, psdFrobenius));
            double tPsd = (System.nanoTime() - t0) * 1e-9;

            double[] fSos = sos.values(grid);
            double[] fNcm = ncm.values(grid);
            double[] fPsd = psd.values(grid);
            rows.add(row("kernel-sos", sigma, fSos, truth, sos.values(test.x()), test.y(), sos.alphaMin(), tSos,
                    sos.objective(), sos.lmiMinEigenvalue()));
            rows.add(row("ncm-k2", sigma, fNcm, truth, ncm.values(test.x()), test.y(), ncm.alphaMin(), tNcm,
                    KernelSos.objective(KernelSos.hadamardSquare(kappa.gram(train.x())), train.y(), ncmAlpha, lambda),
                    KernelSos.symmetrizedMinEigenvalue(kappa.gram(train.x()), ncmAlpha)));
            rows.add(row("psd-model", sigma, fPsd, truth, psd.values(test.x()), test.y(), Double.NaN, tPsd,
                    Double.NaN, Double.NaN));
            for (Map<String, Object> r : rows.subList(rows.size() - 3, rows.size())) {
                System.err.printf(Locale.ROOT, "%-12s %6.2f %10.4f %10.4f %10.4f %10s %8.2f%n", r.get("method"), sigma,
                        (Double) r.get("rmse_true"), (Double) r.get("rmse_test"), (Double) r.get("min_prediction"),
                        r.get("alpha_min") == null ? "-" : String.format(Locale.ROOT, "%.2e", (Double) r.get("alpha_min")),
                        (Double) r.get("seconds"));
            }
            Panel p = fig.panel(String.format(Locale.ROOT, "sigma = %.2f", sigma)).xLabel("x").yLabel("f(x)")
                    .xRange(KernelSosExample.LOW, KernelSosExample.HIGH).yRange(-6, 11); // room for the legend
            p.scatter(train.x().col(0), train.y(), "data (n=" + n + ")");
            p.line(gx, truth, "f_c").dashed().color(Color.BLACK);
            p.line(gx, fSos, "Kernel SoS, SDP (2)").color(Panel.PALETTE[0]).width(2.2f);
            p.line(gx, fNcm, "NCM, kernel k^2").color(Panel.PALETTE[2]).dashed();
            p.line(gx, fPsd, "PSD model (seed 002)").color(Panel.PALETTE[1]).width(2.2f);
            p.line(new double[] {KernelSosExample.LOW, KernelSosExample.HIGH}, new double[] {0, 0}, "zero")
                    .color(Color.GRAY);
            p.legend("upper right");
        }
        fig.save(out);
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

    private static Map<String, Object> row(String method, double sigma, double[] onGrid, double[] truth,
                                           double[] onTest, double[] yTest, double alphaMin, double seconds,
                                           double objective, double lmiMin) {
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("method", method);
        r.put("sigma", sigma);
        r.put("rmse_true", rmse(onGrid, truth));
        r.put("rmse_test", rmse(onTest, yTest));
        double min = Double.POSITIVE_INFINITY;
        for (double v : onGrid) {
            min = Math.min(min, v);
        }
        r.put("min_prediction", min);
        r.put("alpha_min", Double.isNaN(alphaMin) ? null : alphaMin);
        r.put("objective", Double.isNaN(objective) ? null : objective);
        r.put("lmi_min_eigenvalue", Double.isNaN(lmiMin) ? null : lmiMin);
        r.put("seconds", seconds);
        return r;
    }

    private static double rmse(double[] a, double[] b) {
        double s = 0;
        for (int i = 0; i < a.length; i++) {
            s += (a[i] - b[i]) * (a[i] - b[i]);
        }
        return Math.sqrt(s / a.length);
    }
}
