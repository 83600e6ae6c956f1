package org.psdkit.experiments;

import java.awt.Color;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.psdkit.experiments.plot.Figure;
import org.psdkit.experiments.plot.Panel;
import org.psdkit.experiments.toy.KernelSosExample;
import org.psdkit.kernel.Kernel;
import org.psdkit.kernel.Kernels;
import org.psdkit.linalg.Matrix;
import org.psdkit.psd.PsdModel;
import org.psdkit.psd.PsdOptions;
import org.psdkit.regression.psd.PsdRegression;
import org.psdkit.sos.KernelSos;

/**
 * Fig. 1 of Bagnell &amp; Farahmand (2015). f_c(x) = sin x + cos 3x − (x/2)² + 3 on [−5, 5], 50 points with noise
 * sd 0.5, κ = Gaussian(σ) + 0.01δ for σ ∈ {0.25, 0.75}, λ = 0.01, fitted by the SDP (Bagnell &amp; Farahmand 2015,
 * eq. 2); beside it the non-negative-coefficients model with kernel κ² (what eq. 2 relaxes to, Marteau-Ferey, Bach
 * &amp; Rudi 2020, App. F) and the PSD model of Marteau-Ferey, Bach &amp; Rudi (2020) (Gaussian(σ),
 * Ω = λ_psd(‖A‖_* + c‖A‖²_F), squared loss (1/2n)Σ(f−y)²) on the same data. Each row holds the test RMSE (against
 * f_c on a grid, and on fresh noisy points) and the minimum predicted value.
 */
public final class KernelSosReproduction {

    private KernelSosReproduction() {
    }

    /**
     * The experiment's parameters: n training points with noise sd {@code noise}, Gaussian widths, λ of Kernel SoS
     * and NCM, λ and c of the PSD model, data seed, test points and the figure file (PNG, or PDF by its name).
     */
    public record Options(int n, double noise, double[] sigmas, double lambda, double psdLambda,
                          double psdFrobenius, long seed, int testPoints, Path figure) {
        public Options {
            if (n < 2) {
                throw new IllegalArgumentException("n must be >= 2, got " + n);
            }
            if (!(noise >= 0)) {
                throw new IllegalArgumentException("noise must be >= 0, got " + noise);
            }
            for (double s : sigmas) {
                if (!(s > 0) || Double.isInfinite(s)) {
                    throw new IllegalArgumentException("sigmas: every sigma must be > 0, got " + s);
                }
            }
            if (!(lambda >= 0) || !(psdLambda > 0) || !(psdFrobenius > 0)) {
                throw new IllegalArgumentException("lambda must be >= 0, psdLambda and psdFrobenius > 0");
            }
            if (testPoints < 2) {
                throw new IllegalArgumentException("testPoints must be >= 2, got " + testPoints);
            }
            Figure.format(figure); // an unsupported format fails before any work
            sigmas = sigmas.clone();
        }
    }

    /**
     * One row per method and σ (keys method, sigma, rmse_true, rmse_test, min_prediction, alpha_min, objective,
     * lmi_min_eigenvalue, seconds; null where a method has no such number), and the figure written.
     */
    public record Result(List<Map<String, Object>> rows, Path figure) {
    }

    /** Fits the three models for each σ and writes the figure. */
    public static Result run(Options o, ExperimentListener listener) throws IOException {
        listener = ExperimentListener.orNone(listener);
        int n = o.n();
        double noise = o.noise();
        double lambda = o.lambda();
        double[] sigmas = o.sigmas();
        long seed = o.seed();
        int testPoints = o.testPoints();
        double psdLambda = o.psdLambda();
        double psdFrobenius = o.psdFrobenius();
        long start = System.nanoTime();
        int done = 0;
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
        for (double sigma : sigmas) {
            Kernel kappa = Kernels.parse(String.format(Locale.ROOT, "gaussian(sigma=%s) + 0.01*delta", sigma));
            listener.step("kernel-sos", done, sigmas.length, start);
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
            Panel p = fig.panel(String.format(Locale.ROOT, "sigma = %.2f", sigma)).xLabel("x").yLabel("f(x)")
                    .xRange(KernelSosExample.LOW, KernelSosExample.HIGH).yRange(-6, 11); // room for the legend
            p.scatter(train.x().col(0), train.y(), "data (n=" + n + ")");
            p.line(gx, truth, "f_c").dashed().color(Color.BLACK);
            p.line(gx, fSos, "Kernel SoS, SDP (2)").color(Panel.PALETTE[0]).width(2.2f);
            p.line(gx, fNcm, "NCM, kernel k^2").color(Panel.PALETTE[2]).dashed();
            p.line(gx, fPsd, "PSD model (Marteau-Ferey et al.)").color(Panel.PALETTE[1]).width(2.2f);
            p.line(new double[] {KernelSosExample.LOW, KernelSosExample.HIGH}, new double[] {0, 0}, "zero")
                    .color(Color.GRAY);
            p.legend("upper right");
            listener.step("kernel-sos", ++done, sigmas.length, start);
        }
        fig.save(o.figure());
        return new Result(rows, o.figure());
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
