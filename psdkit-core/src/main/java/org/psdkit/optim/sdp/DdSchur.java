package org.psdkit.optim.sdp;

import java.util.List;
import org.psdkit.optim.sdp.DoubleDouble.Acc;
import org.psdkit.optim.sdp.DoubleDouble.Mat;

/**
 * The Schur complement M_ij = ⟨A_i, X A_j Z⁻¹⟩ of the double-double iteration ({@link DdSdpSolver}), every entry a
 * compensated sum (Dot2 of Ogita, Rump &amp; Oishi 2005) in double-double: per dense block, G_j = X[:, supp A_j]·
 * (A_j Z⁻¹)[supp A_j, :] only at the positions ⟨A_i, G_j⟩ reads for i ≥ j (Fujisawa, Kojima &amp; Nakata 1997),
 * or through the cross decomposition of A_j ({@link DdTerm.Cross}); diagonal blocks from x_k z⁻¹_k.
 */
final class DdSchur implements SchurAssembly<Mat, Mat> {
    private final int m;
    private final int nb;
    private final int[] n;
    private final boolean[] lp;
    // per block: expanded sparse terms
    private final List<List<DdTerm>> terms;
    // per dense block: the last term index (in the block's term order) with an entry at position p + q·n
    // (neededLast, −1 if none) and the positions sorted by it, decreasing (neededOrder); the Schur assembly for term
    // j needs G_j exactly at the positions whose last term is ≥ j, a prefix of neededOrder
    private final List<int[]> neededLast;
    private final List<int[]> neededOrder;

    DdSchur(int m, int[] n, boolean[] lp, List<List<DdTerm>> terms, List<int[]> neededLast,
            List<int[]> neededOrder) {
        this.m = m;
        this.nb = n.length;
        this.n = n;
        this.lp = lp;
        this.terms = terms;
        this.neededLast = neededLast;
        this.neededOrder = neededOrder;
    }

    /** M at X and Z⁻¹, G_j formed only where it is read (the solver's choice). */
    @Override
    public Mat assemble(Mat[] x, Mat[] zInverse) {
        return assemble(x, zInverse, true);
    }

    /**
     * M_ij = Σ_blocks ⟨A_i, X A_j Z⁻¹⟩ in double-double. With {@code onlyNeeded} (the solver's choice) G_j is formed
     * only at the positions read for i ≥ j when they are fewer than half the block; otherwise in full. Both give the
     * same entries bit for bit (every G entry is the same Dot2 sum).
     */
    Mat assemble(Mat[] x, Mat[] zi, boolean onlyNeeded) {
        Mat mm = new Mat(m, m);
        Acc acc = new Acc();
        Acc tmp = new Acc();
        for (int b = 0; b < nb; b++) {
            List<DdTerm> ts = terms.get(b);
            int s = n[b];
            if (lp[b]) {
                double[] dh = new double[s];
                double[] dl = new double[s];
                for (int k = 0; k < s; k++) {
                    dh[k] = DoubleDouble.mulHi(x[b].h[k], x[b].l[k], zi[b].h[k], zi[b].l[k]);
                    dl[k] = DoubleDouble.mulLo(x[b].h[k], x[b].l[k], zi[b].h[k], zi[b].l[k]);
                }
                // dense d-vector per term pair is cheap enough for the small problems this solver takes
                for (int jj = 0; jj < ts.size(); jj++) {
                    DdTerm tj = ts.get(jj);
                    double[] wj = new double[s];
                    for (int e = 0; e < tj.ea().length; e++) {
                        wj[tj.ep()[e]] += tj.ea()[e];
                    }
                    for (int ii = jj; ii < ts.size(); ii++) {
                        DdTerm ti = ts.get(ii);
                        acc.set(0, 0);
                        for (int e = 0; e < ti.ea().length; e++) {
                            int k = ti.ep()[e];
                            if (wj[k] != 0) {
                                tmp.set(0, 0).addScaled(ti.ea()[e] * 1.0, dh[k], dl[k]);
                                acc.addScaled(wj[k], tmp.hi, tmp.lo);
                            }
                        }
                        addSym(mm, ti.cons(), tj.cons(), acc);
                    }
                }
                continue;
            }
            Mat xb = x[b];
            Mat zb = zi[b];
            int[] order = neededOrder.get(b);
            int[] last = neededLast.get(b);
            // needed[jj]: how many positions (a prefix of order) some term ii ≥ jj reads
            int[] needed = new int[ts.size()];
            int count = order.length;
            for (int jj = 0; jj < ts.size(); jj++) {
                while (count > 0 && last[order[count - 1]] < jj) {
                    count--;
                }
                needed[jj] = count;
            }
            // the terms j of one block write disjoint entries of M (the pairs {cons_i, cons_j}, i ≥ j, each once per
            // block, a constraint having one term per block), and every entry is the same sum whichever thread forms
            // it: the blocks stay in order, so M is bit-identical for any thread count
            long work = m >= DoubleDouble.PARALLEL_MIN_ORDER ? Long.MAX_VALUE : 0;
            org.psdkit.kernel.ParallelColumns.forColumns(ts.size(), work, (from, to) -> {
                double[] hh = new double[s * s];
                double[] hl = new double[s * s];
                double[] gh = new double[s * s];
                double[] gl = new double[s * s];
                Acc a = new Acc();
                for (int jj = from; jj < to; jj++) {
                    schurTerm(mm, ts, jj, s, xb, zb, onlyNeeded, order, needed[jj], hh, hl, gh, gl, a);
                }
            });
        }
        return mm;
    }

    /** The contribution of term jj of a dense block: G_j at the needed positions (or in full), then ⟨A_i, G_j⟩. */
    private void schurTerm(Mat mm, List<DdTerm> ts, int jj, int s, Mat xb, Mat zb, boolean onlyNeeded, int[] order,
                           int needed, double[] hh, double[] hl, double[] gh, double[] gl, Acc acc) {
        DdTerm tj = ts.get(jj);
        int[] sup = tj.support();
        if (tj.cross() != null && crossRoute) {
            crossG(tj.cross(), xb, zb, s, onlyNeeded && needed < s * s / 2 ? order : null, needed, gh, gl);
            innerProducts(mm, ts, jj, s, gh, gl, acc);
            return;
        }
        // H = A_j Zi on the rows of supp(A_j)
        for (int r : sup) {
            for (int q = 0; q < s; q++) {
                hh[r + q * s] = 0;
                hl[r + q * s] = 0;
            }
        }
        for (int e = 0; e < tj.ea().length; e++) {
            int r = tj.ep()[e];
            int col = tj.eq()[e];
            double a = tj.ea()[e];
            for (int q = 0; q < s; q++) {
                acc.set(hh[r + q * s], hl[r + q * s]).addScaled(a, zb.h[col + q * s], zb.l[col + q * s]);
                hh[r + q * s] = acc.hi;
                hl[r + q * s] = acc.lo;
            }
        }
        // G = X[:, supp] H[supp, :], only at the positions ⟨A_i, G⟩ reads for i ≥ j (FKN 1997's point that
        // M_ij needs G_j only on supp A_i: qap's 2-entry constraints read a few hundred of the s² entries)
        // (the inner product of DoubleDouble.dot over the support's indices: Ogita, Rump & Oishi 2005, Dot2)
        if (onlyNeeded && needed < s * s / 2) {
            for (int k = 0; k < needed; k++) {
                int pos = order[k];
                gEntry(xb, hh, hl, sup, s, pos % s, pos / s, gh, gl);
            }
        } else {
            for (int q = 0; q < s; q++) {
                int pr = 0;
                for (; pr + 3 < s; pr += 4) {
                    gEntries4(xb, hh, hl, sup, s, pr, q, gh, gl);
                }
                for (; pr < s; pr++) {
                    gEntry(xb, hh, hl, sup, s, pr, q, gh, gl);
                }
            }
        }
        innerProducts(mm, ts, jj, s, gh, gl, acc);
    }

    /**
     * M_ij += ⟨A_i, G_j⟩ for the terms i ≥ j of a block (Dot2, the coefficients a_e being doubles); four terms i at a
     * time (four independent chains over the same G, each with the operations of the one-term loop
     * {@link #innerProduct}, so every M entry is bit-identical to the term-by-term assembly).
     */
    private void innerProducts(Mat mm, List<DdTerm> ts, int jj, int s, double[] gh, double[] gl, Acc acc) {
        DdTerm tj = ts.get(jj);
        int ii = jj;
        for (; ii + 3 < ts.size() && interleavedInnerProducts; ii += 4) {
            DdTerm t0 = ts.get(ii);
            DdTerm t1 = ts.get(ii + 1);
            DdTerm t2 = ts.get(ii + 2);
            DdTerm t3 = ts.get(ii + 3);
            int len = Math.min(Math.min(t0.ea().length, t1.ea().length), Math.min(t2.ea().length, t3.ea().length));
            double s0 = 0;
            double e0 = 0;
            double s1 = 0;
            double e1 = 0;
            double s2 = 0;
            double e2 = 0;
            double s3 = 0;
            double e3 = 0;
            for (int e = 0; e < len; e++) {
                int idx = t0.ep()[e] + t0.eq()[e] * s;
                double a = t0.ea()[e];
                double prod = a * gh[idx];
                double ep = Math.fma(a, gh[idx], -prod);
                double t = s0 + prod;
                double zz = t - s0;
                e0 += ((s0 - (t - zz)) + (prod - zz)) + ep + a * gl[idx];
                s0 = t;
                idx = t1.ep()[e] + t1.eq()[e] * s;
                a = t1.ea()[e];
                prod = a * gh[idx];
                ep = Math.fma(a, gh[idx], -prod);
                t = s1 + prod;
                zz = t - s1;
                e1 += ((s1 - (t - zz)) + (prod - zz)) + ep + a * gl[idx];
                s1 = t;
                idx = t2.ep()[e] + t2.eq()[e] * s;
                a = t2.ea()[e];
                prod = a * gh[idx];
                ep = Math.fma(a, gh[idx], -prod);
                t = s2 + prod;
                zz = t - s2;
                e2 += ((s2 - (t - zz)) + (prod - zz)) + ep + a * gl[idx];
                s2 = t;
                idx = t3.ep()[e] + t3.eq()[e] * s;
                a = t3.ea()[e];
                prod = a * gh[idx];
                ep = Math.fma(a, gh[idx], -prod);
                t = s3 + prod;
                zz = t - s3;
                e3 += ((s3 - (t - zz)) + (prod - zz)) + ep + a * gl[idx];
                s3 = t;
            }
            innerProduct(mm, t0, tj, len, s0, e0, s, gh, gl, acc);
            innerProduct(mm, t1, tj, len, s1, e1, s, gh, gl, acc);
            innerProduct(mm, t2, tj, len, s2, e2, s, gh, gl, acc);
            innerProduct(mm, t3, tj, len, s3, e3, s, gh, gl, acc);
        }
        for (; ii < ts.size(); ii++) {
            innerProduct(mm, ts.get(ii), tj, 0, 0, 0, s, gh, gl, acc);
        }
    }

    /**
     * M(cons_i, cons_j) += ⟨A_i, G_j⟩: the Dot2 chain over A_i's entries from entry {@code from} on, started at
     * (sum, err), then normalised and added.
     */
    private void innerProduct(Mat mm, DdTerm ti, DdTerm tj, int from, double sum, double err, int s, double[] gh,
                              double[] gl, Acc acc) {
        for (int e = from; e < ti.ea().length; e++) {
            int idx = ti.ep()[e] + ti.eq()[e] * s;
            double a = ti.ea()[e];
            double prod = a * gh[idx];
            double ep = Math.fma(a, gh[idx], -prod);
            double t = sum + prod;
            double zz = t - sum;
            err += ((sum - (t - zz)) + (prod - zz)) + ep + a * gl[idx];
            sum = t;
        }
        double hi = sum + err;
        double zz = hi - sum;
        acc.set(hi, (sum - (hi - zz)) + (err - zz));
        addSym(mm, ti.cons(), tj.cons(), acc);
    }

    /** Whether {@link #innerProducts} runs four terms at a time (tests compare with one at a time). */
    boolean interleavedInnerProducts = true;

    /** Whether the Schur complement uses {@link DdTerm.Cross} terms (tests compare with the support route). */
    boolean crossRoute = true;

    /**
     * G = X A Z⁻¹ for a {@link DdTerm.Cross} coefficient: u_k = Z⁻¹ v_k and w_k = X v_k (Dot2 over v_k's entries), then
     * G(p, q) = Σ_k X(p, k) u_k(q) + w_k(p) Z⁻¹(k, q) by Dot2 over the 2|K| products; at the first {@code needed}
     * positions of {@code order} only, or everywhere when {@code order} is null.
     */
    private static void crossG(DdTerm.Cross c, Mat xb, Mat zb, int s, int[] order, int needed, double[] gh, double[] gl) {
        int nc = c.centre().length;
        double[][] uh = new double[nc][s];
        double[][] ul = new double[nc][s];
        double[][] wh = new double[nc][s];
        double[][] wl = new double[nc][s];
        double[] out = new double[2];
        for (int k = 0; k < nc; k++) {
            for (int q = 0; q < s; q++) {
                scaledSum(c.idx()[k], c.val()[k], zb, q * s, out); // (Z⁻¹ v_k)(q) = Σ_r v_k(r) Z⁻¹(r, q)
                uh[k][q] = out[0];
                ul[k][q] = out[1];
                scaledSumRow(c.idx()[k], c.val()[k], xb, q, s, out); // (X v_k)(q) = Σ_r X(q, r) v_k(r)
                wh[k][q] = out[0];
                wl[k][q] = out[1];
            }
        }
        int count = order == null ? s * s : needed;
        for (int n = 0; n < count; n++) {
            int pos = order == null ? n : order[n];
            int p = pos % s;
            int q = pos / s;
            double sum = 0;
            double err = 0;
            for (int k = 0; k < nc; k++) {
                int ck = c.centre()[k];
                for (int side = 0; side < 2; side++) {
                    double xh = side == 0 ? xb.h[p + ck * s] : wh[k][p];
                    double xl = side == 0 ? xb.l[p + ck * s] : wl[k][p];
                    double yh = side == 0 ? uh[k][q] : zb.h[ck + q * s];
                    double yl = side == 0 ? ul[k][q] : zb.l[ck + q * s];
                    double prod = xh * yh;
                    double ep = Math.fma(xh, yh, -prod);
                    double t = sum + prod;
                    double zz = t - sum;
                    err += ((sum - (t - zz)) + (prod - zz)) + ep + (xh * yl + xl * yh);
                    sum = t;
                }
            }
            store(sum, err, gh, gl, pos);
        }
    }

    /** out = Σ_t val[t]·M[idx[t] + off] (M in double-double, val doubles) by Dot2. */
    private static void scaledSum(int[] idx, double[] val, Mat mat, int off, double[] out) {
        double sum = 0;
        double err = 0;
        for (int t = 0; t < idx.length; t++) {
            double a = val[t];
            double h = mat.h[idx[t] + off];
            double prod = a * h;
            double ep = Math.fma(a, h, -prod);
            double u = sum + prod;
            double zz = u - sum;
            err += ((sum - (u - zz)) + (prod - zz)) + ep + a * mat.l[idx[t] + off];
            sum = u;
        }
        double hi = sum + err;
        double zz = hi - sum;
        out[0] = hi;
        out[1] = (sum - (hi - zz)) + (err - zz);
    }

    /** out = Σ_t M(row, idx[t])·val[t] by Dot2. */
    private static void scaledSumRow(int[] idx, double[] val, Mat mat, int row, int s, double[] out) {
        double sum = 0;
        double err = 0;
        for (int t = 0; t < idx.length; t++) {
            double a = val[t];
            int at = row + idx[t] * s;
            double h = mat.h[at];
            double prod = a * h;
            double ep = Math.fma(a, h, -prod);
            double u = sum + prod;
            double zz = u - sum;
            err += ((sum - (u - zz)) + (prod - zz)) + ep + a * mat.l[at];
            sum = u;
        }
        double hi = sum + err;
        double zz = hi - sum;
        out[0] = hi;
        out[1] = (sum - (hi - zz)) + (err - zz);
    }

    /**
     * G(pr, q) = Σ_{r ∈ sup} X(pr, r) H(r, q) by Dot2 (Ogita, Rump &amp; Oishi 2005) on the high parts, the cross terms
     * collected with the errors.
     */
    private static void gEntry(Mat xb, double[] hh, double[] hl, int[] sup, int s, int pr, int q, double[] gh,
                               double[] gl) {
        double sum = 0;
        double err = 0;
        for (int r : sup) {
            double xh = xb.h[pr + r * s];
            double xl = xb.l[pr + r * s];
            double yh = hh[r + q * s];
            double yl = hl[r + q * s];
            double prod = xh * yh;
            double ep = Math.fma(xh, yh, -prod);
            double t = sum + prod;
            double zz = t - sum;
            err += ((sum - (t - zz)) + (prod - zz)) + ep + (xh * yl + xl * yh);
            sum = t;
        }
        double hi = sum + err;
        double zz = hi - sum;
        gh[pr + q * s] = hi;
        gl[pr + q * s] = (sum - (hi - zz)) + (err - zz);
    }

    /**
     * {@link #gEntry} for the rows pr … pr+3 of column q: four independent chains with the operations of gEntry in
     * the same order (bit-identical), overlapped by the processor, reading four adjacent entries of X per index.
     */
    private static void gEntries4(Mat xb, double[] hh, double[] hl, int[] sup, int s, int pr, int q, double[] gh,
                                  double[] gl) {
        double s0 = 0;
        double e0 = 0;
        double s1 = 0;
        double e1 = 0;
        double s2 = 0;
        double e2 = 0;
        double s3 = 0;
        double e3 = 0;
        double[] xhs = xb.h;
        double[] xls = xb.l;
        for (int r : sup) {
            double yh = hh[r + q * s];
            double yl = hl[r + q * s];
            int base = pr + r * s;
            double xh = xhs[base];
            double xl = xls[base];
            double prod = xh * yh;
            double ep = Math.fma(xh, yh, -prod);
            double t = s0 + prod;
            double zz = t - s0;
            e0 += ((s0 - (t - zz)) + (prod - zz)) + ep + (xh * yl + xl * yh);
            s0 = t;
            xh = xhs[base + 1];
            xl = xls[base + 1];
            prod = xh * yh;
            ep = Math.fma(xh, yh, -prod);
            t = s1 + prod;
            zz = t - s1;
            e1 += ((s1 - (t - zz)) + (prod - zz)) + ep + (xh * yl + xl * yh);
            s1 = t;
            xh = xhs[base + 2];
            xl = xls[base + 2];
            prod = xh * yh;
            ep = Math.fma(xh, yh, -prod);
            t = s2 + prod;
            zz = t - s2;
            e2 += ((s2 - (t - zz)) + (prod - zz)) + ep + (xh * yl + xl * yh);
            s2 = t;
            xh = xhs[base + 3];
            xl = xls[base + 3];
            prod = xh * yh;
            ep = Math.fma(xh, yh, -prod);
            t = s3 + prod;
            zz = t - s3;
            e3 += ((s3 - (t - zz)) + (prod - zz)) + ep + (xh * yl + xl * yh);
            s3 = t;
        }
        int o = pr + q * s;
        store(s0, e0, gh, gl, o);
        store(s1, e1, gh, gl, o + 1);
        store(s2, e2, gh, gl, o + 2);
        store(s3, e3, gh, gl, o + 3);
    }

    private static void store(double sum, double err, double[] gh, double[] gl, int o) {
        double hi = sum + err;
        double zz = hi - sum;
        gh[o] = hi;
        gl[o] = (sum - (hi - zz)) + (err - zz);
    }

    private void addSym(Mat mm, int i, int j, Acc v) {
        Acc a = new Acc();
        a.set(mm.h[i + j * m], mm.l[i + j * m]).add(v.hi, v.lo);
        mm.h[i + j * m] = a.hi;
        mm.l[i + j * m] = a.lo;
        if (i != j) {
            mm.h[j + i * m] = a.hi;
            mm.l[j + i * m] = a.lo;
        }
    }
}
