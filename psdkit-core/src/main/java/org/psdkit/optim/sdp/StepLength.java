package org.psdkit.optim.sdp;

import java.util.SplittableRandom;
import org.psdkit.linalg.Eigen;
import org.psdkit.linalg.Linalg;
import org.psdkit.linalg.Matrix;

/**
 * The smallest eigenvalue of W = L⁻¹ dX L⁻ᵀ (X = L Lᵀ) by the Lanczos method, for the step length
 * max{α : X + α dX ⪰ 0} = −1/λ_min(W): the approach of Toh (2002, "A note on the calculation of step-lengths in
 * interior-point methods for semidefinite programming", Comput. Optim. Appl. 21:301–310), also used by SDPA and CSDP.
 * W is never formed: each Lanczos step applies it to a vector by two triangular solves and one product with dX
 * (3n² multiply–adds), instead of the two triangular matrix solves (2n³) and the tridiagonal reduction (4n³/3) of a
 * dense eigenvalue computation.
 */
final class StepLength {
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
    static double minEigenvalue(double[] l, double[] dx, int n) {
        int kmax = Math.min(MAX_STEPS, n);
        double[][] q = new double[kmax + 1][];
        double[] alpha = new double[kmax];
        double[] beta = new double[kmax];
        double[] v = new double[n];
        SplittableRandom rnd = new SplittableRandom(SEED);
        for (int i = 0; i < n; i++) {
            v[i] = rnd.nextDouble() - 0.5;
        }
        scale(v, 1.0 / norm(v));
        q[0] = v;
        double[] u = new double[n];
        double[] w = new double[n];
        double tNorm = 0;
        for (int k = 0; k < kmax; k++) {
            org.psdkit.linalg.Congruence.apply(l, dx, n, q[k], u, w);
            double a = dot(q[k], w);
            alpha[k] = a;
            // full re-orthogonalisation against every Lanczos vector (classical Gram–Schmidt, applied twice)
            for (int pass = 0; pass < 2; pass++) {
                for (int j = 0; j <= k; j++) {
                    double c = dot(q[j], w);
                    axpy(-c, q[j], w);
                }
            }
            double b = norm(w);
            beta[k] = b;
            tNorm = Math.max(tNorm, Math.abs(a) + b + (k > 0 ? beta[k - 1] : 0));
            int dim = k + 1;
            // the tridiagonal T_k: its smallest eigenvalue and the last entry of its eigenvector
            double[] t = new double[dim * dim];
            for (int j = 0; j < dim; j++) {
                t[j + j * dim] = alpha[j];
                if (j + 1 < dim) {
                    t[j + 1 + j * dim] = beta[j];
                    t[j + (j + 1) * dim] = beta[j];
                }
            }
            Eigen e = Linalg.eigh(Matrix.wrap(dim, dim, t));
            double theta = e.values()[0];
            double residual = b * Math.abs(e.vectors().get(dim - 1, 0));
            boolean invariant = b <= 1e-14 * Math.max(tNorm, Double.MIN_NORMAL);
            if (invariant || residual <= RELATIVE_TOLERANCE * Math.max(Math.abs(theta), 1e-3 * tNorm)) {
                return theta - residual;
            }
            if (k + 1 < kmax) {
                double[] next = w.clone();
                scale(next, 1.0 / b);
                q[k + 1] = next;
            }
        }
        return Double.NaN;
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
