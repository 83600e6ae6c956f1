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
import org.psdkit.psd.PsdModel;
import org.psdkit.psd.PsdOptions;
import org.psdkit.regression.psd.NonNegativeRegressionModel;
import org.psdkit.regression.psd.PsdRegressionTrainer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code psdkit fit psd-regression}: non-negative regression with a PSD model (Marteau-Ferey, Bach & Rudi 2020). */
@Command(name = "psd-regression", description = "Non-negative regression with a PSD model f(x) = v(x)^T B v(x), "
        + "B >= 0: min (1/2n) sum (f(x_i) - y_i)^2 + lambda1 Tr A + lambda2/2 |A|_F^2, solved on the dual by FISTA.")
public final class FitPsdRegressionCommand implements Callable<Integer> {

    @Mixin
    CommonFitOptions common;
    @Mixin
    FeatureSpaceOptions space;

    @Option(names = "--kernel", defaultValue = "gaussian(sigma=1)", paramLabel = "SPEC",
            description = "Kernel string (default: ${DEFAULT-VALUE}).")
    String kernel;

    @Option(names = "--lambda1", paramLabel = "X", description = "Trace (nuclear-norm) weight >= 0 (default 0.001).")
    Double lambda1;

    @Option(names = "--lambda2", paramLabel = "X", description = "Frobenius weight > 0 (default 0.001).")
    Double lambda2;

    @Option(names = "--lambda", paramLabel = "X",
            description = "Paper convention lambda (|A|_* + c |A|_F^2): sets lambda1 = X, lambda2 = 2 X c.")
    Double lambda;

    @Option(names = "--frobenius-ratio", paramLabel = "C",
            description = "The c of --lambda (default 0.05 as in App. E; Sec. 6's 0.01/2 is 0.005).")
    Double frobeniusRatio;

    @Option(names = "--tol", defaultValue = "1e-6", paramLabel = "X",
            description = "Relative duality gap at which to stop (default: ${DEFAULT-VALUE}).")
    double tol;

    @Option(names = "--max-iter", defaultValue = "5000", paramLabel = "N",
            description = "FISTA iteration budget (default: ${DEFAULT-VALUE}).")
    int maxIter;

    @Option(names = "--time-limit", paramLabel = "SECONDS", description = "Wall-clock budget of the solver.")
    Double timeLimit;




    /** Default c of --lambda: App. E's λ(‖A‖_* + 0.05‖A‖²_F). */
    static final double DEFAULT_FROBENIUS_RATIO = 0.05;
    /** Default λ₁ and λ₂ when neither --lambda nor --lambda1/2 is given. */
    static final double DEFAULT_LAMBDA = 1e-3;

    PsdOptions options() {
        if (lambda != null && (lambda1 != null || lambda2 != null)) {
            throw new IllegalArgumentException("--lambda cannot be combined with --lambda1/--lambda2");
        }
        if (frobeniusRatio != null && lambda == null) {
            throw new IllegalArgumentException("--frobenius-ratio needs --lambda");
        }
        PsdOptions o;
        if (lambda != null) {
            double c = frobeniusRatio == null ? DEFAULT_FROBENIUS_RATIO : frobeniusRatio;
            if (!(lambda > 0) || Double.isInfinite(lambda)) {
                throw new IllegalArgumentException("--lambda must be > 0, got " + lambda);
            }
            if (!(c > 0) || Double.isInfinite(c)) {
                throw new IllegalArgumentException("--frobenius-ratio must be > 0, got " + c);
            }
            o = PsdOptions.paper(lambda, c);
        } else {
            // lambda1, lambda2, tol, max-iter and time-limit are checked by PsdOptions, whose ParameterException
            // names the flag
            o = PsdOptions.of(lambda1 == null ? DEFAULT_LAMBDA : lambda1, lambda2 == null ? DEFAULT_LAMBDA : lambda2);
        }
        o = o.withTolerance(tol).withMaxIterations(maxIter);
        if (space.rankThresholdGiven()) {
            o = o.withRelativeThreshold(space.rankThreshold("psd-regression", ""));
        }
        if (timeLimit != null) {
            o = o.withTimeLimit(timeLimit);
        }
        return o;
    }

    @Override
    public Integer call() {
        PsdOptions o = options();
        int anchors = space.anchors();
        org.psdkit.psd.Anchors.Method method = space.anchorMethod();
        Kernel k = KernelSpecs.parse(kernel);
        common.checkOutWritable();
        Dataset raw = common.loadSupervised(false);
        long t0 = System.nanoTime();
        NonNegativeRegressionModel<PsdModel> model;
        try (Progress p = Progress.startSolver("psd-regression (FISTA on the dual)", o.maxIterations())) {
            model = p.run(() -> new PsdRegressionTrainer(new PsdRegressionTrainer.Options(k, o,
                    org.psdkit.psd.Nystrom.of(anchors, method, common.seed), common.scaleKind()))
                    .fit(raw, e -> p.set(e.step())));
        }
        PsdModel m = model.inner();
        double secs = (System.nanoTime() - t0) * 1e-9;
        common.save(model);
        Map<String, Object> rep = common.baseReport(PsdModel.TYPE, raw, secs);
        rep.put("kernel", k.spec());
        rep.put("lambda1", o.lambda1());
        rep.put("lambda2", o.lambda2());
        PsdKinds.putReport(rep, m.diagnostics());
        PsdKinds.warnIfNotConverged(PsdModel.TYPE, m.diagnostics());
        double[] pred = model.predict(raw.x()).col(0);
        rep.putAll(Metrics.regression(raw.y(), pred));
        rep.put("min_prediction", NonNegativeRegressionModel.minimum(pred));
        if (!common.json) {
            System.err.println("psdkit fit psd-regression: wrote " + common.out + " (training-set metrics below)");
        }
        common.report(rep);
        return Main.EXIT_OK;
    }
}
