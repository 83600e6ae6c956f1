package org.psdkit.regression;

import org.psdkit.kernel.Kernel;
import org.psdkit.linalg.Eigen;
import org.psdkit.linalg.Linalg;
import org.psdkit.linalg.Matrix;
import org.psdkit.model.ParameterException;

/**
 * Exact leave-one-out and generalised cross-validation of kernel ridge regression along a path of λ from one
 * eigendecomposition, the shortcut behind scikit-learn's {@code RidgeCV} (Golub, Heath &amp; Wahba 1979; Rifkin &amp;
 * Lippert 2007, "Notes on regularized least squares", Sec. 4).
 *
 * <p>Exact KRR ((K + λI)α = y, no intercept): with K = V diag(s) Vᵀ and G = (K + λI)⁻¹, the hat matrix is
 * H = K G = I − λG, the residual y − Kα = λα, so the leave-one-out residual is
 * r_i / (1 − H_ii) = α_i / G_ii with G_ii = Σ_j V_ij² / (s_j + λ); GCV is (‖r‖²/n) / (1 − tr H / n)² with
 * tr H = Σ_j s_j / (s_j + λ). Each λ costs two products with V (O(n²) per λ, all λ in one matrix product) after the
 * O(n³) decomposition.
 *
 * <p>Nyström KRR ((K_nmᵀK_nm + λK_mm)α = K_nmᵀy on fixed anchors): with K_mm = W Λ Wᵀ restricted to its numerically
 * positive part, B = K_nm W Λ^{-1/2} (n×r) and BᵀB = U diag(s) Uᵀ, Z = B U, the hat matrix is
 * H = Z diag(1/(s + λ)) Zᵀ, and r_i / (1 − H_ii) is exact because the fit is a penalised least-squares problem in
 * α (its minimiser without row i also minimises the full objective with y_i replaced by its own prediction).
 * O(nm²) once, O(nm) per λ.
 */
public final class KrrLoo {
    private KrrLoo() {
    }

    /**
     * The errors along the path.
     *
     * @param lambdas   the λ values, in the order given
     * @param looMse    mean squared leave-one-out residual per λ
     * @param gcv       generalised cross-validation score per λ
     * @param residuals leave-one-out residuals y_i − f_{−i}(x_i), n × (number of λ)
     */
    public record Path(double[] lambdas, double[] looMse, double[] gcv, Matrix residuals) {
        /** The index of the λ with the smallest leave-one-out error (the first on ties). */
        public int bestLoo() {
            return argmin(looMse);
        }

        /** The index of the λ with the smallest GCV score (the first on ties). */
        public int bestGcv() {
            return argmin(gcv);
        }

        private static int argmin(double[] v) {
            int b = 0;
            for (int i = 1; i < v.length; i++) {
                if (v[i] < v[b]) {
                    b = i;
                }
            }
            return b;
        }
    }

    private static void checkLambdas(double[] lambdas) {
        if (lambdas.length == 0) {
            throw new ParameterException("lambdas", "must hold at least one value");
        }
        for (double l : lambdas) {
            ParameterException.positive("lambda", l);
        }
    }

    /** Exact KRR's leave-one-out path on the Gram matrix of x (each λ &gt; 0). */
    public static Path exact(Kernel kernel, Matrix x, double[] y, double[] lambdas) {
        if (y.length != x.rows() || y.length < 2) {
            throw new IllegalArgumentException("kernel ridge leave-one-out: " + x.rows() + " points and " + y.length
                    + " targets (at least two needed)");
        }
        checkLambdas(lambdas);
        org.psdkit.kernel.Kernels.requireFinite(kernel, x, "kernel ridge");
        return exactGram(kernel.gram(x), y, lambdas);
    }

    /** {@link #exact} on a precomputed Gram matrix (not modified). */
    public static Path exactGram(Matrix k, double[] y, double[] lambdas) {
        checkLambdas(lambdas);
        int n = y.length;
        Eigen e = Linalg.eigh(k);
        double[] s = e.values().clone();
        for (int j = 0; j < n; j++) {
            s[j] = Math.max(s[j], 0);
        }
        Matrix v = e.vectors();
        double[] c = Linalg.gemv(v, true, y); // Vᵀy
        int nl = lambdas.length;
        Matrix inv = Matrix.zeros(n, nl);   // 1/(s_j + λ_l)
        Matrix cInv = Matrix.zeros(n, nl);  // c_j/(s_j + λ_l)
        double[] trace = new double[nl];
        for (int l = 0; l < nl; l++) {
            double lam = lambdas[l];
            double t = 0;
            for (int j = 0; j < n; j++) {
                double d = 1.0 / (s[j] + lam);
                inv.set(j, l, d);
                cInv.set(j, l, c[j] * d);
                t += s[j] * d;
            }
            trace[l] = t;
        }
        Matrix v2 = v.copy();
        double[] a2 = v2.data();
        for (int i = 0; i < a2.length; i++) {
            a2[i] *= a2[i];
        }
        Matrix g = Linalg.gemm(1.0, v2, false, inv, false);     // G_ii per λ
        Matrix alpha = Linalg.gemm(1.0, v, false, cInv, false); // α per λ
        Matrix res = Matrix.zeros(n, nl);
        double[] loo = new double[nl];
        double[] gcv = new double[nl];
        for (int l = 0; l < nl; l++) {
            double sl = 0;
            double sr = 0;
            for (int i = 0; i < n; i++) {
                double a = alpha.get(i, l);
                double r = a / g.get(i, l);
                res.set(i, l, r);
                sl += r * r;
                double fitRes = lambdas[l] * a;
                sr += fitRes * fitRes;
            }
            loo[l] = sl / n;
            double den = 1 - trace[l] / n;
            gcv[l] = (sr / n) / (den * den);
        }
        return new Path(lambdas.clone(), loo, gcv, res);
    }

    /**
     * Nyström KRR's leave-one-out path on fixed anchors (each λ &gt; 0): see the class comment.
     *
     * @param anchors the m anchors (rows with x's columns)
     */
    public static Path nystrom(Kernel kernel, Matrix x, Matrix anchors, double[] y, double[] lambdas) {
        if (y.length != x.rows() || y.length < 2) {
            throw new IllegalArgumentException("nystrom krr leave-one-out: " + x.rows() + " points and " + y.length
                    + " targets (at least two needed)");
        }
        checkLambdas(lambdas);
        int n = y.length;
        Eigen ek = Linalg.eigh(kernel.gram(anchors));
        double[] lam = ek.values();
        double max = 0;
        for (double v : lam) {
            max = Math.max(max, v);
        }
        double cut = org.psdkit.linalg.SpdSolve.RANK_TOL * max;
        int m = lam.length;
        int r = 0;
        for (double v : lam) {
            r += v > cut ? 1 : 0;
        }
        Matrix w = Matrix.zeros(m, r); // W Λ^{-1/2} on the kept directions
        for (int j = 0, k = 0; j < m; j++) {
            if (lam[j] > cut) {
                double sc = 1.0 / Math.sqrt(lam[j]);
                for (int i = 0; i < m; i++) {
                    w.set(i, k, ek.vectors().get(i, j) * sc);
                }
                k++;
            }
        }
        // BᵀB = (WΛ^{-1/2})ᵀ K_nmᵀK_nm (WΛ^{-1/2}) from the m×m Gram matrix, then Z = K_nm (WΛ^{-1/2} U): two
        // n·m² products in all, as many as the fit's K_nmᵀK_nm and one more
        Matrix knm = kernel.cross(x, anchors);
        Matrix gram = Linalg.syrk(knm, true);
        Matrix btb = Linalg.gemm(1.0, w, true, Linalg.gemm(1.0, gram, false, w, false), false);
        btb.symmetrizeInPlace();
        Eigen eb = Linalg.eigh(btb);
        double[] s = eb.values().clone();
        for (int j = 0; j < r; j++) {
            s[j] = Math.max(s[j], 0);
        }
        Matrix z = Linalg.gemm(1.0, knm, false, Linalg.gemm(1.0, w, false, eb.vectors(), false), false); // n×r
        double[] c = Linalg.gemv(z, true, y);
        int nl = lambdas.length;
        Matrix inv = Matrix.zeros(r, nl);
        Matrix cInv = Matrix.zeros(r, nl);
        double[] trace = new double[nl];
        for (int l = 0; l < nl; l++) {
            double t = 0;
            for (int j = 0; j < r; j++) {
                double d = 1.0 / (s[j] + lambdas[l]);
                inv.set(j, l, d);
                cInv.set(j, l, c[j] * d);
                t += s[j] * d;
            }
            trace[l] = t;
        }
        Matrix z2 = z.copy();
        double[] a2 = z2.data();
        for (int i = 0; i < a2.length; i++) {
            a2[i] *= a2[i];
        }
        Matrix h = Linalg.gemm(1.0, z2, false, inv, false);     // H_ii per λ
        Matrix fit = Linalg.gemm(1.0, z, false, cInv, false);   // fitted values per λ
        Matrix res = Matrix.zeros(n, nl);
        double[] loo = new double[nl];
        double[] gcv = new double[nl];
        for (int l = 0; l < nl; l++) {
            double sl = 0;
            double sr = 0;
            for (int i = 0; i < n; i++) {
                double ri = y[i] - fit.get(i, l);
                double e = ri / (1 - h.get(i, l));
                res.set(i, l, e);
                sl += e * e;
                sr += ri * ri;
            }
            loo[l] = sl / n;
            double den = 1 - trace[l] / n;
            gcv[l] = (sr / n) / (den * den);
        }
        return new Path(lambdas.clone(), loo, gcv, res);
    }
}
