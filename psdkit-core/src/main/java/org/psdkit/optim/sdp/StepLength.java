package org.psdkit.optim.sdp;

import java.util.SplittableRandom;
import org.psdkit.linalg.Eigen;
import org.psdkit.linalg.Linalg;
import org.psdkit.linalg.Matrix;
import org.psdkit.linalg.internal.Congruence;

/**
 * The smallest eigenvalue of W = L⁻¹ dX L⁻ᵀ (X = L Lᵀ) by the Lanczos method, for the step length
 * max{α : X + α dX ⪰ 0} = −1/λ_min(W): the approach of Toh (2002, "A note on the calculation of step-lengths in
 * interior-point methods for semidefinite programming", Comput. Optim. Appl. 21:301–310), also used by SDPA and CSDP.
 * W is never formed: each Lanczos step applies it to a vector by two triangular solves and one product with dX
 * (3n² multiply–adds), instead of the two triangular matrix solves (2n³) and the tridiagonal reduction (4n³/3) of a
 * dense eigenvalue computation.
 */
public final class StepLength {
    private StepLength() {
    }

    /**
     * At most 40 Lanczos steps: Toh (2002, §4) reports convergence of the extreme Ritz value in 10–30 steps on SDPLIB;
     * a run that has not converged by then returns NaN and the caller uses the dense eigenvalue computation.
     */
    static final int MAX_STEPS = 40;
    /**
     * Converged when the smallest Ritz value θ has residual β_k|s_k| ≤ 1e-3·max(|θ|, ‖T‖·1e-3): the step length
     * −1/λ_min is then known to 0.1%, far inside the 5% margin of {@link SdpSolver#STEP_FRACTION}.
     */
    static final double RELATIVE_TOLERANCE = 1e-3;
    /** Blocks up to this size use the dense eigenvalue computation, which is as cheap there (few Lanczos steps fit). */
    static final int MIN_SIZE = 64;
    /** Seed of the Lanczos start vector (a fixed seed keeps runs reproducible). */
    static final long SEED = 0x5d1e5eedL;

    /**
     * A lower estimate of λ_min(L⁻¹ dX L⁻ᵀ): the smallest Ritz value minus its residual norm (some eigenvalue lies
     * within that distance of the Ritz value; Parlett, The Symmetric Eigenvalue Problem, Thm 11.4.1). NaN when the
     * iteration did not converge within {@link #MAX_STEPS} steps.
     *
     * @param l  n×n lower Cholesky factor of X, column-major
     * @param dx symmetric n×n direction, column-major (both triangles)
     */
    public static double minEigenvalue(double[] l, double[] dx, int n) {
        double[] v = new double[n];
        SplittableRandom rnd = new SplittableRandom(SEED);
        for (int i = 0; i < n; i++) {
            v[i] = rnd.nextDouble() - 0.5;
        }
        scale(v, 1.0 / norm(v));
        Lanczos lz = new Lanczos(l, dx, n, Math.min(MAX_STEPS, n), v);
        for (int k = 0; k < lz.kmax; k++) {
            double b = lz.step(k);
            int dim = k + 1;
            // the tridiagonal T_k: its smallest eigenvalue and the last entry of its eigenvector
            double[] t = new double[dim * dim];
            for (int j = 0; j < dim; j++) {
                t[j + j * dim] = lz.alpha[j];
                if (j + 1 < dim) {
                    t[j + 1 + j * dim] = lz.beta[j];
                    t[j + (j + 1) * dim] = lz.beta[j];
                }
            }
            Eigen e = Linalg.eigh(Matrix.wrap(dim, dim, t));
            double theta = e.values()[0];
            double residual = b * Math.abs(e.vectors().get(dim - 1, 0));
            boolean invariant = b <= 1e-14 * Math.max(lz.tNorm, Double.MIN_NORMAL);
            if (invariant || residual <= RELATIVE_TOLERANCE * Math.max(Math.abs(theta), 1e-3 * lz.tNorm)) {
                return theta - residual;
            }
            if (k + 1 < lz.kmax) {
                lz.extend(k, b);
            }
        }
        return Double.NaN;
    }

    /**
     * The Kernel SoS solver's Lanczos stops when the smallest Ritz value moved by less than 1e-6 of the spectral
     * scale in the last step: the step is then known to far better than the 5% margin of
     * {@link IpmSettings#stepFraction()}, and the Cholesky check of the new iterate catches the rare overestimate.
     */
    public static final double RITZ_TOLERANCE = 1e-6;
    /** At most 60 Lanczos vectors for {@link #ritzMinimum} (the extreme eigenvalue of its matrices converges in 10–30). */
    public static final int RITZ_MAX_STEPS = 60;

    /**
     * The smallest Ritz value of L⁻¹ D L⁻ᵀ (L lower triangular, D symmetric, both s×s column-major) once it has
     * settled ({@link #RITZ_TOLERANCE}), by the same Lanczos recurrence as {@link #minEigenvalue} from a fixed start
     * vector, the Ritz values of the tridiagonal matrix by bisection ({@link #tridiagonalMin}). Unlike
     * {@link #minEigenvalue} it always returns an estimate (the last Ritz value after {@link #RITZ_MAX_STEPS}) and
     * does not subtract the residual: the Kernel SoS solver confirms every step by a Cholesky factorisation instead.
     */
    public static double ritzMinimum(int s, double[] l, double[] d) {
        double[] v = new double[s];
        // fixed, non-special start vector (deterministic results)
        long seed = 0x9E3779B97F4A7C15L;
        double nv = 0;
        for (int i = 0; i < s; i++) {
            seed = seed * 6364136223846793005L + 1442695040888963407L;
            v[i] = 1.0 + 0.5 * ((seed >>> 11) * 0x1.0p-53 - 0.5);
            nv += v[i] * v[i];
        }
        nv = Math.sqrt(nv);
        for (int i = 0; i < s; i++) {
            v[i] /= nv;
        }
        Lanczos lz = new Lanczos(l, d, s, Math.min(s, RITZ_MAX_STEPS), v);
        double prev = Double.NaN;
        double theta = Double.NaN;
        for (int k = 0; k < lz.kmax; k++) {
            double bk = lz.step(k);
            theta = tridiagonalMin(lz.alpha, lz.beta, k + 1);
            if (k + 1 == s || bk <= 1e-14 * lz.tNorm) {
                break; // invariant subspace: θ is exact
            }
            if (k >= 4 && Math.abs(theta - prev) <= RITZ_TOLERANCE * lz.tNorm) {
                break;
            }
            prev = theta;
            lz.extendDividing(k, bk);
        }
        return theta;
    }

    /** The smallest eigenvalue of the k×k symmetric tridiagonal matrix (diagonal a, off-diagonal b) by bisection. */
    public static double tridiagonalMin(double[] a, double[] b, int k) {
        double lo = Double.POSITIVE_INFINITY;
        double hi = Double.NEGATIVE_INFINITY;
        for (int i = 0; i < k; i++) {
            double r = (i > 0 ? Math.abs(b[i - 1]) : 0) + (i < k - 1 ? Math.abs(b[i]) : 0);
            lo = Math.min(lo, a[i] - r);
            hi = Math.max(hi, a[i] + r);
        }
        for (int it = 0; it < 200 && hi - lo > 1e-15 * Math.max(Math.abs(lo), Math.abs(hi)); it++) {
            double mid = 0.5 * (lo + hi);
            if (mid <= lo || mid >= hi) {
                break;
            }
            // Sturm count: number of eigenvalues < mid
            int count = 0;
            double d = 1;
            for (int i = 0; i < k; i++) {
                double off = i > 0 ? b[i - 1] * b[i - 1] : 0;
                d = a[i] - mid - (i > 0 ? off / d : 0);
                if (d == 0) {
                    d = -1e-300;
                }
                if (d < 0) {
                    count++;
                }
            }
            if (count >= 1) {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        return lo;
    }

    /**
     * The Lanczos recurrence on W = L⁻¹ D L⁻ᵀ with full re-orthogonalisation against every Lanczos vector
     * (classical Gram–Schmidt applied twice: Kahan, Parlett), W applied by two triangular solves and a product with D
     * ({@link Congruence#apply}); the tridiagonal T_k is alpha (diagonal) and beta (off-diagonal).
     */
    private static final class Lanczos {
        final double[] l;
        final double[] d;
        final int n;
        final int kmax;
        final double[][] q;
        final double[] alpha;
        final double[] beta;
        final double[] u;
        final double[] w;
        /** max_k |α_k| + β_k + β_{k−1}: the scale of T (a bound on ‖T‖). */
        double tNorm;

        Lanczos(double[] l, double[] d, int n, int kmax, double[] start) {
            this.l = l;
            this.d = d;
            this.n = n;
            this.kmax = kmax;
            this.q = new double[kmax + 1][];
            this.alpha = new double[kmax];
            this.beta = new double[kmax];
            this.u = new double[n];
            this.w = new double[n];
            q[0] = start;
        }

        /** Step k: α_k, β_k (returned), and the re-orthogonalised residual in {@link #w}. */
        double step(int k) {
            Congruence.apply(l, d, n, q[k], u, w);
            double a = dot(q[k], w);
            alpha[k] = a;
            for (int pass = 0; pass < 2; pass++) {
                for (int j = 0; j <= k; j++) {
                    double c = dot(q[j], w);
                    axpy(-c, q[j], w);
                }
            }
            double b = norm(w);
            beta[k] = b;
            tNorm = Math.max(tNorm, Math.abs(a) + b + (k > 0 ? beta[k - 1] : 0));
            return b;
        }

        /**
         * The next Lanczos vector w·(1/β_k). Each estimate keeps the rounding of this normalisation that its callers'
         * results were validated with: multiplying by 1/β here ({@link StepLength#minEigenvalue}, SDPLIB's
         * bit-identical results), dividing by β in {@link #extendDividing} ({@link StepLength#ritzMinimum}, Kernel
         * SoS's golden models).
         */
        void extend(int k, double b) {
            double[] next = w.clone();
            scale(next, 1.0 / b);
            q[k + 1] = next;
        }

        /** The next Lanczos vector w / β_k, each entry divided (see {@link #extend}). */
        void extendDividing(int k, double b) {
            double[] next = w.clone();
            for (int i = 0; i < n; i++) {
                next[i] /= b;
            }
            q[k + 1] = next;
        }
    }

    private static double dot(double[] a, double[] b) {
        double s = 0;
        for (int i = 0; i < a.length; i++) {
            s += a[i] * b[i];
        }
        return s;
    }

    private static void axpy(double c, double[] x, double[] y) {
        for (int i = 0; i < x.length; i++) {
            y[i] += c * x[i];
        }
    }

    private static double norm(double[] a) {
        return Math.sqrt(dot(a, a));
    }

    private static void scale(double[] a, double c) {
        for (int i = 0; i < a.length; i++) {
            a[i] *= c;
        }
    }
}
