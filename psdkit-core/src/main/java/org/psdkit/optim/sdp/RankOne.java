package org.psdkit.optim.sdp;

/**
 * A sparse constraint matrix that is dense and of rank one, A = d·u uᵀ (u = A(:,p), d = 1/A(p,p) for the
 * diagonal entry p of largest modulus), with b_i = 0 (gpp's ⟨J, X⟩ = 0): then every feasible X has X u = 0, the
 * dual optimal set is unbounded along y_i, and X u is a tiny vector formed from O(1) entries. Its part of the
 * HKM product X dZ Z⁻¹ is formed as the outer product dy_i·d·(X u)(Z⁻¹u)ᵀ instead of inside the dense
 * products X·dZ·Z⁻¹ ({@code SdpSolver.dxOf}), and its Schur row from an accurate X u ({@code DoubleSchur}). A
 * rank-one constraint with b_i ≠ 0 (qap's) keeps the plain products: X u is not small there, and the changed rounding
 * only moved qap6/7/10 by +4…+10 iterations (qap8/9 by −2, −3) through their double-double restart.
 */
final class RankOne {

    /**
     * A sparse constraint matrix dense on a support of at least this many indices is tested for rank one (gpp's
     * all-ones A_0): on smaller blocks (SDPLIB's hinf) the plain products are cheap and stay unchanged.
     */
    static final int MIN_SUPPORT = 16;
    /**
     * Largest |A(i,j) − A(i,p)A(p,j)/A(p,p)| accepted as rank one, relative to max|A|: a few units of rounding of
     * the product and quotient (2⁻⁵² ≈ 2.2e-16), so only matrices that are rank one up to rounding qualify.
     */
    static final double TOLERANCE = 1e-14;

    final SdpProblem.Term term;
    final double[] u;
    final double d;

    private RankOne(SdpProblem.Term term, double[] u, double d) {
        this.term = term;
        this.u = u;
        this.d = d;
    }

    /** The rank-one form of a sparse term, or null when it is not dense and of rank one. */
    static RankOne of(SdpProblem.Term t) {
        Coefficient.Sparse a = (Coefficient.Sparse) t.coefficient();
        int[] sup = a.support;
        int k = sup.length;
        if (k < MIN_SUPPORT || a.expandedCount() < (long) k * k) {
            return null;
        }
        int s = a.size();
        int[] pos = new int[s];
        for (int c = 0; c < k; c++) {
            pos[sup[c]] = c;
        }
        double[] dd = new double[k * k];
        boolean[] set = new boolean[k * k];
        for (int e = 0; e < a.ea.length; e++) {
            int idx = pos[a.ep[e]] + pos[a.eq[e]] * k;
            dd[idx] += a.ea[e];
            set[idx] = true;
        }
        double max = 0;
        for (int idx = 0; idx < k * k; idx++) {
            if (!set[idx]) {
                return null;
            }
            max = Math.max(max, Math.abs(dd[idx]));
        }
        int piv = 0;
        for (int c = 1; c < k; c++) {
            if (Math.abs(dd[c + c * k]) > Math.abs(dd[piv + piv * k])) {
                piv = c;
            }
        }
        double app = dd[piv + piv * k];
        if (app == 0) {
            return null;
        }
        double tol = TOLERANCE * max;
        for (int j = 0; j < k; j++) {
            double ajp = dd[piv + j * k] / app;
            for (int i = 0; i < k; i++) {
                if (Math.abs(dd[i + j * k] - dd[i + piv * k] * ajp) > tol) {
                    return null;
                }
            }
        }
        double[] u = new double[s];
        for (int c = 0; c < k; c++) {
            u[sup[c]] = dd[c + piv * k];
        }
        return new RankOne(t, u, 1.0 / app);
    }

    /** Whether {@code t} is one of the rank-one terms {@code r1}. */
    static boolean isRankOne(RankOne[] r1, SdpProblem.Term t) {
        for (RankOne r : r1) {
            if (r.term == t) {
                return true;
            }
        }
        return false;
    }

    /**
     * out −= Σ_{rank-one i} w_i d_i (V u_i)(Z⁻¹u_i)ᵀ on a block of order s, for V u_i given (X u_i or dX u_i):
     * the rank-one part of V·dZ·Z⁻¹ when dZ's rank-one part is −Σ w_i d_i u_i u_iᵀ
     * (zu[k] = Z⁻¹u_k).
     */
    static void subtract(RankOne[] r1, int s, double[][] zu, double[] w, double[][] vu, double[] out) {
        for (int k = 0; k < r1.length; k++) {
            double c = w[r1[k].term.constraint()] * r1[k].d;
            if (c == 0) {
                continue;
            }
            double[] a = vu[k];
            for (int j = 0; j < s; j++) {
                double cz = c * zu[k][j];
                for (int i = 0; i < s; i++) {
                    out[i + j * s] -= a[i] * cz;
                }
            }
        }
    }

    /**
     * V u for every rank-one term r1 of a block of order s; with {@code compensated}, each sum is accumulated with
     * the error-free transformations of Ogita, Rump &amp; Oishi (2005, Dot2: TwoProduct by fma, TwoSum), i.e. as if
     * in twice the working precision: X u for gpp's u = e is a tiny vector (every feasible X has Xe = 0) formed from O(1)
     * entries, which plain summation gets only to u·n·max|X| absolutely.
     */
    static double[][] times(RankOne[] r1, int s, double[] v, boolean compensated) {
        double[][] out = new double[r1.length][];
        for (int k = 0; k < r1.length; k++) {
            double[] u = r1[k].u;
            double[] o = new double[s];
            double[] c = compensated ? new double[s] : null;
            for (int j = 0; j < s; j++) {
                double uj = u[j];
                if (uj == 0) {
                    continue;
                }
                if (compensated) {
                    for (int i = 0; i < s; i++) {
                        double pr = v[i + j * s] * uj;
                        double pe = Math.fma(v[i + j * s], uj, -pr);
                        double a = o[i];
                        double sum = a + pr;
                        double bb = sum - a;
                        c[i] += (a - (sum - bb)) + (pr - bb) + pe;
                        o[i] = sum;
                    }
                } else {
                    for (int i = 0; i < s; i++) {
                        o[i] += v[i + j * s] * uj;
                    }
                }
            }
            if (compensated) {
                for (int i = 0; i < s; i++) {
                    o[i] += c[i];
                }
            }
            out[k] = o;
        }
        return out;
    }
}
