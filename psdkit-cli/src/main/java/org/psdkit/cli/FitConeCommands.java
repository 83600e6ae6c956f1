package org.psdkit.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.psdkit.data.Dataset;
import org.psdkit.data.Scaler;
import org.psdkit.kernel.Kernel;
import org.psdkit.model.cone.ConeDualSolver;
import org.psdkit.model.cone.GridSelection;
import org.psdkit.model.hetero.HeteroModel;
import org.psdkit.model.hetero.HeteroscedasticRegression;
import org.psdkit.model.quantile.QuantileModel;
import org.psdkit.model.quantile.QuantileRegression;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code psdkit fit hetero} and {@code psdkit fit quantile}. */
public final class FitConeCommands {

    private FitConeCommands() {
    }

    /** Options shared by both commands. */
    abstract static class Base {
        @Mixin
        CommonFitOptions common;

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

        void check() {
            if (lambda != null && !(lambda > 0)) {
                throw new IllegalArgumentException("--lambda must be > 0, got " + lambda);
            }
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
            if (!(frobeniusWeight > 0)) {
                throw new IllegalArgumentException("--frobenius-weight must be > 0, got " + frobeniusWeight);
            }
            if (restarts < 1) {
                throw new IllegalArgumentException("--restarts must be >= 1, got " + restarts);
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

        boolean needsSelection() {
            return parsedKernel == null || lambda == null;
        }

        List<Kernel> kernels(Dataset train) {
            return parsedKernel == null ? GridSelection.defaultGaussians(train.x()) : List.of(parsedKernel);
        }

        double[] lambdaGrid(double[] defaults) {
            return lambda != null ? new double[] {lambda} : lambdas != null ? lambdas : defaults;
        }

        static org.psdkit.optim.ProgressListener listener(Progress p) {
            return p.listener();
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
            common.checkOutWritable();
            Dataset raw = common.loadSupervised(false);
            Scaler scaler = common.fitScaler(raw);
            Dataset train = scaler.apply(raw);
            long t0 = System.nanoTime();
            HeteroscedasticRegression.Options base = new HeteroscedasticRegression.Options(
                    parsedKernel == null ? org.psdkit.kernel.Kernels.gaussian(1) : parsedKernel,
                    lambda == null ? 1 : lambda, frobeniusWeight, m, restarts, common.seed, solver());
            GridSelection.Outcome sel = null;
            if (needsSelection()) {
                int k = folds == null ? HeteroscedasticRegression.DEFAULT_FOLDS : folds;
                Progress.info("choosing kernel and lambda by " + k + "-fold cross-validation on held-out NLL");
                sel = HeteroscedasticRegression.select(train.x(), train.y(), base, kernels(train),
                        lambdaGrid(HeteroscedasticRegression.DEFAULT_LAMBDAS), k, common.seed);
                base = base.with(sel.kernel(), sel.lambda());
            }
            HeteroModel model;
            try (Progress p = Progress.start("hetero " + m.id(), maxIterations)) {
                model = HeteroscedasticRegression.fit(train.x(), train.y(), base, listener(p));
            }
            double secs = (System.nanoTime() - t0) * 1e-9;
            ObjectNode doc = common.newModelDocument(HeteroModel.TYPE, raw, scaler, model.kernel().spec());
            ConeKinds.HeteroKind.store(doc, model, train.x(), raw);
            common.save(doc);
            Map<String, Object> rep = common.baseReport(HeteroModel.TYPE, raw, secs);
            rep.put("method", m.id());
            rep.put("kernel", model.kernel().spec());
            rep.put("lambda", model.lambda());
            rep.put("selection", ConeKinds.selection(sel, "nll"));
            rep.putAll(ConeKinds.HeteroKind.metrics(model.predict(train.x()), raw.y()));
            rep.put("solver", ConeKinds.diagnostics(model.diagnostics()));
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
            QuantileRegression.Options base = new QuantileRegression.Options(taus,
                    parsedKernel == null ? org.psdkit.kernel.Kernels.gaussian(1) : parsedKernel,
                    lambda == null ? 1 : lambda, frobeniusWeight, m, constantBlocks, restarts, common.seed, solver());
            common.checkOutWritable();
            Dataset raw = common.loadSupervised(false);
            Scaler scaler = common.fitScaler(raw);
            Dataset train = scaler.apply(raw);
            long t0 = System.nanoTime();
            GridSelection.Outcome sel = null;
            if (needsSelection()) {
                int k = folds == null ? QuantileRegression.DEFAULT_FOLDS : folds;
                Progress.info("choosing kernel and lambda by " + k + "-fold cross-validation on held-out pinball loss");
                sel = QuantileRegression.select(train.x(), train.y(), base, kernels(train),
                        lambdaGrid(QuantileRegression.DEFAULT_LAMBDAS), k, common.seed);
                base = base.with(sel.kernel(), sel.lambda());
            }
            QuantileModel model;
            try (Progress p = Progress.start("quantile " + m.id(), maxIterations)) {
                model = QuantileRegression.fit(train.x(), train.y(), base, listener(p));
            }
            double secs = (System.nanoTime() - t0) * 1e-9;
            ObjectNode doc = common.newModelDocument(QuantileModel.TYPE, raw, scaler, model.kernel().spec());
            ConeKinds.QuantileKind.store(doc, model, train.x(), raw);
            common.save(doc);
            Map<String, Object> rep = common.baseReport(QuantileModel.TYPE, raw, secs);
            rep.put("method", m.id());
            rep.put("taus", model.taus());
            rep.put("kernel", model.kernel().spec());
            rep.put("lambda", model.lambda());
            rep.put("selection", ConeKinds.selection(sel, "pinball"));
            double[][] range = ConeKinds.range(raw.x());
            rep.putAll(ConeKinds.QuantileKind.metrics(model.predict(train.x()), raw.y(), model.taus(),
                    model.predict(scaler.apply(ConeKinds.densePoints(range[0], range[1])))));
            rep.put("solver", ConeKinds.diagnostics(model.diagnostics()));
            common.report(rep);
            return Main.EXIT_OK;
        }
    }
}
