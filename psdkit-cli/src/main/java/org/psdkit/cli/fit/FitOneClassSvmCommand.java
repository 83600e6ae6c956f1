package org.psdkit.cli.fit;

import java.util.Map;
import java.util.concurrent.Callable;
import org.psdkit.classify.OneClassSvm;
import org.psdkit.classify.OneClassSvmTrainer;
import org.psdkit.classify.SvmTrainer;
import org.psdkit.cli.CommonFitOptions;
import org.psdkit.cli.Flags;
import org.psdkit.cli.KernelSpecs;
import org.psdkit.cli.Main;
import org.psdkit.data.Dataset;
import org.psdkit.kernel.Kernel;
import org.psdkit.optim.smo.Smo;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code psdkit fit one-class-svm}: novelty detection by the one-class SVM (every column is a feature). */
@Command(name = "one-class-svm", description = "One-class SVM for novelty detection (Schoelkopf et al. 2001, "
        + "LIBSVM's -s 2): every column of --train is a feature; predict writes decision and inlier (+1/-1).")
public final class FitOneClassSvmCommand implements Callable<Integer> {

    @Mixin
    CommonFitOptions common;

    @Option(names = "--kernel", defaultValue = "gaussian(sigma=1)", paramLabel = "SPEC",
            description = "Kernel string (default: ${DEFAULT-VALUE}).")
    String kernel;

    @Option(names = "--nu", defaultValue = "0.5", paramLabel = "NU",
            description = "nu in (0, 1]: at most this fraction of the training rows are outliers, at least this "
                    + "fraction are support vectors (default: ${DEFAULT-VALUE}, as LIBSVM and scikit-learn).")
    double nu;

    @Option(names = "--tolerance", defaultValue = "1e-3", paramLabel = "TOL",
            description = "SMO stopping tolerance on the KKT violation (default: ${DEFAULT-VALUE}, as LIBSVM).")
    double tolerance;

    @Option(names = "--cache-mb", defaultValue = "" + Smo.DEFAULT_CACHE_MB, paramLabel = "MB",
            description = "Memory for kernel values in MB, as LIBSVM's -m (default: ${DEFAULT-VALUE}).")
    int cacheMb;

    @Override
    public Integer call() {
        Kernel k = KernelSpecs.parse(kernel);
        OneClassSvmTrainer.Options options = Flags.checked(() -> OneClassSvmTrainer.Options.of(k, nu)
                .withTolerance(tolerance).withCacheMb(cacheMb).withScale(common.scaleKind()), SvrKind.FLAGS);
        common.checkOutWritable();
        Dataset raw = common.loadUnsupervised("a one-class SVM");
        long t0 = System.nanoTime();
        OneClassSvm m = new OneClassSvmTrainer(options).fit(raw);
        double secs = (System.nanoTime() - t0) * 1e-9;
        SvmTrainer.Fit d = (SvmTrainer.Fit) m.diagnostics();
        if (!d.converged()) {
            System.err.println("psdkit fit one-class-svm: warning: SMO stopped at its iteration limit with KKT "
                    + "violation " + d.violation() + " (tolerance " + tolerance + ")");
        }
        common.save(m);
        Map<String, Object> rep = common.baseReport(OneClassSvmTrainer.TYPE, raw, secs);
        rep.put("kernel", k.spec());
        rep.put("nu", nu);
        rep.put("rho", m.rho());
        rep.put("supportVectors", m.inner().supportVectors().rows());
        rep.put("iterations", d.iterations());
        rep.put("violation", d.violation());
        rep.put("converged", d.converged());
        rep.put("trainInlierFraction", m.evaluate(raw).get("inlierFraction"));
        common.report(rep);
        return Main.EXIT_OK;
    }
}
