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
import org.psdkit.model.Pipeline;
import org.psdkit.optim.sdp.SdpOptions;
import org.psdkit.sos.KernelSos;
import org.psdkit.sos.KernelSosTrainer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code psdkit fit kernel-sos}: Kernel SoS (Bagnell &amp; Farahmand) by the SDP (2). */
@Command(name = "kernel-sos", description = {
    "Kernel SoS (Bagnell & Farahmand, OPT 2015): f(x) = sum_l alpha_l k(x, X_l)^2 by their SDP (2),",
    "min (K'a - Y)'(K'a - Y) + lambda a'K'a s.t. G diag(a) + diag(a) G >= 0 (K' = G o G).",
    "What it really is: a non-negative-coefficients model with kernel k^2 under that (stricter) symmetrised LMI."})
public final class FitKernelSosCommand implements Callable<Integer> {

    @Mixin
    CommonFitOptions common;

    @Option(names = "--kernel", defaultValue = "gaussian(sigma=0.25) + 0.01*delta", paramLabel = "SPEC",
            description = "Kernel k (default: ${DEFAULT-VALUE}, the paper's).")
    String kernel;

    @Option(names = "--lambda", defaultValue = "0.01", paramLabel = "X",
            description = "Regularisation lambda >= 0 (default: ${DEFAULT-VALUE}).")
    double lambda;

    @Option(names = "--max-iterations", defaultValue = "100", paramLabel = "N",
            description = "Interior-point iteration limit (default: ${DEFAULT-VALUE}).")
    int maxIterations;

    @Override
    public Integer call() {
        if (maxIterations < 1) {
            throw new IllegalArgumentException("--max-iterations must be >= 1, got " + maxIterations);
        }
        Kernel k = KernelSpecs.parse(kernel);
        KernelSosTrainer.Options o = KernelSosTrainer.Options.of(k, lambda)
                .withSdp(SdpOptions.defaults().withMaxIterations(maxIterations)).withScale(common.scaleKind());
        common.checkOutWritable();
        Dataset raw = common.loadSupervised(false);
        long t0 = System.nanoTime();
        Pipeline<KernelSos> model;
        try (Progress p = Progress.startSolver("kernel-sos sdp", maxIterations)) {
            model = p.run(() -> new KernelSosTrainer(o).fit(raw,
                    e -> p.set(e.step(), String.format(java.util.Locale.ROOT, "gap %.1e", e.value()))));
        }
        KernelSos m = model.inner();
        double secs = (System.nanoTime() - t0) * 1e-9;
        common.save(model);
        Map<String, Object> rep = common.baseReport(KernelSos.TYPE, raw, secs);
        rep.put("kernel", k.spec());
        rep.put("lambda", lambda);
        rep.put("objective", m.objective());
        rep.put("lmi_min_eigenvalue", m.lmiMinEigenvalue());
        rep.put("alpha_min", m.alphaMin());
        rep.put("status", m.sdpResult().status().label());
        rep.put("iterations", m.sdpResult().iterations());
        rep.put("relative_gap", m.sdpResult().relativeGap());
        rep.putAll(Metrics.regression(raw.y(), model.predict(raw.x()).col(0)));
        common.report(rep);
        return Main.EXIT_OK;
    }
}
