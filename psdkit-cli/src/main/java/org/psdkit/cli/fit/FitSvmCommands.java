package org.psdkit.cli.fit;

import java.util.List;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.psdkit.cli.CommonFitOptions;
import org.psdkit.cli.Flags;
import org.psdkit.cli.KernelSpecs;
import org.psdkit.cli.Main;
import org.psdkit.cli.Progress;
import org.psdkit.data.Dataset;
import org.psdkit.data.Scaler;
import org.psdkit.kernel.Kernel;
import org.psdkit.kernel.TessellatedKernel;
import org.psdkit.linalg.Matrix;
import org.psdkit.classify.mkl.KernelLearning;
import org.psdkit.classify.mkl.KernelLearning.Method;
import org.psdkit.classify.mkl.LearnedKernelFit;
import org.psdkit.classify.mkl.LearnedKernelHyperParameters;
import org.psdkit.classify.mkl.SimpleMklTrainer;
import org.psdkit.classify.mkl.TkLearner;
import org.psdkit.classify.mkl.TkRandomLibrary;
import org.psdkit.classify.mkl.LearnedOneVsOne;
import org.psdkit.classify.mkl.MulticlassLearnedSvm;
import org.psdkit.classify.mkl.OneVsOneFit;
import org.psdkit.classify.mkl.TkSvmTrainer;
import org.psdkit.model.Model;
import org.psdkit.model.Trainer;
import org.psdkit.select.GridSearch;
import org.psdkit.optim.ProgressListener;
import org.psdkit.classify.ClassWeights;
import org.psdkit.classify.SvmClassifier;
import org.psdkit.classify.SvmHyperParameters;
import org.psdkit.model.Classifier;
import org.psdkit.classify.SvmTrainer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code psdkit fit svm | tk-svm | simplemkl}: soft-margin SVMs with a fixed, a tessellated or an MKL kernel. */
public final class FitSvmCommands {

    /** Relative C grid (C = c / mean diag K) for {@code fit svm} when -C is not given. */
    static final double[] SVM_C_GRID = {0.1, 1, 10, 100};

    private FitSvmCommands() {
    }

    /** Parses {@code --orthant lower|complement} (case-insensitive). */
    public static TessellatedKernel.Orthant parseOrthant(String s) {
        try {
            return TessellatedKernel.Orthant.valueOf(s.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--orthant: '" + s + "' is not lower or complement");
        }
    }

    public static double[] parseGrid(String s, String option) {
        String[] parts = s.split(",");
        double[] v = new double[parts.length];
        for (int i = 0; i < parts.length; i++) {
            try {
                v[i] = Double.parseDouble(parts[i].trim());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(option + ": '" + parts[i] + "' is not a number");
            }
            if (!(v[i] > 0) || Double.isInfinite(v[i])) {
                throw new IllegalArgumentException(option + ": values must be positive and finite, got " + parts[i]);
            }
        }
        return v;
    }

    /** The number of {@code v}, or null when the option is absent; its range is checked by the options record. */
    static Double numberOrNull(String v, String option) {
        if (v == null) {
            return null;
        }
        try {
            return Double.parseDouble(v);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(option + ": '" + v + "' is not a number");
        }
    }

    /** A CV progress display on stderr, started at the first report. */
    static ProgressListener cvProgress(String task) {
        Progress[] bar = new Progress[1];
        return e -> {
            if (bar[0] == null) {
                bar[0] = Progress.start(task, e.total());
            }
            bar[0].set(e.step());
            if (e.total() > 0 && e.step() >= e.total()) {
                bar[0].close();
            }
        };
    }

    /**
     * The progress of a kernel-learning fit on stderr, on the CLI's {@link Progress} displays (throttled by them):
     * the cross-validation as fits done of all, with the running fit's iteration and relative gap
     * ({@code cv tk-svm: 3/120 (2%) 312.4 s, ~12185.6 s left, fit 4: iteration 7, gap 0.0312}), then the final
     * fit's iterations ({@code tk-svm (Frank-Wolfe): iteration 7 of at most 60, 85.2 s, gap 0.0312}). A fit too
     * short to draw a line prints nothing but the CV's "done" line, as before.
     */
    static final class LearningDisplay implements ProgressListener, AutoCloseable {
        private final String fitTask;
        private final long maxIterations;
        private Progress cv;
        private ProgressListener cvListener;
        private long cvDone;
        private Progress fit;

        /**
         * @param type          the model type ({@code tk-svm})
         * @param solver        the solver of the final fit, for its line ({@code Frank-Wolfe})
         * @param cvFits        the fits of the cross-validation that reports them (0: none)
         * @param maxIterations the final fit's iteration budget
         * @param fitStartsNow  whether the final fit starts at once (no cross-validation): its clock starts here
         */
        LearningDisplay(String type, String solver, long cvFits, long maxIterations, boolean fitStartsNow) {
            this.fitTask = type + " (" + solver + ")";
            this.maxIterations = maxIterations;
            if (cvFits > 0) {
                cv = Progress.start("cv " + type, cvFits);
                cvListener = cv.listener();
            } else if (fitStartsNow) {
                fit = Progress.startSolver(fitTask, maxIterations);
            }
        }

        @Override
        public void onProgress(Event e) {
            if ("cv".equals(e.task())) {
                if (cv == null) {
                    return;
                }
                cvDone = e.step();
                cvListener.onProgress(e);
                if (e.total() > 0 && e.step() >= e.total()) {
                    cv.close();
                    cv = null;
                    fit = Progress.startSolver(fitTask, maxIterations); // the final fit follows at once
                }
                return;
            }
            String status = Progress.status(e);
            if (cv != null) {
                cv.set(cvDone, "fit " + (cvDone + 1) + ": iteration " + e.step() + (status == null ? "" : ", "
                        + status));
                return;
            }
            if (fit == null) {
                fit = Progress.startSolver(fitTask, maxIterations);
            }
            fit.set(e.step(), status);
        }

        /** The fit succeeded: a final-fit display that drew lines ends with its "done" line. */
        void finish() {
            if (fit != null && fit.drawn()) {
                fit.close();
                fit = null;
            }
        }

        /** Ends what is still open without a "done" line (the fit failed, or drew nothing). */
        @Override
        public void close() {
            if (cv != null) {
                cv.abandon();
                cv = null;
            }
            if (fit != null) {
                fit.abandon();
                fit = null;
            }
        }
    }

    /**
     * Floating-point operations per second that the Frank–Wolfe loops reach on one core, rounded from the gradient's
     * and the eigen-decomposition's rates (docs/benchmarks/svm.md): the rate of the work estimates.
     */
    static final double FLOPS_PER_SECOND = 2e9;

    /**
     * The expected work of a fit.
     *
     * @param leastSeconds the time it takes at least
     * @param mostSeconds  the time it can take (every fit at its iteration cap)
     * @param message      the announcement: the cost, its driver and the options that cut it
     */
    record Work(double leastSeconds, double mostSeconds, String message) {
    }

    /**
     * The work of a tk-svm fit before it starts (announced on stderr when it can be long,
     * {@link Progress#announces}): every fit (each CV fit on the training part of its fold, then the final fit on all
     * rows) evaluates the Frank–Wolfe gradient at least once and at most {@link TkLearner#DEFAULT_MAX_ITERATIONS} + 1
     * times, each iteration costing {@link TkLearner#iterationFlops}.
     *
     * @param cvFits the fits of the cross-validation (0: C and epsilon given)
     */
    static Work tkWork(int rows, int features, int degree, long cvFits, int folds) {
        int foldRows = rows - (rows + folds - 1) / folds;
        double perFold = TkLearner.iterationFlops(foldRows, features, degree);
        double perFull = TkLearner.iterationFlops(rows, features, degree);
        double least = (cvFits * perFold + perFull) / FLOPS_PER_SECOND;
        double most = least * (TkLearner.DEFAULT_MAX_ITERATIONS + 1);
        int iterRows = cvFits > 0 ? foldRows : rows;
        double perIteration = cvFits > 0 ? perFold : perFull;
        int dim = 2 * TessellatedKernel.monomialCount(features, degree);
        String growth = switch (degree) {
            case 0 -> "rows^2 x features";
            case 1 -> "rows^2 x features^2";
            default -> "rows^2 x (2q)^4";
        };
        StringBuilder sb = new StringBuilder(String.format(Locale.ROOT, "tk-svm: expected work: one Frank-Wolfe "
                + "iteration on %d rows x %d features (degree %d) costs ~%.1g floating-point operations, ~%s (its "
                + "gradient grows as %s, its eigen-decomposition as (2q)^3, 2q = %d); ", iterRows, features, degree,
                perIteration, duration(perIteration / FLOPS_PER_SECOND), growth, dim));
        sb.append(cvFits > 0 ? cvFits + " CV fits and the final fit take" : "the fit takes")
                .append(String.format(Locale.ROOT, " 1 to %d iterations%s: at least ~%s, up to ~%s.%n",
                        TkLearner.DEFAULT_MAX_ITERATIONS + 1, cvFits > 0 ? " each" : "", duration(least),
                        duration(most)));
        sb.append("tk-svm: faster: fewer features (").append(degree == 1 ? "the cost per iteration grows as their "
                + "square" : "the cost per iteration grows with them").append(")");
        if (degree > 0) {
            sb.append(", --degree 0 (rows^2 x features)");
        }
        if (cvFits > 0) {
            sb.append(", -C and --epsilon (no CV: 1 fit instead of ").append(cvFits + 1).append("), shorter "
                    + "--c-grid and --epsilon-grid");
        }
        sb.append(", a larger --gap (fewer iterations), or a fixed kernel: fit svm, fit simplemkl --library "
                + "gauss-poly.");
        return new Work(least, most, sb.toString());
    }

    /** A rough duration: {@code 15 s}, {@code 31 min}, {@code 31 h}, {@code 12 days}. */
    static String duration(double seconds) {
        if (seconds < 120) {
            return String.format(Locale.ROOT, "%.2g s", seconds);
        }
        if (seconds < 2 * 3600) {
            return String.format(Locale.ROOT, "%.0f min", seconds / 60);
        }
        if (seconds < 48 * 3600) {
            return String.format(Locale.ROOT, "%.0f h", seconds / 3600);
        }
        return String.format(Locale.ROOT, "%.0f days", seconds / 86400);
    }

    /**
     * Fails (exit 2) before any work if the training set has fewer rows than the folds of the CV that chooses the
     * parameters; the folds are fixed here, so the message names the options that skip the CV.
     */
    static void checkCvRows(Dataset raw, int folds, String skipOptions) {
        if (raw.n() < folds) {
            throw new IllegalArgumentException(raw.source() + ": " + org.psdkit.data.Splits.tooFewRows(raw.n(), folds)
                    + "; the parameters are chosen by " + folds
                    + "-fold CV: give " + skipOptions + " to skip it");
        }
    }

    /** Rejects {@code --scale zscore}: the learned kernels need features scaled to [0, 1] (minmax, always applied). */
    static void checkMinmax(CommonFitOptions common, String model) {
        Scaler.Kind kind = common.scaleKind();
        if (kind == Scaler.Kind.ZSCORE) {
            throw new IllegalArgumentException("--scale zscore: " + model + " needs features scaled to [0, 1] "
                    + "(minmax, applied by default); fit simplemkl --gauss-scaling zscore gives the Gaussian/polynomial "
                    + "library standardised features");
        }
    }

    /** {@code fit svm}. */
    @Command(name = "svm", description = "Soft-margin SVM (SMO, second-order working sets) with a fixed kernel: the "
            + "C-SVC, or the nu-SVC with --nu.")
    static final class Svm implements Callable<Integer> {
        @Mixin
        CommonFitOptions common;

        @Option(names = "--kernel", defaultValue = "gaussian(sigma=1)", paramLabel = "SPEC",
                description = "Kernel string (default: ${DEFAULT-VALUE}).")
        String kernel;

        @Option(names = "-C", paramLabel = "C", description = "Penalty C > 0; chosen by 5-fold CV over "
                + "C = c / mean(diag K), c in {0.1, 1, 10, 100}, when not given.")
        String c;

        @Option(names = "--tolerance", defaultValue = "1e-3", paramLabel = "TOL",
                description = "SMO stopping tolerance on the KKT violation (default: ${DEFAULT-VALUE}).")
        double tolerance;

        @Option(names = "--nu", paramLabel = "NU", description = "Fit the nu-SVC (LIBSVM's -s 1, scikit-learn's "
                + "NuSVC) with nu in (0, 1] instead of the C-SVC: at most this fraction of margin errors, at least "
                + "this fraction of support vectors; excludes -C. Needs nu <= 2 min(n+, n-)/n.")
        String nu;

        @Option(names = "--cache-mb", defaultValue = "" + SvmTrainer.DEFAULT_CACHE_MB, paramLabel = "MB",
                description = "Memory for kernel values in MB, as LIBSVM's -m: a cache of kernel rows, double "
                        + "precision when all rows fit, else single (default: ${DEFAULT-VALUE}).")
        int cacheMb;

        @Option(names = "--probability", description = "Class probabilities: Platt scaling on 5-fold out-of-fold "
                + "decision values (seeded by --seed), coupled over the one-vs-one pairs for more than two classes; "
                + "predict writes p(<label>) columns and the label of the largest (LIBSVM's -b 1, scikit-learn's "
                + "probability=True).")
        boolean probability;

        @Option(names = "--class-weight", paramLabel = "W", description = "Per-class weights of C: 'label=w,...' "
                + "(unlisted classes 1) or 'balanced' (n / (k n_c)); LIBSVM's -wi, scikit-learn's class_weight.")
        String classWeight;

        @Override
        public Integer call() {
            Double cGiven = numberOrNull(c, "-C");
            Double nuGiven = numberOrNull(nu, "--nu");
            if (nuGiven != null && cGiven != null) {
                throw new IllegalArgumentException("-C and --nu exclude each other: -C fits the C-SVC, --nu the "
                        + "nu-SVC");
            }
            Kernel k = KernelSpecs.parse(kernel);
            // with -C absent, C = 1 stands in until the cross-validation chooses it
            SvmTrainer.Options options = Flags.checked(() -> SvmTrainer.Options.of(k, cGiven == null ? 1 : cGiven)
                    .withTolerance(tolerance).withCacheMb(cacheMb).withScale(common.scaleKind())
                    .withProbability(probability).withSeed(common.seed)
                    .withClassWeight(classWeight == null ? null : ClassWeights.parse(classWeight))
                    .withNu(nuGiven == null ? SvmTrainer.Options.C_SVC : checkedNu(nuGiven)), SvrKind.FLAGS);
            common.checkOutWritable();
            common.acceptWeights();
            Dataset raw = common.loadSupervised(true);
            if (nuGiven != null) {
                return nuSvc(options, raw, k);
            }
            if (cGiven == null) {
                checkCvRows(raw, SvmTrainer.DEFAULT_FOLDS, "-C");
            }
            long t0 = System.nanoTime();
            Map<String, Object> cv = null;
            Classifier m;
            if (cGiven != null) {
                m = new SvmTrainer(options).fit(raw);
            } else {
                GridSearch.Search<Double, Model> search = SvmTrainer.cSearch(options, raw, SVM_C_GRID,
                        SvmTrainer.DEFAULT_FOLDS, common.seed).search(raw, cvProgress("cv svm"));
                SvmTrainer.CChoice ch = SvmTrainer.choice(search, SvmTrainer.DEFAULT_FOLDS);
                m = (Classifier) search.model();
                cv = new LinkedHashMap<>();
                cv.put("folds", ch.folds());
                cv.put("accuracy", ch.accuracy());
                cv.put("grid", ch.grid());
            }
            double cUsed = ((SvmHyperParameters) m.hyperParameters()).c().orElseThrow();
            double secs = (System.nanoTime() - t0) * 1e-9;
            common.save(m);
            Map<String, Object> rep = common.baseReport("svm", raw, secs);
            rep.put("kernel", k.spec());
            rep.put("C", cUsed);
            if (cv != null) {
                rep.put("cv", cv);
            }
            SvmTrainer.Fit d = (SvmTrainer.Fit) m.diagnostics();
            rep.put("iterations", d.iterations());
            rep.put("violation", d.violation());
            rep.put("converged", d.converged());
            rep.put("trainAccuracy", m instanceof SvmClassifier b ? b.evaluateTraining(raw).accuracy()
                    : m.evaluate(raw).get("accuracy"));
            common.report(rep);
            return Main.EXIT_OK;
        }

        /** {@code fit svm --nu}: the ν-SVC; its report has {@code nu} in place of {@code C}. */
        private Integer nuSvc(SvmTrainer.Options options, Dataset raw, Kernel k) {
            long t0 = System.nanoTime();
            SvmClassifier m = (SvmClassifier) new SvmTrainer(options).fit(raw);
            double secs = (System.nanoTime() - t0) * 1e-9;
            common.save(m);
            Map<String, Object> rep = common.baseReport("svm", raw, secs);
            rep.put("kernel", k.spec());
            rep.put("nu", options.nu());
            rep.put("supportVectors", m.inner().supportVectors().rows());
            SvmTrainer.Fit d = (SvmTrainer.Fit) m.diagnostics();
            rep.put("iterations", d.iterations());
            rep.put("violation", d.violation());
            rep.put("converged", d.converged());
            rep.put("trainAccuracy", m.evaluateTraining(raw).accuracy());
            common.report(rep);
            return Main.EXIT_OK;
        }
    }

    /** ν as given: 0, which the options read as "C-SVC", is refused like any value outside (0, 1]. */
    static double checkedNu(double nu) {
        if (!(nu > 0)) {
            throw new org.psdkit.model.ParameterException("nu", "must be in (0, 1], got " + nu);
        }
        return nu;
    }

    /** Options shared by the kernel-learning fits. */
    abstract static class Learning implements Callable<Integer> {
        @Mixin
        CommonFitOptions common;

        @Option(names = "-C", paramLabel = "C", description = "Penalty C > 0; when not given, chosen by 5-fold CV "
                + "over C = c / kappa, c in --c-grid (kappa: mean Gram diagonal of the starting kernel).")
        String c;

        @Option(names = "--degree", defaultValue = "1", paramLabel = "D",
                description = "Tessellated-kernel monomial degree 0, 1 or 2 (default: ${DEFAULT-VALUE}).")
        int degree;

        @Option(names = "--epsilon", paramLabel = "EPS", description = "Box margin: X = [-eps, 1+eps]^n; chosen "
                + "by 5-fold CV over --epsilon-grid when not given. tk-svm refuses eps from 4.5e15 (2^52) on: the box "
                + "edges 1 + eps - x are then rounded to whole numbers and the kernels no longer depend on the data.")
        String epsilon;

        @Option(names = "--orthant", defaultValue = "lower", paramLabel = "lower|complement",
                description = "Second indicator of the tessellated kernel (default: ${DEFAULT-VALUE}).")
        String orthant;

        @Option(names = "--gap", defaultValue = "0.01", paramLabel = "TOL",
                description = "Relative gap at which kernel learning stops (default: ${DEFAULT-VALUE}); at least "
                        + "1e-12, below which double precision cannot resolve it. The reported gap is never "
                        + "negative: a computed value below zero is rounding and is reported by its magnitude.")
        double gap;

        @Option(names = "--c-grid", paramLabel = "LIST", description = "Relative C grid for CV (comma list; default "
                + "0.001,0.01,0.1,1,10,100 for tk-svm and simplemkl --library tk-random, 0.01,0.1,1,10,100 for the "
                + "gauss-poly and combined libraries).")
        String cGrid;

        @Option(names = "--epsilon-grid", paramLabel = "LIST", description = "Epsilon grid for CV (comma list; default "
                + "0.1,1,3,10 for tk-svm and tk-random, 0.1,1,3 for combined). An epsilon whose tessellated kernels "
                + "overflow on the data (about (1 + 2 epsilon)^d beyond 1e308, e.g. epsilon = 10 from d = 233 on) or, "
                + "for tk-svm, lose them in double precision (from 4.5e15 on) is left out and named on the CV line.")
        String epsGrid;

        abstract Method method();

        abstract String type();

        /** The final fit's solver, as its progress line names it. */
        abstract String solver();

        /** The final fit's iteration budget. */
        abstract long maxIterations();

        /** The library trainer of this command's validated options. */
        abstract Trainer<SvmClassifier> trainer(Double c, double[] cGrid, Double epsilon, double[] epsGrid,
                                                TessellatedKernel.Orthant orth);

        int librarySize() {
            return TkRandomLibrary.PAPER_SIZE;
        }

        /** Whether the Gaussian library's bandwidths are read as β (only SimpleMKL has Gaussians). */
        boolean betaBandwidths() {
            return false;
        }

        /** Which features the Gaussian/polynomial library sees (only SimpleMKL has it). */
        KernelLearning.GaussScaling gaussScaling() {
            return KernelLearning.GaussScaling.MINMAX;
        }

        @Override
        public Integer call() {
            Double cGiven = numberOrNull(c, "-C");
            Double eGiven = numberOrNull(epsilon, "--epsilon");
            TessellatedKernel.Orthant orth = parseOrthant(orthant);
            double[] cg = cGrid == null ? method().defaultCGrid() : parseGrid(cGrid, "--c-grid");
            double[] eg = epsGrid == null ? method().defaultEpsilonGrid() : parseGrid(epsGrid, "--epsilon-grid");
            // the options record checks C, epsilon, degree and gap, naming the flag, before any data is read
            Trainer<SvmClassifier> trainer = trainer(cGiven, cg, eGiven, eg, orth);
            common.checkOutWritable();
            Dataset raw = common.loadSupervised(true);
            List<int[]> pairRows = pairRows(raw);
            if (pairRows == null) {
                SvmClassifier.Encoded.of(raw);
            }
            if (cGiven == null || (method().usesEpsilon() && eGiven == null)) {
                String skip = method().usesEpsilon() ? "-C and --epsilon" : "-C";
                if (pairRows == null) {
                    checkCvRows(raw, KernelLearning.DEFAULT_FOLDS, skip);
                } else {
                    // one-vs-one: every pair cross-validates on the rows of its two classes
                    for (int[] idx : pairRows) {
                        checkCvRows(org.psdkit.data.Splits.subset(raw, idx), KernelLearning.DEFAULT_FOLDS, skip);
                    }
                }
            }
            checkMinmax(common, type());
            boolean searchEps = method().usesEpsilon() && eGiven == null;
            boolean cvRuns = cGiven == null || searchEps;
            long cvFits = 0;
            if (method() == Method.TK) {
                // the epsilons the fit will use (an epsilon whose kernels double precision cannot hold is left out
                // of the grid, or refused when given): the fits the CV reports and the work announced
                Matrix scaled = Scaler.fit(Scaler.Kind.MINMAX, raw.x()).apply(raw.x());
                int usable = KernelLearning.usableEpsilons(scaled, searchEps ? eg : new double[] {eGiven}, degree,
                        orth).length;
                cvFits = cvRuns ? (long) (cGiven == null ? cg.length : 1) * (searchEps ? usable : 1)
                        * KernelLearning.DEFAULT_FOLDS : 0;
                Work work = tkWork(raw.n(), raw.d(), degree, cvFits, KernelLearning.DEFAULT_FOLDS);
                if (usable > 0 && Progress.announces(work.mostSeconds())) {
                    Progress.info(work.message());
                }
            }
            long t0 = System.nanoTime();
            if (pairRows != null) {
                return fitOneVsOne(trainer, raw, cvFits * pairRows.size(), cvRuns, t0, this);
            }
            SvmClassifier m;
            // the library methods' cross-validation reports no fits: only their final fit is shown
            try (LearningDisplay display = new LearningDisplay(type(), solver(), cvFits, maxIterations(), !cvRuns)) {
                m = trainer.fit(raw, display);
                display.finish();
            }
            double secs = (System.nanoTime() - t0) * 1e-9;
            Map<String, Object> fr = m.fitReport();
            if (fr.containsKey("cvChoice") && !common.json) {
                Progress.info((String) fr.get("cvChoice"));
            }
            common.save(m);
            Map<String, Object> rep = common.baseReport(type(), raw, secs);
            rep.put("C", ((LearnedKernelHyperParameters) m.hyperParameters()).c());
            if (method().usesEpsilon()) {
                rep.put("epsilon", fr.get("epsilon"));
                rep.put("degree", fr.get("degree"));
            }
            if (method().usesGaussLibrary()) {
                rep.put("gaussBandwidth", fr.get("gaussBandwidth"));
                rep.put("gaussScaling", fr.get("gaussScaling"));
            }
            if (fr.containsKey("cv")) {
                rep.put("cv", fr.get("cv"));
            }
            rep.put("kernel", fr.get("kernel"));
            if (fr.containsKey("weights")) {
                rep.put("weights", fr.get("weights"));
            }
            LearnedKernelFit d = (LearnedKernelFit) m.diagnostics();
            warnIfNotConverged(type(), d, gap);
            rep.put("iterations", d.iterations());
            rep.put("gap", d.gap());
            rep.put("relativeGap", d.relativeGap());
            rep.put("converged", d.converged());
            rep.put("stopReason", d.stop().label());
            rep.put("fitSeconds", d.fitSeconds());
            rep.put("trainAccuracy", m.evaluate(raw).accuracy());
            common.report(rep);
            return Main.EXIT_OK;
        }
    }

    /**
     * The rows of each one-vs-one pair (classes in order of first appearance, pairs (0,1), (0,2), …) when the target
     * has more than two classes, else null.
     */
    static List<int[]> pairRows(Dataset raw) {
        String[] tokens = SvmClassifier.labelTokens(raw);
        java.util.Map<String, List<Integer>> rows = new java.util.LinkedHashMap<>();
        for (int i = 0; i < tokens.length; i++) {
            String t = tokens[i] == null ? "" : tokens[i].trim();
            if (t.isEmpty()) {
                throw new IllegalArgumentException(raw.source() + ": empty class label in row " + (i + 1));
            }
            rows.computeIfAbsent(org.psdkit.classify.BinaryLabels.canonical(t), key -> new java.util.ArrayList<>())
                    .add(i);
        }
        if (rows.size() <= 2) {
            return null;
        }
        List<List<Integer>> byClass = new java.util.ArrayList<>(rows.values());
        List<int[]> out = new java.util.ArrayList<>();
        for (int i = 0; i < byClass.size(); i++) {
            for (int j = i + 1; j < byClass.size(); j++) {
                int[] idx = java.util.stream.Stream.concat(byClass.get(i).stream(), byClass.get(j).stream())
                        .mapToInt(Integer::intValue).sorted().toArray();
                out.add(idx);
            }
        }
        return out;
    }

    /**
     * A warning on stderr when kernel learning stopped before its relative gap reached {@code --gap}: why it stopped
     * (iteration cap, or stalled) and the gap it stopped at.
     */
    static void warnIfNotConverged(String what, LearnedKernelFit d, double tolerance) {
        if (d.converged()) {
            return;
        }
        String why = d.stop() == org.psdkit.classify.mkl.LearningStop.MAX_ITERATIONS
                ? "stopped at its iteration limit (" + d.iterations() + ")"
                : "stalled after " + d.iterations() + " iterations (no further progress measurable)";
        System.err.println(String.format(Locale.ROOT, "psdkit fit %s: warning: kernel learning %s at relative gap "
                + "%.3g, above --gap %s; the model is usable but not converged", what, why, d.relativeGap(),
                tolerance));
    }

    /** The fit and report of a learned-kernel SVM on more than two classes ({@link LearnedOneVsOne}). */
    static Integer fitOneVsOne(Trainer<SvmClassifier> trainer, Dataset raw, long cvFits, boolean cvRuns, long t0,
                               Learning cmd) {
        MulticlassLearnedSvm m;
        try (LearningDisplay display = new LearningDisplay(cmd.type(), cmd.solver(), cvFits, cmd.maxIterations(),
                !cvRuns)) {
            m = (MulticlassLearnedSvm) new LearnedOneVsOne(trainer).fit(raw, display);
            display.finish();
        }
        double secs = (System.nanoTime() - t0) * 1e-9;
        cmd.common.save(m);
        Map<String, Object> rep = cmd.common.baseReport(cmd.type(), raw, secs);
        rep.put("classes", m.labels());
        List<Map<String, Object>> pairs = new java.util.ArrayList<>();
        List<String> names = m.outputColumns();
        for (int q = 0; q < m.pairs().size(); q++) {
            SvmClassifier p = m.pairs().get(q);
            Map<String, Object> e = new java.util.LinkedHashMap<>();
            e.put("pair", names.get(q).substring("decision(".length(), names.get(q).length() - 1));
            e.put("C", p.hyperParameters().get("C"));
            Map<String, Object> fr = p.fitReport();
            if (cmd.method().usesEpsilon()) {
                e.put("epsilon", fr.get("epsilon"));
            }
            e.put("kernel", fr.get("kernel"));
            LearnedKernelFit d = (LearnedKernelFit) p.diagnostics();
            warnIfNotConverged(cmd.type() + " pair " + e.get("pair"), d, cmd.gap);
            e.put("iterations", d.iterations());
            e.put("gap", d.gap());
            e.put("relativeGap", d.relativeGap());
            e.put("converged", d.converged());
            e.put("stopReason", d.stop().label());
            pairs.add(e);
        }
        rep.put("pairs", pairs);
        OneVsOneFit d = (OneVsOneFit) m.diagnostics();
        rep.put("iterations", d.iterations());
        rep.put("converged", d.converged());
        rep.put("trainAccuracy", m.evaluate(raw).accuracy());
        cmd.common.report(rep);
        return Main.EXIT_OK;
    }

    /** {@code fit tk-svm}. */
    @Command(name = "tk-svm", description = "SVM with a learned tessellated kernel (direct Frank-Wolfe method over "
            + "{P psd, tr P = 1}, alternating with warm-started SMO).")
    static final class TkSvm extends Learning {
        @Override
        Method method() {
            return Method.TK;
        }

        @Override
        String type() {
            return TkSvmTrainer.TYPE;
        }

        @Override
        String solver() {
            return "Frank-Wolfe";
        }

        @Override
        long maxIterations() {
            return TkLearner.DEFAULT_MAX_ITERATIONS;
        }

        @Override
        Trainer<SvmClassifier> trainer(Double c, double[] cGrid, Double epsilon, double[] epsGrid,
                                       TessellatedKernel.Orthant orth) {
            // a searched C or epsilon stands at 1 or 0 in the options until the search chooses it
            TkSvmTrainer.Options o = new TkSvmTrainer.Options(c == null ? 1 : c, epsilon == null ? 0 : epsilon, degree,
                    orth, gap, common.seed);
            return c == null || epsilon == null
                    ? new TkSvmTrainer.Search(o, c == null ? cGrid : null, epsilon == null ? epsGrid : null)
                    : new TkSvmTrainer(o);
        }
    }

    /** {@code fit simplemkl}. */
    @Command(name = "simplemkl", description = "SimpleMKL over a kernel library: gauss-poly (Gaussian + polynomial, "
            + "13(n+1) kernels), tk-random (random tessellated kernels) or combined.")
    static final class SimpleMkl extends Learning {
        @Option(names = "--library", defaultValue = "gauss-poly", paramLabel = "gauss-poly|tk-random|combined",
                description = "Kernel library (default: ${DEFAULT-VALUE}).")
        String library;

        @Option(names = "--library-size", defaultValue = "300", paramLabel = "N",
                description = "Number of random tessellated kernels (default: ${DEFAULT-VALUE}).")
        int size;

        @Mixin
        GaussLibraryOptions gauss;

        @Override
        boolean betaBandwidths() {
            return gauss.beta();
        }

        @Override
        KernelLearning.GaussScaling gaussScaling() {
            return gauss.scaling(method());
        }

        @Override
        Method method() {
            return switch (library.trim().toLowerCase(Locale.ROOT)) {
                case "gauss-poly" -> Method.SIMPLEMKL;
                case "tk-random" -> Method.SIMPLEMKL_TK;
                case "combined" -> Method.COMBINED;
                default -> throw new IllegalArgumentException("--library: '" + library
                        + "' is not gauss-poly, tk-random or combined");
            };
        }

        @Override
        int librarySize() {
            if (size < 1) {
                throw new IllegalArgumentException("--library-size must be >= 1, got " + size);
            }
            return size;
        }

        @Override
        public Integer call() {
            method();
            librarySize();
            betaBandwidths();
            gaussScaling();
            return super.call();
        }

        @Override
        String type() {
            return SimpleMklTrainer.TYPE;
        }

        @Override
        String solver() {
            return "reduced gradient";
        }

        @Override
        long maxIterations() {
            return org.psdkit.classify.mkl.SimpleMkl.DEFAULT_MAX_ITERATIONS;
        }

        @Override
        Trainer<SvmClassifier> trainer(Double c, double[] cGrid, Double epsilon, double[] epsGrid,
                                       TessellatedKernel.Orthant orth) {
            // a searched C or epsilon stands at 1 or 0 in the options until the search chooses it
            SimpleMklTrainer.Options o = SimpleMklTrainer.Options.builder(method()).librarySize(librarySize())
                    .betaBandwidths(betaBandwidths()).gaussScaling(gaussScaling()).c(c == null ? 1 : c)
                    .epsilon(epsilon == null ? 0 : epsilon).degree(degree).orthant(orth).gap(gap).seed(common.seed)
                    .build();
            boolean searchEpsilon = method().usesEpsilon() && epsilon == null;
            return c == null || searchEpsilon
                    ? new SimpleMklTrainer.Search(o, c == null ? cGrid : null, searchEpsilon ? epsGrid : null)
                    : new SimpleMklTrainer(o);
        }
    }
}
