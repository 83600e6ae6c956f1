package org.psdkit.cli.fit;

import java.util.Map;
import java.util.concurrent.Callable;
import org.psdkit.cli.CommonFitOptions;
import org.psdkit.cli.KernelSpecs;
import org.psdkit.cli.Main;
import org.psdkit.cli.Params;
import org.psdkit.data.Dataset;
import org.psdkit.kernel.Kernel;
import org.psdkit.model.Metrics;
import org.psdkit.model.Pipeline;
import org.psdkit.regression.RidgeRegression;
import org.psdkit.regression.RidgeTrainer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code psdkit fit ridge}: linear ridge regression, primal or dual. */
@Command(name = "ridge", description = "Linear ridge regression (primal w = (X^T X + lambda I)^-1 X^T y, or dual).")
public final class FitRidgeCommand implements Callable<Integer> {

    @Mixin
    CommonFitOptions common;

    @Option(names = "--lambda", defaultValue = "1", paramLabel = "X", description = "Regularisation lambda >= 0 (default: ${DEFAULT-VALUE}).")
    String lambda;

    @Option(names = "--form", defaultValue = "primal", paramLabel = "primal|dual",
            description = "primal: d x d system; dual: n x n system (K + lambda I) alpha = y with the linear kernel, "
                    + "stored as w = X^T alpha (default: ${DEFAULT-VALUE}).")
    String form;

    @Option(names = "--features", paramLabel = "SPEC",
            description = "Ridge in the explicit feature space of this kernel, e.g. 'polynomial(degree=2, offset=1)' "
                    + "(default: the raw features, i.e. the linear kernel).")
    String features;

    @Option(names = "--no-intercept", description = "No intercept (default: an unpenalised intercept by centring).")
    boolean noIntercept;

    /**
     * The training-set metrics of a regression fit: at the top level for one target (as always), and for several
     * targets their names ({@code targets}) and one metrics object per target ({@code metrics}), in their order.
     */
    static void putMetrics(Map<String, Object> rep, Dataset raw, org.psdkit.linalg.Matrix predicted) {
        if (raw.targets() == null) {
            rep.putAll(Metrics.regression(raw.y(), predicted.col(0)));
            return;
        }
        String[] names = raw.targetNames();
        Map<String, Object> per = new java.util.LinkedHashMap<>();
        for (int k = 0; k < names.length; k++) {
            per.put(names[k], Metrics.regression(raw.targets().col(k), predicted.col(k)));
        }
        rep.put("targets", java.util.List.of(names));
        rep.put("metrics", per);
    }

    @Override
    public Integer call() {
        Map<String, String> pm = RidgeKind.defaultParams();
        pm.put("lambda", lambda);
        pm.put("intercept", Boolean.toString(!noIntercept));
        Params params = new Params(pm);
        RidgeTrainer.Options options = RidgeKind.options(params).withForm(RidgeTrainer.Form.parse(form))
                .withScale(common.scaleKind());
        Kernel kernel = features == null ? null : KernelSpecs.parse(features);
        options = options.withFeatures(kernel);
        common.checkOutWritable();
        common.acceptWeights();
        common.acceptTargets();
        Dataset raw = common.loadSupervised(false);
        if (kernel != null && kernel.featureMap(raw.d()).isEmpty()) {
            throw new IllegalArgumentException("--features: kernel " + kernel.spec()
                    + " has no explicit finite feature map (use fit krr for it)");
        }
        long t0 = System.nanoTime();
        Pipeline<RidgeRegression> model = new RidgeTrainer(options).fit(raw);
        double secs = (System.nanoTime() - t0) * 1e-9;
        common.save(model);
        Map<String, Object> rep = common.baseReport(RidgeTrainer.TYPE, raw, secs);
        rep.put("lambda", options.lambda());
        rep.put("form", options.form().label());
        rep.put("featureDimension", model.inner().weights().length);
        putMetrics(rep, raw, model.predict(raw.x()));
        if (!common.json) {
            System.err.println("psdkit fit ridge: wrote " + common.out + " (training-set metrics below)");
        }
        common.report(rep);
        return Main.EXIT_OK;
    }
}
