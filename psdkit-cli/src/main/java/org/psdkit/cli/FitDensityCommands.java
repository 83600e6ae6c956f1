package org.psdkit.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Map;
import java.util.concurrent.Callable;
import org.psdkit.data.Dataset;
import org.psdkit.data.Scaler;
import org.psdkit.density.BaseMeasure;
import org.psdkit.density.Baselines;
import org.psdkit.density.DensityModel;
import org.psdkit.density.Kde;
import org.psdkit.density.PsdDensity;
import org.psdkit.density.PsdDensityEstimator;
import org.psdkit.density.PsdDensityOptions;
import org.psdkit.kernel.Kernel;
import org.psdkit.linalg.Matrix;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** The {@code psdkit fit density | ncm-density | pnm-density | glm-density | kde} commands. */
public final class FitDensityCommands {
    private FitDensityCommands() {
    }

    /** Shared tail: save the document, report training log-likelihood and solver diagnostics. */
    static Integer finish(CommonFitOptions common, String type, Dataset raw, Scaler scaler, DensityModel m,
                          String kernelSpec, double secs, Map<String, Object> options) {
        ObjectNode doc = common.newModelDocument(type, raw, scaler, kernelSpec);
        ObjectNode o = (ObjectNode) doc.get("options");
        options.forEach((k, v) -> o.put(k, String.valueOf(v)));
        DensityKind.store(doc, m);
        common.save(doc);
        Map<String, Object> rep = common.baseReport(type, raw, secs);
        rep.put("base", m.base().spec());
        rep.putAll(options);
        rep.putAll(DensityKind.diagnosticsReport(m));
        Matrix x = scaler.apply(raw.x());
        rep.put("train_loglik", m.meanLogLikelihood(x) + DensityKind.logJacobian(scaler));
        common.report(rep);
        return Main.EXIT_OK;
    }

    @Command(name = "density", description = "PSD-model density p = f·nu (seed 002 eq. 12): min -(1/n) sum log f(x_i)"
            + " + lambda1 Tr A + lambda2/2 |A|_F^2 s.t. integral f dnu = 1, FISTA on the dual.")
    public static final class Psd implements Callable<Integer> {
        @Mixin
        CommonFitOptions common;
        @Mixin
        DensityFitOptions opt;

        @Option(names = "--lambda1", paramLabel = "X", description = "Trace weight (overrides --lambda).")
        Double lambda1;
        @Option(names = "--lambda2", paramLabel = "X", description = "Frobenius weight (overrides --fro-ratio).")
        Double lambda2;
        @Option(names = "--fro-ratio", defaultValue = "0.01", paramLabel = "C",
                description = "lambda2 = C·lambda: 0.01 is Sec. 6's lambda(|A|_* + 0.01/2 |A|_F^2), 0.1 is App. E's "
                        + "lambda(|A|_* + 0.05 |A|_F^2) (default: ${DEFAULT-VALUE}).")
        double froRatio;
        @Option(names = "--lambda-scale", defaultValue = "normalized", paramLabel = "raw|normalized",
                description = "normalized: lambdas apply to |W|_F·A (the authors' code); raw: to the A of eq. (12) "
                        + "(default: ${DEFAULT-VALUE}).")
        String lambdaScale;
        @Option(names = "--anchors", defaultValue = "0", paramLabel = "M",
                description = "Nystrom: expand on M random training points (0 = all, the exact model).")
        int anchors;

        @Override
        public Integer call() {
            opt.check();
            double l1 = lambda1 != null ? lambda1 : opt.lambda;
            double l2 = lambda2 != null ? lambda2 : froRatio * l1;
            PsdDensityOptions.LambdaScale sc = switch (lambdaScale.trim().toLowerCase(java.util.Locale.ROOT)) {
                case "raw" -> PsdDensityOptions.LambdaScale.RAW;
                case "normalized", "normalised" -> PsdDensityOptions.LambdaScale.NORMALIZED;
                default -> throw new IllegalArgumentException("--lambda-scale must be raw or normalized, got "
                        + lambdaScale);
            };
            PsdDensityOptions o = new PsdDensityOptions(l1, l2, sc, opt.tol, opt.maxIter, Double.POSITIVE_INFINITY);
            if (anchors < 0) {
                throw new IllegalArgumentException("--anchors must be >= 0, got " + anchors);
            }
            Kernel k = KernelSpecs.parse(opt.kernel);
            common.checkOutWritable();
            Dataset raw = common.loadTrain(false);
            BaseMeasure base = opt.base(raw.d());
            Scaler scaler = common.fitScaler(raw);
            Matrix x = scaler.apply(raw.x());
            Matrix anch = null;
            if (anchors > 0 && anchors < x.rows()) {
                anch = x.selectRows(java.util.Arrays.copyOf(org.psdkit.data.Splits.permutation(x.rows(),
                        common.seed), anchors));
            }
            long t0 = System.nanoTime();
            PsdDensity m;
            try (Progress p = Progress.start("density fista", opt.maxIter)) {
                m = PsdDensityEstimator.fit(x, anch, k, base, o, p.listener());
            }
            double secs = (System.nanoTime() - t0) * 1e-9;
            Map<String, Object> options = new java.util.LinkedHashMap<>();
            options.put("lambda1", l1);
            options.put("lambda2", l2);
            options.put("lambda_scale", sc.name().toLowerCase(java.util.Locale.ROOT));
            options.put("anchors", anch == null ? x.rows() : anchors);
            return finish(common, PsdDensity.TYPE, raw, scaler, m, k.spec(), secs, options);
        }
    }

    /** The three density baselines share option handling and differ only in the estimator they call. */
    abstract static class BaselineFit implements Callable<Integer> {
        @Mixin
        CommonFitOptions common;
        @Mixin
        DensityFitOptions opt;

        /** The model type written to the model file. */
        abstract String type();

        /** Checks the base measure for this estimator (default: any). */
        void checkBase(BaseMeasure base) {
        }

        abstract DensityModel fit(Matrix x, Kernel k, BaseMeasure base);

        @Override
        public Integer call() {
            opt.check();
            Kernel k = KernelSpecs.parse(opt.kernel);
            common.checkOutWritable();
            Dataset raw = common.loadTrain(false);
            BaseMeasure base = opt.base(raw.d());
            checkBase(base);
            Scaler scaler = common.fitScaler(raw);
            long t0 = System.nanoTime();
            DensityModel m = fit(scaler.apply(raw.x()), k, base);
            return finish(common, type(), raw, scaler, m, k.spec(), (System.nanoTime() - t0) * 1e-9,
                    Map.of("lambda", opt.lambda));
        }
    }

    @Command(name = "ncm-density", description = "Baseline: non-negative coefficients on the simplex (seed 002 eq. 35).")
    public static final class Ncm extends BaselineFit {
        @Override
        String type() {
            return Baselines.NCM;
        }

        @Override
        DensityModel fit(Matrix x, Kernel k, BaseMeasure base) {
            return Baselines.ncm(x, k, base, opt.lambda, opt.tol, opt.maxIter);
        }
    }

    @Command(name = "pnm-density", description = "Baseline: f(x_i) >= 0 on the data only, integral 1 (seed 002 eq. 37);"
            + " may be negative elsewhere (eval reports min_density, negative_fraction).")
    public static final class Pnm extends BaselineFit {
        @Override
        String type() {
            return Baselines.PNM;
        }

        @Override
        DensityModel fit(Matrix x, Kernel k, BaseMeasure base) {
            return Baselines.pnm(x, k, base, opt.lambda, opt.tol, opt.maxIter);
        }
    }

    @Command(name = "glm-density", description = "Baseline: p = exp(g)/Z·nu with Z by Monte Carlo from nu "
            + "(seed 002 eq. 33); needs --base gaussian(...) or box(...).")
    public static final class Glm extends BaselineFit {
        @Override
        String type() {
            return Baselines.GLM;
        }

        @Override
        void checkBase(BaseMeasure base) {
            if (!base.isProbability()) {
                throw new IllegalArgumentException("--base: glm-density needs a probability base measure "
                        + "(gaussian(...) or box(...)), got " + base.spec());
            }
        }

        @Override
        DensityModel fit(Matrix x, Kernel k, BaseMeasure base) {
            return Baselines.glm(x, k, base, opt.lambda, opt.tol, opt.maxIter, common.seed);
        }
    }

    @Command(name = "kde", description = "Gaussian kernel density estimate; bandwidth by leave-one-out likelihood CV "
            + "unless --bandwidth is given.")
    public static final class KdeCmd implements Callable<Integer> {
        @Mixin
        CommonFitOptions common;
        @Option(names = "--bandwidth", paramLabel = "H", description = "Fixed bandwidth h > 0 (default: by CV).")
        Double bandwidth;

        @Override
        public Integer call() {
            if (bandwidth != null && !(bandwidth > 0)) {
                throw new IllegalArgumentException("--bandwidth must be > 0, got " + bandwidth);
            }
            common.checkOutWritable();
            Dataset raw = common.loadTrain(false);
            Scaler scaler = common.fitScaler(raw);
            long t0 = System.nanoTime();
            Matrix x = scaler.apply(raw.x());
            Kde m = bandwidth == null ? Kde.fit(x) : new Kde(x.copy(), bandwidth, Double.NaN);
            return finish(common, Kde.TYPE, raw, scaler, m, null, (System.nanoTime() - t0) * 1e-9,
                    new java.util.LinkedHashMap<>());
        }
    }
}
