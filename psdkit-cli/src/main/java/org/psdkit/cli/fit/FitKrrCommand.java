package org.psdkit.cli.fit;

import java.util.Map;
import java.util.concurrent.Callable;
import org.psdkit.cli.CommonFitOptions;
import org.psdkit.cli.Main;
import org.psdkit.cli.Params;
import org.psdkit.data.Dataset;
import org.psdkit.data.Scaler;
import org.psdkit.model.Metrics;
import org.psdkit.model.Pipeline;
import org.psdkit.regression.KernelRidge;
import org.psdkit.regression.KrrTrainer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code psdkit fit krr}: kernel ridge regression. */
@Command(name = "krr", description = "Kernel ridge regression: (K + lambda I) alpha = y (scikit-learn's KernelRidge).")
public final class FitKrrCommand implements Callable<Integer> {

    @Mixin
    CommonFitOptions common;

    @Option(names = "--kernel", defaultValue = "gaussian(sigma=1)", paramLabel = "SPEC",
            description = "Kernel string (default: ${DEFAULT-VALUE}).")
    String kernel;

    @Option(names = "--lambda", defaultValue = "0.001", paramLabel = "X",
            description = "Regularisation lambda >= 0 (default: ${DEFAULT-VALUE}).")
    String lambda;

    @Option(names = "--form", defaultValue = "standard", paramLabel = "standard|representer",
            description = "standard: (K + lambda I) alpha = y; representer: the formula of the lecture notes Representer theorems in RKHSs, z = (K + N lambda I)^-1 K y, "
                    + "alpha = (K + nugget I)^-1 z (default: ${DEFAULT-VALUE}).")
    String form;

    @Option(names = "--nugget", defaultValue = "0", paramLabel = "S2",
            description = "Nugget sigma^2 >= 0 of the representer form (default: ${DEFAULT-VALUE}).")
    String nugget;

    @Option(names = "--center", description = "Fit an unpenalised intercept (subtract the mean of y).")
    boolean center;

    @Override
    public Integer call() {
        Map<String, String> pm = KrrKind.defaultParams();
        pm.put("kernel", kernel);
        pm.put("lambda", lambda);
        pm.put("form", form);
        pm.put("nugget", nugget);
        pm.put("center", Boolean.toString(center));
        Params params = new Params(pm);
        KrrKind.options(params); // check options before reading data
        params.kernel();
        common.checkOutWritable();
        Dataset raw = common.loadSupervised(false);
        long t0 = System.nanoTime();
        Pipeline<KernelRidge> model = new KrrTrainer(params.kernel(), KrrKind.options(params),
                Scaler.Kind.parse(common.scale)).fit(raw);
        KernelRidge m = model.inner();
        double secs = (System.nanoTime() - t0) * 1e-9;
        common.save(model);
        Map<String, Object> rep = common.baseReport(KrrKind.TYPE, raw, secs);
        rep.put("kernel", m.kernel().spec());
        rep.put("lambda", m.options().lambda());
        Map<String, Double> train_ = Metrics.regression(raw.y(), model.predict(raw.x()).col(0));
        rep.putAll(train_);
        rep.put("route", m.diagnostics().route());
        rep.put("jitter", m.diagnostics().jitter());
        rep.put("conditionEstimate", m.diagnostics().conditionEstimate());
        rep.put("rank", m.diagnostics().rank());
        if (m.diagnostics().jitter() > 0 || m.diagnostics().route().contains("eigen")) {
            System.err.println("psdkit fit krr: warning: the kernel system is ill-conditioned (route "
                    + m.diagnostics().route() + ", diagonal jitter " + m.diagnostics().jitter() + ", numerical rank "
                    + m.diagnostics().rank() + " of " + raw.n() + "); consider a larger --lambda or a nugget");
        }
        if (!common.json) {
            System.err.println("psdkit fit krr: wrote " + common.out + " (training-set metrics below)");
        }
        common.report(rep);
        return Main.EXIT_OK;
    }
}
