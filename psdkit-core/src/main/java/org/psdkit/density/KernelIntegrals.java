package org.psdkit.density;

import java.util.Arrays;
import org.psdkit.kernel.GaussianKernel;
import org.psdkit.kernel.Kernel;
import org.psdkit.linalg.Cholesky;
import org.psdkit.linalg.Eigen;
import org.psdkit.linalg.Linalg;
import org.psdkit.linalg.Matrix;

/**
 * Integral operators of Marteau-Ferey, Bach and Rudi 2020 Prop. 4 / Remark 7: (M)_ij = ∫_R k(x, x_i) k(x, x_j) dν(x) and the single
 * integrals u_i = ∫_R k(x, x_i) dν(x) (the NCM/PNM constraint vector of App. D), over a region R that is all of
 * ℝ^d or a box [lo, hi] (infinite ends allowed).
 *
 * <p>Closed forms:
 * <ul>
 *   <li>Gaussian kernel exp(−‖x−y‖²/(2σ²)): k(x,x_i)k(x,x_j) = exp(−‖x_i−x_j‖²/(4σ²)) · exp(−‖x−m‖²/σ²) with
 *   m = (x_i+x_j)/2, a product over coordinates of unnormalised normals of variance σ²/2. Against Lebesgue measure
 *   each coordinate gives √(πσ²)·[Φ(·)−Φ(·)]; against N(μ_t, v_t) the product of two normals is a normal again
 *   (√(πσ²)·N(m_t; μ_t, σ²/2 + v_t)·[Φ(·)−Φ(·)]); against the uniform probability on a box the Lebesgue result on
 *   the intersection divided by the box side. A full-covariance Gaussian ν works on all of ℝ^d:
 *   (πσ²)^{d/2} N(m; μ, σ²/2·I + Σ).</li>
 *   <li>Laplacian kernel in its coordinate-separable form exp(−‖x−y‖₁/s) (equal to exp(−|x−y|/s) in 1-D), against
 *   Lebesgue measure or the uniform probability on a box: piecewise exponentials, see
 *   {@link #laplacianPair1d}.</li>
 * </ul>
 * Any other kernel or measure goes through {@link #quadratureProducts}, a <b>numerical fallback</b>:
 * tensor-product Gauss–Legendre (finite box) or Gauss–Hermite (Gaussian ν on ℝ^d) rules with
 * {@code nodesPerDim} nodes per coordinate, so only for low dimension (at most {@link #QUADRATURE_MAX_POINTS} nodes);
 * its accuracy depends on the kernel's smoothness and is not guaranteed.
 */
public final class KernelIntegrals {
    /** Upper bound on the tensor-grid size of the quadrature fallback (memory: n × points doubles). */
    public static final int QUADRATURE_MAX_POINTS = 1 << 21;

    private KernelIntegrals() {
    }

    // ------------------------------------------------------------------ Gaussian kernel

    /** M over all of ℝ^d for the Gaussian kernel of width σ. */
    public static Matrix gaussianProducts(double sigma, Matrix x, BaseMeasure nu) {
        return gaussianProducts(sigma, x, nu, null, null);
    }

    /**
     * M over the box [lo, hi] (null = all of ℝ^d; infinite ends allowed) for the Gaussian kernel of width σ.
     */
    public static Matrix gaussianProducts(double sigma, Matrix x, BaseMeasure nu, double[] lo, double[] hi) {
        checkSigma(sigma);
        int n = x.rows();
        int d = x.cols();
        nu.requireDimension(d);
        boolean whole = isWhole(lo, hi, d);
        double q = sigma * sigma / 2; // variance of the product bump exp(−‖x−m‖²/σ²)
        double[] xd = x.data();
        Matrix m = Matrix.zeros(n, n);
        double[] md = m.data();
        double inv4s2 = 1.0 / (4 * sigma * sigma);
        if (whole && nu instanceof BaseMeasure.Gaussian g && !g.isDiagonal()) {
            return fullCovarianceProducts(sigma, x, g);
        }
        if (whole && (nu instanceof BaseMeasure.Lebesgue || nu instanceof BaseMeasure.Gaussian)) {
            // one exp per pair
            double logConst = 0;
            double[] w = new double[d];
            double[] mu = new double[d];
            if (nu instanceof BaseMeasure.Gaussian g) {
                for (int t = 0; t < d; t++) {
                    double s = q + g.variances()[t];
                    logConst += 0.5 * Math.log(q / s);
                    w[t] = 1.0 / (2 * s);
                    mu[t] = g.mean()[t];
                }
            } else {
                logConst = 0.5 * d * Math.log(2 * Math.PI * q);
            }
            for (int j = 0; j < n; j++) {
                for (int i = j; i < n; i++) {
                    double e = 0;
                    for (int t = 0; t < d; t++) {
                        double a = xd[i + t * n];
                        double b = xd[j + t * n];
                        double diff = a - b;
                        e -= diff * diff * inv4s2;
                        double c = 0.5 * (a + b) - mu[t];
                        e -= c * c * w[t];
                    }
                    double v = Math.exp(logConst + e);
                    md[i + j * n] = v;
                    md[j + i * n] = v;
                }
            }
            return m;
        }
        double[] l = lo == null ? fill(d, Double.NEGATIVE_INFINITY) : lo;
        double[] h = hi == null ? fill(d, Double.POSITIVE_INFINITY) : hi;
        checkBox(l, h, d);
        for (int j = 0; j < n; j++) {
            for (int i = j; i < n; i++) {
                double e = 0;
                double prod = 1;
                for (int t = 0; t < d && prod != 0; t++) {
                    double a = xd[i + t * n];
                    double b = xd[j + t * n];
                    double diff = a - b;
                    e -= diff * diff * inv4s2;
                    prod *= factor1d(0.5 * (a + b), q, nu, t, l[t], h[t]);
                }
                double v = prod * Math.exp(e);
                md[i + j * n] = v;
                md[j + i * n] = v;
            }
        }
        return m;
    }

    /** u_i = ∫ k(x, x_i) dν over all of ℝ^d for the Gaussian kernel. */
    public static double[] gaussianSingles(double sigma, Matrix x, BaseMeasure nu) {
        return gaussianSingles(sigma, x, nu, null, null);
    }

    /** u_i = ∫_[lo,hi] k(x, x_i) dν for the Gaussian kernel (null box = ℝ^d). */
    public static double[] gaussianSingles(double sigma, Matrix x, BaseMeasure nu, double[] lo, double[] hi) {
        checkSigma(sigma);
        int n = x.rows();
        int d = x.cols();
        nu.requireDimension(d);
        double q = sigma * sigma;
        double[] u = new double[n];
        if (isWhole(lo, hi, d) && nu instanceof BaseMeasure.Gaussian g && !g.isDiagonal()) {
            Matrix c = g.covariance().copy();
            c.addToDiagonal(q);
            Cholesky ch = Linalg.choleskyStrict(c);
            double logConst = 0.5 * d * Math.log(2 * Math.PI * q) - 0.5 * ch.logDet()
                    - d * SpecialFunctions.LOG_SQRT_2PI;
            for (int i = 0; i < n; i++) {
                double[] r = x.row(i);
                for (int t = 0; t < d; t++) {
                    r[t] -= g.mean()[t];
                }
                double[] z = Linalg.solveLower(ch.lower(), false, r);
                u[i] = Math.exp(logConst - 0.5 * Linalg.dot(z, z));
            }
            return u;
        }
        double[] l = lo == null ? fill(d, Double.NEGATIVE_INFINITY) : lo;
        double[] h = hi == null ? fill(d, Double.POSITIVE_INFINITY) : hi;
        checkBox(l, h, d);
        for (int i = 0; i < n; i++) {
            double prod = 1;
            for (int t = 0; t < d; t++) {
                prod *= factor1d(x.get(i, t), q, nu, t, l[t], h[t]);
            }
            u[i] = prod;
        }
        return u;
    }

    /**
     * ∫_lo^hi exp(−(x−m)²/(2q)) ν_t(x) dx for coordinate t of the base measure ν (product measures only).
     */
    static double factor1d(double m, double q, BaseMeasure nu, int t, double lo, double hi) {
        double sq = Math.sqrt(q);
        double scale = Math.sqrt(2 * Math.PI * q);
        if (nu instanceof BaseMeasure.Lebesgue) {
            return scale * mass((lo - m) / sq, (hi - m) / sq);
        }
        if (nu instanceof BaseMeasure.Gaussian g) {
            if (!g.isDiagonal()) {
                throw new IllegalArgumentException("integrals over a box need a diagonal Gaussian base measure");
            }
            double mu = g.mean()[t];
            double v = g.variances()[t];
            double s = q + v;
            double c = (m * v + mu * q) / s;
            double tau = Math.sqrt(q * v / s);
            return scale * Math.exp(SpecialFunctions.normalLogPdf(m, mu, s)) * mass((lo - c) / tau, (hi - c) / tau);
        }
        BaseMeasure.Box b = (BaseMeasure.Box) nu;
        double l = Math.max(lo, b.lo()[t]);
        double h = Math.min(hi, b.hi()[t]);
        if (!(l < h)) {
            return 0.0;
        }
        return scale * mass((l - m) / sq, (h - m) / sq) / (b.hi()[t] - b.lo()[t]);
    }

    private static double mass(double a, double b) {
        if (a == Double.NEGATIVE_INFINITY && b == Double.POSITIVE_INFINITY) {
            return 1.0;
        }
        return SpecialFunctions.normalMass(a, b);
    }

    private static Matrix fullCovarianceProducts(double sigma, Matrix x, BaseMeasure.Gaussian g) {
        int n = x.rows();
        int d = x.cols();
        double q = sigma * sigma / 2;
        Matrix c = g.covariance().copy();
        c.addToDiagonal(q);
        Cholesky ch = Linalg.choleskyStrict(c);
        // (πσ²)^{d/2} N(m; μ, qI + Σ) · exp(−‖x_i − x_j‖²/(4σ²))
        double logConst = 0.5 * d * Math.log(2 * Math.PI * q) - 0.5 * ch.logDet() - d * SpecialFunctions.LOG_SQRT_2PI;
        // whiten the points once: z_i = L⁻¹(x_i − μ); then ‖L⁻¹(m − μ)‖² = ‖(z_i + z_j)/2‖²
        Matrix r = Matrix.zeros(d, n);
        for (int i = 0; i < n; i++) {
            for (int t = 0; t < d; t++) {
                r.set(t, i, x.get(i, t) - g.mean()[t]);
            }
        }
        Linalg.solveLowerInPlace(ch.lower(), false, r);
        Matrix m = Matrix.zeros(n, n);
        double inv4s2 = 1.0 / (4 * sigma * sigma);
        for (int j = 0; j < n; j++) {
            for (int i = j; i < n; i++) {
                double e = 0;
                for (int t = 0; t < d; t++) {
                    double diff = x.get(i, t) - x.get(j, t);
                    double zm = 0.5 * (r.get(t, i) + r.get(t, j));
                    e -= diff * diff * inv4s2 + 0.5 * zm * zm;
                }
                double v = Math.exp(logConst + e);
                m.set(i, j, v);
                m.set(j, i, v);
            }
        }
        return m;
    }

    // ------------------------------------------------------------------ Laplacian kernel

    /**
     * M for the separable Laplacian kernel exp(−Σ_t |x_t − y_t| / s) against Lebesgue measure or the uniform
     * probability on a box, over the region [lo, hi] (null = ℝ^d).
     */
    public static Matrix laplacianProducts(double s, Matrix x, BaseMeasure nu, double[] lo, double[] hi) {
        checkSigma(s);
        int n = x.rows();
        int d = x.cols();
        nu.requireDimension(d);
        double[] l = lo == null ? fill(d, Double.NEGATIVE_INFINITY) : lo;
        double[] h = hi == null ? fill(d, Double.POSITIVE_INFINITY) : hi;
        checkBox(l, h, d);
        Matrix m = Matrix.zeros(n, n);
        for (int j = 0; j < n; j++) {
            for (int i = j; i < n; i++) {
                double prod = 1;
                for (int t = 0; t < d && prod != 0; t++) {
                    prod *= laplacianFactor(x.get(i, t), x.get(j, t), s, nu, t, l[t], h[t]);
                }
                m.set(i, j, prod);
                m.set(j, i, prod);
            }
        }
        return m;
    }

    /** u_i for the separable Laplacian kernel (Lebesgue or box ν). */
    public static double[] laplacianSingles(double s, Matrix x, BaseMeasure nu, double[] lo, double[] hi) {
        checkSigma(s);
        int n = x.rows();
        int d = x.cols();
        nu.requireDimension(d);
        double[] l = lo == null ? fill(d, Double.NEGATIVE_INFINITY) : lo;
        double[] h = hi == null ? fill(d, Double.POSITIVE_INFINITY) : hi;
        checkBox(l, h, d);
        double[] u = new double[n];
        for (int i = 0; i < n; i++) {
            double prod = 1;
            for (int t = 0; t < d; t++) {
                // exp(−|x−a|/s) = exp(−(|x−a| + |x−a|)/(2s))
                prod *= laplacianFactor(x.get(i, t), x.get(i, t), 2 * s, nu, t, l[t], h[t]);
            }
            u[i] = prod;
        }
        return u;
    }

    private static double laplacianFactor(double a, double b, double s, BaseMeasure nu, int t, double lo, double hi) {
        if (nu instanceof BaseMeasure.Lebesgue) {
            return laplacianPair1d(a, b, s, lo, hi);
        }
        if (nu instanceof BaseMeasure.Box box) {
            double l = Math.max(lo, box.lo()[t]);
            double h = Math.min(hi, box.hi()[t]);
            return l < h ? laplacianPair1d(a, b, s, l, h) / (box.hi()[t] - box.lo()[t]) : 0.0;
        }
        throw new IllegalArgumentException("Laplacian kernel integrals have a closed form against Lebesgue or box "
                + "measures only; use the quadrature fallback for " + nu.spec());
    }

    /**
     * ∫_lo^hi exp(−(|x−a| + |x−b|)/s) dx: below min(a,b) the exponent is (2x−a−b)/s, between a and b it is the
     * constant −|b−a|/s, above max(a,b) it is −(2x−a−b)/s.
     */
    static double laplacianPair1d(double a0, double b0, double s, double lo, double hi) {
        double a = Math.min(a0, b0);
        double b = Math.max(a0, b0);
        double total = 0;
        double u = Math.min(hi, a);
        if (lo < u) {
            total += 0.5 * s * (Math.exp((2 * u - a - b) / s) - Math.exp((2 * lo - a - b) / s));
        }
        double l2 = Math.max(lo, a);
        double u2 = Math.min(hi, b);
        if (l2 < u2) {
            total += (u2 - l2) * Math.exp(-(b - a) / s);
        }
        double l3 = Math.max(lo, b);
        if (l3 < hi) {
            total += 0.5 * s * (Math.exp(-(2 * l3 - a - b) / s) - Math.exp(-(2 * hi - a - b) / s));
        }
        return total;
    }

    // ------------------------------------------------------------------ dispatch and quadrature fallback

    /**
     * M for any kernel: the Gaussian kernel in closed form; anything else through the quadrature fallback
     * ({@link #DEFAULT_NODES} nodes per coordinate) over [lo, hi], which must be finite unless ν is a diagonal
     * Gaussian.
     */
    public static Matrix products(Kernel k, Matrix x, BaseMeasure nu, double[] lo, double[] hi) {
        if (k instanceof GaussianKernel g) {
            return gaussianProducts(g.sigma(), x, nu, lo, hi);
        }
        return quadratureProducts(k, x, nu, DEFAULT_NODES, lo, hi);
    }

    /** Nodes per coordinate of the fallback rule when none is given: 64-point rules integrate smooth bumps well. */
    public static final int DEFAULT_NODES = 64;

    /**
     * Numerical fallback (not a closed form): M ≈ Σ_q w_q k(ξ_q, x_i) k(ξ_q, x_j) with a tensor Gauss rule. A finite
     * box [lo, hi] uses Gauss–Legendre times the density of ν; a diagonal Gaussian ν over all of ℝ^d uses
     * Gauss–Hermite. Lebesgue measure over an infinite region is refused.
     */
    public static Matrix quadratureProducts(Kernel k, Matrix x, BaseMeasure nu, int nodesPerDim, double[] lo,
                                            double[] hi) {
        Matrix[] rule = quadratureRule(x.cols(), nu, nodesPerDim, lo, hi);
        Matrix kxq = k.cross(x, rule[0]); // n × Q
        double[] w = rule[1].data();
        Matrix scaled = kxq.copy();
        int n = x.rows();
        for (int j = 0; j < w.length; j++) {
            for (int i = 0; i < n; i++) {
                scaled.data()[i + j * n] *= w[j];
            }
        }
        Matrix m = Linalg.gemm(1.0, scaled, false, kxq, true);
        m.symmetrizeInPlace();
        return m;
    }

    /** Numerical fallback for u_i = ∫ k(x, x_i) dν (see {@link #quadratureProducts}). */
    public static double[] quadratureSingles(Kernel k, Matrix x, BaseMeasure nu, int nodesPerDim, double[] lo,
                                             double[] hi) {
        Matrix[] rule = quadratureRule(x.cols(), nu, nodesPerDim, lo, hi);
        return Linalg.gemv(k.cross(x, rule[0]), false, rule[1].data());
    }

    /** Returns {nodes (Q×d), weights (Q×1)} of a tensor rule for ∫ g dν over [lo, hi]. */
    static Matrix[] quadratureRule(int d, BaseMeasure nu, int nodesPerDim, double[] lo, double[] hi) {
        if (nodesPerDim < 1) {
            throw new IllegalArgumentException("quadrature: nodes per dimension must be >= 1, got " + nodesPerDim);
        }
        nu.requireDimension(d);
        double total = Math.pow(nodesPerDim, d);
        if (total > QUADRATURE_MAX_POINTS) {
            throw new IllegalArgumentException("quadrature fallback: " + nodesPerDim + "^" + d + " nodes exceed "
                    + QUADRATURE_MAX_POINTS + "; it is meant for low dimension only");
        }
        double[] l = lo == null ? fill(d, Double.NEGATIVE_INFINITY) : lo;
        double[] h = hi == null ? fill(d, Double.POSITIVE_INFINITY) : hi;
        if (nu instanceof BaseMeasure.Box b) {
            l = l.clone();
            h = h.clone();
            for (int t = 0; t < d; t++) {
                l[t] = Math.max(l[t], b.lo()[t]);
                h[t] = Math.min(h[t], b.hi()[t]);
            }
        }
        double[][] nodes1 = new double[d][];
        double[][] weights1 = new double[d][];
        for (int t = 0; t < d; t++) {
            boolean finite = Double.isFinite(l[t]) && Double.isFinite(h[t]);
            if (finite) {
                double[][] gl = gaussLegendre(nodesPerDim);
                nodes1[t] = new double[nodesPerDim];
                weights1[t] = new double[nodesPerDim];
                for (int q = 0; q < nodesPerDim; q++) {
                    double xq = 0.5 * (l[t] + h[t]) + 0.5 * (h[t] - l[t]) * gl[0][q];
                    nodes1[t][q] = xq;
                    weights1[t][q] = 0.5 * (h[t] - l[t]) * gl[1][q];
                    if (nu instanceof BaseMeasure.Gaussian g) {
                        if (!g.isDiagonal()) {
                            throw new IllegalArgumentException("quadrature fallback needs a diagonal Gaussian");
                        }
                        weights1[t][q] *= Math.exp(SpecialFunctions.normalLogPdf(xq, g.mean()[t], g.variances()[t]));
                    } else if (nu instanceof BaseMeasure.Box b) {
                        weights1[t][q] /= b.hi()[t] - b.lo()[t];
                    }
                }
            } else if (nu instanceof BaseMeasure.Gaussian g && g.isDiagonal()
                    && l[t] == Double.NEGATIVE_INFINITY && h[t] == Double.POSITIVE_INFINITY) {
                double[][] gh = gaussHermiteProbabilists(nodesPerDim);
                nodes1[t] = new double[nodesPerDim];
                weights1[t] = gh[1].clone();
                double sd = Math.sqrt(g.variances()[t]);
                for (int q = 0; q < nodesPerDim; q++) {
                    nodes1[t][q] = g.mean()[t] + sd * gh[0][q];
                }
            } else {
                throw new IllegalArgumentException("quadrature fallback: coordinate " + t + " needs a finite "
                        + "interval (or a Gaussian base measure over the whole line); got [" + l[t] + ", " + h[t]
                        + "] for " + nu.spec());
            }
        }
        int qn = (int) total;
        Matrix nodes = Matrix.zeros(qn, d);
        Matrix weights = Matrix.zeros(qn, 1);
        int[] idx = new int[d];
        for (int q = 0; q < qn; q++) {
            double w = 1;
            for (int t = 0; t < d; t++) {
                nodes.set(q, t, nodes1[t][idx[t]]);
                w *= weights1[t][idx[t]];
            }
            weights.set(q, 0, w);
            for (int t = 0; t < d; t++) {
                if (++idx[t] < nodesPerDim) {
                    break;
                }
                idx[t] = 0;
            }
        }
        return new Matrix[] {nodes, weights};
    }

    /** Gauss–Legendre nodes/weights on [−1, 1] by the Golub–Welsch eigenvalue method. */
    public static double[][] gaussLegendre(int q) {
        Matrix j = Matrix.zeros(q, q);
        for (int k = 1; k < q; k++) {
            double b = k / Math.sqrt(4.0 * k * k - 1);
            j.set(k, k - 1, b);
            j.set(k - 1, k, b);
        }
        Eigen e = Linalg.eigh(j);
        double[] w = new double[q];
        for (int k = 0; k < q; k++) {
            double v = e.vectors().get(0, k);
            w[k] = 2 * v * v;
        }
        return new double[][] {e.values().clone(), w};
    }

    /** Nodes/weights for ∫ g(z) N(z; 0, 1) dz (probabilists' Hermite) by Golub–Welsch; weights sum to 1. */
    public static double[][] gaussHermiteProbabilists(int q) {
        Matrix j = Matrix.zeros(q, q);
        for (int k = 1; k < q; k++) {
            double b = Math.sqrt(k);
            j.set(k, k - 1, b);
            j.set(k - 1, k, b);
        }
        Eigen e = Linalg.eigh(j);
        double[] w = new double[q];
        for (int k = 0; k < q; k++) {
            double v = e.vectors().get(0, k);
            w[k] = v * v;
        }
        return new double[][] {e.values().clone(), w};
    }

    // ------------------------------------------------------------------ helpers

    static double[] fill(int d, double v) {
        double[] a = new double[d];
        Arrays.fill(a, v);
        return a;
    }

    private static boolean isWhole(double[] lo, double[] hi, int d) {
        if (lo == null && hi == null) {
            return true;
        }
        for (int t = 0; t < d; t++) {
            if ((lo != null && lo[t] != Double.NEGATIVE_INFINITY) || (hi != null && hi[t] != Double.POSITIVE_INFINITY)) {
                return false;
            }
        }
        return true;
    }

    private static void checkBox(double[] lo, double[] hi, int d) {
        if (lo.length != d || hi.length != d) {
            throw new IllegalArgumentException("integration box has " + lo.length + "/" + hi.length
                    + " coordinates, data have " + d);
        }
        for (int t = 0; t < d; t++) {
            if (Double.isNaN(lo[t]) || Double.isNaN(hi[t]) || lo[t] > hi[t]) {
                throw new IllegalArgumentException("integration box: need lo <= hi in coordinate " + t + ", got ["
                        + lo[t] + ", " + hi[t] + "]");
            }
        }
    }

    private static void checkSigma(double s) {
        if (!(s > 0) || !Double.isFinite(s)) {
            throw new IllegalArgumentException("kernel width must be > 0 and finite, got " + s);
        }
    }
}
