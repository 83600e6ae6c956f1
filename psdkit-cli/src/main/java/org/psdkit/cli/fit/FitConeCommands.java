package org.psdkit.cli.fit;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.psdkit.cli.CommonFitOptions;
import org.psdkit.cli.KernelSpecs;
import org.psdkit.cli.Main;
import org.psdkit.cli.Progress;
import org.psdkit.cli.Reports;
import org.psdkit.data.Dataset;
import org.psdkit.kernel.Kernel;
import org.psdkit.kernel.Kernels;
import org.psdkit.cone.ConeDualSolver;
import org.psdkit.cone.ConeGrid;
import org.psdkit.psd.Nystrom;
import org.psdkit.cone.hetero.HeteroModel;
import org.psdkit.cone.hetero.HeteroPipeline;
import org.psdkit.cone.hetero.HeteroTrainer;
import org.psdkit.cone.hetero.HeteroscedasticRegression;
import org.psdkit.cone.Diagnostics;
import org.psdkit.cone.quantile.QuantileModel;
import org.psdkit.cone.quantile.QuantilePipeline;
import org.psdkit.cone.quantile.QuantileRegression;
import org.psdkit.cone.quantile.QuantileTrainer;
import org.psdkit.model.Trainer;
import org.psdkit.optim.ProgressListener;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code psdkit fit hetero} and {@code psdkit fit quantile}. */
public final class FitConeCommands {

    private FitConeCommands() {
    }

    /** The {@code solver} part of a fit report. */
    static Map<String, Object> diagnostics(Diagnostics d) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("iterations", d.iterations());
        m.put("objective", d.primal());
        m.put("gap", d.gap());
        m.put("relative_gap", d.relativeGap());
        m.put("converged", d.converged());
        m.put("rank", d.rank() > 0 ? d.rank() : null);
        m.put("rank_threshold", Double.isFinite(d.rankThreshold()) ? d.rankThreshold() : null);
        m.put("anchors", d.anchors());
        return m;
    }

    /** The {@code selection} part of a fit report: {@code by: given}, or the cross-validation and its grid. */
    static Map<String, Object> selection(ConeGrid.Outcome o, String metric) {
        Map<String, Object> m = new LinkedHashMap<>();
        if (o == null) {
            m.put("by", "given");
            return m;
        }
        m.put("by", o.folds() + "-fold cross-validation on held-out " + metric);
        m.put("kernel", o.kernel().spec());
        m.put("lambda", o.lambda());
        m.put("score", o.score());
        List<Map<String, Object>> rows = new ArrayList<>();
        for (ConeGrid.Point p : o.table()) {
            Map<String, Object> r = new LinkedHashMap<>();
            r.put("kernel", p.kernel());
            r.put("lambda", p.lambda());
            r.put(metric, p.score());
            r.put(metric + "_sd", p.sd());
            rows.add(r);
        }
        m.put("grid", rows);
        return m;
    }

    /** Options shared by both commands. */
    abstract static class Base {
        @Mixin
        CommonFitOptions common;
        @Mixin
        FeatureSpaceOptions space;

        @Option(names = "--kernel", paramLabel = "SPEC",
                description = "Kernel string, e.g. gaussian(sigma=0.1). Default: Gaussian, sigma chosen by "
                        + "cross-validation among 0.1, 0.2, 0.5, 1 times the spread of the (scaled) inputs.")
        String kernel;

        @Option(names = "--lambda", paramLabel = "X",
                description = "Regularisation lambda > 0. Default: chosen by cross-validation (see --folds).")
        Double lambda;

        @Option(names = "--lambdas", paramLabel = "L1,L2,...", split = ",",
                description = "Lambda grid for cross-validation when --lambda is not given.")
        double[] lambdas;

        @Option(names = "--folds", paramLabel = "K", description = "Folds of the cross-validation.")
        Integer folds;

        @Option(names = "--frobenius-weight", defaultValue = "0.05", paramLabel = "G",
                description = "gamma in lambda(||A||_* + gamma ||A||_F^2): 0.05 as in the paper's App. E "
                        + "(default), 0.005 for its Sec. 6.")
        double frobeniusWeight;

        @Option(names = "--restarts", defaultValue = "5", paramLabel = "R",
                description = "Seeded restarts of the non-convex GLM baseline (default: ${DEFAULT-VALUE}).")
        int restarts;

        @Option(names = "--gap-tolerance", defaultValue = "1e-4", paramLabel = "EPS",
                description = "Relative duality gap at which the dual solver stops (default: ${DEFAULT-VALUE}).")
        double gap;

        @Option(names = "--max-iterations", defaultValue = "20000", paramLabel = "N",
                description = "Iteration cap of the solver (default: ${DEFAULT-VALUE}).")
        int maxIterations;




        Kernel parsedKernel;

        /** The feature-space settings of --anchors, --anchor-method, --seed, --rank-threshold. */
        Nystrom nystrom(String command) {
            double rt = space.rankThreshold(command, "");
            return new Nystrom(space.anchors(), space.anchorMethod(), common.seed, rt);
        }

        /** --anchors with a method other than psd, with the flag in the message. */
        void checkAnchors(String method) {
            if (space.anchors() > 0 && !"psd".equals(method)) {
                throw new IllegalArgumentException("--anchors is supported by --method psd only, got --method "
                        + method);
            }
        }

        /**
         * Checks the flags that have no library record of their own here (--lambda, --frobenius-weight, --restarts
         * and --taus are refused by the model's options, which name them): --lambdas and --folds also when no grid is
         * built, the solver's --gap-tolerance and --max-iterations.
         */
        void check() {
            if (lambdas != null) {
                for (double l : lambdas) {
                    if (!(l > 0)) {
                        throw new IllegalArgumentException("--lambdas must be > 0, got " + l);
                    }
                }
            }
            if (folds != null && folds < 2) {
                throw new IllegalArgumentException("--folds must be >= 2, got " + folds);
            }
            if (!(gap > 0)) {
                throw new IllegalArgumentException("--gap-tolerance must be > 0, got " + gap);
            }
            if (maxIterations < 1) {
                throw new IllegalArgumentException("--max-iterations must be >= 1, got " + maxIterations);
            }
            parsedKernel = kernel == null ? null : KernelSpecs.parse(kernel);
        }

        ConeDualSolver.Options solver() {
            return new ConeDualSolver.Options(gap, ConeDualSolver.Options.DEFAULT_FEASIBILITY_TOLERANCE,
                    maxIterations, ConeDualSolver.Options.DEFAULT_CHECK_EVERY);
        }

        /** The kernel to fit: the given one, or a placeholder that the cross-validation replaces. */
        Kernel kernelOrPlaceholder() {
            return parsedKernel == null ? Kernels.gaussian(1) : parsedKernel;
        }

        /** λ to fit: the given one, or a placeholder that the cross-validation replaces. */
        double lambdaOrPlaceholder() {
            return lambda == null ? 1 : lambda;
        }

        /** The cross-validation grid when kernel or λ is not given, else null. */
        ConeGrid grid(int defaultFolds) {
            if (parsedKernel != null && lambda != null) {
                return null;
            }
            return new ConeGrid(parsedKernel == null ? null : List.of(parsedKernel),
                    lambda != null ? new double[] {lambda} : lambdas, folds == null ? defaultFolds : folds,
                    common.seed);
        }
    }

    /**
     * The fit's progress on the CLI's display: the cross-validation as {@code n/total} fits, then the solver's
     * iterations with its duality gap.
     */
    static final class Display implements ProgressListener, AutoCloseable {
        private final String cvTask;
        private final String fitTask;
        private final long maxIterations;
        private Progress cv;
        private Progress fit;

        Display(String cvTask, String fitTask, long maxIterations) {
            this.cvTask = cvTask;
            this.fitTask = fitTask;
            this.maxIterations = maxIterations;
        }

        @Override
        public void onProgress(Event e) {
            switch (e.task()) {
                case "cv" -> {
                    if (cv == null) {
                        cv = Progress.start(cvTask, e.total());
                    }
                    cv.set(e.step());
                }
                case "fit" -> {
                    if (e.step() == 0) {
                        closeCv();
                        fit = Progress.startSolver(fitTask, maxIterations);
                    }
                }
                default -> {
                    if (fit != null) {
                        fit.set(e.step(), "gap " + Reports.fmt(e.value()));
                    }
                }
            }
        }

        /** Runs the fit; if it fails, the displays end without a "done" line ({@link Progress#run}). */
        <T> T run(java.util.function.Supplier<T> body) {
            try {
                return body.get();
            } catch (RuntimeException | Error e) {
                if (cv != null) {
                    cv.abandon();
                }
                if (fit != null) {
                    fit.abandon();
                }
                throw e;
            }
        }

        private void closeCv() {
            if (cv != null) {
                cv.close();
                cv = null;
            }
        }

        @Override
        public void close() {
            closeCv();
            if (fit != null) {
                fit.close();
                fit = null;
            }
        }
    }

    /** {@code psdkit fit hetero}. */
    @Command(name = "hetero", description = "Heteroscedastic Gaussian regression: mean and variance, the precision "
            + "1/v a PSD model (non-negative everywhere). predict writes mean,variance.")
    public static final class Hetero extends Base implements Callable<Integer> {

        @Option(names = "--method", defaultValue = "psd", paramLabel = "psd|pnm|ncm|glm",
                description = "Model of the precision theta = 1/v (default: ${DEFAULT-VALUE}).")
        String method;

        @Override
        public Integer call() {
            HeteroscedasticRegression.Method m = HeteroscedasticRegression.Method.parse(method);
            check();
            checkAnchors(m.id());
            Nystrom ny = nystrom("hetero");
            common.checkOutWritable();
            Dataset raw = common.loadSupervised(false);
            HeteroTrainer given = new HeteroTrainer(new HeteroscedasticRegression.Options(kernelOrPlaceholder(),
                    lambdaOrPlaceholder(), frobeniusWeight, m, restarts, common.seed, solver(), ny,
                    common.scaleKind()));
            ConeGrid grid = grid(HeteroscedasticRegression.DEFAULT_FOLDS);
            Trainer<HeteroPipeline> trainer = grid == null ? given : given.crossValidated(grid);
            long t0 = System.nanoTime();
            if (grid != null) {
                Progress.info("choosing kernel and lambda by " + grid.folds()
                        + "-fold cross-validation on held-out NLL");
            }
            HeteroPipeline model;
            try (Display d = new Display("hetero " + m.id() + " cross-validation", "hetero " + m.id(),
                    maxIterations)) {
                model = d.run(() -> trainer.fit(raw, d));
            }
            double secs = (System.nanoTime() - t0) * 1e-9;
            common.save(model);
            HeteroModel inner = model.inner();
            Map<String, Object> rep = common.baseReport(HeteroModel.TYPE, raw, secs);
            rep.put("method", m.id());
            rep.put("kernel", inner.kernel().spec());
            rep.put("lambda", inner.lambda());
            rep.put("selection", selection(model.selection(), "nll"));
            rep.putAll(HeteroPipeline.metrics(model.predict(raw.x()), raw.y()));
            rep.put("solver", diagnostics(inner.diagnostics()));
            common.report(rep);
            return Main.EXIT_OK;
        }
    }

    /** {@code psdkit fit quantile}. */
    @Command(name = "quantile", description = "Multiple quantile regression without crossing: median + cumulative "
            + "non-negative PSD increments. predict writes one column per level (q0.25,...).")
    public static final class Quantile extends Base implements Callable<Integer> {

        @Option(names = "--taus", defaultValue = "0.25,0.5,0.75", paramLabel = "T1,T2,...", split = ",",
                description = "Increasing quantile levels in (0,1) (default: ${DEFAULT-VALUE}).")
        double[] taus;

        @Option(names = "--method", defaultValue = "psd", paramLabel = "psd|pnm|ncm|glm|independent",
                description = "Model of the increments between levels (default: ${DEFAULT-VALUE}).")
        String method;

        @Option(names = "--constant-blocks",
                description = "Add a non-negative constant to every PSD increment, so that the bands keep a width "
                        + "far from the data (off by default: the paper's model; it also slows the solver).")
        boolean constantBlocks;

        @Override
        public Integer call() {
            QuantileRegression.Method m = QuantileRegression.Method.parse(method);
            check();
            checkAnchors(m.id());
            QuantileRegression.Options options = new QuantileRegression.Options(taus, kernelOrPlaceholder(),
                    lambdaOrPlaceholder(), frobeniusWeight, m, constantBlocks, restarts, common.seed, solver(),
                    nystrom("quantile"), common.scaleKind());
            common.checkOutWritable();
            Dataset raw = common.loadSupervised(false);
            ConeGrid grid = grid(QuantileRegression.DEFAULT_FOLDS);
            QuantileTrainer given = new QuantileTrainer(options);
            Trainer<QuantilePipeline> trainer = grid == null ? given : given.crossValidated(grid);
            long t0 = System.nanoTime();
            if (grid != null) {
                Progress.info("choosing kernel and lambda by " + grid.folds()
                        + "-fold cross-validation on held-out pinball loss");
            }
            QuantilePipeline model;
            try (Display d = new Display("quantile " + m.id() + " cross-validation", "quantile " + m.id(),
                    maxIterations)) {
                model = d.run(() -> trainer.fit(raw, d));
            }
            double secs = (System.nanoTime() - t0) * 1e-9;
            common.save(model);
            QuantileModel inner = model.inner();
            Map<String, Object> rep = common.baseReport(QuantileModel.TYPE, raw, secs);
            rep.put("method", m.id());
            rep.put("taus", inner.taus());
            rep.put("kernel", inner.kernel().spec());
            rep.put("lambda", inner.lambda());
            rep.put("selection", selection(model.selection(), "pinball"));
            rep.putAll(model.evaluate(raw).toMap());
            rep.put("solver", diagnostics(inner.diagnostics()));
            common.report(rep);
            return Main.EXIT_OK;
        }
    }
}
