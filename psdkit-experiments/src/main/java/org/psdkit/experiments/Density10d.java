package org.psdkit.experiments;

import java.awt.Color;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.psdkit.experiments.plot.Figure;
import org.psdkit.experiments.plot.Panel;
import org.psdkit.data.Splits;
import org.psdkit.density.BaseMeasure;
import org.psdkit.density.BaselineOptions;
import org.psdkit.density.Baselines;
import org.psdkit.density.DensityPipeline;
import org.psdkit.density.DensityModel;
import org.psdkit.density.ImportanceIntegral;
import org.psdkit.density.Kde;
import org.psdkit.density.LinearDensity;
import org.psdkit.density.Mixtures;
import org.psdkit.density.PsdDensityEstimator;
import org.psdkit.density.PsdDensityOptions;
import org.psdkit.density.PsdDensityTrainer;
import org.psdkit.kernel.GaussianKernel;
import org.psdkit.linalg.LinalgException;
import org.psdkit.linalg.Matrix;

/**
 * Marteau-Ferey, Bach &amp; Rudi (2020), App. E. d = 10, n = 1000 from ½N(−2e₁, s²I) + ½N(2e₁, s²I) with
 * s = 1/√(2π) a per-coordinate standard deviation; p = f·ν with ν = N(0, 5I) read by default as standard deviation 5
 * (the authors' public code; base {@code gaussian(mu=0,sigma2=5)} gives the variance reading); σ and λ by K-fold CV
 * on held-out log-likelihood for each model. To fit the time budget the PSD model and GLM are expanded on
 * {@code anchors} random training points (Nyström) and CV fits stop at a looser gap ({@code cvTol}).
 */
public final class Density10d {

    private Density10d() {
    }

    /**
     * Data seed, training points n, CV folds, base measure spec ({@link BaseMeasure#parse}), the σ and λ grids, the
     * Nyström anchors of the PSD model and GLM, the gap and iteration cap of the CV fits, and the output folder.
     */
    public record Options(long seed, int n, int folds, String base, double[] sigmas, double[] lambdas, int anchors,
                          double cvTol, int cvMaxIter, Path outDir) {
        public Options {
            if (folds < 2 || n < 10 || anchors < 1 || !(cvTol > 0) || cvMaxIter < 1) {
                throw new IllegalArgumentException("need folds >= 2, n >= 10, anchors >= 1, cvTol > 0, "
                        + "cvMaxIter >= 1");
            }
            for (double s : sigmas) {
                if (!(s > 0)) {
                    throw new IllegalArgumentException("sigmas must be > 0, got " + s);
                }
            }
            for (double l : lambdas) {
                if (!(l > 0)) {
                    throw new IllegalArgumentException("lambdas must be > 0, got " + l);
                }
            }
            sigmas = sigmas.clone();
            lambdas = lambdas.clone();
        }
    }

    /**
     * One row per model (PNM, PSD, NCM, GLM, KDE, truth; the keys of {@link #COLUMNS} that apply), the base measure
     * used, the figure written and the seconds taken. {@code failures} lists the (σ, λ) whose fits failed in
     * cross-validation (they are left out of the choice) and a failed final fit ({@link Failures}); a model whose
     * every grid point failed has only {@code model}, {@code cv_seconds} and {@code failures}, one whose final fit
     * failed also the choice and its {@code cv_loglik}; neither has a panel in the figure.
     */
    public record Result(List<Map<String, Object>> table, String base, Path png, double seconds) {
    }

    /** The table's columns, in order. */
    public static final List<String> COLUMNS = List.of("model", "sigma", "lambda", "cv_loglik", "test_loglik",
            "test_nonpositive", "test_score_floored", "integral", "test_loglik_renormalised", "final_gap",
            "negative_fraction_plot_points", "abs_integral_is", "cv_seconds", "failures");

    static final int PLOT_POINTS = 500;
    /** Relative gap and iteration cap of the final fit on all n points (looser than 1e-6 to fit the time budget). */
    static final double FINAL_TOL = 1e-5;
    static final int FINAL_MAX_ITER = 3000;

    /** Selects σ and λ by CV for each model, fits it on all points and writes {@code density-10d.png}. */
    public static Result run(Options o, ExperimentListener listener) throws IOException {
        ExperimentListener lis = ExperimentListener.orNone(listener);
        long seed = o.seed();
        int n = o.n();
        int folds = o.folds();
        double[] sigmas = o.sigmas();
        double[] lambdas = o.lambdas();
        double cvTol = o.cvTol();
        int cvMaxIter = o.cvMaxIter();
        int anchors = o.anchors();
        Path out = o.outDir();
        String base = o.base();
        int d = 10;
        BaseMeasure nu = BaseMeasure.parse(base, d);
        Files.createDirectories(out);
        long t0 = System.nanoTime();
        Mixtures.TwoBumps truth = Mixtures.appE();
        Matrix x = truth.sample(n, seed);
        Matrix test = truth.sample(2000, seed + 1);
        Map<String, Fit> fitters = new LinkedHashMap<>();
        fitters.put("PNM", (tr, s, l, tol, it) -> Baselines.pnm(tr, null,
                new BaselineOptions(new GaussianKernel(s), nu, l, tol, it, seed, null, null)));
        fitters.put("PSD", (tr, s, l, tol, it) -> PsdDensityEstimator.fit(tr, anchorsOf(tr, anchors, seed),
                PsdDensityTrainer.Options.of(new GaussianKernel(s), nu, PsdDensityOptions.of(l,
                        PsdDensityOptions.APPE_FROBENIUS_RATIO).withTolerance(tol).withMaxIterations(it)), null));
        fitters.put("NCM", (tr, s, l, tol, it) -> Baselines.ncm(tr, null,
                new BaselineOptions(new GaussianKernel(s), nu, l, tol, it, seed, null, null)));
        fitters.put("GLM", (tr, s, l, tol, it) -> Baselines.glm(tr, anchorsOf(tr, anchors, seed),
                new BaselineOptions(new GaussianKernel(s), nu, l, tol, it, seed, null, null)));
        // plot points of App. E Fig. 3: uniform on [−2.5, 2.5]^10, true samples, the line [−4, 4] × 0
        SplittableRandom r = new SplittableRandom(seed + 7);
        Matrix pts = Matrix.zeros(3 * PLOT_POINTS, d);
        Matrix fromTruth = truth.sample(PLOT_POINTS, seed + 3);
        for (int i = 0; i < PLOT_POINTS; i++) {
            for (int t = 0; t < d; t++) {
                pts.set(i, t, 5 * (r.nextDouble() - 0.5));
                pts.set(PLOT_POINTS + i, t, fromTruth.get(i, t));
            }
            pts.set(2 * PLOT_POINTS + i, 0, -4 + 8.0 * i / (PLOT_POINTS - 1));
        }
        double[] px = pts.col(0);
        double[] pTruth = truth.density(pts);
        Figure fig = new Figure("Marteau-Ferey, Bach & Rudi 2020, App. E Fig. 3: learned p(x) projected on x1 (d = 10, n = " + n + ", base "
                + nu.spec() + ")", 3);
        List<Map<String, Object>> table = new ArrayList<>();
        for (Map.Entry<String, Fit> e : fitters.entrySet()) {
            Fit f = e.getValue();
            org.psdkit.select.CrossValidation.Result<double[]> best;
            long c0 = System.nanoTime();
            String task = "cv " + e.getKey();
            long total = (long) sigmas.length * lambdas.length * folds;
            lis.step(task, 0, total, t0);
            String failures;
            {
                List<double[]> points = new ArrayList<>();
                for (double s : sigmas) {
                    for (double l : lambdas) {
                        points.add(new double[] {s, l});
                    }
                }
                List<org.psdkit.select.CrossValidation.Result<double[]>> cv = org.psdkit.select.CrossValidation.evaluate(
                        org.psdkit.data.Dataset.of(x, null), Splits.kFold(x.rows(), folds, seed), points,
                        sl -> DensityPipeline.unscaled(tr -> f.fit(tr, sl[0], sl[1], cvTol, cvMaxIter)),
                        DensityPipeline::heldOutScores, ev -> lis.step(task, ev.step(), total, t0));
                best = org.psdkit.select.CrossValidation.best(cv, DensityPipeline.HELD_OUT_LOGLIK, false);
                failures = Failures.ofCrossValidation(cv, Density10d::label);
            }
            double cvSecs = (System.nanoTime() - c0) * 1e-9;
            if (failures != null) {
                lis.note(e.getKey() + ": " + failures);
            }
            if (best == null) {
                // every grid point failed (e.g. GLM's normaliser unreliable everywhere): a row without numbers
                Map<String, Object> row = new LinkedHashMap<>();
                row.put("model", e.getKey());
                row.put("cv_seconds", cvSecs);
                row.put("failures", failures);
                table.add(row);
                continue;
            }
            DensityModel m;
            try {
                m = f.fit(x, best.params()[0], best.params()[1], FINAL_TOL, FINAL_MAX_ITER);
            } catch (LinalgException | ArithmeticException | IllegalStateException ex) {
                // the numerical failures that cross-validation records: the choice stays, without numbers
                String fin = Failures.ofFinalFit(label(best.params()), ex);
                lis.note(e.getKey() + ": " + fin);
                Map<String, Object> row = new LinkedHashMap<>();
                row.put("model", e.getKey());
                row.put("sigma", best.params()[0]);
                row.put("lambda", best.params()[1]);
                row.put("cv_loglik", best.mean(DensityPipeline.HELD_OUT_LOGLIK));
                row.put("cv_seconds", cvSecs);
                row.put("failures", Failures.join(failures, fin));
                table.add(row);
                continue;
            }
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("model", e.getKey());
            row.put("sigma", best.params()[0]);
            row.put("lambda", best.params()[1]);
            row.put("cv_loglik", best.mean(DensityPipeline.HELD_OUT_LOGLIK));
            boolean finite = TestLikelihood.put(row, "test_loglik", m, test, 0);
            row.put("test_score_floored", DensityPipeline.heldOutScore(m, test));
            double integral = m.integral();
            row.put("integral", integral);
            if (finite && integral > 0) {
                TestLikelihood.put(row, "test_loglik_renormalised", m, test, Math.log(integral));
            }
            if (m instanceof org.psdkit.density.PsdDensity p) {
                row.put("final_gap", p.diagnostics().relativeGap());
            }
            double[] p = m.density(pts);
            int neg = 0;
            for (double v : p) {
                neg += v < 0 ? 1 : 0;
            }
            row.put("negative_fraction_plot_points", (double) neg / p.length);
            if (m instanceof LinearDensity lin && e.getKey().equals("PNM")) {
                row.put("abs_integral_is", absIntegral(lin, nu, seed + 11));
            }
            row.put("cv_seconds", cvSecs);
            if (failures != null) {
                row.put("failures", failures);
            }
            table.add(row);
            Panel pan = fig.panel(e.getKey() + " (sigma=" + Numbers.fmt(best.params()[0]) + ", lambda="
                    + Numbers.fmt(best.params()[1]) + ")").xLabel("x1").yLabel("p(x)");
            pan.scatter(px, pTruth, "truth").color(new Color(0xF5, 0x82, 0x1F)).size(2);
            pan.scatter(px, p, "model").color(new Color(0x1F, 0x5F, 0xBF)).size(2);
            pan.legend("upper left");
        }
        Kde kde = Kde.fit(x);
        Map<String, Object> kr = new LinkedHashMap<>();
        kr.put("model", "KDE");
        kr.put("sigma", kde.bandwidth());
        TestLikelihood.put(kr, "test_loglik", kde, test, 0);
        kr.put("integral", 1.0);
        table.add(kr);
        Panel pk = fig.panel("KDE (h=" + Numbers.fmt(kde.bandwidth()) + ", LOO-CV)").xLabel("x1").yLabel("p(x)");
        pk.scatter(px, pTruth, "truth").color(new Color(0xF5, 0x82, 0x1F)).size(2);
        pk.scatter(px, kde.density(pts), "model").color(new Color(0x1F, 0x5F, 0xBF)).size(2);
        pk.legend("upper left");
        Map<String, Object> tr = new LinkedHashMap<>();
        tr.put("model", "truth");
        tr.put("test_loglik", truth.meanLogLikelihood(test));
        table.add(tr);
        Path png = out.resolve("density-10d.png");
        fig.save(png);
        return new Result(table, nu.spec(), png, (System.nanoTime() - t0) * 1e-9);
    }

    private static String label(double[] sigmaLambda) {
        return "sigma=" + Numbers.fmt(sigmaLambda[0]) + ", lambda=" + Numbers.fmt(sigmaLambda[1]);
    }

    private static Matrix anchorsOf(Matrix tr, int anchors, long seed) {
        if (anchors >= tr.rows()) {
            return null;
        }
        return tr.selectRows(java.util.Arrays.copyOf(Splits.permutation(tr.rows(), seed), anchors));
    }

    /** ∫ |f| dν by defensive importance sampling around the data: ≫ 1 when PNM borrows mass from negative regions. */
    static double absIntegral(LinearDensity m, BaseMeasure nu, long seed) {
        return ImportanceIntegral.integrate(m.points(), nu, z -> {
            double[] f = m.f(z);
            for (int i = 0; i < f.length; i++) {
                f[i] = Math.log(Math.abs(f[i]));
            }
            return f;
        }, seed, 100_000);
    }

    interface Fit {
        DensityModel fit(Matrix train, double sigma, double lambda, double tol, int maxIter);
    }
}
