package org.psdkit.cli.demo;

import java.awt.Color;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import org.psdkit.cli.Reports;
import org.psdkit.experiments.plot.Figure;
import org.psdkit.experiments.plot.Panel;
import org.psdkit.kernel.GaussianKernel;
import org.psdkit.linalg.Matrix;
import org.psdkit.regression.KernelRidge;
import org.psdkit.regression.psd.Baselines;
import org.psdkit.regression.psd.KernelExpansionModel;
import org.psdkit.regression.psd.NonNegativeRegressionModel;
import org.psdkit.psd.PsdModel;
import org.psdkit.psd.PsdOptions;
import org.psdkit.regression.psd.BaselineTrainer;
import org.psdkit.regression.psd.PsdRegressionTrainer;

/**
 * Demo part: a non-negative function that touches zero, g(x) = max(0, sin x)·x² on [−3, 3], from noisy samples.
 * The PSD model is non-negative everywhere by construction; kernel ridge regression dips below zero where g is
 * flat at 0; the non-negative coefficient model (NCM) stays non-negative but cannot follow the sharp corner.
 */
final class PsdDemoPart implements DemoPart {
    static final int N = 150;
    static final double NOISE_SD = 0.3;
    static final double SIGMA = 0.5;
    /** PSD model: λ₁ = λ₂ (the 1/(2n) squared-loss convention). */
    static final double PSD_LAMBDA = 1e-3;
    /** KRR: (K + λI)α = y. */
    static final double KRR_LAMBDA = 0.3;
    /** NCM: (λ/2)αᵀKα with the 1/(2n) squared loss. */
    static final double NCM_LAMBDA = 1e-4;
    static final int GRID = 601;

    @Override
    public String id() {
        return "psd";
    }

    @Override
    public String title() {
        return "Non-negative regression with a PSD model: max(0, sin x) x^2 from noisy samples";
    }

    static double truth(double x) {
        return Math.max(0, Math.sin(x)) * x * x;
    }

    @Override
    public Map<String, Object> run(DemoContext ctx) throws Exception {
        Random rnd = new Random(ctx.seed());
        Matrix x = Matrix.zeros(N, 1);
        double[] y = new double[N];
        for (int i = 0; i < N; i++) {
            double t = -3 + 6 * rnd.nextDouble();
            x.set(i, 0, t);
            y[i] = truth(t) + NOISE_SD * rnd.nextGaussian();
        }
        ctx.say(String.format(Locale.ROOT, "data: %d points x ~ U[-3,3], y = max(0, sin x) x^2 + N(0, %.1f^2); "
                + "Gaussian kernel sigma = %s", N, NOISE_SD, Reports.fmt(SIGMA)));
        GaussianKernel k = new GaussianKernel(SIGMA);
        org.psdkit.data.Dataset train = org.psdkit.data.Dataset.of(x, y);
        PsdModel psd = new PsdRegressionTrainer(PsdRegressionTrainer.Options.of(k,
                PsdOptions.of(PSD_LAMBDA, PSD_LAMBDA).withTolerance(1e-7))).fit(train).inner();
        KernelRidge krr = KernelRidge.fit(k, x, y, KernelRidge.Options.standard(KRR_LAMBDA));
        KernelExpansionModel ncm = new BaselineTrainer(BaselineTrainer.Options.of(BaselineTrainer.Method.NCM, k,
                Baselines.Options.of(NCM_LAMBDA).withMaxIterations(5000))).fit(train).inner();
        Matrix g = Matrix.zeros(GRID, 1);
        double[] gx = new double[GRID];
        double[] gt = new double[GRID];
        for (int i = 0; i < GRID; i++) {
            gx[i] = -3 + 6.0 * i / (GRID - 1);
            g.set(i, 0, gx[i]);
            gt[i] = truth(gx[i]);
        }
        double[] fp = psd.values(g);
        double[] fk = krr.predictVector(g);
        double[] fn = ncm.values(g);
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("psd_rmse_vs_truth", rmse(fp, gt));
        r.put("krr_rmse_vs_truth", rmse(fk, gt));
        r.put("ncm_rmse_vs_truth", rmse(fn, gt));
        r.put("psd_min", NonNegativeRegressionModel.minimum(fp));
        r.put("krr_min", NonNegativeRegressionModel.minimum(fk));
        r.put("ncm_min", NonNegativeRegressionModel.minimum(fn));
        r.put("psd_iterations", psd.diagnostics().iterations());
        r.put("psd_relative_gap", psd.diagnostics().relativeGap());
        r.put("psd_rank", psd.rank());
        ctx.say(String.format(Locale.ROOT, "PSD model: RMSE vs truth %.3f, min on [-3,3] %.3g (rank %d, %d FISTA "
                        + "iterations, relative gap %.1e)", r.get("psd_rmse_vs_truth"), r.get("psd_min"), psd.rank(),
                psd.diagnostics().iterations(), psd.diagnostics().relativeGap()));
        ctx.say(String.format(Locale.ROOT, "KRR:       RMSE vs truth %.3f, min on [-3,3] %.3g  <- negative",
                r.get("krr_rmse_vs_truth"), r.get("krr_min")));
        ctx.say(String.format(Locale.ROOT, "NCM:       RMSE vs truth %.3f, min on [-3,3] %.3g",
                r.get("ncm_rmse_vs_truth"), r.get("ncm_min")));
        Figure fig = new Figure("max(0, sin x) x^2 + noise", 1);
        Panel p = fig.panel("PSD model vs kernel ridge regression vs NCM").xLabel("x").yLabel("f(x)")
                .legend("upper left");
        p.scatter(x.col(0), y, "data").color(Color.LIGHT_GRAY).size(5);
        p.line(gx, gt, "truth").color(Color.BLACK).dashed();
        p.line(new double[] {-3, 3}, new double[] {0, 0}, "").color(Color.GRAY).width(1f);
        p.line(gx, fk, String.format(Locale.ROOT, "KRR (min %.2f)", NonNegativeRegressionModel.minimum(fk)));
        p.line(gx, fn, "NCM");
        p.line(gx, fp, String.format(Locale.ROOT, "PSD model (min %.1e)", NonNegativeRegressionModel.minimum(fp)))
                .width(2.5f);
        Path png = ctx.png(fig, id());
        ctx.say("plot: " + png);
        r.put("plot", png.toString());
        return r;
    }

    static double rmse(double[] a, double[] b) {
        double s = 0;
        for (int i = 0; i < a.length; i++) {
            s += (a[i] - b[i]) * (a[i] - b[i]);
        }
        return Math.sqrt(s / a.length);
    }
}
