package org.psdkit.cli.fit;

import java.util.Map;
import java.util.concurrent.Callable;
import org.psdkit.cli.CommonFitOptions;
import org.psdkit.cli.KernelSpecs;
import org.psdkit.cli.Main;
import org.psdkit.cli.Progress;
import org.psdkit.data.Dataset;
import org.psdkit.data.Scaler;
import org.psdkit.density.BaseMeasure;
import org.psdkit.density.BaselineOptions;
import org.psdkit.density.DensityDiagnostics;
import org.psdkit.density.DensityModel;
import org.psdkit.density.DensityPipeline;
import org.psdkit.density.GlmDensityTrainer;
import org.psdkit.density.Kde;
import org.psdkit.density.KdeTrainer;
import org.psdkit.density.NcmDensityTrainer;
import org.psdkit.density.PnmDensityTrainer;
import org.psdkit.density.PsdDensityOptions;
import org.psdkit.density.PsdDensityTrainer;
import org.psdkit.engine.DataSource;
import org.psdkit.engine.DistributedEngine;
import org.psdkit.kernel.Kernel;
import org.psdkit.model.Trainer;
import org.psdkit.psd.Nystrom;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** The {@code psdkit fit density | ncm-density | pnm-density | glm-density | kde} commands. */
public final class FitDensityCommands {
    private FitDensityCommands() {
    }

    /**
     * Shared tail: save the model, report the training log-likelihood and solver diagnostics. {@code options} are
     * the report's typed copies of the options the model file holds as strings.
     */
    static Integer finish(CommonFitOptions common, Dataset raw, DensityPipeline model, double secs,
                          Map<String, Object> options) {
        common.save(model);
        Map<String, Object> rep = common.baseReport(model.type(), raw, secs);
        rep.put("base", model.base().spec());
        rep.putAll(options);
        rep.putAll(diagnosticsReport(model.inner()));
        warnIfNotConverged(model);
        rep.put("train_loglik", model.meanLogLikelihood(raw.x()));
        common.report(rep);
        return Main.EXIT_OK;
    }

    /**
     * Runs a fit; the library's refusal to integrate a kernel against the base measure (a kernel without a closed
     * form, e.g. {@code linear}, against Lebesgue measure over all of R^d) is reworded with the options that set them
     * and the choices that work.
     */
    static DensityPipeline explained(DensityFitOptions opt, java.util.function.Supplier<DensityPipeline> fit) {
        try {
            return fit.get();
        } catch (IllegalArgumentException e) {
            String msg = e.getMessage() == null ? "" : e.getMessage();
            if (!msg.startsWith("quadrature fallback") && !msg.contains("use the quadrature fallback")) {
                throw e;
            }
            throw new IllegalArgumentException("--kernel " + opt.kernel + " with --base " + opt.base + ": the "
                    + "density's normaliser cannot be integrated (" + msg + "); a gaussian kernel has a closed form "
                    + "against every base, other kernels need a base with finite bounds, --base 'box(a=A,b=B)', or "
                    + "a gaussian base, --base 'gaussian(mu=M,sd=S)'", e);
        }
    }

    /** {@link PsdKinds#warnNotConverged} for a density model whose solver stopped before its tolerance. */
    static void warnIfNotConverged(DensityPipeline model) {
        DensityDiagnostics dg = DensityPipeline.solverDiagnostics(model.inner());
        if (dg != null && !dg.converged()) {
            PsdKinds.warnNotConverged(model.type(), "not converged", dg.iterations(), dg.relativeGap());
        }
    }

    /** The fit report's solver fields: objective, relative_gap (also as duality_gap), iterations, converged; bandwidth, loo_loglik; integral. */
    static Map<String, Object> diagnosticsReport(DensityModel m) {
        Map<String, Object> r = new java.util.LinkedHashMap<>();
        DensityDiagnostics dg = DensityPipeline.solverDiagnostics(m);
        if (dg != null) {
            r.put("objective", dg.objective());
            r.put("relative_gap", dg.relativeGap());
            r.put("duality_gap", dg.relativeGap()); // the same relative gap, under the key reports used before
            r.put("iterations", dg.iterations());
            r.put("converged", dg.converged());
            r.put("rank", dg.rank());
            r.put("rank_threshold", org.psdkit.cli.Reports.finiteOrNull(dg.rankThreshold()));
            r.put("anchors", dg.anchors());
        }
        if (m instanceof org.psdkit.density.GlmDensity g && Double.isFinite(g.logZStandardError())) {
            // Z by importance sampling, with its relative standard error, and eq. 33's Monte-Carlo Z of training
            r.put("log_z", g.logZ());
            r.put("log_z_rse", g.logZStandardError());
            r.put("training_log_z", org.psdkit.cli.Reports.finiteOrNull(g.trainingLogZ()));
        }
        if (m instanceof Kde k) {
            r.put("bandwidth", k.bandwidth());
            r.put("loo_loglik", k.looLogLikelihood());
        }
        r.put("integral", m.integral());
        return r;
    }

    @Command(name = "density", description = "PSD-model density p = f·nu (Marteau-Ferey, Bach & Rudi 2020 eq. 12): min -(1/n) sum log f(x_i)"
            + " + lambda1 Tr A + lambda2/2 |A|_F^2 s.t. integral f dnu = 1; L-BFGS over a factor of A with a dual "
            + "certificate (--solver dual-fista: FISTA on the dual).")
    public static final class Psd implements Callable<Integer> {
        @Mixin
        CommonFitOptions common;
        @Mixin
        DensityFitOptions opt;
        @Mixin
        FeatureSpaceOptions space;

        @Option(names = "--lambda1", paramLabel = "X", description = "Trace weight (overrides --lambda).")
        Double lambda1;
        @Option(names = "--lambda2", paramLabel = "X", description = "Frobenius weight (overrides --fro-ratio).")
        Double lambda2;
        @Option(names = "--fro-ratio", defaultValue = "0.01", paramLabel = "C",
                description = "lambda2 = C·lambda: 0.01 is Sec. 6's lambda(|A|_* + 0.01/2 |A|_F^2), 0.1 is App. E's "
                        + "lambda(|A|_* + 0.05 |A|_F^2) (default: ${DEFAULT-VALUE}).")
        double froRatio;
        @Option(names = "--lambda-scale", defaultValue = "trace", paramLabel = "trace|raw|normalized",
                description = "trace: lambdas apply to Tr(W)·A, on which the flat density is 1 at the data (the same "
                        + "meaning for every sigma, d and base measure; converges fastest); normalized: to |W|_F·A "
                        + "(the authors' code); raw: to the A of eq. (12) (default: ${DEFAULT-VALUE}).")
        String lambdaScale;
        @Option(names = "--solver", defaultValue = "primal-lbfgs", paramLabel = "primal-lbfgs|dual-fista",
                description = "primal-lbfgs: L-BFGS over a factor of A, certified by a dual point; dual-fista: FISTA "
                        + "on the dual, one variable per data point (the old solver). Both stop on the relative "
                        + "duality gap --tol (default: ${DEFAULT-VALUE}).")
        String solver;

        @Option(names = "--engine", defaultValue = "${sys:psdkit.engine:-local}", paramLabel = "local|spark",
                description = "Where the fit runs (with --anchors): local, or spark (Apache Spark: --train may be any "
                        + "Hadoop-compatible path, CSV or Parquet; see docs/scale.md; default: ${DEFAULT-VALUE}).")
        String engine;

        @Option(names = "--master", paramLabel = "URL",
                description = "Spark master with --engine spark: local[N], local[*], spark://HOST:PORT, yarn, ... "
                        + "(default: spark-submit's --master, else local[*]).")
        String master;

        @picocli.CommandLine.Spec
        picocli.CommandLine.Model.CommandSpec spec;

        @Override
        public Integer call() {
            String eng = Engines.parse(engine);
            if (master != null && !eng.equals("spark")) {
                throw new IllegalArgumentException("--master " + master + ": applies to --engine spark only");
            }
            opt.check();
            PsdDensityOptions.Solver sv;
            try {
                sv = PsdDensityOptions.Solver.parse(solver);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("--solver must be primal-lbfgs or dual-fista, got '" + solver
                        + "'");
            }
            if (common.weight != null && sv != PsdDensityOptions.Solver.DUAL_FISTA && !eng.equals("spark")) {
                // the weighted log-likelihood is solved by the dual solver (PsdDensityEstimator)
                System.err.println("psdkit fit density: note: --weight fits with --solver dual-fista");
                sv = PsdDensityOptions.Solver.DUAL_FISTA;
            }
            double rt = space.rankThreshold("density", ", and the integral of f may lose accuracy");
            double l1 = lambda1 != null ? lambda1 : opt.lambda;
            double l2 = lambda2 != null ? lambda2 : froRatio * l1;
            PsdDensityOptions.LambdaScale sc = DensityKind.lambdaScale(lambdaScale, "--lambda-scale");
            PsdDensityOptions o = new PsdDensityOptions(l1, l2, sc, opt.tol, opt.maxIter, Double.POSITIVE_INFINITY,
                    rt, sv);
            int anchors = space.anchors();
            org.psdkit.psd.Anchors.Method method = space.anchorMethod();
            Kernel k = KernelSpecs.parse(opt.kernel);
            Map<String, Object> options = new java.util.LinkedHashMap<>();
            options.put("lambda1", l1);
            options.put("lambda2", l2);
            options.put("lambda_scale", sc.name().toLowerCase(java.util.Locale.ROOT));
            options.put("solver", sv.id());
            if (eng.equals("spark")) {
                if (common.weight != null) {
                    throw new IllegalArgumentException("--weight " + common.weight + ": --engine spark fits without "
                            + "sample weights; use --engine local");
                }
                if (sv != PsdDensityOptions.Solver.PRIMAL_LBFGS) {
                    throw new IllegalArgumentException("--solver " + solver + ": --engine spark uses the primal "
                            + "solver (primal-lbfgs), whose data sums distribute");
                }
                return callSpark(o, anchors, method, k, options);
            }
            common.checkOutWritable();
            common.acceptWeights();
            Dataset raw = common.loadUnsupervised("a density model");
            PsdDensityTrainer trainer = new PsdDensityTrainer(new PsdDensityTrainer.Options(k, opt.base(raw.d()), o,
                    org.psdkit.psd.Nystrom.of(anchors, method, common.seed), common.scaleKind()));
            long t0 = System.nanoTime();
            DensityPipeline m;
            try (Progress p = Progress.startSolver("density " + sv.id(), opt.maxIter)) {
                m = p.run(() -> explained(opt, () -> trainer.fit(raw, e -> p.set(e.step(), "gap " + e.value()))));
            }
            double secs = (System.nanoTime() - t0) * 1e-9;
            return finish(common, raw, m, secs, options);
        }

        /**
         * {@code --engine spark}: the Nystrom fit with the primal solver over Spark ({@link DistributedEngine},
         * loaded by {@link Engines}), on the same anchors as the local fit.
         */
        private Integer callSpark(PsdDensityOptions o, int anchors, org.psdkit.psd.Anchors.Method method, Kernel k,
                                  Map<String, Object> options) {
            if (anchors < 1) {
                throw new IllegalArgumentException("--engine spark needs --anchors M: the exact model needs the n x n "
                        + "kernel matrix on one machine (see docs/scale.md)");
            }
            if (method != org.psdkit.psd.Anchors.Method.UNIFORM) {
                throw new IllegalArgumentException("--anchor-method: --engine spark draws uniform anchors only");
            }
            if (common.scaleKind() != org.psdkit.data.Scaler.Kind.NONE) {
                throw new IllegalArgumentException("--scale " + common.scale + ": --engine spark uses the features "
                        + "as given; scale them beforehand or use --scale none");
            }
            if (common.target != null) {
                throw new IllegalArgumentException("--target " + common.target + ": a density model takes no "
                        + "target; every column of --train is a feature");
            }
            common.checkOutWritable();
            String train = spec.commandLine().getParseResult().matchedOption("--train").stringValues().get(0);
            DistributedEngine e = Engines.load("spark");
            long t0 = System.nanoTime();
            DistributedEngine.DensityResult r = Engines.guard(() -> e.fitDensity(new DistributedEngine.DensityRequest(
                    DataSource.of(train), master, k, opt::base, o.withSolver(PsdDensityOptions.Solver.PRIMAL_LBFGS),
                    anchors, method, common.seed)));
            double secs = (System.nanoTime() - t0) * 1e-9;
            DensityPipeline model = r.model();
            common.save(model);
            Map<String, Object> rep = new java.util.LinkedHashMap<>();
            rep.put("model", model.type());
            rep.put("n", r.n());
            rep.put("d", r.d());
            rep.put("seconds", secs);
            rep.put("out", common.out.toString());
            rep.put("base", model.base().spec());
            rep.putAll(options);
            rep.putAll(diagnosticsReport(model.inner()));
            warnIfNotConverged(model);
            rep.put("train_loglik", r.trainLoglik());
            rep.put("engine", "spark");
            common.report(rep);
            return Main.EXIT_OK;
        }
    }

    /** The three density baselines share option handling and differ only in their trainer. */
    abstract static class BaselineFit implements Callable<Integer> {
        @Mixin
        CommonFitOptions common;
        @Mixin
        DensityFitOptions opt;
        @Mixin
        FeatureSpaceOptions space;

        /** The command name, for messages. */
        abstract String name();

        /**
         * {@code --anchors}, {@code --anchor-method}, {@code --seed} and {@code --rank-threshold} as the library's
         * Nyström settings (NCM overrides: it has no feature map, so no rank threshold).
         */
        Nystrom nystrom() {
            return new Nystrom(space.anchors(), space.anchorMethod(), common.seed,
                    space.rankThreshold(name(), ""));
        }

        abstract Trainer<DensityPipeline> trainer(Kernel k, BaseMeasure base, Scaler.Kind scale, Nystrom ny);

        /** The baselines' options from the flags (the seed is GLM's; NCM and PNM do not draw). */
        BaselineOptions options(Kernel k, BaseMeasure base, Scaler.Kind scale, Nystrom ny) {
            return new BaselineOptions(k, base, opt.lambda, opt.tol, opt.maxIter, common.seed, scale, ny);
        }

        @Override
        public Integer call() {
            Nystrom ny = nystrom();
            Kernel k = KernelSpecs.parse(opt.kernel);
            common.checkOutWritable();
            Dataset raw = common.loadUnsupervised("a density model");
            BaseMeasure base = opt.base(raw.d());
            Trainer<DensityPipeline> trainer = trainer(k, base, common.scaleKind(), ny);
            long t0 = System.nanoTime();
            DensityPipeline m = explained(opt, () -> trainer.fit(raw));
            return finish(common, raw, m, (System.nanoTime() - t0) * 1e-9, Map.of("lambda", opt.lambda));
        }
    }

    @Command(name = "ncm-density", description = "Baseline: non-negative coefficients on the simplex (Marteau-Ferey, Bach & Rudi 2020 eq. 35).")
    public static final class Ncm extends BaselineFit {
        @Override
        String name() {
            return "ncm-density";
        }

        @Override
        Nystrom nystrom() {
            if (space.rankThresholdGiven()) {
                throw new IllegalArgumentException("--rank-threshold does not apply to ncm-density: its coefficients "
                        + "live on the expansion points themselves, no eigen-decomposition is cut");
            }
            return new Nystrom(space.anchors(), space.anchorMethod(), common.seed,
                    org.psdkit.psd.PsdOptions.DEFAULT_RANK_THRESHOLD);
        }

        @Override
        Trainer<DensityPipeline> trainer(Kernel k, BaseMeasure base, Scaler.Kind scale, Nystrom ny) {
            return new NcmDensityTrainer(options(k, base, scale, ny));
        }
    }

    @Command(name = "pnm-density", description = "Baseline: f(x_i) >= 0 on the data only, integral 1 (Marteau-Ferey, Bach & Rudi 2020 eq. 37);"
            + " may be negative elsewhere (eval reports min_density, negative_fraction).")
    public static final class Pnm extends BaselineFit {
        @Override
        String name() {
            return "pnm-density";
        }

        @Override
        Trainer<DensityPipeline> trainer(Kernel k, BaseMeasure base, Scaler.Kind scale, Nystrom ny) {
            return new PnmDensityTrainer(options(k, base, scale, ny));
        }
    }

    @Command(name = "glm-density", description = "Baseline: p = exp(g)/Z·nu, trained with Z by Monte Carlo from nu "
            + "(Marteau-Ferey, Bach & Rudi 2020 eq. 33), normalised by Z from importance sampling; needs --base "
            + "gaussian(...) or box(...).")
    public static final class Glm extends BaselineFit {
        @Override
        String name() {
            return "glm-density";
        }

        @Override
        Trainer<DensityPipeline> trainer(Kernel k, BaseMeasure base, Scaler.Kind scale, Nystrom ny) {
            return new GlmDensityTrainer(options(k, base, scale, ny));
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
            KdeTrainer.Options o = bandwidth == null ? KdeTrainer.Options.leaveOneOut()
                    : KdeTrainer.Options.fixed(bandwidth);
            KdeTrainer trainer = new KdeTrainer(o.withScale(common.scaleKind()));
            common.checkOutWritable();
            Dataset raw = common.loadUnsupervised("a density model");
            long t0 = System.nanoTime();
            DensityPipeline m = trainer.fit(raw);
            return finish(common, raw, m, (System.nanoTime() - t0) * 1e-9, new java.util.LinkedHashMap<>());
        }
    }
}
