package org.psdkit.cli.fit;

import java.util.Map;
import java.util.concurrent.Callable;
import org.psdkit.cli.CommonFitOptions;
import org.psdkit.cli.Flags;
import org.psdkit.cli.Main;
import org.psdkit.cli.Params;
import org.psdkit.data.Dataset;
import org.psdkit.model.Metrics;
import org.psdkit.model.Pipeline;
import org.psdkit.optim.smo.Smo;
import org.psdkit.regression.Svr;
import org.psdkit.regression.SvrTrainer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code psdkit fit svr}: ε-insensitive support vector regression, the ε-SVR or (with {@code --nu}) the ν-SVR. */
@Command(name = "svr", description = "Epsilon-insensitive support vector regression (LIBSVM's epsilon-SVR dual, "
        + "or the nu-SVR with --nu, solved by SMO with second-order working sets).")
public final class FitSvrCommand implements Callable<Integer> {

    @Mixin
    CommonFitOptions common;

    @Option(names = "--kernel", defaultValue = "gaussian(sigma=1)", paramLabel = "SPEC",
            description = "Kernel string (default: ${DEFAULT-VALUE}).")
    String kernel;

    @Option(names = "-C", defaultValue = "1", paramLabel = "C",
            description = "Penalty C > 0 on the epsilon-insensitive loss (default: ${DEFAULT-VALUE}).")
    String c;

    @Option(names = "--epsilon", paramLabel = "E",
            description = "Half-width of the insensitive tube, >= 0, in the target's units (default: 0.1).")
    String epsilon;

    @Option(names = "--nu", paramLabel = "NU", description = "Fit the nu-SVR (LIBSVM's -s 4, scikit-learn's "
            + "NuSVR) with nu in (0, 1]: the tube width epsilon is found by the fit (at most this fraction of rows "
            + "outside it, at least this fraction of support vectors); excludes --epsilon.")
    String nu;

    @Option(names = "--tolerance", defaultValue = "1e-3", paramLabel = "TOL",
            description = "SMO stopping tolerance on the KKT violation (default: ${DEFAULT-VALUE}, as LIBSVM).")
    String tolerance;

    @Option(names = "--cache-mb", defaultValue = "" + Smo.DEFAULT_CACHE_MB, paramLabel = "MB",
            description = "Memory for kernel values in MB, as LIBSVM's -m: the Gram matrix when it fits, else a "
                    + "cache of kernel rows (default: ${DEFAULT-VALUE}).")
    int cacheMb;

    @Override
    public Integer call() {
        Map<String, String> pm = SvrKind.defaultParams();
        pm.put("kernel", kernel);
        pm.put("C", c);
        boolean epsilonGiven = epsilon != null;
        if (epsilonGiven) {
            pm.put("epsilon", epsilon);
        }
        pm.put("tolerance", tolerance);
        Params params = new Params(pm);
        Double nuGiven = FitSvmCommands.numberOrNull(nu, "--nu");
        if (nuGiven != null && epsilonGiven) {
            throw new IllegalArgumentException("--epsilon and --nu exclude each other: the nu-SVR finds epsilon");
        }
        SvrTrainer.Options options = Flags.checked(() -> SvrKind.options(params).withCacheMb(cacheMb)
                .withScale(common.scaleKind()).withNu(nuGiven == null ? SvrTrainer.Options.EPSILON_SVR
                        : FitSvmCommands.checkedNu(nuGiven)), SvrKind.FLAGS); // options before reading data
        common.checkOutWritable();
        common.acceptWeights();
        Dataset raw = common.loadSupervised(false);
        long t0 = System.nanoTime();
        Pipeline<Svr> model = new SvrTrainer(options).fit(raw);
        Svr m = model.inner();
        double secs = (System.nanoTime() - t0) * 1e-9;
        if (!m.diagnostics().converged()) {
            System.err.println("psdkit fit svr: warning: SMO stopped at its iteration limit with KKT violation "
                    + m.diagnostics().violation() + " (tolerance " + params.get("tolerance") + ")");
        }
        common.save(model);
        Map<String, Object> rep = common.baseReport(SvrKind.TYPE, raw, secs);
        rep.put("kernel", m.kernel().spec());
        rep.put("C", m.c());
        if (options.isNu()) {
            rep.put("nu", options.nu());
        }
        rep.put("epsilon", m.epsilon());
        rep.put("supportVectors", m.supportVectors().rows());
        rep.put("iterations", m.diagnostics().iterations());
        rep.put("violation", m.diagnostics().violation());
        rep.put("converged", m.diagnostics().converged());
        rep.put("primal", m.diagnostics().primal());
        rep.put("dual", m.diagnostics().dual());
        rep.putAll(Metrics.regression(raw.y(), model instanceof SvrTrainer.Fit f ? f.trainingPredictions(raw)
                : model.predict(raw.x()).col(0)));
        if (!common.json) {
            System.err.println("psdkit fit svr: wrote " + common.out + " (training-set metrics below)");
        }
        common.report(rep);
        return Main.EXIT_OK;
    }
}
