package org.psdkit.cli.demo;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.psdkit.cli.Reports;
import org.psdkit.experiments.plot.Figure;
import org.psdkit.experiments.plot.Panel;
import org.psdkit.data.CsvReader;
import org.psdkit.data.Dataset;
import org.psdkit.data.Scaler;
import org.psdkit.data.Splits;
import org.psdkit.kernel.GaussianKernel;
import org.psdkit.linalg.Matrix;
import org.psdkit.regression.KernelRidge;
import org.psdkit.regression.KrrTrainer;
import org.psdkit.model.Metrics;

/**
 * Demo part: Gaussian kernel ridge regression on the yacht hydrodynamics set (shipped in the jar). 80/20 split,
 * 5-fold CV over σ and λ on the training part (z-scored features fitted on training folds only), refit, test
 * metrics against a linear ridge baseline, and a two-panel plot (CV curves; predicted vs actual).
 */
final class KrrDemoPart implements DemoPart {
    static final double[] SIGMAS = {0.3, 0.5, 1, 2, 3, 5, 10};
    static final double[] LAMBDAS = {1e-8, 1e-6, 1e-4, 1e-2};
    static final int FOLDS = 5;

    @Override
    public String id() {
        return "krr";
    }

    @Override
    public String title() {
        return "Kernel ridge regression on yacht hydrodynamics (308 rows, 6 features)";
    }

    @Override
    public Map<String, Object> run(DemoContext ctx) throws Exception {
        Dataset raw = ctx.resourceCsv("yacht.csv", CsvReader.Options.regression());
        Splits.TrainTest tt = Splits.trainTest(raw.n(), 0.2, ctx.seed());
        Dataset train = Splits.subset(raw, tt.train());
        Dataset test = Splits.subset(raw, tt.test());
        ctx.say(String.format(Locale.ROOT, "data: %d rows (%d train / %d test), target '%s'", raw.n(), train.n(),
                test.n(), raw.targetName()));
        // CV over the grid on the training part
        Splits.TrainTest[] folds = Splits.kFold(train.n(), FOLDS, ctx.seed());
        double[][] cvRmse = new double[LAMBDAS.length][SIGMAS.length];
        double bestRmse = Double.POSITIVE_INFINITY;
        double bestSigma = Double.NaN;
        double bestLambda = Double.NaN;
        long t0 = System.nanoTime();
        for (Splits.TrainTest f : folds) {
            Dataset tr = Splits.subset(train, f.train());
            Dataset te = Splits.subset(train, f.test());
            Scaler s = Scaler.fit(Scaler.Kind.ZSCORE, tr.x());
            Matrix xtr = s.apply(tr.x());
            Matrix xte = s.apply(te.x());
            for (int b = 0; b < SIGMAS.length; b++) {
                GaussianKernel k = new GaussianKernel(SIGMAS[b]);
                Matrix gram = k.gram(xtr);
                for (int a = 0; a < LAMBDAS.length; a++) {
                    KernelRidge m = new KrrTrainer(KrrTrainer.Options.of(k, new KernelRidge.Options(LAMBDAS[a],
                            KernelRidge.Form.STANDARD, 0, true), Scaler.Kind.NONE)).fitWithGram(xtr, gram, tr.y(),
                            null);
                    cvRmse[a][b] += Metrics.rmse(te.y(), m.predictVector(xte)) / FOLDS;
                }
            }
        }
        double cvSeconds = (System.nanoTime() - t0) * 1e-9;
        for (int a = 0; a < LAMBDAS.length; a++) {
            for (int b = 0; b < SIGMAS.length; b++) {
                if (cvRmse[a][b] < bestRmse) {
                    bestRmse = cvRmse[a][b];
                    bestSigma = SIGMAS[b];
                    bestLambda = LAMBDAS[a];
                }
            }
        }
        ctx.say(String.format(Locale.ROOT, "%d-fold CV over %d sigma x %d lambda values: best sigma=%s lambda=%s "
                + "(CV RMSE %.3f) in %.2f s", FOLDS, SIGMAS.length, LAMBDAS.length, Reports.fmt(bestSigma),
                Reports.fmt(bestLambda), bestRmse, cvSeconds));
        // refit on the whole training part, evaluate on the test part
        Scaler s = Scaler.fit(Scaler.Kind.ZSCORE, train.x());
        KernelRidge best = KernelRidge.fit(new GaussianKernel(bestSigma), s.apply(train.x()), train.y(),
                new KernelRidge.Options(bestLambda, KernelRidge.Form.STANDARD, 0, true));
        double[] pred = best.predictVector(s.apply(test.x()));
        Map<String, Double> krr = Metrics.regression(test.y(), pred);
        org.psdkit.regression.RidgeRegression lin = new org.psdkit.regression.RidgeTrainer(
                org.psdkit.regression.RidgeTrainer.Options.of(1.0)).fit(Dataset.of(s.apply(train.x()), train.y()))
                .inner();
        double[] linPred = lin.predictVector(s.apply(test.x()));
        Map<String, Double> linear = Metrics.regression(test.y(), linPred);
        ctx.say(String.format(Locale.ROOT, "test set: KRR RMSE %.3f, R2 %.4f   |   linear ridge RMSE %.3f, R2 %.4f",
                krr.get("rmse"), krr.get("r2"), linear.get("rmse"), linear.get("r2")));

        Figure fig = new Figure("psdkit demo: Gaussian kernel ridge regression on yacht hydrodynamics", 2);
        Panel cv = fig.panel(FOLDS + "-fold CV error on the training part").xLabel("Gaussian bandwidth sigma (z-scored features)")
                .yLabel("CV RMSE").logX().logY();
        for (int a = 0; a < LAMBDAS.length; a++) {
            cv.line(SIGMAS, cvRmse[a], "lambda = " + Reports.fmt(LAMBDAS[a]));
        }
        cv.scatter(new double[] {bestSigma}, new double[] {bestRmse}, "selected").size(12).color(java.awt.Color.RED);
        Panel pv = fig.panel("held-out test set (" + test.n() + " rows)").xLabel("actual residuary resistance")
                .yLabel("predicted").legend("upper left");
        double hi = 0;
        for (double v : test.y()) {
            hi = Math.max(hi, v);
        }
        pv.line(new double[] {0, hi}, new double[] {0, hi}, "ideal").color(java.awt.Color.GRAY).dashed().width(1.5f);
        pv.scatter(test.y(), linPred, String.format(Locale.ROOT, "linear ridge (RMSE %.2f)", linear.get("rmse")));
        pv.scatter(test.y(), pred, String.format(Locale.ROOT, "KRR (RMSE %.2f)", krr.get("rmse")));
        Path png = ctx.png(fig, id());
        ctx.say("plot: " + png);

        Map<String, Object> r = new LinkedHashMap<>();
        r.put("sigma", bestSigma);
        r.put("lambda", bestLambda);
        r.put("cvRmse", bestRmse);
        r.put("testRmse", krr.get("rmse"));
        r.put("testR2", krr.get("r2"));
        r.put("linearRidgeTestRmse", linear.get("rmse"));
        r.put("plot", png.toString());
        return r;
    }
}
