package org.psdkit.cli;

import java.awt.Color;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.psdkit.cli.plot.Figure;
import org.psdkit.cli.plot.Panel;
import org.psdkit.data.Dataset;
import org.psdkit.data.toy.HeteroscedasticToy;
import org.psdkit.data.toy.QuantileToy;
import org.psdkit.kernel.Kernel;
import org.psdkit.kernel.Kernels;
import org.psdkit.linalg.Matrix;
import org.psdkit.model.cone.ConeDualSolver;
import org.psdkit.model.cone.ConeGrid;
import org.psdkit.model.hetero.HeteroModel;
import org.psdkit.model.hetero.HeteroscedasticRegression;
import org.psdkit.model.quantile.QuantileModel;
import org.psdkit.model.quantile.QuantileRegression;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code psdkit reproduce hetero} and {@code psdkit reproduce quantile}: seed 002 Fig. 1, centre and bottom rows. */
public final class ReproduceConeCommands {

    private ReproduceConeCommands() {
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
                throw new IllegalArgumentException("--sigmas must be > 0, got " + s);
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
            throw new IllegalArgumentException("--out-dir " + dir + " exists and is not a directory");
        }
        Files.createDirectories(dir);
        return dir;
    }

    /** {@code psdkit reproduce hetero}. */
    @Command(name = "hetero", description = "Seed 002 Fig. 1 centre row: heteroscedastic regression on the Le, Smola & "
            + "Canu (2005) toy data (n = 80), theta = 1/v by PNM, NCM, GLM and the PSD model; PNGs and test NLL table.")
    public static final class Hetero implements Callable<Integer> {

        @Option(names = "--out-dir", defaultValue = "reproduce-hetero", paramLabel = "DIR",
                description = "Folder for the PNGs (default: ${DEFAULT-VALUE}).")
        Path outDir;

        @Option(names = "--n", defaultValue = "80", description = "Training points (default: ${DEFAULT-VALUE}).")
        int n;

        @Option(names = "--test-n", defaultValue = "5000", description = "Test points (default: ${DEFAULT-VALUE}).")
        int testN;

        @Option(names = "--sigmas", split = ",", defaultValue = "0.05,0.1,0.2,0.4", paramLabel = "S1,S2,...",
                description = "Gaussian widths tried by cross-validation (default: ${DEFAULT-VALUE}).")
        double[] sigmas;

        @Option(names = "--lambdas", split = ",", defaultValue = "0.1,0.01,0.001", paramLabel = "L1,L2,...",
                description = "Lambdas tried by cross-validation (default: ${DEFAULT-VALUE}).")
        double[] lambdas;

        @Option(names = "--folds", defaultValue = "5", description = "Folds (default: ${DEFAULT-VALUE}).")
        int folds;

        @Option(names = "--json", description = "Print one JSON object on stdout.")
        boolean json;

        @Override
        public Integer call() throws IOException {
            if (n < 10 || testN < 1) {
                throw new IllegalArgumentException("--n must be >= 10 and --test-n >= 1");
            }
            checkPositive(lambdas, "--lambdas");
            List<Kernel> ks = gaussians(sigmas);
            prepare(outDir);
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
            if (!json) {
                System.err.printf(Locale.ROOT, "%-5s %-24s %-8s %10s %8s %12s %12s %8s%n", "model", "kernel", "lambda",
                        "test NLL", "RMSE", "min var(x)", "max var(x)", "seconds");
            }
            for (HeteroscedasticRegression.Method m : methods) {
                long t0 = System.nanoTime();
                HeteroscedasticRegression.Options base = HeteroscedasticRegression.Options.of(1, 1, m);
                ConeGrid.Outcome sel;
                try (Progress p = Progress.start("cv " + m.id(), 1)) {
                    sel = HeteroscedasticRegression.select(train.x(), train.y(), base, ks, lambdas, folds, TRAIN_SEED);
                    p.set(1);
                }
                HeteroModel model = HeteroscedasticRegression.fit(train.x(), train.y(),
                        base.with(sel.kernel(), sel.lambda()));
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
                row.put("test_rmse", org.psdkit.select.Metrics.rmse(test.y(), pt.col(0)));
                row.put("min_variance_grid", minV);
                row.put("max_variance_grid", maxV);
                row.put("iterations", model.diagnostics().iterations());
                row.put("gap", model.diagnostics().gap());
                row.put("converged", model.diagnostics().converged());
                row.put("seconds", secs);
                table.add(row);
                if (!json) {
                    System.err.printf(Locale.ROOT, "%-5s %-24s %-8s %10.4f %8.4f %12.4g %12.4g %8.1f%n", m.id(),
                            sel.kernel().spec(), Reports.fmt(sel.lambda()), (double) row.get("test_nll"),
                            (double) row.get("test_rmse"), minV, maxV, secs);
                }
                String title = m.id().toUpperCase(Locale.ROOT) + ": sigma " + sigmaOf(sel.kernel()) + ", lambda "
                        + Reports.fmt(sel.lambda()) + ", test NLL " + Reports.fmt((double) row.get("test_nll"));
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
            Map<String, Object> rep = new LinkedHashMap<>();
            rep.put("data", "Le, Smola & Canu (2005) Sec. 5 toy: x ~ U(0,1), y ~ N(2(exp(-30(x-1/4)^2)+sin(pi x^2))-2, "
                    + "exp(sin(2 pi x))); train n=" + n + " seed " + TRAIN_SEED + ", test n=" + testN + " seed "
                    + TEST_SEED);
            rep.put("true_model_test_nll", bayes);
            rep.put("table", table);
            rep.put("png", outDir.resolve("hetero.png").toString());
            if (!json) {
                System.err.printf(Locale.ROOT, "true model's test NLL: %.4f; figures in %s%n", bayes, outDir);
            }
            Reports.print(rep, json);
            return Main.EXIT_OK;
        }
    }

    static String sigmaOf(Kernel k) {
        return k instanceof org.psdkit.kernel.GaussianKernel gk ? Reports.fmt(gk.sigma()) : k.spec();
    }

    static double[] clip(double[] v, double lo, double hi) {
        double[] o = new double[v.length];
        for (int i = 0; i < v.length; i++) {
            o[i] = Math.max(lo, Math.min(hi, v[i]));
        }
        return o;
    }

    /** {@code psdkit reproduce quantile}. */
    @Command(name = "quantile", description = "Seed 002 Fig. 1 bottom row: quartiles on the App. E data (n = 500) by PNM, "
            + "NCM, GLM, the PSD model and independent kernel quantile regressions; PNGs and a table of test pinball "
            + "loss, coverage and crossings.")
    public static final class Quantile implements Callable<Integer> {

        @Option(names = "--out-dir", defaultValue = "reproduce-quantile", paramLabel = "DIR",
                description = "Folder for the PNGs (default: ${DEFAULT-VALUE}).")
        Path outDir;

        @Option(names = "--n", defaultValue = "500", description = "Training points (default: ${DEFAULT-VALUE}).")
        int n;

        @Option(names = "--test-n", defaultValue = "5000", description = "Test points (default: ${DEFAULT-VALUE}).")
        int testN;

        @Option(names = "--sigmas", split = ",", defaultValue = "0.05,0.1,0.2", paramLabel = "S1,S2,...",
                description = "Gaussian widths tried by cross-validation (default: ${DEFAULT-VALUE}).")
        double[] sigmas;

        @Option(names = "--lambdas", split = ",", defaultValue = "0.01,0.001", paramLabel = "L1,L2,...",
                description = "Lambdas tried by cross-validation (default: ${DEFAULT-VALUE}).")
        double[] lambdas;

        @Option(names = "--folds", defaultValue = "3", description = "Folds (default: ${DEFAULT-VALUE}).")
        int folds;

        @Option(names = "--json", description = "Print one JSON object on stdout.")
        boolean json;

        @Override
        public Integer call() throws IOException {
            if (n < 10 || testN < 1) {
                throw new IllegalArgumentException("--n must be >= 10 and --test-n >= 1");
            }
            checkPositive(lambdas, "--lambdas");
            List<Kernel> ks = gaussians(sigmas);
            prepare(outDir);
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
                    bayes += org.psdkit.model.cone.Pinball.loss(taus[t],
                            test.y()[i] - QuantileToy.quantile(test.x().get(i, 0), taus[t]));
                }
            }
            bayes /= testN;
            Figure all = new Figure("Quantile regression, tau = 1/4, 1/2, 3/4 (App. E data, n = " + n + ")", 3);
            List<Map<String, Object>> table = new ArrayList<>();
            QuantileRegression.Method[] methods = {QuantileRegression.Method.PNM, QuantileRegression.Method.NCM,
                QuantileRegression.Method.GLM, QuantileRegression.Method.PSD, QuantileRegression.Method.INDEPENDENT};
            if (!json) {
                System.err.printf(Locale.ROOT, "%-11s %-22s %-7s %9s %9s %9s %9s %6s %6s %6s %6s %6s %6s %7s%n",
                        "model", "kernel", "lambda", "pin.25", "pin.5", "pin.75", "pinball", "cov25", "cov50", "cov75",
                        "X test", "X[0,1]", "X wide", "seconds");
            }
            for (QuantileRegression.Method m : methods) {
                long t0 = System.nanoTime();
                QuantileRegression.Options base = QuantileRegression.Options.of(taus, 1, 1, m);
                ConeGrid.Outcome sel;
                try (Progress p = Progress.start("cv " + m.id(), 1)) {
                    sel = QuantileRegression.select(train.x(), train.y(), base, ks, lambdas, folds, TRAIN_SEED);
                    p.set(1);
                }
                QuantileModel model = QuantileRegression.fit(train.x(), train.y(), base.with(sel.kernel(),
                        sel.lambda()));
                double secs = (System.nanoTime() - t0) * 1e-9;
                Matrix qt = model.predict(test.x());
                Map<String, Object> metrics = org.psdkit.model.quantile.QuantilePipeline.metrics(qt, test.y(), taus, null);
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
                @SuppressWarnings("unchecked")
                Map<String, Object> pin = (Map<String, Object>) metrics.get("pinball");
                @SuppressWarnings("unchecked")
                Map<String, Object> cov = (Map<String, Object>) metrics.get("coverage");
                if (!json) {
                    System.err.printf(Locale.ROOT, "%-11s %-22s %-7s %9.5f %9.5f %9.5f %9.5f %6.3f %6.3f %6.3f %6d %6d "
                                    + "%6d %7.1f%n", m.id(), sel.kernel().spec(), Reports.fmt(sel.lambda()),
                            pin.get("q0.25"), pin.get("q0.5"), pin.get("q0.75"), metrics.get("pinball_total"),
                            cov.get("q0.25"), cov.get("q0.5"), cov.get("q0.75"), xTest, xIn, xWide, secs);
                }
                Matrix qg = model.predict(g);
                String title = m.id().toUpperCase(Locale.ROOT) + ": sigma " + sigmaOf(sel.kernel()) + ", lambda "
                        + Reports.fmt(sel.lambda()) + ", crossings on [0,1] " + xIn;
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
            Map<String, Object> rep = new LinkedHashMap<>();
            rep.put("data", "seed 002 App. E: X ~ U(0,1/3)/2 + U(2/3,1)/2, Y|x ~ N(0, sd = sigma(x)); train n=" + n
                    + " seed " + TRAIN_SEED + ", test n=" + testN + " seed " + TEST_SEED);
            rep.put("true_quantiles_test_pinball_total", bayes);
            rep.put("table", table);
            rep.put("png", outDir.resolve("quantile.png").toString());
            if (!json) {
                System.err.printf(Locale.ROOT, "true quantiles' test pinball (sum over tau): %.5f; figures in %s%n",
                        bayes, outDir);
            }
            Reports.print(rep, json);
            return Main.EXIT_OK;
        }
    }
}
