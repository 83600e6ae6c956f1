package org.psdkit.cli.fit;

import java.util.Map;
import java.util.concurrent.Callable;
import org.psdkit.cli.CommonFitOptions;
import org.psdkit.cli.Main;
import org.psdkit.cli.Params;
import org.psdkit.data.Dataset;
import org.psdkit.engine.DataSource;
import org.psdkit.engine.DistributedEngine;
import org.psdkit.linalg.Matrix;
import org.psdkit.model.Metrics;
import org.psdkit.model.Pipeline;
import org.psdkit.model.Trainer;
import org.psdkit.regression.KernelRidge;
import org.psdkit.regression.KrrAutoTrainer;
import org.psdkit.regression.KrrTrainer;
import org.psdkit.regression.nystrom.NystromKrr;
import org.psdkit.regression.nystrom.NystromKrrAutoTrainer;
import org.psdkit.regression.nystrom.NystromKrrTrainer;
import org.psdkit.regression.nystrom.Storage;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine;

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

    @Option(names = "--anchors", paramLabel = "M",
            description = "Nystrom KRR: restrict f to M anchors and solve by Falkon-preconditioned conjugate gradient "
                    + "(O(nM) memory and time per iteration; see docs/scale.md). Default: exact KRR.")
    Integer anchors;

    @Option(names = "--anchor-method", defaultValue = "uniform",
            paramLabel = "uniform|kmeans++|kmeans++-input|rls|rpcholesky",
            description = "How anchors are chosen (with --anchors; the same --seed gives the same anchors; "
                    + "docs/scale.md compares them; deprecated: 'leverage' is rls and 'kmeans++' is still "
                    + "kmeans++-input for krr in this release; default: ${DEFAULT-VALUE}).")
    String anchorMethod;

    @Option(names = "--cg-tol", defaultValue = "1e-6", paramLabel = "X",
            description = "Relative residual at which conjugate gradient stops (with --anchors; default: ${DEFAULT-VALUE}).")
    String cgTol;

    @Option(names = "--max-iter", defaultValue = "200", paramLabel = "N",
            description = "Cap on conjugate-gradient iterations (with --anchors; default: ${DEFAULT-VALUE}).")
    String maxIter;

    @Option(names = "--storage", defaultValue = "auto", paramLabel = "auto|float|recompute|gram|sketch",
            description = "With --anchors: how the CG solve treats K_nm (see docs/scale.md): float (kept in single "
                    + "precision as far as it fits, plain Falkon CG), recompute (recomputed in double every "
                    + "iteration), gram (K_nm^T K_nm accumulated once and used as preconditioner), sketch (the Gram "
                    + "matrix of sampled rows as preconditioner) or auto (the cheapest by the cost model); --engine "
                    + "spark takes auto, gram, recompute or float (default: ${DEFAULT-VALUE}).")
    String storage;

    @Option(names = "--engine", defaultValue = "${sys:psdkit.engine:-local}", paramLabel = "local|spark",
            description = "Where the Nystrom fit runs (with --anchors): local (this JVM, all cores) or spark (Apache "
                    + "Spark: --train may be any Hadoop-compatible path, CSV or Parquet; needs the Spark runtime, see "
                    + "docs/scale.md; default: ${DEFAULT-VALUE}).")
    String engine;

    @Option(names = "--master", paramLabel = "URL",
            description = "Spark master with --engine spark: local[N], local[*], spark://HOST:PORT, yarn, k8s://... "
                    + "(default: spark-submit's --master, else local[*]).")
    String master;

    @Option(names = "--auto",
            description = "Choose sigma and lambda automatically: L-BFGS on the leave-one-out error (or --auto-objective) "
                    + "from a few starts, the path in the model's diagnostics (docs/families/regression.md); with "
                    + "--anchors on the Nystrom problem over fixed anchors. Needs a gaussian kernel (its sigma is "
                    + "replaced) and takes no --lambda.")
    boolean auto;

    @Option(names = "--auto-objective", defaultValue = "loo", paramLabel = "loo|gcv|holdout",
            description = "With --auto: leave-one-out error, generalised cross-validation or the error on a held-out "
                    + "part (--auto-holdout) (default: ${DEFAULT-VALUE}).")
    String autoObjective;

    @Option(names = "--ard", description = "With --auto: one bandwidth per feature (automatic relevance determination).")
    boolean ard;

    @Option(names = "--auto-restarts", defaultValue = "3", paramLabel = "N",
            description = "With --auto: starting points of the search (default: ${DEFAULT-VALUE}).")
    int autoRestarts;

    @Option(names = "--auto-iterations", defaultValue = "12", paramLabel = "N",
            description = "With --auto: L-BFGS iterations per start (default: ${DEFAULT-VALUE}).")
    int autoIterations;

    @Option(names = "--auto-rows", defaultValue = "0", paramLabel = "N",
            description = "With --auto: rows the search runs on (a seeded subsample; sigma and lambda are then "
                    + "polished on all rows); 0: n/4 but at least 500, with --anchors all rows (default: "
                    + "${DEFAULT-VALUE}).")
    int autoRows;

    @Option(names = "--auto-holdout", defaultValue = "0.2", paramLabel = "F",
            description = "With --auto-objective holdout: the held-out fraction (default: ${DEFAULT-VALUE}).")
    double autoHoldout;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /** The command's flag of each parameter of {@link KrrAutoTrainer.Options}. */
    private static final Map<String, String> AUTO_FLAGS = Map.of("objective", "--auto-objective",
            "restarts", "--auto-restarts", "iterations", "--auto-iterations", "searchRows", "--auto-rows",
            "holdout", "--auto-holdout");

    /** The options of {@code --auto}, or null without it; flags of --auto without it are refused. */
    private KrrAutoTrainer.Options autoOptions(KrrTrainer.Options base) {
        if (!checkAutoFlags()) {
            return null;
        }
        return org.psdkit.cli.Flags.checked(() -> new KrrAutoTrainer.Options(base,
                KrrAutoTrainer.Objective.parse(autoObjective), ard, autoRestarts, autoIterations, autoRows,
                autoHoldout, common.seed), AUTO_FLAGS);
    }

    /** The options of {@code --anchors M --auto} ({@link NystromKrrAutoTrainer}), or null without --auto. */
    private NystromKrrAutoTrainer.Options nystromAutoOptions(NystromKrrTrainer.Options base) {
        if (!checkAutoFlags()) {
            return null;
        }
        return org.psdkit.cli.Flags.checked(() -> new NystromKrrAutoTrainer.Options(base,
                KrrAutoTrainer.Objective.parse(autoObjective), ard, autoRestarts, autoIterations, autoRows,
                autoHoldout, common.seed), AUTO_FLAGS);
    }

    /** Whether --auto is given; its flags without it, or --lambda with it, are refused. */
    private boolean checkAutoFlags() {
        CommandLine.ParseResult pr = spec.commandLine().getParseResult();
        if (!auto) {
            for (String f : new String[] {"--auto-objective", "--ard", "--auto-restarts", "--auto-iterations",
                    "--auto-rows", "--auto-holdout"}) {
                if (pr.hasMatchedOption(f)) {
                    throw new IllegalArgumentException(f + ": applies with --auto only");
                }
            }
            return false;
        }
        if (pr.hasMatchedOption("--lambda")) {
            throw new IllegalArgumentException("--lambda: not with --auto (the search chooses lambda)");
        }
        return true;
    }

    @Override
    public Integer call() {
        String eng = Engines.parse(engine);
        if (eng.equals("spark") && anchors == null) {
            throw new IllegalArgumentException("--engine spark needs --anchors M: exact KRR needs the n x n Gram "
                    + "matrix on one machine (see docs/scale.md)");
        }
        if (master != null && !eng.equals("spark")) {
            throw new IllegalArgumentException("--master " + master + ": applies to --engine spark only");
        }
        Storage route = storageRoute(eng);
        Map<String, String> pm = KrrKind.defaultParams();
        pm.put("kernel", kernel);
        pm.put("lambda", lambda);
        pm.put("form", form);
        pm.put("nugget", nugget);
        pm.put("center", Boolean.toString(center));
        Params params = new Params(pm);
        KrrKind.options(params); // check options before reading data
        params.kernel();
        if (anchors != null && auto && eng.equals("spark")) {
            throw new IllegalArgumentException("--auto: not with --engine spark (the search runs in this JVM; use "
                    + "--engine local)");
        }
        if (anchors != null) {
            return eng.equals("spark") ? callSpark(params, route) : callNystrom(params, route);
        }
        KrrTrainer.Options exact = KrrTrainer.Options.of(params.kernel(), KrrKind.options(params),
                common.scaleKind());
        KrrAutoTrainer.Options ao = autoOptions(exact);
        Local fit = ao == null ? fitLocal(new KrrTrainer(exact), true) : fitLocal(new KrrAutoTrainer(ao), true);
        KernelRidge m = fit.model().inner();
        Dataset raw = fit.raw();
        Map<String, Object> rep = fit.rep();
        rep.put("route", m.diagnostics().route());
        rep.put("jitter", m.diagnostics().jitter());
        rep.put("conditionEstimate", m.diagnostics().conditionEstimate());
        rep.put("rank", m.diagnostics().rank());
        if (fit.model().diagnostics() instanceof KrrTrainer.Fit f && f.targets() > 1) {
            rep.put("factorizations", f.factorizations());
        }
        if (fit.model().diagnostics() instanceof KrrAutoTrainer.Fit a) {
            putAuto(rep, a.search());
        }
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

    /** The report's entries of an automatic search. */
    private static void putAuto(Map<String, Object> rep, KrrAutoTrainer.Search s) {
        rep.put("autoObjective", s.objective().label());
        rep.put("autoRmse", s.rmse());
        rep.put("autoEvaluations", s.evaluations());
        rep.put("autoRows", s.searchRows());
        rep.put("autoSeconds", s.seconds());
    }

    /**
     * The {@code --storage} route: any of {@link Storage} but the experimental gram-single on one machine,
     * auto, gram, recompute or float with {@code --engine spark}; only with {@code --anchors}.
     */
    private Storage storageRoute(String eng) {
        Storage route;
        try {
            route = Storage.parse(storage);
        } catch (IllegalArgumentException e) {
            route = null;
        }
        if (route == null || route == Storage.GRAM_SINGLE) {
            throw new IllegalArgumentException("--storage: '" + storage
                    + "' is not auto, float, recompute, gram or sketch");
        }
        if (route != Storage.AUTO && anchors == null) {
            throw new IllegalArgumentException("--storage " + storage + ": applies with --anchors only");
        }
        if (route == Storage.SKETCH && eng.equals("spark")) {
            throw new IllegalArgumentException("--storage sketch: single-machine only; --engine spark takes auto, "
                    + "gram, recompute or float");
        }
        return route;
    }

    /**
     * {@code fit krr --anchors M --engine spark}: the same Nystrom KRR over Spark ({@link DistributedEngine}, loaded
     * at run time by {@link Engines}), on the same anchors as the local fit. The data is read by the engine, so only
     * what it cannot do is refused here.
     */
    private Integer callSpark(Params params, Storage route) {
        checkAutoFlags(); // --auto itself is refused before; its other flags without it are
        NystromKrrTrainer.Options o = KrrKind.nystromOptions(params, anchors, anchorMethod, common.seed, cgTol,
                maxIter, route);
        if (o.method() != org.psdkit.psd.Anchors.Method.UNIFORM) {
            throw new IllegalArgumentException("--anchor-method " + anchorMethod + ": --engine spark draws uniform "
                    + "anchors only");
        }
        if (common.scaleKind() != org.psdkit.data.Scaler.Kind.NONE) {
            throw new IllegalArgumentException("--scale " + common.scale + ": --engine spark uses the features as "
                    + "given; scale them beforehand or use --scale none");
        }
        if (common.noTarget) {
            throw new IllegalArgumentException("--no-target: this model needs a target column");
        }
        if (common.weight != null) {
            throw new IllegalArgumentException("--weight " + common.weight + ": --engine spark fits without sample "
                    + "weights; use --engine local");
        }
        if (common.target != null && common.target.contains(",")) {
            throw new IllegalArgumentException("--target " + common.target + ": --engine spark fits one target; "
                    + "use --engine local for several");
        }
        common.checkOutWritable();
        // the path as typed: picocli's Path would fold hdfs://host/... into hdfs:/host/...
        String train = spec.commandLine().getParseResult().matchedOption("--train").stringValues().get(0);
        DistributedEngine e = Engines.load("spark");
        long t0 = System.nanoTime();
        DistributedEngine.KrrResult r = Engines.guard(() -> e.fitKrr(
                new DistributedEngine.KrrRequest(DataSource.of(train), common.target, master, params.kernel(), o)));
        double secs = (System.nanoTime() - t0) * 1e-9;
        Pipeline<KernelRidge> model = r.model();
        KernelRidge m = model.inner();
        common.save(model);
        Map<String, Object> rep = new java.util.LinkedHashMap<>();
        rep.put("model", KrrKind.TYPE);
        rep.put("n", r.n());
        rep.put("d", r.d());
        rep.put("seconds", secs);
        rep.put("out", common.out.toString());
        rep.put("kernel", m.kernel().spec());
        rep.put("lambda", m.options().lambda());
        rep.putAll(r.trainMetrics());
        return reportNystrom(rep, model, o, "spark", ", Spark");
    }

    /**
     * The end of both Nystrom fits (local and Spark): anchors, the engine (Spark only) and the solver's
     * diagnostics into {@code rep}, the convergence warning, the summary line, then the report.
     *
     * @param engine the {@code engine} entry, or null for the local fit (which reports none)
     * @param where text after "anchors" in the summary line (", Spark" or "")
     */
    private Integer reportNystrom(Map<String, Object> rep, Pipeline<KernelRidge> model, NystromKrrTrainer.Options o,
            String engine, String where) {
        KernelRidge m = model.inner();
        rep.put("anchors", m.points().rows());
        rep.put("anchorMethod", o.method().id());
        rep.put("seed", o.seed());
        if (engine != null) {
            rep.put("engine", engine);
        }
        NystromKrrTrainer.FitDiagnostics d = model.diagnostics() instanceof NystromKrrAutoTrainer.Fit a ? a.fit()
                : (NystromKrrTrainer.FitDiagnostics) model.diagnostics();
        rep.put("route", d.route());
        rep.put("iterations", d.iterations());
        rep.put("residual", d.residual());
        rep.put("converged", d.converged());
        rep.put("storage", d.storage());
        rep.put("jitter", d.jitter());
        if (d.targets() > 1) {
            rep.put("factorizations", d.factorizations());
        }
        if (model.diagnostics() instanceof NystromKrrAutoTrainer.Fit a) {
            putAuto(rep, a.search());
        }
        warnIfNotConverged(d, o);
        if (!common.json) {
            System.err.println("psdkit fit krr: wrote " + common.out + " (" + m.points().rows()
                    + " anchors" + where + "; training-set metrics below)");
        }
        common.report(rep);
        return Main.EXIT_OK;
    }

    private static void warnIfNotConverged(NystromKrrTrainer.FitDiagnostics d, NystromKrrTrainer.Options o) {
        if (!d.converged()) {
            System.err.println("psdkit fit krr: warning: conjugate gradient stopped after " + d.iterations()
                    + " iterations at relative residual " + d.residual() + " > --cg-tol " + o.tolerance()
                    + "; raise --max-iter or --lambda");
        }
    }

    /** {@code fit krr --anchors M}: Nystrom KRR ({@link NystromKrrTrainer}), saved as an ordinary krr model. */
    private Integer callNystrom(Params params, Storage route) {
        NystromKrrTrainer.Options o = KrrKind.nystromOptions(params, anchors, anchorMethod, common.seed, cgTol,
                maxIter, route);
        NystromKrrAutoTrainer.Options ao = nystromAutoOptions(o.withScale(common.scaleKind()));
        Local fit = fitLocal(ao == null ? new NystromKrrTrainer(o.withScale(common.scaleKind()))
                : new NystromKrrAutoTrainer(ao), false);
        return reportNystrom(fit.rep(), fit.model(), o, null, "");
    }

    /** A fit in this JVM: the training data, the saved model and the report so far. */
    private record Local(Dataset raw, Pipeline<KernelRidge> model, Map<String, Object> rep) {
    }

    /**
     * The part the exact and the local Nystrom fit share: read --train, fit (timed), save, and start the report with
     * the kernel, lambda and the training-set metrics.
     *
     * @param exact whether the trainer is the exact fit (its training predictions may come from the solution)
     */
    private Local fitLocal(Trainer<Pipeline<KernelRidge>> trainer, boolean exact) {
        common.checkOutWritable();
        common.acceptWeights();
        common.acceptTargets();
        Dataset raw = common.loadSupervised(false);
        long t0 = System.nanoTime();
        Pipeline<KernelRidge> model;
        if (trainer instanceof KrrAutoTrainer || trainer instanceof NystromKrrAutoTrainer) {
            try (org.psdkit.cli.Progress p = org.psdkit.cli.Progress.start("krr --auto", 0)) {
                model = p.run(() -> trainer.fit(raw, p.listener()));
            }
        } else {
            model = trainer.fit(raw);
        }
        KernelRidge m = model.inner();
        double secs = (System.nanoTime() - t0) * 1e-9;
        common.save(model);
        Map<String, Object> rep = common.baseReport(KrrKind.TYPE, raw, secs);
        rep.put("kernel", m.kernel().spec());
        rep.put("lambda", m.options().lambda());
        Matrix fitted = exact ? fittedFromSolution(raw, model) : fittedFromNystrom(raw, model);
        FitRidgeCommand.putMetrics(rep, raw, fitted != null ? fitted : model.predict(raw.x()));
        return new Local(raw, model, rep);
    }

    /**
     * The training-set predictions of an exact standard-form fit, from its coefficients: α solves
     * (K + λI)α = y − offset, so f(x_i) = (Kα)_i + offset = y_i − λα_i at the training points and no n×n
     * cross-kernel matrix is needed. Holds for every target of a multi-target fit (one factorisation, one right-hand
     * side per target). In floating point the two sides differ by the solve's residual, of order ε‖K‖‖α‖, which
     * grows as λ shrinks. The metrics move by sums of the row differences δ_i weighted by the residuals (RMSE:
     * Σ r_i δ_i / (n · RMSE)), which, the δ_i being rounding errors of both signs, are of order RMS(δ)/√n relative
     * to the metric; the worst-case bound RMS(δ)/RMSE would refuse most well-posed fits. So the shortcut is taken only
     * when RMS(δ), estimated on {@link #CHECK_ROWS} spread training rows predicted as a full predict would, divided
     * by √n, is at most {@link #CHECK_TOLERANCE} times the smaller of RMSE and MAE, ten times below the 1e-12
     * relative agreement the report keeps. Returns null where the identity does not hold as solved (sample weights,
     * the representer form, a diagonal jitter, the eigen route) or the check fails: the
     * caller then predicts every row.
     */
    static Matrix fittedFromSolution(Dataset raw, Pipeline<KernelRidge> model) {
        KernelRidge m = model.inner();
        if (raw.weights() != null || m.options().form() != KernelRidge.Form.STANDARD
                || !"cholesky".equals(m.diagnostics().route()) || m.diagnostics().jitter() != 0
                || m.points().rows() != raw.n()) {
            return null;
        }
        double lambda = m.options().lambda();
        Matrix a = m.alphas();
        Matrix y = raw.targets() != null ? raw.targets() : Matrix.column(raw.y());
        if (a.rows() != y.rows() || a.cols() != y.cols()) {
            return null;
        }
        int n = y.rows();
        Matrix f = Matrix.zeros(n, y.cols());
        for (int c = 0; c < y.cols(); c++) {
            for (int i = 0; i < n; i++) {
                f.set(i, c, y.get(i, c) - lambda * a.get(i, c));
            }
        }
        return agreesWithPredict(raw, model, y, f) ? f : null;
    }

    /**
     * The training predictions of a Nyström fit ({@link NystromKrrTrainer#fittedValues}: the Gaussian kernel's
     * values anchor by anchor, without the n×m cross-kernel matrix of a predict), when they pass the same check as
     * {@link #fittedFromSolution} against a predict of {@link #CHECK_ROWS} rows; null otherwise (the caller then
     * predicts every row).
     */
    static Matrix fittedFromNystrom(Dataset raw, Pipeline<KernelRidge> model) {
        if (raw.targets() != null) {
            return null;
        }
        double[] f = NystromKrrTrainer.fittedValues(model, raw.x());
        if (f == null) {
            return null;
        }
        Matrix fm = Matrix.column(f);
        return agreesWithPredict(raw, model, Matrix.column(raw.y()), fm) ? fm : null;
    }

    /**
     * Whether training predictions {@code f} (n × targets) give the metrics a full predict gives: the RMS difference
     * δ between f and a predict of {@link #CHECK_ROWS} spread training rows, divided by √n, must be at most
     * {@link #CHECK_TOLERANCE} times the smaller of the residuals' (y − f) RMSE and MAE (see
     * {@link #fittedFromSolution}).
     */
    static boolean agreesWithPredict(Dataset raw, Pipeline<KernelRidge> model, Matrix y, Matrix f) {
        int n = y.rows();
        int s = Math.min(n, CHECK_ROWS);
        int[] rows = new int[s];
        for (int k = 0; k < s; k++) {
            rows[k] = (int) ((long) k * n / s);
        }
        Matrix check = model.predict(raw.x().selectRows(rows));
        for (int c = 0; c < y.cols(); c++) {
            double sq = 0;
            double abs = 0;
            for (int i = 0; i < n; i++) {
                double r = y.get(i, c) - f.get(i, c);
                sq += r * r;
                abs += Math.abs(r);
            }
            double dsq = 0;
            for (int k = 0; k < s; k++) {
                double d = check.get(k, c) - f.get(rows[k], c);
                dsq += d * d;
            }
            double scale = Math.min(Math.sqrt(sq / n), abs / n);
            if (!(Math.sqrt(dsq / s / n) <= CHECK_TOLERANCE * scale)) {
                return false;
            }
        }
        return true;
    }

    /** Training rows predicted to check {@link #fittedFromSolution} (a negligible share of a full predict). */
    static final int CHECK_ROWS = 32;

    /**
     * Largest RMS difference between the checked rows' predict and y − λα, divided by √n and relative to the
     * residuals' RMSE (and MAE), for which the shortcut is taken: a tenth of the 1e-12 relative agreement with a
     * full predict's metrics that the report keeps.
     */
    static final double CHECK_TOLERANCE = 1e-13;
}
