package org.psdkit.cli.fit;

import java.util.Map;
import java.util.concurrent.Callable;
import org.psdkit.cli.CommonFitOptions;
import org.psdkit.cli.KernelSpecs;
import org.psdkit.cli.Main;
import org.psdkit.cli.Progress;
import org.psdkit.data.Dataset;
import org.psdkit.kernel.Kernel;
import org.psdkit.model.Metrics;
import org.psdkit.psd.Nystrom;
import org.psdkit.psd.PsdOptions;
import org.psdkit.regression.psd.BaselineTrainer;
import org.psdkit.regression.psd.Baselines;
import org.psdkit.regression.psd.KernelExpansionModel;
import org.psdkit.regression.psd.NonNegativeRegressionModel;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code psdkit fit ncm|pnm|glm}: the non-negative regression baselines of Marteau-Ferey, Bach &amp; Rudi 2020, App. D. */
abstract class FitBaselineCommand implements Callable<Integer> {

    @Mixin
    CommonFitOptions common;
    @Mixin
    FeatureSpaceOptions space;

    @Option(names = "--kernel", defaultValue = "gaussian(sigma=1)", paramLabel = "SPEC",
            description = "Kernel string (default: ${DEFAULT-VALUE}).")
    String kernel;

    @Option(names = "--lambda", defaultValue = "0.001", paramLabel = "X",
            description = "Weight of (lambda/2) a^T K a, > 0 (default: ${DEFAULT-VALUE}).")
    double lambda;

    @Option(names = "--tol", defaultValue = "1e-8", paramLabel = "X",
            description = "Stopping tolerance (relative gap for pnm, first-order residual otherwise; default: "
                    + "${DEFAULT-VALUE}).")
    double tol;

    @Option(names = "--max-iter", defaultValue = "5000", paramLabel = "N",
            description = "Iteration budget (default: ${DEFAULT-VALUE}).")
    int maxIter;

    abstract BaselineTrainer.Method which();

    /**
     * {@code --anchors}, {@code --anchor-method}, {@code --seed}, {@code --rank-threshold} as the library's Nyström
     * settings. Only pnm cuts an eigen-decomposition (its dual lives on the anchors' features); ncm and glm optimise
     * the anchors' coefficients directly, so {@code --rank-threshold} is refused there.
     */
    Nystrom nystrom() {
        if (which() != BaselineTrainer.Method.PNM) {
            if (space.rankThresholdGiven()) {
                throw new IllegalArgumentException("--rank-threshold does not apply to " + which().type() + ": its "
                        + "coefficients live on the expansion points themselves, no eigen-decomposition is cut");
            }
            return new Nystrom(space.anchors(), space.anchorMethod(), common.seed, PsdOptions.DEFAULT_RANK_THRESHOLD);
        }
        if (space.rankThresholdGiven() && space.anchors() == 0) {
            throw new IllegalArgumentException("--rank-threshold applies to pnm with --anchors only: the exact model's "
                    + "dual works on K itself");
        }
        return new Nystrom(space.anchors(), space.anchorMethod(), common.seed,
                space.rankThreshold(which().type(), ""));
    }

    @Override
    public Integer call() {
        // lambda, tol and max-iter are checked by Baselines.Options, whose ParameterException names the flag
        Baselines.Options o = new Baselines.Options(lambda, tol, maxIter, Double.POSITIVE_INFINITY, common.seed);
        Nystrom ny = nystrom();
        Kernel k = KernelSpecs.parse(kernel);
        common.checkOutWritable();
        Dataset raw = common.loadSupervised(false);
        String type = which().type();
        long t0 = System.nanoTime();
        NonNegativeRegressionModel<KernelExpansionModel> model;
        try (Progress p = Progress.startSolver(type, maxIter)) {
            model = p.run(() -> new BaselineTrainer(new BaselineTrainer.Options(which(), k, o, ny,
                    common.scaleKind())).fit(raw, e -> p.set(e.step())));
        }
        KernelExpansionModel m = model.inner();
        double secs = (System.nanoTime() - t0) * 1e-9;
        common.save(model);
        Map<String, Object> rep = common.baseReport(type, raw, secs);
        rep.put("kernel", k.spec());
        rep.put("lambda", lambda);
        PsdKinds.putReport(rep, m.diagnostics());
        PsdKinds.warnIfNotConverged(type, m.diagnostics());
        double[] pred = model.predict(raw.x()).col(0);
        rep.putAll(Metrics.regression(raw.y(), pred));
        rep.put("min_prediction", NonNegativeRegressionModel.minimum(pred));
        common.report(rep);
        return Main.EXIT_OK;
    }

    @Command(name = "ncm", description = "Non-negative coefficients model f = sum a_i k(x, x_i), a >= 0 "
            + "(accelerated projected gradient).")
    static final class Ncm extends FitBaselineCommand {
        @Override
        BaselineTrainer.Method which() {
            return BaselineTrainer.Method.NCM;
        }
    }

    @Command(name = "pnm", description = "Partially non-negative model: f = sum a_i k(x, x_i) with f(x_i) >= 0 on the "
            + "training points only (dual FISTA).")
    static final class Pnm extends FitBaselineCommand {
        @Override
        BaselineTrainer.Method which() {
            return BaselineTrainer.Method.PNM;
        }
    }

    @Command(name = "glm", description = "Exponential model f = exp(sum a_i k(x, x_i)) (non-convex; gradient descent "
            + "with seeded restarts).")
    static final class Glm extends FitBaselineCommand {
        @Override
        BaselineTrainer.Method which() {
            return BaselineTrainer.Method.GLM;
        }
    }
}
