package org.psdkit.experiments;

import java.awt.Color;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.psdkit.experiments.plot.Figure;
import org.psdkit.experiments.plot.Panel;
import org.psdkit.density.BaseMeasure;
import org.psdkit.density.BaselineOptions;
import org.psdkit.density.Baselines;
import org.psdkit.density.DensityPipeline;
import org.psdkit.density.DensityModel;
import org.psdkit.density.Kde;
import org.psdkit.density.KernelIntegrals;
import org.psdkit.density.Mixtures;
import org.psdkit.density.PsdDensityEstimator;
import org.psdkit.density.PsdDensityOptions;
import org.psdkit.density.PsdDensityTrainer;
import org.psdkit.kernel.GaussianKernel;
import org.psdkit.linalg.LinalgException;
import org.psdkit.linalg.Matrix;

/**
 * Marteau-Ferey, Bach &amp; Rudi (2020), Fig. 1 (top row). n = 50 points from ½N(−1, 0.3²) + ½N(1, 0.3²)
 * (0.3 read as a standard deviation), Gaussian kernel σ = 1 for every model, λ by 7-fold CV on held-out
 * log-likelihood for each model; PNM, NCM, GLM, the PSD model and a KDE. Lebesgue base measure except GLM, which
 * needs a probability measure (exp(g) → 1 at infinity): uniform on [−4, 4], normaliser from 10 000 draws.
 */
public final class Density1d {

    private Density1d() {
    }

    /** Data seed, CV folds (at least 2) and the output folder of the figure. */
    public record Options(long seed, int folds, Path outDir) {
        public Options {
            if (folds < 2 || folds > N) {
                throw new org.psdkit.model.ParameterException("folds", "must be in [2, " + N + "] (the training points), got "
                        + folds);
            }
        }
    }

    /**
     * One row per model (keys model, lambda, test_loglik, integral, min_density, negative_fraction, abs_integral;
     * the KDE has no lambda, the truth only test_loglik and integral; a model not positive at some test points has
     * test_nonpositive, their number, instead of test_loglik: {@link TestLikelihood}), the figure written and the
     * seconds taken.
     * {@code failures} lists the λ whose fits failed in cross-validation and a failed final fit ({@link Failures}); a
     * model whose every λ failed has only {@code model} and {@code failures}, one whose final fit failed also its
     * lambda; neither has a panel.
     */
    public record Result(List<Map<String, Object>> table, Path png, double seconds) {
    }

    /** The table's columns, in order. */
    public static final List<String> COLUMNS = List.of("model", "lambda", "test_loglik", "test_nonpositive",
            "integral", "min_density", "negative_fraction", "abs_integral", "failures");

    /** Training points (the paper's n = 50). */
    public static final int N = 50;
    static final double SIGMA = 1.0;
    static final double[] LAMBDAS = {1e-1, 1e-2, 1e-3, 1e-4, 1e-5};
    static final double GLM_BOX = 4.0;

    /** Fits the four models and the KDE, and writes {@code density-1d.png} into the output folder. */
    public static Result run(Options o, ExperimentListener listener) throws IOException {
        ExperimentListener lis = ExperimentListener.orNone(listener);
        Path out = o.outDir();
        long seed = o.seed();
        int folds = o.folds();
        Files.createDirectories(out);
        long t0 = System.nanoTime();
        Mixtures.TwoBumps truth = Mixtures.fig1();
        Matrix x = truth.sample(N, seed);
        Matrix test = truth.sample(10_000, seed + 1);
        GaussianKernel k = new GaussianKernel(SIGMA);
        BaseMeasure leb = new BaseMeasure.Lebesgue();
        BaseMeasure box = BaseMeasure.Box.cube(1, -GLM_BOX, GLM_BOX);
        Map<String, Fitter> fitters = new LinkedHashMap<>();
        // the exact models (no anchors) on the training points as they are (no scaling)
        fitters.put("PNM", (tr, s, l) -> Baselines.pnm(tr, null, new BaselineOptions(k, leb, l, 1e-7, 20000, seed,
                null, null)));
        fitters.put("NCM", (tr, s, l) -> Baselines.ncm(tr, null, new BaselineOptions(k, leb, l, 1e-7, 20000, seed,
                null, null)));
        fitters.put("GLM", (tr, s, l) -> Baselines.glm(tr, null, new BaselineOptions(k, box, l, 1e-6, 20000, seed,
                null, null)));
        fitters.put("PSD", (tr, s, l) -> PsdDensityEstimator.fit(tr, null, PsdDensityTrainer.Options.of(k, leb,
                PsdDensityOptions.of(l, PsdDensityOptions.SEC6_FROBENIUS_RATIO)), null));
        int gridN = 801;
        Matrix grid = Matrix.zeros(gridN, 1);
        double[] gx = new double[gridN];
        for (int i = 0; i < gridN; i++) {
            gx[i] = -4 + 8.0 * i / (gridN - 1);
            grid.set(i, 0, gx[i]);
        }
        double[] gTruth = truth.density(grid);
        Figure fig = new Figure("Marteau-Ferey, Bach & Rudi 2020, Fig. 1 (top): densities from n = 50 points, "
                + "sigma = 1 (orange: truth)", 3);
        List<Map<String, Object>> table = new ArrayList<>();
        for (Map.Entry<String, Fitter> e : fitters.entrySet()) {
            org.psdkit.select.CrossValidation.Result<Double> best;
            String task = "cv " + e.getKey();
            long total = (long) LAMBDAS.length * folds;
            lis.step(task, 0, total, t0);
            String failures;
            {
                List<org.psdkit.select.CrossValidation.Result<Double>> cv = org.psdkit.select.CrossValidation.evaluate(
                        org.psdkit.data.Dataset.of(x, null), org.psdkit.data.Splits.kFold(x.rows(), folds, seed),
                        java.util.Arrays.stream(LAMBDAS).boxed().toList(),
                        l -> DensityPipeline.unscaled(tr -> e.getValue().fit(tr, SIGMA, l)),
                        DensityPipeline::heldOutScores, ev -> lis.step(task, ev.step(), total, t0));
                best = org.psdkit.select.CrossValidation.best(cv, DensityPipeline.HELD_OUT_LOGLIK, false);
                failures = Failures.ofCrossValidation(cv, l -> "lambda=" + Numbers.fmt(l));
            }
            if (failures != null) {
                lis.note(e.getKey() + ": " + failures);
            }
            if (best == null) {
                // every λ failed: a row without numbers
                Map<String, Object> r = new LinkedHashMap<>();
                r.put("model", e.getKey());
                r.put("failures", failures);
                table.add(r);
                continue;
            }
            DensityModel m;
            try {
                m = e.getValue().fit(x, SIGMA, best.params());
            } catch (LinalgException | ArithmeticException | IllegalStateException ex) {
                // the numerical failures that cross-validation records: the choice stays, without numbers
                String fin = Failures.ofFinalFit("lambda=" + Numbers.fmt(best.params()), ex);
                lis.note(e.getKey() + ": " + fin);
                Map<String, Object> r = new LinkedHashMap<>();
                r.put("model", e.getKey());
                r.put("lambda", best.params());
                r.put("failures", Failures.join(failures, fin));
                table.add(r);
                continue;
            }
            Map<String, Object> r = row(e.getKey(), best.params(), m, test, grid, gx, leb);
            if (failures != null) {
                r.put("failures", failures);
            }
            table.add(r);
            panel(fig, e.getKey() + " (lambda=" + Numbers.fmt(best.params()) + ")", gx, m.density(grid), gTruth, x);
        }
        Kde kde = Kde.fit(x);
        table.add(row("KDE", Double.NaN, kde, test, grid, gx, leb));
        panel(fig, "KDE (h=" + Numbers.fmt(kde.bandwidth()) + ", LOO-CV)", gx, kde.density(grid), gTruth, x);
        Map<String, Object> tr = new LinkedHashMap<>();
        tr.put("model", "truth");
        tr.put("test_loglik", truth.meanLogLikelihood(test));
        tr.put("integral", 1.0);
        table.add(tr);
        Path png = out.resolve("density-1d.png");
        fig.save(png);
        return new Result(table, png, (System.nanoTime() - t0) * 1e-9);
    }

    private static Map<String, Object> row(String name, double lambda, DensityModel m, Matrix test, Matrix grid,
                                           double[] gx, BaseMeasure leb) {
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("model", name);
        if (!Double.isNaN(lambda)) {
            r.put("lambda", lambda);
        }
        TestLikelihood.put(r, "test_loglik", m, test, 0);
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
