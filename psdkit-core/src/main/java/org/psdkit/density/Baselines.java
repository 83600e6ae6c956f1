package org.psdkit.density;

import java.util.Arrays;
import org.psdkit.kernel.Kernel;
import org.psdkit.linalg.FeatureColumns;
import org.psdkit.linalg.Linalg;
import org.psdkit.linalg.Matrix;

/**
 * The baseline density estimators of Marteau-Ferey, Bach and Rudi 2020 App. D, all with loss −(1/n) Σ log f(x_i) and regulariser
 * (λ/2) αᵀKα = (λ/2)‖w‖²:
 * <ul>
 *   <li>{@link #ncm}: non-negative coefficients on the simplex {α ≥ 0, uᵀα = 1} (eq. 35);</li>
 *   <li>{@link #pnm}: f(x_i) ≥ 0 on the data only, ∫ f dν = 1 (eq. 37) — may be negative elsewhere;</li>
 *   <li>{@link #glm}: p ∝ exp(g)·ν, trained with the normaliser estimated by Monte Carlo (eq. 33), normalised
 *   afterwards by importance sampling ({@link GlmDensity#normaliser}).</li>
 * </ul>
 */
public final class Baselines {
    public static final String NCM = "ncm-density";
    public static final String PNM = "pnm-density";
    public static final String GLM = "glm-density";
    /** Default stopping tolerance of the baselines (relative duality / Frank–Wolfe gap, gradient norm for GLM). */
    public static final double DEFAULT_TOLERANCE = 1e-6;
    public static final int DEFAULT_MAX_ITERATIONS = 20000;
    /** Monte-Carlo sample size of the GLM normaliser: the 10 000 draws from ν that App. E uses in 1-D. */
    public static final int GLM_MC_SAMPLES = 10_000;
    /** Independent draws used to report the GLM integral afterwards (different seed from the training draws). */
    public static final int GLM_CHECK_SAMPLES = 100_000;
    /** Draws of the importance-sampling estimate of the GLM normaliser Z that the model is divided by. */
    public static final int GLM_NORMALISER_SAMPLES = 100_000;
    /**
     * Largest relative standard error of the GLM normaliser Z that a fit may have; above it the fit is a numerical
     * failure. log Z is subtracted from every log-density, so a relative error s of Z shifts every log-likelihood the
     * model reports by ≈ s nats. The value 0.05 is a compromise, not a derived bound: it is about four times the
     * 1.3 % by which the paper's own 1-D GLM missed a unit integral (Sec. 6: 0.987), and above the 0.01–0.02 that
     * the converged 10-D fits of {@code reproduce density-10d}'s tests reach with {@link #GLM_NORMALISER_SAMPLES}
     * draws, so that these keep a normaliser; an estimate scattered more than that is not trusted.
     */
    public static final double GLM_NORMALISER_MAX_RSE = 0.05;
    /** Mixed into the fit's seed for the normaliser's draws (independent of the training draws and of the check's). */
    static final long GLM_NORMALISER_SEED_MIX = 0x2545F4914F6CDD1DL;

    private Baselines() {
    }

    // ------------------------------------------------------------------ NCM (eq. 35)

    /**
     * The NCM density on {@code x} (Marteau-Ferey, Bach &amp; Rudi 2020, App. D): the kernel, base measure, λ,
     * tolerance and iteration budget of {@code options}; expanded on {@code anchors} (Nyström, App. B.5), or on every
     * data point when null. {@code options.nystrom()}'s anchor count is not used here (the anchors are given), nor
     * is its scaling: {@code x} is the data as the model sees it. {@link NcmDensityTrainer} fits raw data.
     */
    public static LinearDensity ncm(Matrix x, Matrix anchors, BaselineOptions options) {
        return ncm(x, anchors, options.kernel(), options.base(), options.lambda(), options.tolerance(),
                options.maxIterations());
    }

    /**
     * The PNM density on {@code x}, as {@link #ncm(Matrix, Matrix, BaselineOptions)}; the feature map keeps the
     * eigenvalues above {@code options.nystrom().rankThreshold()}. {@link PnmDensityTrainer} fits raw data.
     */
    public static LinearDensity pnm(Matrix x, Matrix anchors, BaselineOptions options) {
        return pnm(x, anchors, options.kernel(), options.base(), options.lambda(), options.tolerance(),
                options.maxIterations(), options.nystrom().rankThreshold());
    }

    /**
     * The GLM density on {@code x}, as {@link #ncm(Matrix, Matrix, BaselineOptions)}; the normaliser's Monte-Carlo
     * draws are seeded by {@code options.seed()}. {@link GlmDensityTrainer} fits raw data.
     */
    public static GlmDensity glm(Matrix x, Matrix anchors, BaselineOptions options) {
        return glm(x, anchors, options.kernel(), options.base(), options.lambda(), options.tolerance(),
                options.maxIterations(), options.seed(), options.nystrom().rankThreshold());
    }

    /**
     * NCM: min_{α ≥ 0, uᵀα = 1} −(1/n)Σ log (Kα)_i + (λ/2) αᵀKα, solved in γ = u∘α on the probability simplex by
     * accelerated projected gradient; stops on the Frank–Wolfe gap ∇ᵀγ − min_j ∇_j (an upper bound of the
     * suboptimality), relative to max(1, |F|).
     */
    static LinearDensity ncm(Matrix x, Kernel kernel, BaseMeasure base, double lambda, double tol,
                                    int maxIter) {
        return ncm(x, null, kernel, base, lambda, tol, maxIter);
    }

    /**
     * NCM expanded on {@code anchors} (Nyström, App. B.5; null = every data point, the exact model): f = Σ_j α_j
     * k(·, a_j) with α ≥ 0 and uᵀα = 1 over the m anchors, the loss over all n points,
     * min −(1/n)Σ_i log (K_{nm}α)_i + (λ/2) αᵀK_{mm}α. Needs the m×n cross matrix (O(nm) memory) and the anchors'
     * m×m Gram matrix, never an n×n one; anchors equal to the data give the exact problem.
     */
    static LinearDensity ncm(Matrix x, Matrix anchors, Kernel kernel, BaseMeasure base, double lambda,
                                    double tol, int maxIter) {
        DensityData.check(x, "ncm density");
        checkLambda(lambda);
        base.requireDimension(x.cols());
        checkAnchors(x, anchors);
        int n = x.rows();
        Matrix pts = anchors == null ? x : anchors;
        int m = pts.rows();
        long other = FeatureColumns.doubleBytes((long) n * (x.cols() + 4) + 4L * m * m); // data, f, weights; K_mm
        if (anchors != null) {
            FeatureColumns.check("ncm density: the " + m + " x " + n + " kernel matrix of " + m + " anchors on " + n
                    + " rows x " + x.cols() + " columns", m, n, other);
        }
        Matrix kmm = kernel.gram(pts);
        // m×n, in single precision when the double matrix does not fit beside the rest (FeatureColumns)
        FeatureColumns kmn = anchors == null ? FeatureColumns.dense(kmm) : FeatureColumns.of(m, n, other,
                () -> kernel.cross(pts, x), (from, to) -> kernel.cross(pts, x.rowRange(from, to)));
        double[] u = LinearDensity.singles(kernel, pts, base);
        for (int i = 0; i < m; i++) {
            if (!(u[i] > 0)) {
                throw new IllegalArgumentException("ncm density: ∫ k(x, x_" + i + ") dν = 0");
            }
        }
        double invN = 1.0 / n;
        ProjectedGradient.Objective obj = (gam, grad) -> {
            double[] a = new double[m];
            for (int j = 0; j < m; j++) {
                a[j] = gam[j] / u[j];
            }
            double[] ka = kmn.transposeTimes(a); // f(x_i), n
            double s = 0;
            double[] wv = new double[n];
            for (int i = 0; i < n; i++) {
                if (!(ka[i] > 0)) {
                    return Double.POSITIVE_INFINITY;
                }
                s -= Math.log(ka[i]) * invN;
                wv[i] = -invN / ka[i];
            }
            double[] kmmA = Linalg.gemv(kmm, false, a);
            s += 0.5 * lambda * Linalg.dot(a, kmmA);
            // ∇_α = K_{mn} w + λ K_{mm} α, and ∇_γ = ∇_α / u
            double[] kw = kmn.times(wv);
            for (int j = 0; j < m; j++) {
                grad[j] = (kw[j] + lambda * kmmA[j]) / u[j];
            }
            return s;
        };
        ProjectedGradient.Gap fw = (gam, f, g) -> {
            double min = Double.POSITIVE_INFINITY;
            double dot = 0;
            for (int j = 0; j < m; j++) {
                min = Math.min(min, g[j]);
                dot += g[j] * gam[j];
            }
            return (dot - min) / Math.max(1, Math.abs(f));
        };
        double[] g0 = new double[m];
        Arrays.fill(g0, 1.0 / m);
        ProjectedGradient.Result r = ProjectedGradient.minimize(obj, ProjectedGradient::projectSimplex, fw, g0, 1.0,
                tol, maxIter, Double.POSITIVE_INFINITY);
        double[] alpha = new double[m];
        for (int j = 0; j < m; j++) {
            alpha[j] = r.x()[j] / u[j];
        }
        DensityDiagnostics diag = new DensityDiagnostics(r.value(), Double.NaN, r.gap(), r.iterations(), r.seconds(),
                r.converged(), Linalg.dot(u, alpha), m, 0, Double.NaN, m);
        return new LinearDensity(NCM, kernel, pts.copy(), alpha, base, diag);
    }

    // ------------------------------------------------------------------ PNM (eq. 37)

    /**
     * PNM: min_w −(1/n)Σ log wᵀΦ(x_i) + (λ/2)‖w‖² s.t. ũᵀw = 1 (ũ = ∫Φ dν), by FISTA on the dual
     * min_{γ &gt; 0, μ} −(1/n)Σ(1 + log nγ_i) − μ + ‖Vγ + μũ‖²/(2λ), w = (Vγ + μũ)/λ (the same dual machinery as the
     * PSD model with Ω* quadratic instead of ‖[·]_+‖²). Non-negativity holds at the data points only.
     */
    static LinearDensity pnm(Matrix x, Kernel kernel, BaseMeasure base, double lambda, double tol,
                                    int maxIter) {
        return pnm(x, null, kernel, base, lambda, tol, maxIter, FeatureBasis.RELATIVE_RANK_THRESHOLD);
    }

    /**
     * PNM expanded on {@code anchors} (Nyström, App. B.5; null = every data point): w lives on the r features of the
     * anchors' Gram matrix cut at {@code rankThreshold}·λ_max, V = Φ(x_i) (r×n, streamed in row blocks), ũ = Tᵀu over
     * the anchors; non-negativity is still required at every data point. Anchors equal to the data give the exact
     * problem.
     */
    static LinearDensity pnm(Matrix x, Matrix anchors, Kernel kernel, BaseMeasure base, double lambda,
                                    double tol, int maxIter, double rankThreshold) {
        DensityData.check(x, "pnm density");
        checkLambda(lambda);
        base.requireDimension(x.cols());
        checkAnchors(x, anchors);
        int n = x.rows();
        Matrix pts = anchors == null ? x : anchors;
        FeatureBasis fb = FeatureBasis.of(kernel, pts, null, rankThreshold);
        double[] u = LinearDensity.singles(kernel, pts, base);
        double[] ut = Linalg.gemv(fb.t, true, u);
        int r = fb.rank();
        // the data's r×n features: double, or single precision when the double matrix does not fit beside the data
        // and the dual's per-row vectors (about 10 of length n) and the anchors' m×m matrices (FeatureColumns)
        long other = FeatureColumns.doubleBytes((long) n * (x.cols() + 10) + 4L * pts.rows() * pts.rows());
        if (anchors != null) {
            FeatureColumns.check("pnm density: the features of rank " + r + " (" + pts.rows() + " anchors) on " + n
                    + " rows", r, n, other);
        }
        FeatureColumns v = anchors == null ? FeatureColumns.dense(fb.v) : fb.dataColumns(x, other);
        LogLikelihoodDual.Smooth smooth = (beta, mu) -> {
            double[] z = v.times(beta);
            for (int k = 0; k < r; k++) {
                z[k] += mu * ut[k];
            }
            double[] w = z.clone();
            for (int k = 0; k < r; k++) {
                w[k] /= lambda;
            }
            double zz = Linalg.dot(z, z);
            double[] grad = v.transposeTimes(w);
            return new LogLikelihoodDual.Eval(-mu + zz / (2 * lambda), grad, Linalg.dot(ut, w) - 1, 0,
                    zz / (2 * lambda), w);
        };
        double[] b0 = new double[n];
        Arrays.fill(b0, 1.0 / n);
        double lip0 = 1.0 / lambda;
        LogLikelihoodDual.Result res = LogLikelihoodDual.solve(smooth, b0, 0, lip0, tol, maxIter,
                Double.POSITIVE_INFINITY, null);
        double[] w = (double[]) res.eval().state();
        double integral = Linalg.dot(ut, w);
        if (!(integral > 0)) {
            throw new IllegalStateException("pnm density: solver candidate has non-positive integral after "
                    + res.iterations() + " iterations");
        }
        double[] alpha = Linalg.gemv(fb.t, false, w);
        for (int j = 0; j < alpha.length; j++) {
            alpha[j] /= integral;
        }
        DensityDiagnostics diag = new DensityDiagnostics(res.primal(), res.dual(), res.relativeGap(), res.iterations(),
                res.seconds(), res.converged(), integral, r, 0, fb.threshold, pts.rows());
        return new LinearDensity(PNM, kernel, pts.copy(), alpha, base, diag);
    }

    // ------------------------------------------------------------------ GLM (eq. 33)

    /**
     * GLM: p(x) = exp(g(x))/Z · ν(x), g = wᵀΦ. Training is eq. 33 as App. E does it: Z replaced by the Monte-Carlo
     * mean (1/m)Σ_j exp(g(ξ_j)) over m = {@link #GLM_MC_SAMPLES} seeded draws ξ_j ~ ν, minimising
     * −(1/n)Σ g(x_i) + log Z + (λ/2)‖w‖² (convex) by accelerated gradient until ‖∇‖ ≤ tol. The model is then
     * normalised by the importance-sampling estimate of Z = ∫ exp(g) dν ({@link GlmDensity#normaliser},
     * {@link #GLM_NORMALISER_SAMPLES} draws), not by the training mean: when the draws of ν seldom reach the data (a
     * base measure much wider than the data, as App. E's N(0, 5I) in 10-D) the training mean stays ≈ 1 while the fit
     * makes g large there and the true Z is astronomically larger. ν must be a probability measure (against Lebesgue
     * measure exp(g) → 1 at infinity is not integrable). Throws {@link IllegalStateException} when the importance
     * estimate is unusable ({@link #requireUsableNormaliser}).
     */
    static GlmDensity glm(Matrix x, Kernel kernel, BaseMeasure base, double lambda, double tol, int maxIter,
                                 long seed) {
        return glm(x, null, kernel, base, lambda, tol, maxIter, seed);
    }

    /** GLM with g expanded on {@code anchors} only (Nyström features; null = all points). */
    static GlmDensity glm(Matrix x, Matrix anchors, Kernel kernel, BaseMeasure base, double lambda, double tol,
                                 int maxIter, long seed) {
        return glm(x, anchors, kernel, base, lambda, tol, maxIter, seed, FeatureBasis.RELATIVE_RANK_THRESHOLD);
    }

    /**
     * GLM with g expanded on {@code anchors} (null = all points) in the r features of their Gram matrix cut at
     * {@code rankThreshold}·λ_max; the data features are streamed in row blocks (O(nr) memory).
     */
    static GlmDensity glm(Matrix x, Matrix anchors, Kernel kernel, BaseMeasure base, double lambda, double tol,
                                 int maxIter, long seed, double rankThreshold) {
        DensityData.check(x, "glm density");
        checkLambda(lambda);
        base.requireDimension(x.cols());
        if (!base.isProbability()) {
            throw new IllegalArgumentException("glm density needs a probability base measure (gaussian(...) or box(...)"
                    + "): against " + base.spec() + " exp(g) is not integrable");
        }
        int n = x.rows();
        int d = x.cols();
        Matrix pts = anchors == null ? x : anchors;
        checkAnchors(x, anchors);
        FeatureBasis fb = FeatureBasis.of(kernel, pts, null, rankThreshold);
        int r = fb.rank();
        java.util.SplittableRandom rng = new java.util.SplittableRandom(seed);
        Matrix xi = Matrix.zeros(GLM_MC_SAMPLES, d);
        for (int j = 0; j < GLM_MC_SAMPLES; j++) {
            double[] z = base.sample(rng);
            for (int t = 0; t < d; t++) {
                xi.set(j, t, z[t]);
            }
        }
        Matrix phiXi = fb.features(xi); // r×m
        double[] meanPhi = new double[r];
        // the data enter through the mean of their features only: the r×n matrix when it fits, else streamed in row
        // blocks of the data (the same sums, never more than one block of features)
        long other = FeatureColumns.doubleBytes((long) n * x.cols() + 4L * pts.rows() * pts.rows()
                + 2L * r * GLM_MC_SAMPLES);
        if (anchors == null || FeatureColumns.keepDouble(r, n, other)) {
            Matrix v = anchors == null ? fb.v : fb.features(x);
            for (int i = 0; i < n; i++) {
                for (int k = 0; k < r; k++) {
                    meanPhi[k] += v.get(k, i) / n;
                }
            }
        } else {
            int b = org.psdkit.psd.EmpiricalFeatureMap.blockRows(pts.rows());
            for (int from = 0; from < n; from += b) {
                Matrix v = fb.features(x.rowRange(from, Math.min(n, from + b)));
                for (int i = 0; i < v.cols(); i++) {
                    for (int k = 0; k < r; k++) {
                        meanPhi[k] += v.get(k, i) / n;
                    }
                }
            }
        }
        int m = GLM_MC_SAMPLES;
        ProjectedGradient.Objective obj = (w, grad) -> {
            double[] g = Linalg.gemv(phiXi, true, w);
            double mx = Double.NEGATIVE_INFINITY;
            for (double gj : g) {
                mx = Math.max(mx, gj);
            }
            double s = 0;
            for (int j = 0; j < m; j++) {
                g[j] = Math.exp(g[j] - mx);
                s += g[j];
            }
            double logZ = mx + Math.log(s / m);
            for (int j = 0; j < m; j++) {
                g[j] /= s;
            }
            double[] soft = Linalg.gemv(phiXi, false, g);
            double val = logZ + 0.5 * lambda * Linalg.dot(w, w) - Linalg.dot(meanPhi, w);
            for (int k = 0; k < r; k++) {
                grad[k] = soft[k] - meanPhi[k] + lambda * w[k];
            }
            return val;
        };
        ProjectedGradient.Gap gradNorm = (w, f, g) -> Math.sqrt(Linalg.dot(g, g));
        ProjectedGradient.Result res = ProjectedGradient.minimize(obj, w -> { }, gradNorm, new double[r], 1.0, tol,
                maxIter, Double.POSITIVE_INFINITY);
        // eq. 33's Z = (1/m) Σ_j exp(g_j) over the m training draws of ν, kept for the diagnostics
        ImportanceIntegral.Estimate mc = ImportanceIntegral.ofLogTerms(Linalg.gemv(phiXi, true, res.x()));
        double[] alpha = Linalg.gemv(fb.t, false, res.x());
        ImportanceIntegral.Estimate z = GlmDensity.normaliser(kernel, pts, alpha, base, seed);
        requireUsableNormaliser(z, mc, lambda, pts.rows());
        DensityDiagnostics diag = new DensityDiagnostics(res.value(), Double.NaN, res.gap(), res.iterations(),
                res.seconds(), res.converged(), 1.0, r, 0, fb.threshold, pts.rows());
        return new GlmDensity(kernel, pts.copy(), alpha, z.log(), z.relativeStandardError(), mc.log(), base, diag,
                seed);
    }

    /**
     * Refuses a GLM fit whose importance-sampling normaliser ({@link GlmDensity#normaliser}) is unusable: not finite
     * (every draw's term 0, or a NaN) or with a relative standard error above {@link #GLM_NORMALISER_MAX_RSE}. A
     * failure is an {@link IllegalStateException} (the numerical failure that cross-validation records for a grid
     * point and skips).
     *
     * @param z      the importance estimate of Z = ∫ exp(g) dν
     * @param mc     eq. 33's Monte-Carlo mean over the training draws, for the message
     * @param lambda the fit's λ, for the message
     * @param points the number of expansion points, for the message
     */
    static void requireUsableNormaliser(ImportanceIntegral.Estimate z, ImportanceIntegral.Estimate mc, double lambda,
                                        int points) {
        double rse = z.relativeStandardError();
        if (Double.isFinite(z.log()) && rse <= GLM_NORMALISER_MAX_RSE) {
            return;
        }
        String why = Double.isFinite(z.log())
                ? "its relative standard error " + fmt(rse) + " is above " + GLM_NORMALISER_MAX_RSE
                : "it is not a finite positive number";
        throw new IllegalStateException("glm density (lambda " + fmt(lambda) + "): the normaliser Z, the integral of "
                + "exp(g) dnu, cannot be estimated: the importance-sampling estimate is " + fmtLog(z.log())
                + " (relative standard error " + fmt(rse) + ", " + z.draws() + " draws from nu, around the " + points
                + " expansion points and at the maxima of exp(g) nu) and " + why + "; the Monte-Carlo mean of "
                + "eq. 33 over " + mc.draws() + " draws of nu was " + fmtLog(mc.log()) + " (a larger lambda or a base "
                + "measure closer to the data may help)");
    }

    /** e^log as a number, or as a power of ten when it is beyond 1e±6 (it may overflow a double). */
    private static String fmtLog(double log) {
        if (log == Double.NEGATIVE_INFINITY) {
            return "0";
        }
        if (Double.isNaN(log)) {
            return "undefined";
        }
        double l10 = log / Math.log(10);
        if (Math.abs(l10) < 6) {
            return fmt(Math.exp(log));
        }
        return String.format(java.util.Locale.ROOT, "10^%.1f", l10);
    }

    private static String fmt(double v) {
        if (Double.isNaN(v)) {
            return "undefined";
        }
        return String.format(java.util.Locale.ROOT, "%.3g", v);
    }

    private static void checkAnchors(Matrix x, Matrix anchors) {
        if (anchors != null && (anchors.rows() < 1 || anchors.cols() != x.cols())) {
            throw new IllegalArgumentException("anchors: " + anchors.rows() + " rows of dimension " + anchors.cols()
                    + " for data of dimension " + x.cols());
        }
    }

    private static void checkLambda(double lambda) {
        if (!(lambda > 0) || !Double.isFinite(lambda)) {
            throw new IllegalArgumentException("lambda must be > 0 and finite, got " + lambda);
        }
    }
}
