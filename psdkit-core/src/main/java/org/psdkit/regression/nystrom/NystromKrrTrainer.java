package org.psdkit.regression.nystrom;

import java.util.LinkedHashMap;
import java.util.Map;
import org.psdkit.data.Dataset;
import org.psdkit.data.Scaler;
import org.psdkit.kernel.Kernel;
import org.psdkit.linalg.Matrix;
import org.psdkit.model.ModelHeader;
import org.psdkit.model.ParameterException;
import org.psdkit.model.Pipeline;
import org.psdkit.model.Trainer;
import org.psdkit.optim.ProgressListener;
import org.psdkit.psd.Anchors;
import org.psdkit.psd.Nystrom;
import org.psdkit.regression.KernelRidge;
import org.psdkit.regression.KrrTrainer;

/**
 * Fits Nyström kernel ridge regression ({@link NystromKrr}) on raw data: the objective of
 * {@link org.psdkit.regression.KrrTrainer} (standard form) restricted to f = Σ_j α_j k(·, c_j) over m anchors. The
 * model is an ordinary {@code krr} model (points = anchors), so model files, {@code predict} and {@code eval} treat
 * it like exact KRR; prediction costs O(m) kernel evaluations per row.
 *
 * <pre>{@code
 * Pipeline<KernelRidge> m = new NystromKrrTrainer(NystromKrrTrainer.Options.of(Kernels.parse("gaussian(sigma=3)"), 0.01,
 *         2000, 42).withScale(Scaler.Kind.ZSCORE)).fit(train);
 * }</pre>
 */
public final class NystromKrrTrainer implements Trainer<Pipeline<KernelRidge>> {

    /**
     * Everything a Nyström KRR fit ({@link NystromKrrTrainer}) needs: the kernel, the feature scaling, the anchors
     * ({@link Nystrom}: count m ≥ 1, method, seed), the ridge λ of {@code (K_nmᵀK_nm + λK_mm)α = K_nmᵀy}, centring,
     * and the CG settings. Validated here; a bad value throws {@link ParameterException} naming the parameter.
     *
     * <pre>{@code
     * Options o = NystromKrrTrainer.Options.of(Kernels.parse("gaussian(sigma=3)"), 0.01, 2000,
     *         42)
     *         .withScale(Scaler.Kind.ZSCORE).withCenter(true);
     * Pipeline<KernelRidge> m = new NystromKrrTrainer(o).fit(train);
     * }</pre>
     *
     * @param kernel        the kernel
     * @param scale         the feature scaling fitted on the training data (null: none)
     * @param nystrom       the anchors: m = {@code nystrom.anchors()} ≥ 1 (capped at n when fitting), method, seed
     *                      (its rank threshold is not used: the solve works on the coefficients)
     * @param lambda        ridge λ ≥ 0 (the λ of {@code (K + λI)α = y})
     * @param center        subtract the training mean of y and add it back
     * @param tolerance     relative residual at which CG stops, in (0, 1)
     * @param maxIterations cap on CG iterations, ≥ 1
     * @param storage       where K_nm lives between iterations (null: {@link Storage#AUTO})
     */
    public record Options(Kernel kernel, Scaler.Kind scale, Nystrom nystrom, double lambda, boolean center,
                                    double tolerance, int maxIterations, Storage storage) {

        public Options {
            ParameterException.required("kernel", kernel);
            if (scale == null) {
                scale = Scaler.Kind.NONE;
            }
            ParameterException.required("nystrom", nystrom);
            ParameterException.atLeast("anchors", nystrom.anchors(), 1);
            ParameterException.nonNegative("lambda", lambda);
            ParameterException.unitOpen("tolerance", tolerance);
            ParameterException.atLeast("maxIterations", maxIterations, 1);
            if (storage == null) {
                storage = Storage.AUTO;
            }
        }

        /** m uniform anchors with {@code seed}, no scaling, no centring, default CG settings. */
        public static Options of(Kernel kernel, double lambda, int anchors, long seed) {
            return new Options(kernel, Scaler.Kind.NONE, Nystrom.of(anchors, Anchors.Method.UNIFORM, seed),
                    lambda, false, NystromKrr.DEFAULT_TOLERANCE, NystromKrr.DEFAULT_MAX_ITERATIONS, Storage.AUTO);
        }

        /** The number m of anchors. */
        public int anchors() {
            return nystrom.anchors();
        }

        /** How the anchors are chosen. */
        public Anchors.Method method() {
            return nystrom.method();
        }

        /** The seed of the anchor choice. */
        public long seed() {
            return nystrom.seed();
        }

        public Options withKernel(Kernel k) {
            return new Options(k, scale, nystrom, lambda, center, tolerance, maxIterations, storage);
        }

        public Options withScale(Scaler.Kind s) {
            return new Options(kernel, s, nystrom, lambda, center, tolerance, maxIterations, storage);
        }

        public Options withNystrom(Nystrom n) {
            return new Options(kernel, scale, n, lambda, center, tolerance, maxIterations, storage);
        }

        public Options withLambda(double l) {
            return new Options(kernel, scale, nystrom, l, center, tolerance, maxIterations, storage);
        }

        public Options withCenter(boolean c) {
            return new Options(kernel, scale, nystrom, lambda, c, tolerance, maxIterations, storage);
        }

        public Options withTolerance(double t) {
            return new Options(kernel, scale, nystrom, lambda, center, t, maxIterations, storage);
        }

        public Options withMaxIterations(int it) {
            return new Options(kernel, scale, nystrom, lambda, center, tolerance, it, storage);
        }

        public Options withStorage(Storage s) {
            return new Options(kernel, scale, nystrom, lambda, center, tolerance, maxIterations, s);
        }
    }

    private final Options options;

    /** @param options kernel, scaling, anchors, λ, centring and CG settings (validated by their record) */
    public NystromKrrTrainer(Options options) {
        this.options = ParameterException.required("options", options);
    }

    /** The options. */
    public Options options() {
        return options;
    }

    @Override
    public Pipeline<KernelRidge> fit(Dataset train, ProgressListener listener) {
        if (train.y() == null) {
            throw new IllegalArgumentException(train.source() + ": kernel ridge regression needs a numeric target");
        }
        Kernel kernel = options.kernel();
        Scaler scaler = Scaler.fit(options.scale(), train.x());
        long t0 = System.nanoTime();
        org.psdkit.linalg.Matrix x = scaler.apply(train.x());
        org.psdkit.kernel.Kernels.requireFinite(kernel, x, "nystrom krr");
        if (train.weights() != null || train.targets() != null) {
            Weighted w = fitDirect(kernel, x, train.targetMatrix(), train.weights(), options);
            double secs = (System.nanoTime() - t0) * 1e-9;
            return KrrTrainer.of(ModelHeader.of(KrrTrainer.TYPE, train, scaler, kernel.spec(),
                    hyperParameters(options, w.model().points().rows())), w.model(),
                    directDiagnostics(w.solution(), secs));
        }
        Fit f = fitScaled(kernel, x, train.y(), options);
        double secs = (System.nanoTime() - t0) * 1e-9;
        return KrrTrainer.of(ModelHeader.of(KrrTrainer.TYPE, train, scaler, kernel.spec(),
                hyperParameters(options, f.model().points().rows())), f.model(), diagnostics(f.diagnostics(), secs));
    }

    /** A direct fit (sample weights or several targets): the model and the solve behind it. */
    public record Weighted(KernelRidge model, NystromDirect.Solution solution) {
    }

    /**
     * Fits on already scaled points with sample weights (null: equal) and/or several targets (the columns of
     * {@code y}): the anchors as without (the options' method and seed), then the m×m normal equations solved
     * directly, one factorisation for all targets ({@link NystromDirect}); the CG settings are not used.
     */
    public static Weighted fitDirect(Kernel kernel, Matrix x, Matrix y, double[] weights, Options o) {
        if (y.rows() != x.rows()) {
            throw new IllegalArgumentException("nystrom krr: " + x.rows() + " points but " + y.rows() + " targets");
        }
        if (x.rows() == 0) {
            throw new IllegalArgumentException("nystrom krr: no training points");
        }
        if (weights != null) {
            org.psdkit.data.Dataset.checkWeights(weights, x.rows(), "nystrom krr");
        }
        Matrix c = x.selectRows(anchors(kernel, x, o));
        return solveDirect(kernel, c, NystromDirect.normal(kernel, x, c, y, weights, o.center()), o);
    }

    /**
     * The direct fit's solve of {@link #fitDirect} on normal equations already accumulated on the anchors c (with the
     * weights and centring of the options): a cross-validation keeps one {@link NystromDirect.Normal} per training
     * part (it does not depend on λ) and solves it for every λ of its grid, with the numbers of separate fits.
     */
    public static Weighted solveDirect(Kernel kernel, Matrix c, NystromDirect.Normal normal, Options o) {
        Matrix y = normal.rhs();
        NystromDirect.Solution s = NystromDirect.solve(normal, o.lambda());
        KernelRidge.Options ko = new KernelRidge.Options(o.lambda(), KernelRidge.Form.STANDARD, 0, o.center());
        org.psdkit.linalg.SpdSolve.Diagnostics d = new org.psdkit.linalg.SpdSolve.Diagnostics("nystrom-direct",
                s.diagnostics().jitter(), c.rows(), 0);
        KernelRidge m = y.cols() == 1 ? KernelRidge.of(kernel, c, s.alpha().col(0), s.offsets()[0], ko, d)
                : KernelRidge.of(kernel, c, s.alpha(), s.offsets(), ko, d);
        return new Weighted(m, s);
    }

    /**
     * What a Nyström fit reports, in the model file's order: the route ({@code nystrom-cg}, or {@code nystrom-direct}
     * for sample weights or several targets), the CG iterations (0 for the direct route), the recomputed relative
     * residual, whether CG converged, where K_nm lived ({@code gram} for the direct route), the jitter added to K_mm,
     * the seconds of the fit, and for several targets their number and the factorisations made (one).
     *
     * @param route          {@code nystrom-cg} or {@code nystrom-direct}
     * @param iterations     CG iterations (0: direct solve)
     * @param residual       the recomputed relative residual of the solved system
     * @param converged      whether the solve reached its tolerance
     * @param storage        where K_nm lived between iterations ({@link Storage}'s id, {@code gram} when direct)
     * @param jitter         the diagonal jitter added before the factorisation succeeded
     * @param seconds        wall time of the fit
     * @param targets        the number of target columns (written with {@code factorizations} only when several)
     * @param factorizations the factorisations of the m×m system (1 for every number of targets)
     * @param engine         the engine that ran a distributed fit ({@code spark}), written last; null for a local fit
     */
    public record FitDiagnostics(String route, int iterations, double residual, boolean converged, String storage,
                                 double jitter, double seconds, int targets, int factorizations, String engine)
            implements org.psdkit.model.Diagnostics {

        /** The route of the conjugate-gradient solve. */
        public static final String CG = "nystrom-cg";
        /** The route of the direct m×m solve. */
        public static final String DIRECT = "nystrom-direct";

        @Override
        public Map<String, Object> toMap() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("route", route);
            m.put("iterations", iterations);
            m.put("residual", residual);
            m.put("converged", converged);
            m.put("storage", storage);
            m.put("jitter", jitter);
            m.put("seconds", seconds);
            if (targets > 1) {
                m.put("targets", targets);
                m.put("factorizations", factorizations);
            }
            if (engine != null) {
                m.put("engine", engine);
            }
            return m;
        }

        /** The same diagnostics of a fit run by {@code engine}. */
        public FitDiagnostics withEngine(String e) {
            return new FitDiagnostics(route, iterations, residual, converged, storage, jitter, seconds, targets,
                    factorizations, e);
        }

        /** The record of a model file's diagnostics; throws if a key is missing or of another type. */
        public static FitDiagnostics of(Map<String, Object> m) {
            boolean several = m.containsKey("targets");
            return new FitDiagnostics((String) m.get("route"), (Integer) m.get("iterations"),
                    (Double) m.get("residual"), (Boolean) m.get("converged"), (String) m.get("storage"),
                    (Double) m.get("jitter"), (Double) m.get("seconds"), several ? (Integer) m.get("targets") : 1,
                    several ? (Integer) m.get("factorizations") : 1, (String) m.get("engine"));
        }
    }

    /**
     * What a direct fit reports, with the keys of {@link #diagnostics(NystromKrr.Diagnostics, double)}: route
     * {@code nystrom-direct}, no CG iterations, the recomputed relative residual of the m×m system, storage
     * {@code gram}, the solver's jitter and seconds.
     */
    public static FitDiagnostics directDiagnostics(NystromDirect.Solution s, double seconds) {
        return new FitDiagnostics(FitDiagnostics.DIRECT, 0, s.residual(), true, "gram", s.diagnostics().jitter(),
                seconds, s.alpha().cols(), 1, null);
    }

    /** A fitted model with its CG diagnostics. */
    public record Fit(KernelRidge model, NystromKrr.Diagnostics diagnostics) {
    }

    /** {@link #fitScaled} with where the time went: the fit, and anchorSeconds plus {@link KnmBlocks#timings()}. */
    public record ProfiledFit(Fit fit, Map<String, Double> timings) {
    }

    /** Like {@link #fitScaled}, timing the anchor choice and the phases of the problem. */
    public static ProfiledFit fitScaledProfiled(Kernel kernel, Matrix x, double[] y, Options o) {
        if (y.length != x.rows()) {
            throw new IllegalArgumentException("nystrom krr: " + x.rows() + " points but " + y.length + " targets");
        }
        if (x.rows() == 0) {
            throw new IllegalArgumentException("nystrom krr: no training points");
        }
        checkMemory(x.rows(), x.cols(), Math.min(o.anchors(), x.rows()));
        long t0 = System.nanoTime();
        int[] idx = anchors(kernel, x, o);
        Matrix c = x.selectRows(idx);
        double anchorSecs = (System.nanoTime() - t0) * 1e-9;
        KnmBlocks p = NystromKrr.problem(kernel, x, c, o.storage(), target(y, o));
        Fit f = solve(p, y, o);
        Map<String, Double> t = new LinkedHashMap<>();
        t.put("anchorSeconds", anchorSecs);
        t.putAll(p.timings());
        return new ProfiledFit(f, t);
    }

    /**
     * Fails with {@link org.psdkit.linalg.MemoryBudget.InsufficientMemoryException} before the anchors are chosen
     * when the heap cannot hold a lower bound of the fit with m anchors on n rows of d columns: the data (n·d), the
     * target and the CG's residual and prediction vectors (3n), and the three m×m matrices of Falkon's
     * preconditioner that exist together ({@link FalkonPreconditioner}: K_mm, its Cholesky factor L and L_A). The
     * single-precision store of K_nm is sized to the free heap by the route planner, so it is not counted.
     */
    static void checkMemory(long n, long d, long m) {
        long doubles = org.psdkit.linalg.MemoryBudget.plus(org.psdkit.linalg.MemoryBudget.times(n, d + 3),
                org.psdkit.linalg.MemoryBudget.times(3, org.psdkit.linalg.MemoryBudget.times(m, m)));
        org.psdkit.linalg.MemoryBudget.check("nystrom kernel ridge with " + m + " anchors on " + n + " rows x " + d
                + " columns", org.psdkit.linalg.MemoryBudget.times(doubles, org.psdkit.linalg.MemoryBudget.DOUBLE_BYTES));
    }

    /** Fits on already scaled points. */
    public static Fit fitScaled(Kernel kernel, Matrix x, double[] y, Options o) {
        if (y.length != x.rows()) {
            throw new IllegalArgumentException("nystrom krr: " + x.rows() + " points but " + y.length + " targets");
        }
        if (x.rows() == 0) {
            throw new IllegalArgumentException("nystrom krr: no training points");
        }
        checkMemory(x.rows(), x.cols(), Math.min(o.anchors(), x.rows()));
        int[] idx = anchors(kernel, x, o);
        KnmBlocks p = NystromKrr.problem(kernel, x, x.selectRows(idx), o.storage(), target(y, o));
        return solve(p, y, o);
    }

    /**
     * y − offset as {@link #solve} will form it (offset = the mean of y when centring, else 0): given to
     * {@link NystromKrr#problem(Kernel, Matrix, Matrix, Storage, double[])}, its right-hand side is
     * computed in the problem's first pass.
     */
    public static double[] target(double[] y, Options o) {
        double off = offset(y, o);
        double[] t = new double[y.length];
        for (int i = 0; i < y.length; i++) {
            t[i] = y[i] - off;
        }
        return t;
    }

    private static double offset(double[] y, Options o) {
        double off = 0;
        if (o.center()) {
            for (double v : y) {
                off += v;
            }
            off /= y.length;
        }
        return off;
    }

    /** Solves a prepared problem (anchors and K_mm factor shared across λ, as in cross-validation). */
    public static Fit solve(KnmBlocks p, double[] y, Options o) {
        double off = offset(y, o);
        NystromKrr.Solution s = p.solve(y, off, o.lambda(), o.tolerance(), o.maxIterations());
        return new Fit(p.model(s, o.center()), s.diagnostics());
    }

    /**
     * The rows of x chosen as anchors: m = min(anchors, n) by the options' method and seed, with the fit's λ as the
     * ridge of {@link Anchors.Method#RLS}.
     */
    public static int[] anchors(Kernel kernel, Matrix x, Options o) {
        int m = Math.min(o.anchors(), x.rows());
        return Anchors.select(kernel, x, m, o.method(), o.seed(), o.lambda());
    }

    /**
     * The predictions of {@code model} at the rows of {@code rawX} (raw features: the model's scaling is applied
     * first) for a Gaussian Nyström model with one target, computed anchor by anchor in row blocks on all cores
     * without forming the cross-kernel matrix ({@code GaussianFitted}): the training predictions of a fit report.
     * They equal {@code model.predict(rawX)} up to the roundings of the distances and of the sum over anchors;
     * null for another kernel, several targets or more than {@code GaussianFitted.MAX_FEATURES} features (then
     * predict).
     */
    public static double[] fittedValues(Pipeline<KernelRidge> model, Matrix rawX) {
        KernelRidge m = model.inner();
        if (!(m.kernel() instanceof org.psdkit.kernel.GaussianKernel g) || m.targets() != 1) {
            return null;
        }
        return org.psdkit.regression.nystrom.internal.GaussianFitted.values(g, m.points(), m.alpha(), m.offset(),
                model.header().scale(rawX));
    }

    /** What the model file records: the krr options plus the anchors' settings. */
    public static Map<String, Object> hyperParameters(Options o, int anchorsUsed) {
        Map<String, Object> h = KrrTrainer.hyperParameters(
                new KernelRidge.Options(o.lambda(), KernelRidge.Form.STANDARD, 0, o.center()));
        h.put("anchors", anchorsUsed);
        h.put("anchorMethod", o.method().id());
        h.put("seed", o.seed());
        h.put("tolerance", o.tolerance());
        return h;
    }

    /** What a fit reports: route, CG iterations, recomputed relative residual, storage, jitter, seconds. */
    public static FitDiagnostics diagnostics(NystromKrr.Diagnostics d, double seconds) {
        return new FitDiagnostics(FitDiagnostics.CG, d.iterations(), d.residual(), d.converged(), d.storage(),
                d.jitter(), seconds, 1, 1, null);
    }
}
