package org.psdkit.density;

import org.psdkit.kernel.Kernel;
import org.psdkit.kernel.KernelProducts;
import org.psdkit.linalg.Linalg;
import org.psdkit.linalg.Matrix;
import org.psdkit.optim.ProgressListener;

/**
 * A density whose f is linear in the kernel functions: f(x) = Σ_i α_i k(x, x_i) (NCM with α ≥ 0, PNM with
 * f(x_i) ≥ 0 only), p = f·ν. ∫ f dν = uᵀα in closed form. A PNM f can be negative away from the data: then
 * {@link #density} is negative there and {@link #logDensity} is −∞.
 */
public final class LinearDensity implements DensityModel {
    private final String type;
    private final Kernel kernel;
    private final Matrix points;
    private final double[] alpha;
    private final BaseMeasure base;
    private final DensityDiagnostics diagnostics;

    public LinearDensity(String type, Kernel kernel, Matrix points, double[] alpha, BaseMeasure base,
                         DensityDiagnostics diagnostics) {
        if (alpha.length != points.rows()) {
            throw new IllegalArgumentException(type + ": " + alpha.length + " coefficients for " + points.rows()
                    + " points");
        }
        this.type = type;
        this.kernel = kernel;
        this.points = points;
        this.alpha = alpha.clone();
        this.base = base;
        this.diagnostics = diagnostics;
    }

    @Override
    public String type() {
        return type;
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

    public double[] alpha() {
        return alpha.clone();
    }

    public DensityDiagnostics diagnostics() {
        return diagnostics;
    }

    /** f(x) = Σ α_i k(x, x_i). */
    public double[] f(Matrix x) {
        if (x.cols() != points.cols()) {
            throw new IllegalArgumentException(type + " of dimension " + points.cols() + " evaluated at points of "
                    + "dimension " + x.cols());
        }
        return KernelProducts.transposedTimes(kernel, points, x, alpha);
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

    /** ∫ f dν = uᵀα, u_i = ∫ k(x, x_i) dν (closed form for the Gaussian kernel). */
    @Override
    public double integral() {
        return Linalg.dot(singles(kernel, points, base), alpha);
    }

    static double[] singles(Kernel kernel, Matrix points, BaseMeasure base) {
        if (kernel instanceof org.psdkit.kernel.GaussianKernel g) {
            return KernelIntegrals.gaussianSingles(g.sigma(), points, base);
        }
        return KernelIntegrals.quadratureSingles(kernel, points, base, KernelIntegrals.DEFAULT_NODES, null, null);
    }

    /**
     * Draws from an NCM density (a mixture of normalised kernel bumps with weights α_i u_i); Gaussian kernel and a
     * product base measure only. PNM densities cannot be sampled (they are not non-negative).
     */
    public Matrix sample(int m, long seed) {
        return sample(m, seed, null);
    }

    /**
     * As {@link #sample(int, long)}, reporting one event per draw to {@code listener} (null: none), task
     * {@code "sample"}, with the total m; a listener that throws stops the sampling.
     */
    public Matrix sample(int m, long seed, ProgressListener listener) {
        long t0 = System.nanoTime();
        ProgressListener lis = ProgressListener.orNone(listener);
        for (double a : alpha) {
            if (a < 0) {
                throw new IllegalArgumentException(type + ": cannot sample, some coefficients are negative (the "
                        + "function is not a mixture)");
            }
        }
        if (!(kernel instanceof org.psdkit.kernel.GaussianKernel g)) {
            throw new IllegalArgumentException("sampling needs the Gaussian kernel");
        }
        // k(x, x_i) ν(x) ∝ a normal: reuse the PSD sampler's per-coordinate draw with B = diag(α) in k² form is
        // not the same function, so draw directly: component i has weight α_i u_i
        double[] u = singles(kernel, points, base);
        int n = alpha.length;
        double[] cum = new double[n];
        double tot = 0;
        for (int i = 0; i < n; i++) {
            tot += alpha[i] * u[i];
            cum[i] = tot;
        }
        java.util.SplittableRandom rng = new java.util.SplittableRandom(seed);
        int d = points.cols();
        double q = g.sigma() * g.sigma();
        Matrix out = Matrix.zeros(m, d);
        for (int s = 0; s < m; s++) {
            int k = java.util.Arrays.binarySearch(cum, rng.nextDouble() * tot);
            k = Math.min(k < 0 ? -k - 1 : k, n - 1);
            for (int t = 0; t < d; t++) {
                double mt = points.get(k, t);
                double v;
                if (base instanceof BaseMeasure.Lebesgue) {
                    v = mt + Math.sqrt(q) * rng.nextGaussian();
                } else if (base instanceof BaseMeasure.Gaussian gb) {
                    double var = gb.variances()[t];
                    double sv = q + var;
                    v = (mt * var + gb.mean()[t] * q) / sv + Math.sqrt(q * var / sv) * rng.nextGaussian();
                } else {
                    BaseMeasure.Box b = (BaseMeasure.Box) base;
                    v = SpecialFunctions.truncatedNormal(rng, mt, Math.sqrt(q), b.lo()[t], b.hi()[t]);
                }
                out.set(s, t, v);
            }
            lis.onProgress(ProgressListener.Event.of("sample", s + 1, m, (System.nanoTime() - t0) * 1e-9));
        }
        return out;
    }
}
