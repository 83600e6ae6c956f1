package org.psdkit.density;

import java.util.Arrays;
import org.psdkit.kernel.Kernel;
import org.psdkit.linalg.Linalg;
import org.psdkit.linalg.Matrix;

/**
 * The baseline density estimators of Marteau-Ferey, Bach and Rudi 2020 App. D, all with loss −(1/n) Σ log f(x_i) and regulariser
 * (λ/2) αᵀKα = (λ/2)‖w‖²:
 * <ul>
 *   <li>{@link #ncm}: non-negative coefficients on the simplex {α ≥ 0, uᵀα = 1} (eq. 35);</li>
 *   <li>{@link #pnm}: f(x_i) ≥ 0 on the data only, ∫ f dν = 1 (eq. 37) — may be negative elsewhere;</li>
 *   <li>{@link #glm}: p ∝ exp(g)·ν with the normaliser estimated by Monte Carlo (eq. 33), refused when an
 *   independent estimate contradicts it.</li>
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
    /** Largest combined relative standard error of the two GLM normaliser estimates that a fit may have. */
    public static final double GLM_NORMALISER_MAX_RSE = 0.1;
    /** Relative disagreement of the two GLM normaliser estimates accepted whatever their standard errors. */
    public static final double GLM_NORMALISER_TOLERANCE = 0.05;
    /** Disagreement of the two GLM normaliser estimates accepted, in combined standard errors. */
    public static final double GLM_NORMALISER_Z = 4;

    private Baselines() {
    }

    // ------------------------------------------------------------------ NCM (eq. 35)

    /**
     * NCM: min_{α ≥ 0, uᵀα = 1} −(1/n)Σ log (Kα)_i + (λ/2) αᵀKα, solved in γ = u∘α on the probability simplex by
     * accelerated projected gradient; stops on the Frank–Wolfe gap ∇ᵀγ − min_j ∇_j (an upper bound of the
     * suboptimality), relative to max(1, |F|).
     */
    public static LinearDensity ncm(Matrix x, Kernel kernel, BaseMeasure base, double lambda, double tol,
                                    int maxIter) {
        return ncm(x, null, kernel, base, lambda, tol, maxIter);
    }

    /**
     * NCM expanded on {@code anchors} (Nyström, App. B.5; null = every data point, the exact model): f = Σ_j α_j
     * k(·, a_j) with α ≥ 0 and uᵀα = 1 over the m anchors, the loss over all n points,
     * min −(1/n)Σ_i log (K_{nm}α)_i + (λ/2) αᵀK_{mm}α. Needs the m×n cross matrix (O(nm) memory) and the anchors'
     * m×m Gram matrix, never an n×n one; anchors equal to the data give the exact problem.
     */
    public static LinearDensity ncm(Matrix x, Matrix anchors, Kernel kernel, BaseMeasure base, double lambda,
                                    double tol, int maxIter) {
        DensityData.check(x, "ncm density");
        checkLambda(lambda);
        base.requireDimension(x.cols());
        checkAnchors(x, anchors);
        int n = x.rows();
        Matrix pts = anchors == null ? x : anchors;
        int m = pts.rows();
        Matrix kmm = kernel.gram(pts);
        Matrix kmn = anchors == null ? kmm : kernel.cross(pts, x); // m×n
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
            double[] ka = Linalg.gemv(kmn, true, a); // f(x_i), n
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
            double[] kw = Linalg.gemv(kmn, false, wv);
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
    public static LinearDensity pnm(Matrix x, Kernel kernel, BaseMeasure base, double lambda, double tol,
                                    int maxIter) {
        return pnm(x, null, kernel, base, lambda, tol, maxIter, FeatureBasis.RELATIVE_RANK_THRESHOLD);
    }

    /**
     * PNM expanded on {@code anchors} (Nyström, App. B.5; null = every data point): w lives on the r features of the
     * anchors' Gram matrix cut at {@code rankThreshold}·λ_max, V = Φ(x_i) (r×n, streamed in row blocks), ũ = Tᵀu over
     * the anchors; non-negativity is still required at every data point. Anchors equal to the data give the exact
     * problem.
     */
    public static LinearDensity pnm(Matrix x, Matrix anchors, Kernel kernel, BaseMeasure base, double lambda,
                                    double tol, int maxIter, double rankThreshold) {
        DensityData.check(x, "pnm density");
        checkLambda(lambda);
        base.requireDimension(x.cols());
        checkAnchors(x, anchors);
        int n = x.rows();
        Matrix pts = anchors == null ? x : anchors;
        FeatureBasis fb = FeatureBasis.of(kernel, pts, anchors == null ? null : x, rankThreshold);
        double[] u = LinearDensity.singles(kernel, pts, base);
        double[] ut = Linalg.gemv(fb.t, true, u);
        int r = fb.rank();
        Matrix v = fb.v;
        LogLikelihoodDual.Smooth smooth = (beta, mu) -> {
            double[] z = Linalg.gemv(v, false, beta);
            for (int k = 0; k < r; k++) {
                z[k] += mu * ut[k];
            }
            double[] w = z.clone();
            for (int k = 0; k < r; k++) {
                w[k] /= lambda;
            }
            double zz = Linalg.dot(z, z);
            double[] grad = Linalg.gemv(v, true, w);
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
     * GLM: p(x) = exp(g(x))/Z · ν(x), g = wᵀΦ, Z = (1/m)Σ_j exp(g(ξ_j)) with m = {@link #GLM_MC_SAMPLES} seeded
     * draws ξ_j ~ ν (eq. 33 with the integral estimated by Monte Carlo, as in App. E). Minimises
     * −(1/n)Σ g(x_i) + log Z + (λ/2)‖w‖² (convex) by accelerated gradient; stops when ‖∇‖ ≤ tol. ν must be a
     * probability measure (against Lebesgue measure exp(g) → 1 at infinity is not integrable). Throws
     * {@link IllegalStateException} when Z is unreliable ({@link #requireReliableNormaliser}).
     */
    public static GlmDensity glm(Matrix x, Kernel kernel, BaseMeasure base, double lambda, double tol, int maxIter,
                                 long seed) {
        return glm(x, null, kernel, base, lambda, tol, maxIter, seed);
    }

    /** GLM with g expanded on {@code anchors} only (Nyström features; null = all points). */
    public static GlmDensity glm(Matrix x, Matrix anchors, Kernel kernel, BaseMeasure base, double lambda, double tol,
                                 int maxIter, long seed) {
        return glm(x, anchors, kernel, base, lambda, tol, maxIter, seed, FeatureBasis.RELATIVE_RANK_THRESHOLD);
    }

    /**
     * GLM with g expanded on {@code anchors} (null = all points) in the r features of their Gram matrix cut at
     * {@code rankThreshold}·λ_max; the data features are streamed in row blocks (O(nr) memory).
     */
    public static GlmDensity glm(Matrix x, Matrix anchors, Kernel kernel, BaseMeasure base, double lambda, double tol,
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
        FeatureBasis fb = FeatureBasis.of(kernel, pts, anchors == null ? null : x, rankThreshold);
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
        for (int i = 0; i < n; i++) {
            for (int k = 0; k < r; k++) {
                meanPhi[k] += fb.v.get(k, i) / n;
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
        // Z = (1/m) Σ_j exp(g_j) over the m draws of ν, with the relative standard error of that mean
        ImportanceIntegral.Estimate z = ImportanceIntegral.ofLogTerms(Linalg.gemv(phiXi, true, res.x()));
        double logZ = z.log();
        double zRse = z.relativeStandardError();
        double[] alpha = Linalg.gemv(fb.t, false, res.x());
        DensityDiagnostics diag = new DensityDiagnostics(res.value(), Double.NaN, res.gap(), res.iterations(),
                res.seconds(), res.converged(), 1.0, r, 0, fb.threshold, pts.rows());
        GlmDensity model = new GlmDensity(kernel, pts.copy(), alpha, logZ, base, diag, seed);
        requireReliableNormaliser(model, zRse, lambda);
        return model;
    }

    /**
     * Refuses a GLM fit whose normaliser cannot be trusted. Z of eq. 33 is a Monte-Carlo mean over draws of ν; the
     * fit maximises the likelihood against that very sample, and when the draws seldom reach the region where
     * exp(g) has its mass (a base measure much wider than the data: App. E's N(0, 5I) in 10-D puts none of its
     * 10 000 draws near the data) nothing stops g from growing there: the estimate of Z stays ≈ 1 with a small
     * standard error while the true ∫ exp(g) dν is astronomically larger, and held-out log-likelihoods computed with
     * it are absurd (positive, or +∞). The check is an independent importance-sampling estimate I of
     * ∫ exp(g − log Z) dν ({@link GlmDensity#normaliserCheck()}: draws from ν, around the expansion points and at
     * the maxima of exp(g)·ν), 1 when log Z is right. The fit is accepted when both relative standard errors combine to at most
     * {@link #GLM_NORMALISER_MAX_RSE} and |I − 1| is at most {@link #GLM_NORMALISER_TOLERANCE} or
     * {@link #GLM_NORMALISER_Z} combined standard errors, whichever is larger; otherwise it fails with
     * {@link IllegalStateException} (the numerical failure that cross-validation records for a grid point and skips).
     *
     * @param zRse   relative standard error of the training estimate of Z
     * @param lambda the fit's λ, for the message
     */
    static void requireReliableNormaliser(GlmDensity m, double zRse, double lambda) {
        ImportanceIntegral.Estimate c = m.normaliserCheck();
        double rse = Math.hypot(zRse, c.relativeStandardError());
        double off = Math.abs(Math.expm1(c.log()));
        boolean agree = off <= Math.max(GLM_NORMALISER_TOLERANCE, GLM_NORMALISER_Z * rse);
        if (Double.isFinite(c.log()) && rse <= GLM_NORMALISER_MAX_RSE && agree) {
            return;
        }
        String numbers = "an independent importance-sampling estimate of the integral of exp(g - log Z) dnu is "
                + fmtLog(c.log()) + " (relative standard error " + fmt(c.relativeStandardError()) + ", "
                + c.draws() + " draws from nu, around the " + m.points().rows() + " expansion points and at the "
                + "maxima of exp(g) nu) where 1 is expected; Z came from " + GLM_MC_SAMPLES + " draws of nu (relative standard error "
                + fmt(zRse) + ")";
        String why = agree
                ? "the estimates are too uncertain to certify the normaliser (combined relative standard error "
                        + fmt(rse) + " > " + GLM_NORMALISER_MAX_RSE + ")"
                : "the draws of nu miss where exp(g) has its mass, so the fitted model is not a density";
        throw new IllegalStateException("glm density (lambda " + fmt(lambda) + "): the Monte-Carlo normaliser Z of "
                + "eq. 33 is unreliable: " + numbers + "; " + why + " (a larger lambda or a base measure closer to "
                + "the data may help)");
    }

    /** e^log as a number, or as a power of ten when it is beyond 1e±6 (it may overflow a double). */
    private static String fmtLog(double log) {
        if (log == Double.NEGATIVE_INFINITY) {
            return "0";
        }
        double l10 = log / Math.log(10);
        if (Math.abs(l10) < 6) {
            return fmt(Math.exp(log));
        }
        return String.format(java.util.Locale.ROOT, "10^%.1f", l10);
    }

    private static String fmt(double v) {
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
