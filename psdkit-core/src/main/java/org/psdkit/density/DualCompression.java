package org.psdkit.density;

import org.psdkit.linalg.Eigen;
import org.psdkit.linalg.Linalg;
import org.psdkit.linalg.Matrix;

/**
 * The density dual's matrix C(μ') = C(μ) + (μ' − μ)W near a point μ where the k top eigenpairs (Λ, Q) of C(μ) and
 * an upper bound {@code out} on its other eigenvalues are known; W ⪰ 0 (W is a Gram matrix of L² inner products).
 * It gives, for every μ', two bounds on ‖[C(μ')]_+‖_F² from k×k matrices only (one r×r·r×k product to build):
 *
 * <ul>
 *   <li><b>lower</b>: the compression H(μ') = QᵀC(μ')Q = Λ + δK (δ = μ' − μ, K = QᵀWQ): by Cauchy interlacing
 *   (Horn &amp; Johnson 2013, Cor. 4.3.37) its j-th largest eigenvalue is at most C(μ')'s, so
 *   ‖[H(μ')]_+‖² ≤ ‖[C(μ')]_+‖²;</li>
 *   <li><b>upper</b>: in the basis [Q, Q⊥], C(μ') = [[H, B], [Bᵀ, G]] with B = QᵀC(μ')Q⊥ = δQᵀWQ⊥ (Q are
 *   eigenvectors of C(μ)) and G = Q⊥ᵀC(μ')Q⊥ ⪯ (out + max(δ, 0)‖W‖₂)I. For t &gt; 0,
 *   C(μ') ⪯ diag(H + BBᵀ/t, G + tI) (the difference is [B/√t; −√t I][B/√t; −√t I]ᵀ ⪰ 0); with
 *   t = −(out + max(δ, 0)‖W‖₂) &gt; 0 the block G + tI ⪯ 0 has no positive eigenvalue, and Weyl's monotonicity
 *   (Horn &amp; Johnson 2013, Cor. 4.3.12: X ⪯ Y ⇒ λ_j(X) ≤ λ_j(Y) for every j) gives
 *   ‖[C(μ')]_+‖² ≤ ‖[H + BBᵀ/t]_+‖² with BBᵀ = δ²Y, Y = QᵀW(I − QQᵀ)WQ = (WQ)ᵀ(WQ) − K².</li>
 * </ul>
 *
 * Both are exact at μ' = μ; their difference is O(δ²), so a dual point (β, μ') can be certified near the
 * decomposed μ without another r×r eigen-decomposition. When Q spans everything (k = r) both equal the true value.
 */
final class DualCompression {

    final double mu;
    private final double[] lam;
    private final Matrix k;
    private final Matrix y;
    private final double out;
    private final double wNorm;

    /**
     * @param mu    where C was decomposed
     * @param e     eigenpairs of C(μ) (any k of them, by convention the top ones; vectors r×k)
     * @param out   an upper bound on the eigenvalues of C(μ) not in e (−∞ when e has all r)
     * @param w     W (r×r, ⪰ 0)
     * @param wNorm an upper bound on ‖W‖₂ (e.g. ‖W‖_F)
     */
    DualCompression(double mu, Eigen e, double out, Matrix w, double wNorm) {
        this.mu = mu;
        this.lam = e.values().clone();
        this.out = out;
        this.wNorm = wNorm;
        Matrix q = e.vectors();
        Matrix wq = Linalg.gemm(1.0, w, false, q, false);
        Matrix kk = Linalg.gemm(1.0, q, true, wq, false);
        kk.symmetrizeInPlace();
        this.k = kk;
        if (q.cols() == q.rows()) {
            this.y = null;
        } else {
            Matrix yy = Linalg.gemm(1.0, wq, true, wq, false);
            Linalg.gemmInPlace(-1.0, kk, false, kk, false, 1.0, yy);
            yy.symmetrizeInPlace();
            this.y = yy;
        }
    }

    int size() {
        return lam.length;
    }

    /** H(μ') = Λ + δK. */
    private Matrix compressed(double muP) {
        double d = muP - mu;
        Matrix h = k.scale(d);
        for (int j = 0; j < lam.length; j++) {
            h.add(j, j, lam[j]);
        }
        return h;
    }

    private static double positiveSquares(double[] v) {
        double s = 0;
        for (double x : v) {
            if (x > 0) {
                s += x * x;
            }
        }
        return s;
    }

    /** A lower bound on ‖[C(μ')]_+‖² (exact at μ' = μ or when k = r). */
    double lower(double muP) {
        return positiveSquares(Linalg.eigvalsh(compressed(muP)));
    }

    /** The t of the upper bound at μ' (≤ 0: no bound there); +∞ when Q spans everything. */
    double separation(double muP) {
        if (y == null) {
            return Double.POSITIVE_INFINITY;
        }
        return -(out + Math.max(muP - mu, 0) * wNorm);
    }

    /** An upper bound on ‖[C(μ')]_+‖² (+∞ where none is available). */
    double upper(double muP) {
        double[] v = upperEigenvalues(muP);
        return v == null ? Double.POSITIVE_INFINITY : positiveSquares(v);
    }

    /** Positive eigenvalues counted in the upper bound's matrix at μ' (−1 where none is available). */
    int upperPositive(double muP) {
        double[] v = upperEigenvalues(muP);
        if (v == null) {
            return -1;
        }
        int p = 0;
        for (double x : v) {
            p += x > 0 ? 1 : 0;
        }
        return p;
    }

    private double[] upperEigenvalues(double muP) {
        double d = muP - mu;
        Matrix h = compressed(muP);
        if (y != null && d != 0) {
            double t = separation(muP);
            if (!(t > 0)) {
                return null;
            }
            double c = d * d / t;
            double[] hd = h.data();
            double[] yd = y.data();
            for (int i = 0; i < hd.length; i++) {
                hd[i] += c * yd[i];
            }
        }
        return Linalg.eigvalsh(h);
    }

    /**
     * {d/dμ', d²/dμ'²} of the lower bound ‖[H(μ')]_+‖² (convex in μ'): 2Tr(K[H]_+) and the Daleckii–Krein formula
     * 2Σ_jk (VᵀKV)_jk² Γ_jk with Γ the divided differences of x ↦ max(x, 0) at H's eigenvalues (Bhatia 1997,
     * Thm. V.3.3).
     */
    double[] lowerDerivatives(double muP) {
        double[] th;
        Matrix kv;
        if (muP == mu) {
            // H = Λ is diagonal: no decomposition, O(k²)
            th = lam;
            kv = k;
        } else {
            Eigen e = Linalg.eigh(compressed(muP));
            th = e.values();
            Matrix v = e.vectors();
            kv = Linalg.gemm(1.0, v, true, Linalg.gemm(1.0, k, false, v, false), false);
        }
        int m = th.length;
        double d1 = 0;
        double d2 = 0;
        for (int j = 0; j < m; j++) {
            if (th[j] > 0) {
                d1 += th[j] * kv.get(j, j);
            }
            for (int i = 0; i < m; i++) {
                double g;
                if (th[i] > 0 && th[j] > 0) {
                    g = 1;
                } else if (th[i] > 0) {
                    g = th[i] / (th[i] - th[j]);
                } else if (th[j] > 0) {
                    g = th[j] / (th[j] - th[i]);
                } else {
                    g = 0;
                }
                double x = kv.get(i, j);
                d2 += g * x * x;
            }
        }
        return new double[] {2 * d1, 2 * d2};
    }
}
