package org.psdkit.density;

import java.util.SplittableRandom;
import org.psdkit.kernel.GaussianKernel;
import org.psdkit.kernel.Kernel;
import org.psdkit.linalg.Linalg;
import org.psdkit.linalg.Matrix;

/**
 * A density p(x) = f(x)·ν(x) with f a PSD model, evaluated as a sum of squares f(x) = ‖Rᵀ v(x)‖²,
 * v(x) = (k(x, x_i))_i, so that f ≥ 0 holds in floating point (B = R Rᵀ ⪰ 0). Immutable.
 */
public final class PsdDensity implements DensityModel {
    public static final String TYPE = "psd-density";
    /** Candidates drawn per batch in {@link #sample}: enough for the envelope evaluation to be one GEMM. */
    static final int SAMPLE_BATCH = 256;
    /** Sampling gives up after this many candidates per requested sample (acceptance below 1e-5). */
    static final long MAX_CANDIDATES_PER_SAMPLE = 100_000;

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
        Matrix kx = kernel.cross(points, x); // n×m
        Matrix z = Linalg.gemm(1.0, factor, true, kx, false); // q×m
        double[] out = new double[x.rows()];
        int q = z.rows();
        double[] zd = z.data();
        for (int j = 0; j < out.length; j++) {
            double s = 0;
            for (int k = 0; k < q; k++) {
                double v = zd[k + j * q];
                s += v * v;
            }
            out[j] = s;
        }
        return out;
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
     * m exact draws from p, seeded. Rejection sampling from the envelope e(x) = Σ_ij [B_ij]_+ k(x,x_i)k(x,x_j) ≥ f(x)
     * (valid because k ≥ 0, so v(x) ≥ 0 entrywise and vᵀBv ≤ vᵀ[B]_+v): e·ν is a non-negative mixture of n(n+1)/2
     * Gaussian bumps (each k(x,x_i)k(x,x_j)ν(x) is a normal, truncated to the box for a box ν) that is sampled
     * exactly, and a candidate is kept with probability f(x)/e(x). Needs the Gaussian kernel and a product base
     * measure (Lebesgue, diagonal Gaussian, box).
     */
    public Matrix sample(int m, long seed) {
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
        Matrix bPlus = b.copy();
        double[] bp = bPlus.data();
        for (int k = 0; k < bp.length; k++) {
            bp[k] = Math.max(bp[k], 0.0);
        }
        Matrix mm = KernelIntegrals.gaussianProducts(sigma, points, base);
        // component weights for i <= j (off-diagonal pairs count twice)
        int pairs = n * (n + 1) / 2;
        double[] cum = new double[pairs];
        int[] pi = new int[pairs];
        int[] pj = new int[pairs];
        double total = 0;
        int c = 0;
        for (int j = 0; j < n; j++) {
            for (int i = j; i < n; i++) {
                double wgt = bPlus.get(i, j) * mm.get(i, j) * (i == j ? 1 : 2);
                total += wgt;
                cum[c] = total;
                pi[c] = i;
                pj[c] = j;
                c++;
            }
        }
        if (!(total > 0)) {
            throw new IllegalStateException("psd density: sampling envelope has zero mass");
        }
        SplittableRandom rng = new SplittableRandom(seed);
        Matrix out = Matrix.zeros(m, d);
        int got = 0;
        long tried = 0;
        long limit = Math.max(1, (long) m) * MAX_CANDIDATES_PER_SAMPLE;
        Matrix cand = Matrix.zeros(SAMPLE_BATCH, d);
        while (got < m) {
            for (int s = 0; s < SAMPLE_BATCH; s++) {
                int k = java.util.Arrays.binarySearch(cum, rng.nextDouble() * total);
                k = k < 0 ? -k - 1 : k;
                k = Math.min(k, pairs - 1);
                for (int t = 0; t < d; t++) {
                    double mt = 0.5 * (points.get(pi[k], t) + points.get(pj[k], t));
                    cand.set(s, t, drawCoordinate(rng, mt, q, t));
                }
            }
            Matrix kx = kernel.cross(points, cand); // n×B
            Matrix bk = Linalg.gemm(1.0, bPlus, false, kx, false);
            double[] fv = f(cand);
            for (int s = 0; s < SAMPLE_BATCH && got < m; s++) {
                double env = 0;
                for (int i = 0; i < n; i++) {
                    env += kx.get(i, s) * bk.get(i, s);
                }
                tried++;
                if (env > 0 && rng.nextDouble() * env <= fv[s]) {
                    for (int t = 0; t < d; t++) {
                        out.set(got, t, cand.get(s, t));
                    }
                    got++;
                }
            }
            if (tried > limit) {
                throw new IllegalStateException("psd density: rejection sampling accepted " + got + " of " + tried
                        + " candidates; the envelope is too loose for this model");
            }
        }
        return out;
    }

    /** One coordinate of a draw from exp(−(x−m)²/(2q))·ν_t(x), normalised. */
    private double drawCoordinate(SplittableRandom rng, double m, double q, int t) {
        if (base instanceof BaseMeasure.Lebesgue) {
            return m + Math.sqrt(q) * rng.nextGaussian();
        }
        if (base instanceof BaseMeasure.Gaussian g) {
            double mu = g.mean()[t];
            double v = g.variances()[t];
            double s = q + v;
            return (m * v + mu * q) / s + Math.sqrt(q * v / s) * rng.nextGaussian();
        }
        BaseMeasure.Box box = (BaseMeasure.Box) base;
        return SpecialFunctions.truncatedNormal(rng, m, Math.sqrt(q), box.lo()[t], box.hi()[t]);
    }

    private void requireDim(Matrix x) {
        if (x.cols() != points.cols()) {
            throw new IllegalArgumentException("psd density of dimension " + points.cols() + " evaluated at points of "
                    + "dimension " + x.cols());
        }
    }
}
