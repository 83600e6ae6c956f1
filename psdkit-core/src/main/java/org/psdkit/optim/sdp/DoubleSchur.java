package org.psdkit.optim.sdp;

import java.util.Arrays;
import java.util.List;
import org.psdkit.linalg.Linalg;
import org.psdkit.linalg.Matrix;

/**
 * The Schur complement M_ij = ⟨A_i, X A_j Z⁻¹⟩ of the double-precision iteration ({@link SdpSolver}), assembled block
 * by block from the stored form of every A_i: for a sparse A_j one of the formulas F1 (G = X A_j Z⁻¹ by GEMM, then
 * sparse inner products ⟨A_i, G⟩), F2 (only the columns of X A_j in the support of A_j) and F3 (a double sum over the
 * nonzeros of A_i and A_j) of Fujisawa, Kojima &amp; Nakata (1997, §3), chosen by an operation count; for low-rank
 * A_i = U_i D_i U_iᵀ, M_ij = tr(D_i U_iᵀ X U_j D_j U_jᵀ Z⁻¹ U_i); diagonal (LP) blocks contribute
 * Σ_k a_ik a_jk x_k / z_k; dense rank-one constraints ({@link RankOne}) from the accurate X u and Z⁻¹ u of
 * the iteration.
 */
final class DoubleSchur implements SchurAssembly<double[], Matrix> {
    private final int m;
    private final int nb;
    private final int[] n;
    private final boolean[] lp;
    // per SDP block: sparse terms (sorted by decreasing expanded count) and low-rank terms
    private final List<List<SdpProblem.Term>> sparseTerms;
    private final List<List<SdpProblem.Term>> lowRankTerms;
    // per LP block: transpose (for each position, constraints and values)
    private final int[][][] lpCons;
    private final double[][][] lpVals;
    // per SDP block: its dense rank-one constraint matrices (null: none)
    private final RankOne[][] rankOne;
    // per SDP block and rank-one term of the current iteration: X u and Z⁻¹ u (null: rank-one terms not split)
    private double[][][] r1Xu;
    private double[][][] r1Zu;
    /** F1 for every sparse column (SdpOptions.SchurMode.DENSE), else the formula of least operation count. */
    boolean dense;

    DoubleSchur(int m, int[] n, boolean[] lp, List<List<SdpProblem.Term>> sparseTerms,
                List<List<SdpProblem.Term>> lowRankTerms, int[][][] lpCons, double[][][] lpVals,
                RankOne[][] rankOne, boolean dense) {
        this.m = m;
        this.nb = n.length;
        this.n = n;
        this.lp = lp;
        this.sparseTerms = sparseTerms;
        this.lowRankTerms = lowRankTerms;
        this.lpCons = lpCons;
        this.lpVals = lpVals;
        this.rankOne = rankOne;
        this.dense = dense;
    }

    /** X u and Z⁻¹ u of the current iteration for every rank-one term (null when they are not split off). */
    void rankOneProducts(double[][][] xu, double[][][] zu) {
        this.r1Xu = xu;
        this.r1Zu = zu;
    }

    /**
     * F3 is chosen only when its operation count is 4× below F1's and F2's: its inner loop reads X and Z⁻¹ at
     * scattered positions (two cache misses per term where F2 streams a row), and on small blocks (SDPLIB's hinf)
     * the F2 count it undercuts is a few hundred operations, where switching formulas only reorders the sums.
     */
    static final double F3_ADVANTAGE = 4.0;

    /** 0: choose F1/F2/F3 per constraint by the operation count; 1–3: always that formula (tests). */
    int forcedFormula;

    @Override
    public Matrix assemble(double[][] x, double[][] zi) {
        double[] mm = new double[m * m];
        for (int b = 0; b < nb; b++) {
            if (lp[b]) {
                schurLp(b, x[b], zi[b], mm);
            } else {
                schurSdp(b, x[b], zi[b], mm);
            }
        }
        Matrix out = Matrix.wrap(m, m, mm);
        return out;
    }

    private void add(double[] mm, int i, int j, double v) {
        addSym(mm, m, i, j, v);
    }

    /** M_ij += v and, off the diagonal, M_ji += v (m×m column-major). */
    static void addSym(double[] mm, int m, int i, int j, double v) {
        mm[i + j * m] += v;
        if (i != j) {
            mm[j + i * m] += v;
        }
    }

    private void schurLp(int b, double[] x, double[] zi, double[] mm) {
        for (int k = 0; k < n[b]; k++) {
            double d = x[k] * zi[k];
            int[] cons = lpCons[b][k];
            double[] vals = lpVals[b][k];
            for (int a = 0; a < cons.length; a++) {
                double va = vals[a] * d;
                for (int c = 0; c <= a; c++) {
                    add(mm, cons[a], cons[c], va * vals[c]);
                }
            }
        }
    }

    /**
     * The Schur entries of block b's dense rank-one terms A_k = d u uᵀ against every sparse term of the block:
     * ⟨A_k, X A_j Z⁻¹⟩ = d (X u)ᵀ A_j (Z⁻¹ u), from the accurate X u and Z⁻¹ u of the iteration (r1Xu, r1Zu).
     */
    private void schurRankOne(int b, double[] mm) {
        List<SdpProblem.Term> sp = sparseTerms.get(b);
        RankOne[] r1 = rankOne[b];
        for (int k = 0; k < r1.length; k++) {
            double[] xu = r1Xu[b][k];
            double[] zu = r1Zu[b][k];
            int ck = r1[k].term.constraint();
            for (SdpProblem.Term tj : sp) {
                int kj = -1;
                for (int q = 0; q < r1.length; q++) {
                    if (r1[q].term == tj) {
                        kj = q;
                    }
                }
                if (kj >= 0 && kj < k) {
                    continue; // the pair was added from the other side
                }
                Coefficient.Sparse aj = (Coefficient.Sparse) tj.coefficient();
                double v = 0;
                for (int e = 0; e < aj.ea.length; e++) {
                    v += aj.ea[e] * xu[aj.ep[e]] * zu[aj.eq[e]];
                }
                add(mm, ck, tj.constraint(), r1[k].d * v);
            }
        }
    }

    private void schurSdp(int b, double[] x, double[] zi, double[] mm) {
        int s = n[b];
        List<SdpProblem.Term> sp = sparseTerms.get(b);
        List<SdpProblem.Term> lr = lowRankTerms.get(b);
        int ns = sp.size();
        long[] suffix = new long[ns + 1];
        for (int k = ns - 1; k >= 0; k--) {
            suffix[k] = suffix[k + 1] + ((Coefficient.Sparse) sp.get(k).coefficient()).expandedCount();
        }
        int[] pos = new int[s];
        Arrays.fill(pos, -1);
        double[] t = null;
        boolean[] skip = new boolean[ns];
        boolean r1 = r1Xu != null && rankOne[b] != null;
        if (r1) {
            for (int ii = 0; ii < ns; ii++) {
                skip[ii] = RankOne.isRankOne(rankOne[b], sp.get(ii));
            }
            schurRankOne(b, mm);
        }
        for (int jj = 0; jj < ns; jj++) {
            if (skip[jj]) {
                continue;
            }
            Coefficient.Sparse aj = (Coefficient.Sparse) sp.get(jj).coefficient();
            int j = sp.get(jj).constraint();
            int nnz = aj.expandedCount();
            int k = aj.support.length;
            // operation counts of the three formulas of Fujisawa, Kojima & Nakata (1997, §3) for this column
            double costDense = 2.0 * s * s * s + (double) s * nnz + suffix[jj];
            double costSparse = (double) s * nnz + (double) k * s + (double) k * suffix[jj];
            double costVerySparse = 2.0 * nnz * suffix[jj];
            int formula = dense ? 1 : forcedFormula != 0 ? forcedFormula
                    : F3_ADVANTAGE * costVerySparse <= Math.min(costDense, costSparse) ? 3
                    : costDense < costSparse ? 1 : 2;
            if (formula == 3) {
                // F3: M_ij = Σ_{(p,q) ∈ A_i} Σ_{(r,t) ∈ A_j} a_pq b_rt X(q,r) Z⁻¹(t,p), no intermediate matrix
                for (int ii = jj; ii < ns; ii++) {
                    if (skip[ii]) {
                        continue;
                    }
                    Coefficient.Sparse ai = (Coefficient.Sparse) sp.get(ii).coefficient();
                    double v = 0;
                    for (int f = 0; f < nnz; f++) {
                        int xr = aj.ep[f] * s; // X(q, r) = X[q + r s]
                        int zt = aj.eq[f];     // Z⁻¹(t, p) = Z⁻¹[t + p s]
                        double w = 0;
                        for (int e = 0; e < ai.ea.length; e++) {
                            w += ai.ea[e] * x[ai.eq[e] + xr] * zi[zt + ai.ep[e] * s];
                        }
                        v += aj.ea[f] * w;
                    }
                    add(mm, sp.get(ii).constraint(), j, v);
                }
            } else if (formula == 1) {
                if (t == null) {
                    t = new double[s * s];
                } else {
                    Arrays.fill(t, 0);
                }
                for (int e = 0; e < nnz; e++) { // T(:, q) += a X(:, p)
                    int pp = aj.ep[e] * s;
                    int qq = aj.eq[e] * s;
                    double a = aj.ea[e];
                    for (int r = 0; r < s; r++) {
                        t[qq + r] += a * x[pp + r];
                    }
                }
                double[] g = SdpSolver.gemm(s, t, zi);
                for (int ii = jj; ii < ns; ii++) {
                    if (skip[ii]) {
                        continue;
                    }
                    Coefficient.Sparse ai = (Coefficient.Sparse) sp.get(ii).coefficient();
                    double v = 0;
                    for (int e = 0; e < ai.ea.length; e++) {
                        v += ai.ea[e] * g[ai.ep[e] + ai.eq[e] * s];
                    }
                    add(mm, sp.get(ii).constraint(), j, v);
                }
            } else {
                int[] sup = aj.support;
                for (int c = 0; c < k; c++) {
                    pos[sup[c]] = c;
                }
                // T(:, sup[c]) = Σ_{e: q_e = sup[c]} a_e X(:, p_e), one contiguous axpy per entry (X is exactly
                // symmetric, so its row p_e is its column p_e); every T(r, c) receives the same products in the same
                // order as in a loop over r outside the entries, so the values are the same, but the loop over r
                // reads X and T with stride 1 (gpp's all-ones constraint: s·nnz = 1.9e6 such updates per iteration
                // on gpp124, where the strided form took most of the Schur assembly)
                double[] tcol = new double[s * k]; // tcol[r + c s] = T(r, sup[c])
                for (int e = 0; e < nnz; e++) {
                    int cs = pos[aj.eq[e]] * s;
                    int ps = aj.ep[e] * s;
                    double a = aj.ea[e];
                    for (int r = 0; r < s; r++) {
                        tcol[cs + r] += a * x[ps + r];
                    }
                }
                double[] tct = new double[k * s]; // tct[c + r k] = T(r, sup[c])
                for (int c = 0; c < k; c++) {
                    for (int r = 0; r < s; r++) {
                        tct[c + r * k] = tcol[r + c * s];
                    }
                }
                double[] zs = new double[k * s]; // zs[c + col k] = Zi(sup[c], col)
                for (int col = 0; col < s; col++) {
                    for (int c = 0; c < k; c++) {
                        zs[c + col * k] = zi[sup[c] + col * s];
                    }
                }
                for (int ii = jj; ii < ns; ii++) {
                    if (skip[ii]) {
                        continue;
                    }
                    Coefficient.Sparse ai = (Coefficient.Sparse) sp.get(ii).coefficient();
                    double v = 0;
                    for (int e = 0; e < ai.ea.length; e++) {
                        int ro = ai.ep[e] * k;
                        int co = ai.eq[e] * k;
                        double d = 0;
                        for (int c = 0; c < k; c++) {
                            d += tct[ro + c] * zs[co + c];
                        }
                        v += ai.ea[e] * d;
                    }
                    add(mm, sp.get(ii).constraint(), j, v);
                }
                for (int c = 0; c < k; c++) {
                    pos[sup[c]] = -1;
                }
            }
        }
        schurLowRank(b, x, zi, mm, sp, lr, s);
    }

    /**
     * Block b's low-rank terms A_a = U_a D_a U_aᵀ in the Schur complement: M_ac = tr(D_a U_aᵀ X U_c D_c U_cᵀ Z⁻¹ U_a)
     * from U_allᵀ X U_all and U_allᵀ Z⁻¹ U_all, and their rows against the sparse terms {@code sp}.
     */
    private void schurLowRank(int b, double[] x, double[] zi, double[] mm, List<SdpProblem.Term> sp,
                              List<SdpProblem.Term> lr, int s) {
        int ns = sp.size();
        if (lr.isEmpty()) {
            return;
        }
        int nl = lr.size();
        int[] off = new int[nl + 1];
        for (int a = 0; a < nl; a++) {
            off[a + 1] = off[a] + ((Coefficient.LowRank) lr.get(a).coefficient()).rank();
        }
        int rr = off[nl];
        double[] uall = new double[s * rr];
        double[] dblk = new double[rr * rr];
        for (int a = 0; a < nl; a++) {
            Coefficient.LowRank c = (Coefficient.LowRank) lr.get(a).coefficient();
            int k = c.rank();
            System.arraycopy(c.u.data(), 0, uall, off[a] * s, s * k);
            for (int q = 0; q < k; q++) {
                for (int r = 0; r < k; r++) {
                    dblk[(off[a] + r) + (off[a] + q) * rr] = c.d[r + q * k];
                }
            }
        }
        Matrix u = Matrix.wrap(s, rr, uall);
        double lrFlops = 2.0 * s * s * rr;
        Matrix xu = SdpSolver.blas(lrFlops, () -> Linalg.gemm(1.0, Matrix.wrap(s, s, x), false, u, false));
        Matrix zu = SdpSolver.blas(lrFlops, () -> Linalg.gemm(1.0, Matrix.wrap(s, s, zi), false, u, false));
        Matrix wx = Linalg.gemm(1.0, u, true, xu, false);
        Matrix wz = Linalg.gemm(1.0, u, true, zu, false);
        // P = D Wx (row-block a uses D_a), Q = D Wz; M_ij = tr(P_ij Q_ji)
        double[] pm = LowRankBatch.blockDiagTimes(off, dblk, rr, wx.data(), rr);
        double[] qm = LowRankBatch.blockDiagTimes(off, dblk, rr, wz.data(), rr);
        for (int a = 0; a < nl; a++) {
            for (int c = 0; c <= a; c++) {
                double v = 0;
                for (int r = off[a]; r < off[a + 1]; r++) {
                    for (int q = off[c]; q < off[c + 1]; q++) {
                        v += pm[r + q * rr] * qm[q + r * rr];
                    }
                }
                add(mm, lr.get(a).constraint(), lr.get(c).constraint(), v);
            }
        }
        if (ns == 0) {
            return;
        }
        double[] xud = LowRankBatch.timesBlockDiag(s, xu.data(), off, dblk, rr); // (XU)D
        double[] zud = zu.data();
        for (SdpProblem.Term ti : sp) {
            Coefficient.Sparse ai = (Coefficient.Sparse) ti.coefficient();
            for (int c = 0; c < nl; c++) {
                double v = 0;
                for (int e = 0; e < ai.ea.length; e++) {
                    int r = ai.ep[e];
                    int q = ai.eq[e];
                    double d = 0;
                    for (int w = off[c]; w < off[c + 1]; w++) {
                        d += xud[r + w * s] * zud[q + w * s];
                    }
                    v += ai.ea[e] * d;
                }
                add(mm, ti.constraint(), lr.get(c).constraint(), v);
            }
        }
    }
}
