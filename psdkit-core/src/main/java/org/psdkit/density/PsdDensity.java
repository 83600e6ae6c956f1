package org.psdkit.density;

import java.util.SplittableRandom;
import org.psdkit.kernel.GaussianKernel;
import org.psdkit.kernel.Kernel;
import org.psdkit.linalg.Linalg;
import org.psdkit.linalg.Matrix;
import org.psdkit.linalg.internal.RowBlocks;
import org.psdkit.optim.ProgressListener;

/**
 * A density p(x) = f(x)·ν(x) with f a PSD model, evaluated as a sum of squares f(x) = ‖Rᵀ v(x)‖²,
 * v(x) = (k(x, x_i))_i, so that f ≥ 0 holds in floating point (B = R Rᵀ ⪰ 0). Immutable.
 */
public final class PsdDensity implements DensityModel {
    public static final String TYPE = "psd-density";

    private final Kernel kernel;
    private final Matrix points;
    private final Matrix factor;
    private final BaseMeasure base;
    private final DensityDiagnostics diagnostics;

    public PsdDensity(Kernel kernel, Matrix points, Matrix factor, BaseMeasure base, DensityDiagnostics diagnostics) {
        if (factor.rows() != points.rows()) {
            throw new IllegalArgumentException("psd density: factor has " + factor.rows() + " rows for "
                    + points.rows() + " points");
        }
        base.requireDimension(points.cols());
        this.kernel = kernel;
        this.points = points;
        this.factor = factor;
        this.base = base;
        this.diagnostics = diagnostics;
    }

    @Override
    public String type() {
        return TYPE;
    }

    @Override
    public int dimension() {
        return points.cols();
    }

    @Override
    public BaseMeasure base() {
        return base;
    }

    public Kernel kernel() {
        return kernel;
    }

    public Matrix points() {
        return points.copy();
    }

    /** R (n×q) with B = R Rᵀ. */
    public Matrix factor() {
        return factor.copy();
    }

    public DensityDiagnostics diagnostics() {
        return diagnostics;
    }

    /** B = R Rᵀ, the coefficient matrix of f(x) = Σ B_ij k(x,x_i) k(x,x_j). */
    public Matrix coefficients() {
        Matrix b = Linalg.gemm(1.0, factor, false, factor, true);
        b.symmetrizeInPlace();
        return b;
    }

    /** f(x) = ‖Rᵀ v(x)‖² at every row of x (the density with respect to ν). */
    public double[] f(Matrix x) {
        requireDim(x);
        // kernel.cross: n×b for a block of b rows of x
        return RowBlocks.apply(x, points.rows(), xb -> PsdSampler.fFromCross(factor, kernel.cross(points, xb)));
    }

    @Override
    public double[] density(Matrix x) {
        double[] f = f(x);
        double[] ln = base.logDensity(x);
        for (int i = 0; i < f.length; i++) {
            f[i] = ln[i] == Double.NEGATIVE_INFINITY ? 0.0 : f[i] * Math.exp(ln[i]);
        }
        return f;
    }

    @Override
    public double[] logDensity(Matrix x) {
        double[] f = f(x);
        double[] ln = base.logDensity(x);
        for (int i = 0; i < f.length; i++) {
            f[i] = f[i] > 0 ? Math.log(f[i]) + ln[i] : Double.NEGATIVE_INFINITY;
        }
        return f;
    }

    /** ∫ f dν over ℝ^d in closed form: Tr(Rᵀ M R). */
    @Override
    public double integral() {
        return integralOver(null, null);
    }

    /** ∫_[lo,hi] f dν = P(X ∈ [lo, hi]) in closed form (Gaussian kernel; other kernels by quadrature). */
    public double integralOver(double[] lo, double[] hi) {
        Matrix m = KernelIntegrals.products(kernel, points, base, lo, hi);
        return PsdDensityEstimator.traceQuadratic(m, factor);
    }

    /**
     * m exact draws from p, seeded ({@link PsdSampler}): rejection from a proven envelope of f·ν — an adaptive grid
     * of boxes bounded through the RKHS (d ≤ 2) or the positive part of the pair expansion, a Gaussian mixture
     * (higher d) — each proposal accepted with probability f·ν/envelope, so the draws follow p exactly (up to
     * rounding and, for the grid, a mass below 1e-14 outside its bounding box). Falls back to the sequential
     * inversion ({@link #sampleSequential}) when the pair envelope would need more than 1000 proposals per draw.
     * Each draw has its own split random stream: the same seed gives the same draws whatever the thread count.
     *
     * @throws IllegalArgumentException for m &lt; 1, a kernel other than the Gaussian, a non-diagonal Gaussian base
     *                                  measure or a non-finite model
     */
    public Matrix sample(int m, long seed) {
        return sample(m, seed, null);
    }

    /**
     * As {@link #sample(int, long)}, reporting one event per draw to {@code listener} (null: none), task
     * {@code "sample"}, with the total m; a listener that throws stops the sampling.
     */
    public Matrix sample(int m, long seed, ProgressListener listener) {
        return PsdSampler.sample(this, m, seed, PsdSampler.Method.AUTO, listener);
    }

    /** As {@link #sample(int, long, ProgressListener)} with a chosen method (tests). */
    Matrix sampleWith(int m, long seed, PsdSampler.Method method) {
        return PsdSampler.sample(this, m, seed, method, null);
    }

    Matrix pointsView() {
        return points;
    }

    Matrix factorView() {
        return factor;
    }

    /**
     * The previous sampler, kept as the baseline of {@code psdkit bench psd-sample}: m exact draws by sequential
     * inversion of closed-form conditional CDFs: x₁ from its marginal,
     * then x₂ given x₁, and so on. With the Gaussian kernel and a product base measure, f(x)ν(x) =
     * Σ_ij B_ij w_ij Π_t g_ijt(x_t) where each g_ijt is a (truncated, for a box) normal density in coordinate t, so the
     * conditional CDF of coordinate t given the previous ones is Σ_ij W_ij G_ijt(s) / Σ_ij W_ij with signed weights
     * W_ij (B is not entrywise positive) and normal CDFs G_ijt; it is inverted by safeguarded Newton steps
     * (bisection fallback) to {@link #INVERSION_TOLERANCE}. Cost O(n² d) per Newton step, so this is meant for
     * moderate n·d (a 10-D model with n = 1000 takes seconds per draw).
     */
    public Matrix sampleSequential(int m, long seed, ProgressListener listener) {
        long t0 = System.nanoTime();
        ProgressListener lis = ProgressListener.orNone(listener);
        if (m < 0) {
            throw new IllegalArgumentException("number of samples must be >= 0, got " + m);
        }
        if (!(kernel instanceof GaussianKernel gk)) {
            throw new IllegalArgumentException("sampling needs the Gaussian kernel, model has " + kernel.spec());
        }
        if (base instanceof BaseMeasure.Gaussian g && !g.isDiagonal()) {
            throw new IllegalArgumentException("sampling needs a diagonal Gaussian base measure");
        }
        int n = points.rows();
        int d = points.cols();
        double sigma = gk.sigma();
        double q = sigma * sigma / 2;
        Matrix b = coefficients();
        Matrix mm = KernelIntegrals.gaussianProducts(sigma, points, base);
        int pairs = n * (n + 1) / 2;
        double[] w0 = new double[pairs];
        int[] pi = new int[pairs];
        int[] pj = new int[pairs];
        int c = 0;
        for (int j = 0; j < n; j++) {
            for (int i = j; i < n; i++) {
                w0[c] = b.get(i, j) * mm.get(i, j) * (i == j ? 1 : 2); // B_ij ∫ k_i k_j dν, both triangles
                pi[c] = i;
                pj[c] = j;
                c++;
            }
        }
        // per-pair, per-coordinate conditional normal: centre, sd, truncation
        double[][] centre = new double[d][pairs];
        double[][] sd = new double[d][pairs];
        double[] lo = new double[d];
        double[] hi = new double[d];
        for (int t = 0; t < d; t++) {
            lo[t] = Double.NEGATIVE_INFINITY;
            hi[t] = Double.POSITIVE_INFINITY;
            if (base instanceof BaseMeasure.Box box) {
                lo[t] = box.lo()[t];
                hi[t] = box.hi()[t];
            }
            for (int k = 0; k < pairs; k++) {
                double mt = 0.5 * (points.get(pi[k], t) + points.get(pj[k], t));
                if (base instanceof BaseMeasure.Gaussian g) {
                    double v = g.variances()[t];
                    double s = q + v;
                    centre[t][k] = (mt * v + g.mean()[t] * q) / s;
                    sd[t][k] = Math.sqrt(q * v / s);
                } else {
                    centre[t][k] = mt;
                    sd[t][k] = Math.sqrt(q);
                }
            }
        }
        SplittableRandom rng = new SplittableRandom(seed);
        Matrix out = Matrix.zeros(m, d);
        double[] w = new double[pairs];
        double[] massK = new double[pairs];
        for (int s = 0; s < m; s++) {
            System.arraycopy(w0, 0, w, 0, pairs);
            for (int t = 0; t < d; t++) {
                double total = 0;
                double cMin = Double.POSITIVE_INFINITY;
                double cMax = Double.NEGATIVE_INFINITY;
                double sdMax = 0;
                for (int k = 0; k < pairs; k++) {
                    massK[k] = SpecialFunctions.normalMass((lo[t] - centre[t][k]) / sd[t][k],
                            (hi[t] - centre[t][k]) / sd[t][k]);
                    total += w[k];
                    cMin = Math.min(cMin, centre[t][k]);
                    cMax = Math.max(cMax, centre[t][k]);
                    sdMax = Math.max(sdMax, sd[t][k]);
                }
                double target = rng.nextDouble() * total;
                double left = Math.max(lo[t], cMin - BRACKET_SDS * sdMax);
                double right = Math.min(hi[t], cMax + BRACKET_SDS * sdMax);
                double x = 0.5 * (left + right);
                for (int it = 0; it < MAX_INVERSION_STEPS; it++) {
                    double cdf = 0;
                    double pdf = 0;
                    for (int k = 0; k < pairs; k++) {
                        double z = (x - centre[t][k]) / sd[t][k];
                        cdf += w[k] * SpecialFunctions.normalMass((lo[t] - centre[t][k]) / sd[t][k], z) / massK[k];
                        pdf += w[k] * Math.exp(-0.5 * z * z) / (SQRT_2PI * sd[t][k] * massK[k]);
                    }
                    double r = cdf - target;
                    if (r > 0) {
                        right = x;
                    } else {
                        left = x;
                    }
                    double next = pdf > 0 ? x - r / pdf : Double.NaN;
                    if (!(next > left && next < right)) {
                        next = 0.5 * (left + right);
                    }
                    if (Math.abs(next - x) <= INVERSION_TOLERANCE * (1 + Math.abs(x)) || right - left
                            <= INVERSION_TOLERANCE * (1 + Math.abs(x))) {
                        x = next;
                        break;
                    }
                    x = next;
                }
                out.set(s, t, x);
                for (int k = 0; k < pairs; k++) { // condition on x_t: multiply by the normalised density g_ijt(x)
                    double z = (x - centre[t][k]) / sd[t][k];
                    w[k] *= Math.exp(-0.5 * z * z) / (SQRT_2PI * sd[t][k] * massK[k]);
                }
            }
            lis.onProgress(ProgressListener.Event.of("sample", s + 1, m, (System.nanoTime() - t0) * 1e-9));
        }
        return out;
    }

    /** Relative tolerance of the per-coordinate CDF inversion (a few ulps above rounding of the CDF sum). */
    static final double INVERSION_TOLERANCE = 1e-12;
    /** Newton/bisection steps per coordinate; bisection alone reaches 1e-12 of a 100-sd bracket in ~50. */
    static final int MAX_INVERSION_STEPS = 100;
    /** The search bracket extends this many component standard deviations beyond the extreme centres. */
    static final double BRACKET_SDS = 40;
    private static final double SQRT_2PI = Math.sqrt(2 * Math.PI);

    private void requireDim(Matrix x) {
        if (x.cols() != points.cols()) {
            throw new IllegalArgumentException("psd density of dimension " + points.cols() + " evaluated at points of "
                    + "dimension " + x.cols());
        }
    }
}
