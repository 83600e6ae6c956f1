package org.psdkit.regression.psd;

import java.util.Random;
import org.psdkit.kernel.Kernel;
import org.psdkit.linalg.FeatureColumns;
import org.psdkit.linalg.Linalg;
import org.psdkit.linalg.Matrix;
import org.psdkit.optim.ConjugateLoss;
import org.psdkit.optim.Fista;
import org.psdkit.optim.FistaOptions;
import org.psdkit.optim.FistaResult;
import org.psdkit.optim.Losses;
import org.psdkit.optim.ProgressListener;
import org.psdkit.optim.ProxFunction;
import org.psdkit.optim.SmoothFunction;
import org.psdkit.psd.EmpiricalFeatureMap;
import org.psdkit.psd.PsdOptions;
import org.psdkit.psd.SolverDiagnostics;

/**
 * The non-negative regression baselines of App. D (Marteau-Ferey, Bach and Rudi 2020), all with the squared loss
 * L(z) = (1/(2n)) Σ (z_i − y_i)² and the regulariser (λ/2) αᵀKα = (λ/2)‖w‖² of the underlying linear model:
 * <ul>
 *   <li>NCM, eq. (34): min_{α ≥ 0} L(Kα) + (λ/2) αᵀKα, by accelerated projected gradient;</li>
 *   <li>PNM, eq. (36): min_{Kα ≥ 0} L(Kα) + (λ/2) αᵀKα, by FISTA on its dual
 *       max_β −G*(β) − βᵀKβ/(2λ), G = L + ι(z ≥ 0), with α = −β/λ;</li>
 *   <li>GLM, eq. (32): min_α L(exp(Kα)) + (λ/2) αᵀKα (non-convex), gradient descent with backtracking from
 *       several seeded starts, keeping the best.</li>
 * </ul>
 * Progress: one event per iteration, task the model type ({@code "ncm"}, {@code "pnm"}, {@code "glm"}), measure
 * the stopping quantity: {@code "residual"} (NCM, GLM: the relative first-order residual below, the GLM steps
 * counted over all starts) or {@code "gap"} (PNM: the relative duality gap).
 */
public final class Baselines {

    /**
     * Stopping tolerance of NCM and GLM: the norm of the projected-gradient step ‖x − prox(x − ∇/L)‖·L relative to
     * the size of the gradient of the loss at 0 (‖Kᵀy‖/n); the first-order optimality residual.
     */
    public static final double DEFAULT_TOLERANCE = 1e-8;
    /**
     * PNM: largest violation max_i (−f(x_i))₊ of the training-point constraints, relative to max|y|, at which an
     * iterate of the dual counts as a primal solution (α = −β/λ satisfies Kα ≥ 0 only in the limit). 1e-6 is far
     * below any noise level of a regression target and reached in a few thousand iterations on n ≈ 100.
     */
    public static final double PNM_VIOLATION_TOLERANCE = 1e-6;
    /** Number of starts of the GLM gradient descent (0 plus seeded random perturbations). */
    public static final int GLM_STARTS = 4;
    /** Scale of the random GLM starts, in units of log(mean |y|) spread over n coefficients. */
    public static final double GLM_START_SCALE = 0.1;

    private Baselines() {
    }

    /** Options shared by the baselines. */
    public record Options(double lambda, double tolerance, int maxIterations, double timeLimitSeconds, long seed) {
        public Options {
            org.psdkit.model.ParameterException.positive("lambda", lambda);
            if (!(tolerance >= 0)) {
                throw new org.psdkit.model.ParameterException("tolerance", "must be >= 0, got " + tolerance);
            }
            org.psdkit.model.ParameterException.atLeast("maxIterations", maxIterations, 1);
            if (!(timeLimitSeconds > 0)) {
                throw new org.psdkit.model.ParameterException("timeLimitSeconds", "must be > 0, got "
                        + timeLimitSeconds);
            }
        }

        public static Options of(double lambda) {
            return new Options(lambda, DEFAULT_TOLERANCE, PsdOptions.DEFAULT_MAX_ITERATIONS, Double.POSITIVE_INFINITY,
                    1L);
        }

        public Options withTolerance(double t) {
            return new Options(lambda, t, maxIterations, timeLimitSeconds, seed);
        }

        public Options withMaxIterations(int m) {
            return new Options(lambda, tolerance, m, timeLimitSeconds, seed);
        }
    }

    /** The primal objective L(z) + (λ/2)αᵀKα with z = Kα or exp(Kα). */
    static double objective(Matrix k, double[] alpha, double[] y, double lambda, boolean exp) {
        return objective(k, k, alpha, y, lambda, exp);
    }

    /** The Nyström objective L(z) + (λ/2)αᵀK_{mm}α with z = K_{nm}α or exp(K_{nm}α) (kmn is m×n). */
    static double objective(Matrix kmn, Matrix kmm, double[] alpha, double[] y, double lambda, boolean exp) {
        return objective(FeatureColumns.dense(kmn), kmm, alpha, y, lambda, exp);
    }

    /** {@link #objective(Matrix, Matrix, double[], double[], double, boolean)} with K_{mn} as feature columns. */
    static double objective(FeatureColumns kmn, Matrix kmm, double[] alpha, double[] y, double lambda, boolean exp) {
        double[] ka = kmn.transposeTimes(alpha);
        double loss = 0;
        for (int i = 0; i < y.length; i++) {
            double z = exp ? Math.exp(ka[i]) : ka[i];
            loss += (z - y[i]) * (z - y[i]);
        }
        return loss / (2.0 * y.length) + 0.5 * lambda * Linalg.dot(alpha, Linalg.gemv(kmm, false, alpha));
    }

    public static KernelExpansionModel ncm(Kernel kernel, Matrix x, double[] y, Options o, ProgressListener listener) {
        return ncm(kernel, x, null, y, o, listener);
    }

    /**
     * NCM expanded on {@code anchors} (Nyström, App. B.5; null = every training point): f = Σ_j α_j k(·, a_j),
     * α ≥ 0, min (1/(2n))‖K_{nm}α − y‖² + (λ/2) αᵀK_{mm}α. O(nm) memory (the m×n cross matrix, in single
     * precision when the double one does not fit: {@link FeatureColumns}), never n×n.
     */
    public static KernelExpansionModel ncm(Kernel kernel, Matrix x, Matrix anchors, double[] y, Options o,
                                           ProgressListener listener) {
        PsdRegression.checkData(x, y);
        checkAnchors(x, anchors);
        long start = System.nanoTime();
        int n = y.length;
        Matrix pts = anchors == null ? x : anchors;
        int m = pts.rows();
        if (anchors != null) {
            checkCrossMemory("ncm", n, x.cols(), m);
        }
        Matrix kmm = kernel.gram(pts);
        FeatureColumns kmn = anchors == null ? FeatureColumns.dense(kmm) : cross(kernel, pts, x); // m×n
        // L = λ_max(K_{mn}K_{nm})/n + λ λ_max(K_{mm}); for the exact model K_{mn}K_{nm} = K², λ_max = λ_max(K)²
        double kmax = Linalg.eigvalsh(kmm)[m - 1];
        double cmax = anchors == null ? kmax * kmax : Linalg.eigvalsh(kmn.gram())[m - 1];
        double lip = cmax / n + o.lambda() * kmax;
        double[] kty = kmn.times(y);
        double scale = Math.max(Math.sqrt(Linalg.dot(kty, kty)) / n, Double.MIN_NORMAL);
        SmoothFunction h = quadratic(kmn, kmm, y, o.lambda());
        double[] residual = {Double.NaN};
        ProgressListener lis = ProgressListener.orNone(listener).relabelled("ncm", "residual", () -> residual[0]);
        FistaResult res = Fista.minimize(h, ProxFunction.nonNegative(), new double[m],
                new FistaOptions(o.maxIterations(), o.timeLimitSeconds(), lip, true),
                (it, yy, hv, g) -> {
                    double r = stepResidual(yy, g, lip, true);
                    residual[0] = r / scale;
                    return r <= o.tolerance() * scale;
                }, lis);
        double obj = objective(kmn, kmm, res.x(), y, o.lambda(), false);
        SolverDiagnostics d = new SolverDiagnostics(res.iterations(), Double.NaN, obj, Double.NaN,
                seconds(start), countPositive(res.x()), m, res.status().name());
        return new KernelExpansionModel("ncm", kernel, pts, res.x(), false, d);
    }

    public static KernelExpansionModel pnm(Kernel kernel, Matrix x, double[] y, Options o, ProgressListener listener) {
        return pnm(kernel, x, null, y, o, PsdOptions.DEFAULT_RANK_THRESHOLD, listener);
    }

    /**
     * PNM expanded on {@code anchors} (Nyström, App. B.5; null = every training point, where K itself is used and
     * {@code rankThreshold} is ignored): with V = Φ(x_i) (r×n) the features of the anchors' Gram matrix cut at
     * {@code rankThreshold}·λ_max, the dual is that of the exact model with K replaced by VᵀV, w = −Vβ/λ and
     * α = U Σ^{-1/2} w on the anchors; f(x_i) ≥ 0 is still required at every training point.
     */
    public static KernelExpansionModel pnm(Kernel kernel, Matrix x, Matrix anchors, double[] y, Options o,
                                           double rankThreshold, ProgressListener listener) {
        PsdRegression.checkData(x, y);
        checkAnchors(x, anchors);
        long start = System.nanoTime();
        int n = y.length;
        double lambda = o.lambda();
        Matrix k;
        FeatureColumns v;
        EmpiricalFeatureMap map;
        double lip;
        if (anchors == null) {
            k = kernel.gram(x);
            v = null;
            map = null;
            lip = Linalg.eigvalsh(k)[n - 1] / lambda;
        } else {
            k = null;
            // the anchors' feature space; the data's r×n features in double, or in single precision when the double
            // matrix does not fit (FeatureColumns)
            map = EmpiricalFeatureMap.of(kernel, anchors, rankThreshold);
            long other = pnmOtherBytes(n, x.cols(), anchors.rows());
            checkMemory("pnm", map.rank(), n, other, "the features of rank " + map.rank() + " (" + anchors.rows()
                    + " anchors) on " + n + " rows");
            v = map.featureColumns(x, other); // r×n
            lip = Linalg.eigvalsh(v.gram())[v.rows() - 1] / lambda;
        }
        java.util.function.UnaryOperator<double[]> kOp = anchors == null ? k::times
                : beta -> v.transposeTimes(v.times(beta));
        ConjugateLoss g = Losses.squaredNonNegative(y);
        // dual: min_β G*(β) + βᵀKβ/(2λ); primal point α = −β/λ, z = Kα
        SmoothFunction h = new SmoothFunction() {
            @Override
            public int dimension() {
                return n;
            }

            @Override
            public double valueAndGradient(double[] beta, double[] grad) {
                double[] kb = kOp.apply(beta);
                for (int i = 0; i < n; i++) {
                    grad[i] = kb[i] / lambda;
                }
                return Linalg.dot(beta, kb) / (2 * lambda);
            }
        };
        double[] best = new double[n];
        double yScale = Math.max(maxAbs(y), Double.MIN_NORMAL);
        double[] bestGap = {Double.POSITIVE_INFINITY, Double.NaN, Double.NaN};
        double[] z = new double[n];
        double[] relGap = {Double.NaN};
        ProgressListener lis = ProgressListener.orNone(listener).relabelled("pnm", "gap", () -> relGap[0]);
        FistaResult res = Fista.minimize(h, g.conjugateAsProx(), new double[n],
                new FistaOptions(o.maxIterations(), o.timeLimitSeconds(), lip, true),
                (it, beta, hv, grad) -> {
                    // grad = Kβ/λ = −Kα with α = −β/λ; (λ/2)αᵀKα = βᵀgrad/2. The primal value is taken
                    // without the constraint; the constraint violation max_i (Kα)_i⁻ is required to be small
                    // separately (relative to max|y|).
                    double reg = 0;
                    double violation = 0;
                    for (int i = 0; i < n; i++) {
                        z[i] = -grad[i];
                        violation = Math.max(violation, -z[i]);
                        reg += 0.5 * beta[i] * grad[i];
                    }
                    double primal = lossSquared(z, y) + reg;
                    double dual = -g.conjugate(beta) - hv;
                    double gap = Math.abs(primal - dual);
                    relGap[0] = SolverDiagnostics.relative(gap, primal, dual);
                    if (violation > PNM_VIOLATION_TOLERANCE * yScale) {
                        return false;
                    }
                    if (gap < bestGap[0]) {
                        bestGap[0] = gap;
                        bestGap[1] = primal;
                        bestGap[2] = dual;
                        System.arraycopy(beta, 0, best, 0, n);
                    }
                    return relGap[0] <= o.tolerance();
                }, lis);
        if (bestGap[0] == Double.POSITIVE_INFINITY) {
            System.arraycopy(res.x(), 0, best, 0, n);
        }
        if (anchors == null) {
            double[] alpha = new double[n];
            for (int i = 0; i < n; i++) {
                alpha[i] = -best[i] / lambda;
            }
            SolverDiagnostics d = new SolverDiagnostics(res.iterations(), bestGap[0], bestGap[1], bestGap[2],
                    seconds(start), n, n, res.status().name());
            return new KernelExpansionModel("pnm", kernel, x, alpha, false, d);
        }
        double[] w = v.times(best);
        for (int t = 0; t < w.length; t++) {
            w[t] = -w[t] / lambda;
        }
        Matrix wcol = Matrix.zeros(w.length, 1);
        System.arraycopy(w, 0, wcol.data(), 0, w.length);
        double[] alpha = map.coefficientFactor(wcol).col(0);
        SolverDiagnostics d = new SolverDiagnostics(res.iterations(), bestGap[0], bestGap[1], bestGap[2],
                seconds(start), alpha.length, map.rank(), res.status().name(), map.relativeThreshold(),
                alpha.length);
        return new KernelExpansionModel("pnm", kernel, anchors, alpha, false, d);
    }

    public static KernelExpansionModel glm(Kernel kernel, Matrix x, double[] y, Options o, ProgressListener listener) {
        return glm(kernel, x, null, y, o, listener);
    }

    /**
     * GLM expanded on {@code anchors} (Nyström, App. B.5; null = every training point): f = exp(K_{nm}α),
     * min (1/(2n))‖exp(K_{nm}α) − y‖² + (λ/2) αᵀK_{mm}α, O(nm) memory (single precision when the double cross
     * matrix does not fit: {@link FeatureColumns}).
     */
    public static KernelExpansionModel glm(Kernel kernel, Matrix x, Matrix anchors, double[] y, Options o,
                                           ProgressListener listener) {
        PsdRegression.checkData(x, y);
        checkAnchors(x, anchors);
        long start = System.nanoTime();
        int n = y.length;
        double lambda = o.lambda();
        Matrix pts = anchors == null ? x : anchors;
        int m = pts.rows();
        if (anchors != null) {
            checkCrossMemory("glm", n, x.cols(), m);
        }
        Matrix kmm = kernel.gram(pts);
        FeatureColumns kmn = anchors == null ? FeatureColumns.dense(kmm) : cross(kernel, pts, x); // m×n
        SmoothFunction h = new SmoothFunction() {
            @Override
            public int dimension() {
                return m;
            }

            @Override
            public double valueAndGradient(double[] a, double[] grad) {
                double[] ka = kmn.transposeTimes(a);
                double[] w = new double[n];
                double loss = 0;
                for (int i = 0; i < n; i++) {
                    double z = Math.exp(ka[i]);
                    loss += (z - y[i]) * (z - y[i]);
                    w[i] = z * (z - y[i]) / n;
                }
                double[] kw = kmn.times(w);
                double[] kmmA = Linalg.gemv(kmm, false, a);
                double reg = 0;
                for (int j = 0; j < m; j++) {
                    grad[j] = kw[j] + lambda * kmmA[j];
                    reg += a[j] * kmmA[j];
                }
                return loss / (2.0 * n) + 0.5 * lambda * reg;
            }
        };
        double[] kty = kmn.times(y);
        double scale = Math.max(Math.sqrt(Linalg.dot(kty, kty)) / n, Double.MIN_NORMAL);
        Random rnd = new Random(o.seed());
        double[] bestAlpha = new double[m];
        double bestObj = Double.POSITIVE_INFINITY;
        int totalIt = 0;
        String status = "MAX_ITERATIONS";
        // one step count and clock over all starts
        double[] residual = {Double.NaN};
        int[] stepsBefore = {0};
        ProgressListener outer = ProgressListener.orNone(listener);
        ProgressListener lis = outer == ProgressListener.NONE ? outer : e -> outer.onProgress(
                new ProgressListener.Event("glm", stepsBefore[0] + e.step(), 0, "residual", residual[0],
                        seconds(start)));
        for (int s = 0; s < GLM_STARTS; s++) {
            double[] a0 = new double[m];
            if (s > 0) {
                for (int j = 0; j < m; j++) {
                    a0[j] = GLM_START_SCALE * rnd.nextGaussian() / Math.sqrt(m);
                }
            }
            FistaResult res = Fista.minimize(h, ProxFunction.zero(), a0,
                    new FistaOptions(o.maxIterations(), o.timeLimitSeconds(), Double.NaN, true),
                    (it, yy, hv, g) -> {
                        double r = Math.sqrt(Linalg.dot(g, g));
                        residual[0] = r / scale;
                        return r <= o.tolerance() * scale;
                    }, lis);
            totalIt += res.iterations();
            stepsBefore[0] = totalIt;
            double obj = objective(kmn, kmm, res.x(), y, lambda, true);
            if (Double.isFinite(obj) && obj < bestObj) {
                bestObj = obj;
                bestAlpha = res.x();
                status = res.status().name();
            }
        }
        SolverDiagnostics d = new SolverDiagnostics(totalIt, Double.NaN, bestObj, Double.NaN, seconds(start), m, m,
                status);
        return new KernelExpansionModel("glm", kernel, pts, bestAlpha, true, d);
    }

    static double lossSquared(double[] z, double[] y) {
        double s = 0;
        for (int i = 0; i < y.length; i++) {
            s += (z[i] - y[i]) * (z[i] - y[i]);
        }
        return s / (2.0 * y.length);
    }

    /** f(α) = (1/(2n))‖Kα − y‖² + (λ/2) αᵀKα. */
    static SmoothFunction quadratic(Matrix k, double[] y, double lambda) {
        return quadratic(k, k, y, lambda);
    }

    /** f(α) = (1/(2n))‖K_{nm}α − y‖² + (λ/2) αᵀK_{mm}α (kmn is m×n; the exact model: both K). */
    static SmoothFunction quadratic(Matrix kmn, Matrix kmm, double[] y, double lambda) {
        return quadratic(FeatureColumns.dense(kmn), kmm, y, lambda);
    }

    /** {@link #quadratic(Matrix, Matrix, double[], double)} with K_{mn} as feature columns. */
    static SmoothFunction quadratic(FeatureColumns kmn, Matrix kmm, double[] y, double lambda) {
        int n = y.length;
        int m = kmm.rows();
        return new SmoothFunction() {
            @Override
            public int dimension() {
                return m;
            }

            @Override
            public double valueAndGradient(double[] a, double[] grad) {
                double[] ka = kmn.transposeTimes(a);
                double[] kmmA = Linalg.gemv(kmm, false, a);
                double[] r = new double[n];
                double loss = 0;
                for (int i = 0; i < n; i++) {
                    r[i] = (ka[i] - y[i]) / n;
                    loss += (ka[i] - y[i]) * (ka[i] - y[i]);
                }
                double[] kr = kmn.times(r);
                double reg = 0;
                for (int j = 0; j < m; j++) {
                    grad[j] = kr[j] + lambda * kmmA[j];
                    reg += a[j] * kmmA[j];
                }
                return loss / (2.0 * n) + 0.5 * lambda * reg;
            }
        };
    }

    /**
     * K(anchors, x) (m×n) as feature columns: double when it fits beside the rest of an NCM or GLM fit
     * ({@link #crossOtherBytes}), else single precision, computed in column blocks.
     */
    static FeatureColumns cross(Kernel kernel, Matrix anchors, Matrix x) {
        return FeatureColumns.of(anchors.rows(), x.rows(), crossOtherBytes(x.rows(), x.cols(), anchors.rows()),
                () -> kernel.cross(anchors, x), (from, to) -> kernel.cross(anchors, x.rowRange(from, to)));
    }

    /**
     * What an NCM or GLM fit with m anchors holds beside K(anchors, x), in bytes: the data (n·d) and the target, the
     * solver's per-row vectors (K_{nm}α, the residual, the weights: 3n) and K_{mm} with its eigen-decomposition and
     * K_{mn}K_{nm} (4m²).
     */
    static long crossOtherBytes(long n, long d, long m) {
        long doubles = org.psdkit.linalg.MemoryBudget.plus(org.psdkit.linalg.MemoryBudget.times(n, d + 4),
                org.psdkit.linalg.MemoryBudget.times(4, org.psdkit.linalg.MemoryBudget.times(m, m)));
        return org.psdkit.linalg.MemoryBudget.times(doubles, org.psdkit.linalg.MemoryBudget.DOUBLE_BYTES);
    }

    /**
     * What a PNM fit with m anchors holds beside its r×n features, in bytes: the data and the target (n·(d + 1)), the
     * dual's per-row vectors (FISTA's iterate, extrapolation, gradient, the best iterate, the primal values and the
     * products: 8n) and the anchors' m×m Gram matrix, its eigenvectors and the features' Gram matrix (4m²).
     */
    static long pnmOtherBytes(long n, long d, long m) {
        long doubles = org.psdkit.linalg.MemoryBudget.plus(org.psdkit.linalg.MemoryBudget.times(n, d + 9),
                org.psdkit.linalg.MemoryBudget.times(4, org.psdkit.linalg.MemoryBudget.times(m, m)));
        return org.psdkit.linalg.MemoryBudget.times(doubles, org.psdkit.linalg.MemoryBudget.DOUBLE_BYTES);
    }

    /**
     * Fails with {@link org.psdkit.linalg.MemoryBudget.InsufficientMemoryException} when the heap cannot hold the r×n
     * matrix as {@link FeatureColumns} would store it (double, or single precision) beside {@code other} bytes.
     */
    static void checkMemory(String family, long r, long n, long other, String what) {
        FeatureColumns.check(family + ": " + what, r, n, other);
    }

    /**
     * The up-front check of an NCM or GLM fit with m anchors (K(anchors, x) as {@link #cross} stores it and the rest
     * of {@link #crossOtherBytes}), before the anchors are chosen.
     */
    static void checkCrossMemory(String family, long n, long d, long m) {
        checkMemory(family, m, n, crossOtherBytes(n, d, m), "the " + m + " x " + n + " kernel matrix of " + m
                + " anchors on " + n + " rows x " + d + " columns");
    }

    private static void checkAnchors(Matrix x, Matrix anchors) {
        if (anchors != null && (anchors.rows() < 1 || anchors.cols() != x.cols())) {
            throw new IllegalArgumentException("anchors: " + anchors.rows() + " rows of dimension " + anchors.cols()
                    + " for data of dimension " + x.cols());
        }
    }

    /** ‖x − max(x − g/L, 0)‖·L (projected) or ‖g‖ (unconstrained). */
    static double stepResidual(double[] x, double[] g, double lip, boolean nonNegative) {
        double s = 0;
        for (int i = 0; i < x.length; i++) {
            double p = nonNegative ? Math.max(x[i] - g[i] / lip, 0) : x[i] - g[i] / lip;
            double d = (x[i] - p) * lip;
            s += d * d;
        }
        return Math.sqrt(s);
    }

    static double maxAbs(double[] a) {
        double m = 0;
        for (double v : a) {
            m = Math.max(m, Math.abs(v));
        }
        return m;
    }

    static int countPositive(double[] a) {
        int c = 0;
        for (double v : a) {
            if (v > 0) {
                c++;
            }
        }
        return c;
    }

    static double seconds(long start) {
        return (System.nanoTime() - start) * 1e-9;
    }
}
