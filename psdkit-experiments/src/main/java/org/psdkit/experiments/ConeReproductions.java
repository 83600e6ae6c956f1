package org.psdkit.experiments;

import java.awt.Color;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.psdkit.cone.ConeDualSolver;
import org.psdkit.cone.ConeGrid;
import org.psdkit.cone.hetero.HeteroModel;
import org.psdkit.cone.hetero.HeteroPipeline;
import org.psdkit.cone.hetero.HeteroTrainer;
import org.psdkit.cone.hetero.HeteroscedasticRegression;
import org.psdkit.cone.quantile.QuantileModel;
import org.psdkit.cone.quantile.QuantilePipeline;
import org.psdkit.cone.quantile.QuantileTrainer;
import org.psdkit.cone.quantile.QuantileRegression;
import org.psdkit.data.Dataset;
import org.psdkit.experiments.plot.Figure;
import org.psdkit.experiments.plot.Panel;
import org.psdkit.experiments.toy.HeteroscedasticToy;
import org.psdkit.experiments.toy.QuantileToy;
import org.psdkit.kernel.Kernel;
import org.psdkit.kernel.Kernels;
import org.psdkit.linalg.Matrix;

/** Heteroscedastic and quantile regression: Marteau-Ferey, Bach &amp; Rudi (2020), Fig. 1, centre and bottom rows. */
public final class ConeReproductions {

    private ConeReproductions() {
    }

    /** Seed of the training sample (the paper's own sample is not published). */
    static final long TRAIN_SEED = 1;
    /** Seed of the independent test sample. */
    static final long TEST_SEED = 2;
    /** Evaluation grid resolution of the plots and of the dense crossing counts. */
    static final int GRID = 1001;

    static Matrix grid(double lo, double hi, int n) {
        Matrix g = Matrix.zeros(n, 1);
        for (int i = 0; i < n; i++) {
            g.set(i, 0, lo + (hi - lo) * i / (n - 1));
        }
        return g;
    }

    static List<Kernel> gaussians(double[] sigmas) {
        List<Kernel> ks = new ArrayList<>();
        for (double s : sigmas) {
            if (!(s > 0)) {
                throw new IllegalArgumentException("sigmas must be > 0, got " + s);
            }
            ks.add(Kernels.gaussian(s));
        }
        return ks;
    }

    static void checkPositive(double[] v, String opt) {
        for (double x : v) {
            if (!(x > 0)) {
                throw new IllegalArgumentException(opt + " must be > 0, got " + x);
            }
        }
    }

    static Path prepare(Path dir) throws IOException {
        if (Files.exists(dir) && !Files.isDirectory(dir)) {
            throw new IllegalArgumentException("outDir " + dir + " exists and is not a directory");
        }
        Files.createDirectories(dir);
        return dir;
    }

    /** Training and test points, the σ and λ grids of the cross-validation, its folds, and the figures' folder. */
    public record HeteroOptions(int n, int testN, double[] sigmas, double[] lambdas, int folds, Path outDir) {
        public HeteroOptions {
            if (n < 10 || testN < 1) {
                throw new IllegalArgumentException("n must be >= 10 and testN >= 1");
            }
            checkPositive(lambdas, "lambdas");
            gaussians(sigmas);
            sigmas = sigmas.clone();
            lambdas = lambdas.clone();
        }
    }

    /**
     * One row per method (model, kernel, lambda, cv_nll, test_nll, test_rmse, min/max_variance_grid, iterations,
     * gap, converged, seconds), the true model's test NLL, a description of the data and the combined figure.
     */
    public record HeteroResult(List<Map<String, Object>> table, double trueModelTestNll, String data, Path png) {
    }

    /** Fig. 1 centre row: heteroscedastic regression by PNM, NCM, GLM and the PSD model; one PNG per model too. */
    public static HeteroResult hetero(HeteroOptions o, ExperimentListener listener) throws IOException {
        listener = ExperimentListener.orNone(listener);
        int n = o.n();
        int testN = o.testN();
        double[] lambdas = o.lambdas();
        int folds = o.folds();
        Path outDir = o.outDir();
        List<Kernel> ks = gaussians(o.sigmas());
        prepare(outDir);
        long start = System.nanoTime();
            Dataset train = HeteroscedasticToy.sample(n, TRAIN_SEED);
            Dataset test = HeteroscedasticToy.sample(testN, TEST_SEED);
            Matrix g = grid(-0.1, 1.1, GRID);
            double[] gx = g.col(0);
            double[] tm = new double[GRID];
            double[] tlo = new double[GRID];
            double[] thi = new double[GRID];
            for (int i = 0; i < GRID; i++) {
                tm[i] = HeteroscedasticToy.mean(gx[i]);
                double sd = Math.sqrt(HeteroscedasticToy.variance(gx[i]));
                tlo[i] = tm[i] - 2 * sd;
                thi[i] = tm[i] + 2 * sd;
            }
            double bayes = 0;
            for (int i = 0; i < testN; i++) {
                double xi = test.x().get(i, 0);
                double v = HeteroscedasticToy.variance(xi);
                double r = test.y()[i] - HeteroscedasticToy.mean(xi);
                bayes += 0.5 * Math.log(2 * Math.PI * v) + r * r / (2 * v);
            }
            bayes /= testN;
            Figure all = new Figure("Heteroscedastic regression (Le, Smola & Canu toy data, n = " + n
                    + "): mean +- 2 sd", 2);
            List<Map<String, Object>> table = new ArrayList<>();
            HeteroscedasticRegression.Method[] methods = {HeteroscedasticRegression.Method.PNM,
                HeteroscedasticRegression.Method.NCM, HeteroscedasticRegression.Method.GLM,
                HeteroscedasticRegression.Method.PSD};
            for (HeteroscedasticRegression.Method m : methods) {
                long t0 = System.nanoTime();
                HeteroscedasticRegression.Options base = HeteroscedasticRegression.Options.of(1, 1, m);
                listener.step("cv " + m.id(), 0, 1, start);
                // kernel and lambda by cross-validation on the grid, then the winner fitted on all training rows
                HeteroPipeline fitted = new HeteroTrainer(base).crossValidated(new ConeGrid(ks, lambdas, folds,
                        TRAIN_SEED)).fit(train);
                listener.step("cv " + m.id(), 1, 1, start);
                ConeGrid.Outcome sel = fitted.selection();
                HeteroModel model = fitted.inner();
                double secs = (System.nanoTime() - t0) * 1e-9;
                Matrix pt = model.predict(test.x());
                Matrix pg = model.predict(g);
                double[] mean = pg.col(0);
                double[] lo = new double[GRID];
                double[] hi = new double[GRID];
                double minV = Double.POSITIVE_INFINITY;
                double maxV = Double.NEGATIVE_INFINITY;
                for (int i = 0; i < GRID; i++) {
                    double v = pg.get(i, 1);
                    minV = Math.min(minV, v);
                    maxV = Math.max(maxV, v);
                    double sd = v > 0 ? Math.sqrt(v) : 0;
                    lo[i] = mean[i] - 2 * sd;
                    hi[i] = mean[i] + 2 * sd;
                }
                Map<String, Object> row = new LinkedHashMap<>();
                row.put("model", m.id());
                row.put("kernel", sel.kernel().spec());
                row.put("lambda", sel.lambda());
                row.put("cv_nll", sel.score());
                row.put("test_nll", HeteroModel.nll(pt, test.y()));
                row.put("test_rmse", org.psdkit.model.Metrics.rmse(test.y(), pt.col(0)));
                row.put("min_variance_grid", minV);
                row.put("max_variance_grid", maxV);
                row.put("iterations", model.diagnostics().iterations());
                row.put("gap", model.diagnostics().gap());
                row.put("converged", model.diagnostics().converged());
                row.put("seconds", secs);
                table.add(row);
                String title = m.id().toUpperCase(Locale.ROOT) + ": sigma " + sigmaOf(sel.kernel()) + ", lambda "
                        + Numbers.fmt(sel.lambda()) + ", test NLL " + Numbers.fmt((double) row.get("test_nll"));
                Figure one = new Figure("Heteroscedastic regression, theta by " + m.id().toUpperCase(Locale.ROOT), 1);
                for (Panel p : new Panel[] {all.panel(title), one.panel(title)}) {
                    p.xLabel("x").yLabel("y").legend("lower left").yRange(-7, 6);
                    p.band(gx, clip(lo, -7, 6), clip(hi, -7, 6), "fit mean +- 2 sd");
                    p.scatter(train.x().col(0), train.y(), "data");
                    p.line(gx, tm, "true mean").color(Color.ORANGE).width(2f);
                    p.line(gx, tlo, "true +- 2 sd").color(Color.ORANGE).dashed();
                    p.line(gx, thi, null).color(Color.ORANGE).dashed();
                    p.line(gx, clip(mean, -7, 6), "fit mean").color(new Color(31, 119, 180)).width(2f);
                }
                one.save(outDir.resolve("hetero-" + m.id() + ".png"));
            }
            all.save(outDir.resolve("hetero.png"));
            String data = "Le, Smola & Canu (2005) Sec. 5 toy: x ~ U(0,1), y ~ N(2(exp(-30(x-1/4)^2)+sin(pi x^2))-2, "
                    + "exp(sin(2 pi x))); train n=" + n + " seed " + TRAIN_SEED + ", test n=" + testN + " seed "
                    + TEST_SEED;
            return new HeteroResult(table, bayes, data, outDir.resolve("hetero.png"));
    }

    static String sigmaOf(Kernel k) {
        return k instanceof org.psdkit.kernel.GaussianKernel gk ? Numbers.fmt(gk.sigma()) : k.spec();
    }

    static double[] clip(double[] v, double lo, double hi) {
        double[] o = new double[v.length];
        for (int i = 0; i < v.length; i++) {
            o[i] = Math.max(lo, Math.min(hi, v[i]));
        }
        return o;
    }

    /** Training and test points, the σ and λ grids of the cross-validation, its folds, and the figures' folder. */
    public record QuantileOptions(int n, int testN, double[] sigmas, double[] lambdas, int folds, Path outDir) {
        public QuantileOptions {
            if (n < 10 || testN < 1) {
                throw new IllegalArgumentException("n must be >= 10 and testN >= 1");
            }
            checkPositive(lambdas, "lambdas");
            gaussians(sigmas);
            sigmas = sigmas.clone();
            lambdas = lambdas.clone();
        }
    }

    /**
     * One row per method (model, kernel, lambda, cv_pinball, test_pinball and test_coverage by quantile column,
     * test_pinball_total, crossings on the test rows and two grids, iterations, gap, converged, seconds), the true
     * quantiles' test pinball loss (sum over τ), a description of the data and the combined figure.
     */
    public record QuantileResult(List<Map<String, Object>> table, double trueQuantilesTestPinball, String data,
                                 Path png) {
    }

    /**
     * Fig. 1 bottom row: quartiles by PNM, NCM, GLM, the PSD model and independent kernel quantile regressions; one
     * PNG per model too.
     */
    public static QuantileResult quantile(QuantileOptions o, ExperimentListener listener) throws IOException {
        listener = ExperimentListener.orNone(listener);
        int n = o.n();
        int testN = o.testN();
        double[] lambdas = o.lambdas();
        int folds = o.folds();
        Path outDir = o.outDir();
        List<Kernel> ks = gaussians(o.sigmas());
        prepare(outDir);
        long start = System.nanoTime();
            double[] taus = {0.25, 0.5, 0.75};
            Dataset train = QuantileToy.sample(n, TRAIN_SEED);
            Dataset test = QuantileToy.sample(testN, TEST_SEED);
            Matrix g = grid(-0.25, 1.25, GRID);
            Matrix inRange = grid(0, 1, GRID);
            Matrix wide = grid(-2, 3, 5 * GRID);
            double[] gx = g.col(0);
            double[][] truth = new double[3][GRID];
            for (int t = 0; t < 3; t++) {
                for (int i = 0; i < GRID; i++) {
                    truth[t][i] = QuantileToy.quantile(gx[i], taus[t]);
                }
            }
            double bayes = 0;
            for (int i = 0; i < testN; i++) {
                for (int t = 0; t < 3; t++) {
                    bayes += org.psdkit.cone.Pinball.loss(taus[t],
                            test.y()[i] - QuantileToy.quantile(test.x().get(i, 0), taus[t]));
                }
            }
            bayes /= testN;
            Figure all = new Figure("Quantile regression, tau = 1/4, 1/2, 3/4 (App. E data, n = " + n + ")", 3);
            List<Map<String, Object>> table = new ArrayList<>();
            QuantileRegression.Method[] methods = {QuantileRegression.Method.PNM, QuantileRegression.Method.NCM,
                QuantileRegression.Method.GLM, QuantileRegression.Method.PSD, QuantileRegression.Method.INDEPENDENT};
            for (QuantileRegression.Method m : methods) {
                long t0 = System.nanoTime();
                QuantileRegression.Options base = QuantileRegression.Options.of(taus, 1, 1, m);
                listener.step("cv " + m.id(), 0, 1, start);
                // kernel and lambda by cross-validation on the grid, then the winner fitted on all training rows
                QuantilePipeline fitted = new QuantileTrainer(base).crossValidated(new ConeGrid(ks, lambdas, folds,
                        TRAIN_SEED)).fit(train);
                listener.step("cv " + m.id(), 1, 1, start);
                ConeGrid.Outcome sel = fitted.selection();
                QuantileModel model = fitted.inner();
                double secs = (System.nanoTime() - t0) * 1e-9;
                Matrix qt = model.predict(test.x());
                Map<String, Object> metrics = org.psdkit.cone.quantile.QuantilePipeline.metrics(qt, test.y(), taus, null);
                long xTest = QuantileModel.crossings(qt);
                long xIn = QuantileModel.crossings(model.predict(inRange));
                long xWide = QuantileModel.crossings(model.predict(wide));
                Map<String, Object> row = new LinkedHashMap<>();
                row.put("model", m.id());
                row.put("kernel", sel.kernel().spec());
                row.put("lambda", sel.lambda());
                row.put("cv_pinball", sel.score());
                row.put("test_pinball", metrics.get("pinball"));
                row.put("test_pinball_total", metrics.get("pinball_total"));
                row.put("test_coverage", metrics.get("coverage"));
                row.put("crossings_test_rows", xTest);
                row.put("crossings_grid_0_1", xIn);
                row.put("crossings_grid_-2_3", xWide);
                row.put("iterations", model.diagnostics().iterations());
                row.put("gap", model.diagnostics().gap());
                row.put("converged", model.diagnostics().converged());
                row.put("seconds", secs);
                table.add(row);
                Matrix qg = model.predict(g);
                String title = m.id().toUpperCase(Locale.ROOT) + ": sigma " + sigmaOf(sel.kernel()) + ", lambda "
                        + Numbers.fmt(sel.lambda()) + ", crossings on [0,1] " + xIn;
                Figure one = new Figure("Quantile regression by " + m.id().toUpperCase(Locale.ROOT), 1);
                for (Panel p : new Panel[] {all.panel(title), one.panel(title)}) {
                    p.xLabel("x").yLabel("y").legend("upper center").yRange(-0.45, 0.45);
                    p.scatter(train.x().col(0), train.y(), "data").size(2);
                    for (int t = 0; t < 3; t++) {
                        p.line(gx, truth[t], t == 0 ? "true quantiles" : null).color(Color.ORANGE).dashed();
                    }
                    Color[] shades = {new Color(107, 174, 214), new Color(8, 81, 156), new Color(107, 174, 214)};
                    for (int t = 0; t < 3; t++) {
                        p.line(gx, clip(qg.col(t), -0.45, 0.45), "q" + taus[t]).color(shades[t]).width(2f);
                    }
                    List<Double> cx = new ArrayList<>();
                    List<Double> cy = new ArrayList<>();
                    for (int i = 0; i < GRID; i++) {
                        if (qg.get(i, 0) > qg.get(i, 1) || qg.get(i, 1) > qg.get(i, 2) || qg.get(i, 0) > qg.get(i, 2)) {
                            cx.add(gx[i]);
                            cy.add(Math.max(-0.45, Math.min(0.45, qg.get(i, 1))));
                        }
                    }
                    if (!cx.isEmpty()) {
                        p.scatter(cx.stream().mapToDouble(Double::doubleValue).toArray(),
                                cy.stream().mapToDouble(Double::doubleValue).toArray(), "crossing")
                                .color(Color.RED).size(3);
                    }
                }
                one.save(outDir.resolve("quantile-" + m.id() + ".png"));
            }
            all.save(outDir.resolve("quantile.png"));
            String data = "Marteau-Ferey, Bach & Rudi 2020 App. E: X ~ U(0,1/3)/2 + U(2/3,1)/2, Y|x ~ N(0, sd = sigma(x)); train n=" + n
                    + " seed " + TRAIN_SEED + ", test n=" + testN + " seed " + TEST_SEED;
            return new QuantileResult(table, bayes, data, outDir.resolve("quantile.png"));
    }
}
