package org.psdkit.cli;

import java.awt.Color;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.psdkit.cli.plot.Figure;
import org.psdkit.cli.plot.Panel;
import org.psdkit.density.BaseMeasure;
import org.psdkit.density.Baselines;
import org.psdkit.density.DensityPipeline;
import org.psdkit.density.DensityModel;
import org.psdkit.density.Kde;
import org.psdkit.density.KernelIntegrals;
import org.psdkit.density.Mixtures;
import org.psdkit.density.PsdDensityEstimator;
import org.psdkit.density.PsdDensityOptions;
import org.psdkit.kernel.GaussianKernel;
import org.psdkit.linalg.Matrix;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code psdkit reproduce density-1d}: seed 002 Fig. 1 (top row). n = 50 points from ½N(−1, 0.3²) + ½N(1, 0.3²)
 * (0.3 read as a standard deviation), Gaussian kernel σ = 1 for every model, λ by 7-fold CV on held-out
 * log-likelihood for each model; PNM, NCM, GLM, the PSD model and a KDE. Lebesgue base measure except GLM, which
 * needs a probability measure (exp(g) → 1 at infinity): uniform on [−4, 4], normaliser from 10 000 draws.
 */
@Command(name = "density-1d", description = "Seed 002 Fig. 1 top row: PNM, NCM, GLM and PSD-model densities in 1-D "
        + "(plus KDE); PNG + table of test log-likelihood and integral.")
public final class ReproduceDensity1dCommand implements Callable<Integer> {
    @Option(names = "--out", defaultValue = "results/density-1d", paramLabel = "DIR",
            description = "Output folder (default: ${DEFAULT-VALUE}).")
    Path out;
    @Option(names = "--seed", defaultValue = "1", description = "Data seed (default: ${DEFAULT-VALUE}).")
    long seed;
    @Option(names = "--folds", defaultValue = "7", description = "CV folds (default: ${DEFAULT-VALUE}, App. E).")
    int folds;
    @Option(names = "--json", description = "Print one JSON object on stdout.")
    boolean json;

    static final double SIGMA = 1.0;
    static final double[] LAMBDAS = {1e-1, 1e-2, 1e-3, 1e-4, 1e-5};
    static final double GLM_BOX = 4.0;

    @Override
    public Integer call() throws Exception {
        if (folds < 2) {
            throw new IllegalArgumentException("--folds must be >= 2, got " + folds);
        }
        Files.createDirectories(out);
        long t0 = System.nanoTime();
        Mixtures.TwoBumps truth = Mixtures.fig1();
        Matrix x = truth.sample(50, seed);
        Matrix test = truth.sample(10_000, seed + 1);
        GaussianKernel k = new GaussianKernel(SIGMA);
        BaseMeasure leb = new BaseMeasure.Lebesgue();
        BaseMeasure box = BaseMeasure.Box.cube(1, -GLM_BOX, GLM_BOX);
        Map<String, Fitter> fitters = new LinkedHashMap<>();
        fitters.put("PNM", (tr, s, l) -> Baselines.pnm(tr, k, leb, l, 1e-7, 20000));
        fitters.put("NCM", (tr, s, l) -> Baselines.ncm(tr, k, leb, l, 1e-7, 20000));
        fitters.put("GLM", (tr, s, l) -> Baselines.glm(tr, k, box, l, 1e-6, 20000, seed));
        fitters.put("PSD", (tr, s, l) -> PsdDensityEstimator.fit(tr, k, leb,
                PsdDensityOptions.of(l, PsdDensityOptions.SEC6_FROBENIUS_RATIO)));
        int gridN = 801;
        Matrix grid = Matrix.zeros(gridN, 1);
        double[] gx = new double[gridN];
        for (int i = 0; i < gridN; i++) {
            gx[i] = -4 + 8.0 * i / (gridN - 1);
            grid.set(i, 0, gx[i]);
        }
        double[] gTruth = truth.density(grid);
        Figure fig = new Figure("Seed 002 Fig. 1 (top): densities from n = 50 points, sigma = 1 (orange: truth)", 3);
        List<Map<String, Object>> table = new ArrayList<>();
        List<String[]> rows = new ArrayList<>();
        for (Map.Entry<String, Fitter> e : fitters.entrySet()) {
            org.psdkit.select.CrossValidation.Result<Double> best;
            try (Progress p = Progress.start("cv " + e.getKey(), (long) LAMBDAS.length * folds)) {
                best = org.psdkit.select.CrossValidation.best(org.psdkit.select.CrossValidation.evaluate(
                        org.psdkit.data.Dataset.of(x, null), org.psdkit.data.Splits.kFold(x.rows(), folds, seed),
                        java.util.Arrays.stream(LAMBDAS).boxed().toList(),
                        l -> DensityPipeline.unscaled(tr -> e.getValue().fit(tr, SIGMA, l)),
                        DensityPipeline::heldOutScores, ev -> p.set(ev.step())), DensityPipeline.HELD_OUT_LOGLIK, false);
            }
            if (best == null) {
                throw new IllegalStateException("cross-validation of " + e.getKey() + ": every lambda failed");
            }
            DensityModel m = e.getValue().fit(x, SIGMA, best.params());
            table.add(row(e.getKey(), best.params(), m, test, grid, gx, leb));
            panel(fig, e.getKey() + " (lambda=" + Reports.fmt(best.params()) + ")", gx, m.density(grid), gTruth, x);
        }
        Kde kde = Kde.fit(x);
        table.add(row("KDE", Double.NaN, kde, test, grid, gx, leb));
        panel(fig, "KDE (h=" + Reports.fmt(kde.bandwidth()) + ", LOO-CV)", gx, kde.density(grid), gTruth, x);
        Map<String, Object> tr = new LinkedHashMap<>();
        tr.put("model", "truth");
        tr.put("test_loglik", truth.meanLogLikelihood(test));
        tr.put("integral", 1.0);
        table.add(tr);
        for (Map<String, Object> r : table) {
            rows.add(new String[] {String.valueOf(r.get("model")), Reports.format(r.getOrDefault("lambda", "")),
                    Reports.format(r.get("test_loglik")), Reports.format(r.get("integral")),
                    Reports.format(r.getOrDefault("min_density", "")),
                    Reports.format(r.getOrDefault("negative_fraction", "")),
                    Reports.format(r.getOrDefault("abs_integral", ""))});
        }
        Path png = out.resolve("density-1d.png");
        fig.save(png);
        Path csv = out.resolve("density-1d.csv");
        Reports.writeCsv(csv, new String[] {"model", "lambda", "test_loglik", "integral", "min_density",
            "negative_fraction", "abs_integral"}, rows);
        Map<String, Object> rep = new LinkedHashMap<>();
        rep.put("experiment", "density-1d");
        rep.put("seconds", (System.nanoTime() - t0) * 1e-9);
        rep.put("png", png.toString());
        rep.put("table_csv", csv.toString());
        rep.put("table", table);
        if (!json) {
            System.err.println(String.format("%-6s %-9s %-12s %-14s %-13s %-10s %-10s", "model", "lambda",
                    "test_loglik", "integral", "min_density", "neg_frac", "|f| int"));
            for (String[] r : rows) {
                System.err.println(String.format("%-6s %-9s %-12s %-14s %-13s %-10s %-10s", (Object[]) r));
            }
        }
        Reports.print(json ? rep : Map.of("png", png.toString(), "table_csv", csv.toString(),
                "seconds", rep.get("seconds")), json);
        return Main.EXIT_OK;
    }

    private static Map<String, Object> row(String name, double lambda, DensityModel m, Matrix test, Matrix grid,
                                           double[] gx, BaseMeasure leb) {
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("model", name);
        if (!Double.isNaN(lambda)) {
            r.put("lambda", lambda);
        }
        r.put("test_loglik", m.meanLogLikelihood(test));
        r.put("integral", m.integral());
        double[] p = m.density(grid);
        double min = Double.POSITIVE_INFINITY;
        int neg = 0;
        for (double v : p) {
            min = Math.min(min, v);
            neg += v < 0 ? 1 : 0;
        }
        r.put("min_density", min);
        r.put("negative_fraction", (double) neg / p.length);
        // ∫ |p| dx over [−10, 10] by Gauss–Legendre (p is smooth; the mass outside is negligible)
        double[][] gl = KernelIntegrals.gaussLegendre(400);
        Matrix nodes = Matrix.zeros(400, 1);
        for (int q = 0; q < 400; q++) {
            nodes.set(q, 0, 10 * gl[0][q]);
        }
        double[] pn = m.density(nodes);
        double abs = 0;
        for (int q = 0; q < 400; q++) {
            abs += 10 * gl[1][q] * Math.abs(pn[q]);
        }
        r.put("abs_integral", abs);
        return r;
    }

    private static void panel(Figure fig, String title, double[] gx, double[] est, double[] truth, Matrix x) {
        Panel p = fig.panel(title).xLabel("x").yLabel("density");
        p.line(gx, new double[gx.length], "zero").color(Color.GRAY).dashed();
        p.line(gx, truth, "truth").color(new Color(0xF5, 0x82, 0x1F));
        p.line(gx, est, "estimate").color(new Color(0x1F, 0x5F, 0xBF));
        double[] xs = x.col(0);
        p.scatter(xs, new double[xs.length], "data").size(3);
        p.legend("upper left");
    }

    /** Fits one density on the rows of train for a grid point (σ, λ). */
    interface Fitter {
        DensityModel fit(Matrix train, double sigma, double lambda);
    }
}
