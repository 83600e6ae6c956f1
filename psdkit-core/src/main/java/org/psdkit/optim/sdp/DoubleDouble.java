package org.psdkit.optim.sdp;

/**
 * Double-double arithmetic: a value is the unevaluated sum hi + lo of two doubles with |lo| ≤ ulp(hi)/2, which
 * carries about 106 bits (≈ 32 decimal digits). The error-free transformations are Knuth's two-sum and the
 * two-product by fused multiply–add (Math.fma: a·b − fl(a·b) is exact); the compound operations follow Dekker
 * (1971) and the QD library's "accurate" addition (Hida, Li and Bailey 2001), with relative error a few units of 2⁻¹⁰⁶.
 *
 * <p>Matrices are column-major arrays of high and low parts ({@link Mat}); the accumulator {@link Acc} avoids
 * allocating in inner loops.
 */
final class DoubleDouble {

    private DoubleDouble() {
    }

    /** A mutable double-double accumulator (hi, lo). */
    static final class Acc {
        double hi;
        double lo;

        Acc set(double h, double l) {
            hi = h;
            lo = l;
            return this;
        }

        /** this += (bh, bl), accurate addition (two two-sums). */
        Acc add(double bh, double bl) {
            double s = hi + bh;
            double bb = s - hi;
            double e = (hi - (s - bb)) + (bh - bb);
            double t = lo + bl;
            double tb = t - lo;
            double f = (lo - (t - tb)) + (bl - tb);
            e += t;
            double s2 = s + e;
            e = e - (s2 - s);
            e += f;
            hi = s2 + e;
            lo = e - (hi - s2);
            return this;
        }

        /** this += a·b for doubles a and b (exact product by fma, then accurate addition). */
        Acc addProduct(double a, double b) {
            double p = a * b;
            return add(p, Math.fma(a, b, -p));
        }

        /** this += (ah, al)·(bh, bl). */
        Acc addProduct(double ah, double al, double bh, double bl) {
            double p = ah * bh;
            double e = Math.fma(ah, bh, -p) + (ah * bl + al * bh);
            double ph = p + e;
            return add(ph, e - (ph - p));
        }

        /** this += s·(ah, al) for a double s. */
        Acc addScaled(double s, double ah, double al) {
            double p = s * ah;
            double e = Math.fma(s, ah, -p) + s * al;
            double ph = p + e;
            return add(ph, e - (ph - p));
        }
    }

    /**
     * out = (ch, cl) + sign·Σ_t a_t b_t for double-double vectors a (ah/al from offset ao, stride as) and b (bh/bl
     * from bo, stride bs), sign = ±1. The inner product of Ogita, Rump &amp; Oishi (2005, "Accurate sum and dot
     * product", Algorithm Dot2) on the high parts: the running sum s in double with the exact error of each
     * product (fma) and of each addition (two-sum) collected in a double e, to which the cross terms a_hi b_lo +
     * a_lo b_hi are added; (s, e) is normalised once at the end. Its error is O(len·u²)·Σ|a_t b_t|, the order of
     * a double-double accumulation, at about half the operations of one accurate double-double addition per term
     * ({@link Acc#addProduct}).
     */
    static void dot(double ch, double cl, double[] ah, double[] al, int ao, int as, double[] bh, double[] bl, int bo,
                    int bs, int len, double sign, Acc out) {
        double s = ch;
        double e = cl;
        for (int t = 0; t < len; t++) {
            int ia = ao + t * as;
            int ib = bo + t * bs;
            double xh = sign * ah[ia];
            double xl = sign * al[ia];
            double yh = bh[ib];
            double yl = bl[ib];
            double p = xh * yh;
            double ep = Math.fma(xh, yh, -p);
            double sum = s + p;
            double z = sum - s;
            double es = (s - (sum - z)) + (p - z);
            s = sum;
            e += es + ep + (xh * yl + xl * yh);
        }
        double hi = s + e;
        double z = hi - s;
        out.hi = hi;
        out.lo = (s - (hi - z)) + (e - z);
    }

    /** hi part of (ah, al)·(bh, bl); the low part is returned by {@link #mulLo}. */
    static double mulHi(double ah, double al, double bh, double bl) {
        double p = ah * bh;
        double e = Math.fma(ah, bh, -p) + (ah * bl + al * bh);
        return p + e;
    }

    static double mulLo(double ah, double al, double bh, double bl) {
        double p = ah * bh;
        double e = Math.fma(ah, bh, -p) + (ah * bl + al * bh);
        double h = p + e;
        return e - (h - p);
    }

    /** (ah, al) / (bh, bl) into out (two Newton-like correction terms, as in Dekker's division). */
    static void div(double ah, double al, double bh, double bl, Acc out) {
        double q1 = ah / bh;
        Acc r = new Acc().set(ah, al).addProduct(-q1, 0, bh, bl);
        double q2 = r.hi / bh;
        r.addProduct(-q2, 0, bh, bl);
        double q3 = r.hi / bh;
        out.set(q1, 0).add(q2, 0).add(q3, 0);
    }

    /** √(ah, al) into out (one Newton step from the double square root); out = 0 for a ≤ 0. */
    static void sqrt(double ah, double al, Acc out) {
        if (ah <= 0) {
            out.set(0, 0);
            return;
        }
        double x = Math.sqrt(ah);
        Acc r = new Acc().set(ah, al).addProduct(-x, x);
        double corr = r.hi / (2 * x);
        double h = x + corr;
        out.set(h, corr - (h - x));
    }

    /** Square n×n (or n×k) column-major double-double matrix. */
    static final class Mat {
        final int rows;
        final int cols;
        final double[] h;
        final double[] l;
        /** For a Cholesky factor L from {@link #cholesky}: Lᵀ, which holds the rows of L contiguously (else null). */
        Mat upper;

        Mat(int rows, int cols) {
            this.rows = rows;
            this.cols = cols;
            this.h = new double[rows * cols];
            this.l = new double[rows * cols];
        }

        static Mat of(int rows, int cols, double[] values) {
            Mat m = new Mat(rows, cols);
            System.arraycopy(values, 0, m.h, 0, values.length);
            return m;
        }

        Mat copy() {
            Mat c = new Mat(rows, cols);
            System.arraycopy(h, 0, c.h, 0, h.length);
            System.arraycopy(l, 0, c.l, 0, l.length);
            return c;
        }

        /** The values rounded to double (hi + lo). */
        double[] toDouble() {
            double[] d = new double[h.length];
            for (int k = 0; k < d.length; k++) {
                d[k] = h[k] + l[k];
            }
            return d;
        }

        void symmetrize() {
            Acc a = new Acc();
            for (int j = 0; j < cols; j++) {
                for (int i = j + 1; i < rows; i++) {
                    int ij = i + j * rows;
                    int ji = j + i * rows;
                    a.set(h[ij], l[ij]).add(h[ji], l[ji]);
                    h[ij] = h[ji] = 0.5 * a.hi; // halving is exact
                    l[ij] = l[ji] = 0.5 * a.lo;
                }
            }
        }
    }

    static Mat transpose(Mat a) {
        Mat t = new Mat(a.cols, a.rows);
        for (int j = 0; j < a.cols; j++) {
            for (int i = 0; i < a.rows; i++) {
                t.h[j + i * a.cols] = a.h[i + j * a.rows];
                t.l[j + i * a.cols] = a.l[i + j * a.rows];
            }
        }
        return t;
    }

    /**
     * a·b for double-double matrices: entry (i, j) is {@link #dot} of row i of a and column j of b. Four rows at a
     * time ({@link #dot4}: four independent chains sharing the column of b, each with exactly the operations of dot —
     * the factors' roles swapped, which leaves every product and sum the same bits), so the product is bit-identical to
     * the entry-by-entry one.
     */
    static Mat times(Mat a, Mat b) {
        int n = a.rows;
        int k = a.cols;
        int c = b.cols;
        Mat out = new Mat(n, c);
        Acc acc = new Acc();
        double[] four = new double[8];
        for (int j = 0; j < c; j++) {
            int i = 0;
            for (; i + 3 < n; i += 4) {
                java.util.Arrays.fill(four, 0);
                dot4(b.h, b.l, j * k, 1.0, a.h, a.l, i, i + 1, i + 2, i + 3, n, k, four);
                for (int r = 0; r < 4; r++) {
                    out.h[i + r + j * n] = four[2 * r];
                    out.l[i + r + j * n] = four[2 * r + 1];
                }
            }
            for (; i < n; i++) {
                dot(0, 0, a.h, a.l, i, n, b.h, b.l, j * k, 1, k, 1.0, acc);
                out.h[i + j * n] = acc.hi;
                out.l[i + j * n] = acc.lo;
            }
        }
        return out;
    }

    /**
     * Lᵀ S L for a lower Cholesky factor L (from {@link #cholesky}) and a square S, as {@link #times}(Lᵀ,
     * times(S, L)) computes it but without the products with L's zero upper triangle: (S L)(i, j) sums over t ≥ j
     * and (Lᵀ W)(i, j) over t ≥ i. The skipped terms are leading exact zeros of each {@link #dot} chain, which leave
     * its running sum and error at (+0, +0), so every entry is bit-identical to the full product's; half the work.
     */
    static Mat congruence(Mat lo, Mat s) {
        int n = lo.rows;
        Mat sl = new Mat(n, n);
        Acc acc = new Acc();
        double[] four = new double[8];
        for (int j = 0; j < n; j++) {
            int len = n - j;
            int i = 0;
            for (; i + 3 < n; i += 4) {
                java.util.Arrays.fill(four, 0);
                dot4(lo.h, lo.l, j + j * n, 1.0, s.h, s.l, i + j * n, i + 1 + j * n, i + 2 + j * n, i + 3 + j * n, n,
                        len, four);
                for (int r = 0; r < 4; r++) {
                    sl.h[i + r + j * n] = four[2 * r];
                    sl.l[i + r + j * n] = four[2 * r + 1];
                }
            }
            for (; i < n; i++) {
                dot(0, 0, s.h, s.l, i + j * n, n, lo.h, lo.l, j + j * n, 1, len, 1.0, acc);
                sl.h[i + j * n] = acc.hi;
                sl.l[i + j * n] = acc.lo;
            }
        }
        Mat w = new Mat(n, n);
        for (int i = 0; i < n; i++) {
            // row i of Lᵀ from its diagonal on = column i of L from row i (contiguous), against four columns of S L
            for (int j = 0; j < n; j += 4) {
                int j1 = Math.min(j + 1, n - 1);
                int j2 = Math.min(j + 2, n - 1);
                int j3 = Math.min(j + 3, n - 1);
                java.util.Arrays.fill(four, 0);
                dot4(lo.h, lo.l, i + i * n, 1.0, sl.h, sl.l, i + j * n, i + j1 * n, i + j2 * n, i + j3 * n, 1, n - i,
                        four);
                for (int r = 0; r < 4 && j + r < n; r++) {
                    w.h[i + (j + r) * n] = four[2 * r];
                    w.l[i + (j + r) * n] = four[2 * r + 1];
                }
            }
        }
        return w;
    }

    /**
     * Four {@link #dot} chains sharing the vector a (contiguous from ao, scaled by sign = ±1) against four vectors b
     * from bo0 … bo3 with stride bs, each started from (out[2r], out[2r+1]) and left there normalised: the operations
     * of dot in the same order, so each result is bit-identical to dot's (also with a and b in each other's roles:
     * IEEE products and sums commute). Equal offsets are allowed (the chains then compute the same value), which pads
     * a group of fewer than four.
     */
    private static void dot4(double[] ah, double[] al, int ao, double sign, double[] bh, double[] bl, int bo0,
                             int bo1, int bo2, int bo3, int bs, int len, double[] out) {
        double s0 = out[0];
        double e0 = out[1];
        double s1 = out[2];
        double e1 = out[3];
        double s2 = out[4];
        double e2 = out[5];
        double s3 = out[6];
        double e3 = out[7];
        for (int t = 0; t < len; t++) {
            double xh = sign * ah[ao + t];
            double xl = sign * al[ao + t];
            int ib = t * bs;
            double yh = bh[bo0 + ib];
            double yl = bl[bo0 + ib];
            double p = xh * yh;
            double ep = Math.fma(xh, yh, -p);
            double sum = s0 + p;
            double z = sum - s0;
            double es = (s0 - (sum - z)) + (p - z);
            s0 = sum;
            e0 += es + ep + (xh * yl + xl * yh);
            yh = bh[bo1 + ib];
            yl = bl[bo1 + ib];
            p = xh * yh;
            ep = Math.fma(xh, yh, -p);
            sum = s1 + p;
            z = sum - s1;
            es = (s1 - (sum - z)) + (p - z);
            s1 = sum;
            e1 += es + ep + (xh * yl + xl * yh);
            yh = bh[bo2 + ib];
            yl = bl[bo2 + ib];
            p = xh * yh;
            ep = Math.fma(xh, yh, -p);
            sum = s2 + p;
            z = sum - s2;
            es = (s2 - (sum - z)) + (p - z);
            s2 = sum;
            e2 += es + ep + (xh * yl + xl * yh);
            yh = bh[bo3 + ib];
            yl = bl[bo3 + ib];
            p = xh * yh;
            ep = Math.fma(xh, yh, -p);
            sum = s3 + p;
            z = sum - s3;
            es = (s3 - (sum - z)) + (p - z);
            s3 = sum;
            e3 += es + ep + (xh * yl + xl * yh);
        }
        normalise(s0, e0, out, 0);
        normalise(s1, e1, out, 2);
        normalise(s2, e2, out, 4);
        normalise(s3, e3, out, 6);
    }

    /**
     * Lower Cholesky factor of a symmetric positive definite double-double matrix, or null when a pivot is not
     * positive (the matrix is not numerically positive definite in double-double).
     */
    static Mat cholesky(Mat a) {
        int n = a.rows;
        return n >= PARALLEL_MIN_ORDER ? choleskyPanels(a) : choleskyColumns(a);
    }

    /** {@link #cholesky} column by column on the calling thread (the factor of every order below the threshold). */
    static Mat choleskyColumns(Mat a) {
        int n = a.rows;
        // built as its transpose U = Lᵀ (column-major), so that the inner products over t read contiguous columns of
        // U instead of stride-n rows of L (one cache line per term for the Schur complements of qap/control)
        Mat u = new Mat(n, n);
        Acc acc = new Acc();
        Acc tmp = new Acc();
        double[] four = new double[8];
        for (int j = 0; j < n; j++) {
            int cj = j * n;
            dot(a.h[j + j * n], a.l[j + j * n], u.h, u.l, cj, 1, u.h, u.l, cj, 1, j, -1.0, acc);
            if (!(acc.hi > 0)) {
                return null;
            }
            sqrt(acc.hi, acc.lo, tmp);
            double dh = tmp.hi;
            double dl = tmp.lo;
            u.h[j + cj] = dh;
            u.l[j + cj] = dl;
            int i = j + 1;
            // four rows at a time: four independent Dot2 chains sharing column j (instruction-level parallelism;
            // each chain performs exactly the operations of dot, so the factor is bit-identical)
            for (; i + 3 < n; i += 4) {
                choleskyEntries4(a, i, j, u, four);
                for (int k = 0; k < 4; k++) {
                    div(four[2 * k], four[2 * k + 1], dh, dl, tmp);
                    u.h[j + (i + k) * n] = tmp.hi;
                    u.l[j + (i + k) * n] = tmp.lo;
                }
            }
            for (; i < n; i++) {
                int ci = i * n;
                dot(a.h[i + j * n], a.l[i + j * n], u.h, u.l, ci, 1, u.h, u.l, cj, 1, j, -1.0, acc);
                div(acc.hi, acc.lo, dh, dl, tmp);
                u.h[j + ci] = tmp.hi;
                u.l[j + ci] = tmp.lo;
            }
        }
        Mat l = transpose(u);
        l.upper = u;
        return l;
    }

    /**
     * Order from which {@link #cholesky} (and the Schur assembly of {@link DdSdpSolver}) run on
     * {@link org.psdkit.kernel.ParallelColumns}'s workers ({@link org.psdkit.linalg.Threads#get()} threads by default).
     * 128: handing a block to the pool costs ~10–50 µs, and a panel of {@link #PANEL} columns of an order-128 factor
     * is ~16·128·64 ≈ 1.3e5 Dot2 terms ≈ 1–2 ms, so the hand-over is ≤ 5% of it; below (hinf: m = 13–91) a whole
     * factorisation takes well under a millisecond and stays on the calling thread, as before.
     */
    static final int PARALLEL_MIN_ORDER = 128;
    /**
     * Columns per panel of {@link #choleskyPanels}: one hand-over to the pool per panel, and the panel's diagonal
     * triangle (PANEL²/2 entries, ~1.5·PANEL/n of the work) is computed on the calling thread: 16 keeps that below 4%
     * at the orders the double-double restart takes (m ≥ 229 for qap6–10, 351 and 496 for control5/6).
     */
    static final int PANEL = 16;

    /**
     * {@link #cholesky} by panels of {@link #PANEL} columns, the rows below each panel's diagonal triangle handed out
     * in blocks of four-row groups to the pool. Entry U(j, i) is the same Dot2 chain a(i, j) − Σ_{t<j} U(t, i) U(t, j)
     * over t = 0, 1, …, j−1 followed by the same division, whichever thread computes it and in whichever order the
     * rows are taken, so the factor is bit-identical to the column-by-column one for any thread count.
     */
    static Mat choleskyPanels(Mat a) {
        int n = a.rows;
        Mat u = new Mat(n, n);
        Acc acc = new Acc();
        Acc tmp = new Acc();
        for (int j0 = 0; j0 < n; j0 += PANEL) {
            int j1 = Math.min(n, j0 + PANEL);
            // the panel's diagonal triangle: rows j0..j1−1 depend on each other, on the calling thread
            for (int j = j0; j < j1; j++) {
                int cj = j * n;
                dot(a.h[j + j * n], a.l[j + j * n], u.h, u.l, cj, 1, u.h, u.l, cj, 1, j, -1.0, acc);
                if (!(acc.hi > 0)) {
                    return null;
                }
                sqrt(acc.hi, acc.lo, tmp);
                u.h[j + cj] = tmp.hi;
                u.l[j + cj] = tmp.lo;
                for (int i = j + 1; i < j1; i++) {
                    int ci = i * n;
                    dot(a.h[i + j * n], a.l[i + j * n], u.h, u.l, ci, 1, u.h, u.l, cj, 1, j, -1.0, acc);
                    div(acc.hi, acc.lo, u.h[j + cj], u.l[j + cj], tmp);
                    u.h[j + ci] = tmp.hi;
                    u.l[j + ci] = tmp.lo;
                }
            }
            // the rows below: independent of each other given the panel's triangle
            int rows = n - j1;
            if (rows <= 0) {
                continue;
            }
            int groups = (rows + 3) / 4;
            final int p0 = j0;
            final int p1 = j1;
            org.psdkit.kernel.ParallelColumns.forColumns(groups, (long) rows * (p1 - p0) * p1 * 8,
                    (from, to) -> panelRows(a, u, p0, p1, p1 + 4 * from, Math.min(n, p1 + 4 * to)));
        }
        Mat l = transpose(u);
        l.upper = u;
        return l;
    }

    /** U(j, i) for the columns j0 ≤ j &lt; j1 of a panel and the rows from ≤ i &lt; to (four at a time). */
    private static void panelRows(Mat a, Mat u, int j0, int j1, int from, int to) {
        int n = a.rows;
        Acc acc = new Acc();
        Acc tmp = new Acc();
        double[] four = new double[8];
        int i = from;
        for (; i + 3 < to; i += 4) {
            for (int j = j0; j < j1; j++) {
                double dh = u.h[j + j * n];
                double dl = u.l[j + j * n];
                choleskyEntries4(a, i, j, u, four);
                for (int k = 0; k < 4; k++) {
                    div(four[2 * k], four[2 * k + 1], dh, dl, tmp);
                    u.h[j + (i + k) * n] = tmp.hi;
                    u.l[j + (i + k) * n] = tmp.lo;
                }
            }
        }
        for (; i < to; i++) {
            int ci = i * n;
            for (int j = j0; j < j1; j++) {
                dot(a.h[i + j * n], a.l[i + j * n], u.h, u.l, ci, 1, u.h, u.l, j * n, 1, j, -1.0, acc);
                div(acc.hi, acc.lo, u.h[j + j * n], u.l[j + j * n], tmp);
                u.h[j + ci] = tmp.hi;
                u.l[j + ci] = tmp.lo;
            }
        }
    }

    /**
     * out[2k], out[2k+1] = a(i+k, j) − Σ_{t<j} U(t, i+k) U(t, j) for k = 0..3 (U stored column-major, so U(·, i+k)
     * and U(·, j) are contiguous): {@link #dot4} with column j of U as the shared vector, negated, i.e. per k the
     * operations of {@link #dot} with sign −1 (the factors of each product in the other order, which leaves every
     * product and sum the same bits).
     */
    private static void choleskyEntries4(Mat a, int i, int j, Mat u, double[] out) {
        int n = a.rows;
        for (int k = 0; k < 4; k++) {
            out[2 * k] = a.h[i + k + j * n];
            out[2 * k + 1] = a.l[i + k + j * n];
        }
        dot4(u.h, u.l, j * n, -1.0, u.h, u.l, i * n, (i + 1) * n, (i + 2) * n, (i + 3) * n, 1, j, out);
    }

    /** (out[k], out[k+1]) = s + e normalised, as at the end of {@link #dot}. */
    private static void normalise(double s, double e, double[] out, int k) {
        double hi = s + e;
        double z = hi - s;
        out[k] = hi;
        out[k + 1] = (s - (hi - z)) + (e - z);
    }

    /** Solves L·x = b in place (L lower triangular; b given as hi/lo arrays with the given offset and stride 1). */
    static void solveLower(Mat lo, double[] bh, double[] bl) {
        int n = lo.rows;
        Acc acc = new Acc();
        Acc q = new Acc();
        Mat up = lo.upper;
        for (int i = 0; i < n; i++) {
            // row i of L, contiguous as column i of the stored transpose when there is one (same values, same order)
            if (up != null) {
                dot(bh[i], bl[i], up.h, up.l, i * n, 1, bh, bl, 0, 1, i, -1.0, acc);
            } else {
                dot(bh[i], bl[i], lo.h, lo.l, i, n, bh, bl, 0, 1, i, -1.0, acc);
            }
            div(acc.hi, acc.lo, lo.h[i + i * n], lo.l[i + i * n], q);
            bh[i] = q.hi;
            bl[i] = q.lo;
        }
    }

    /** Solves Lᵀ·x = b in place. */
    static void solveUpper(Mat lo, double[] bh, double[] bl) {
        int n = lo.rows;
        Acc acc = new Acc();
        Acc q = new Acc();
        for (int i = n - 1; i >= 0; i--) {
            dot(bh[i], bl[i], lo.h, lo.l, i + 1 + i * n, 1, bh, bl, i + 1, 1, n - i - 1, -1.0, acc);
            div(acc.hi, acc.lo, lo.h[i + i * n], lo.l[i + i * n], q);
            bh[i] = q.hi;
            bl[i] = q.lo;
        }
    }

    /**
     * Solves L·x = b in place for the four right-hand sides stored contiguously at offsets o0 … o3 of bh/bl (equal
     * offsets allowed): per right-hand side exactly the operations of {@link #solveLower}, so bit-identical to it, with
     * the four chains overlapped by the processor.
     */
    static void solveLower4(Mat lo, double[] bh, double[] bl, int o0, int o1, int o2, int o3) {
        int n = lo.rows;
        Mat up = lo.upper != null ? lo.upper : transpose(lo);
        double[] four = new double[8];
        Acc q = new Acc();
        int[] o = {o0, o1, o2, o3};
        for (int i = 0; i < n; i++) {
            for (int r = 0; r < 4; r++) {
                four[2 * r] = bh[o[r] + i];
                four[2 * r + 1] = bl[o[r] + i];
            }
            dot4(up.h, up.l, i * n, -1.0, bh, bl, o0, o1, o2, o3, 1, i, four);
            for (int r = 0; r < 4; r++) {
                div(four[2 * r], four[2 * r + 1], lo.h[i + i * n], lo.l[i + i * n], q);
                bh[o[r] + i] = q.hi;
                bl[o[r] + i] = q.lo;
            }
        }
    }

    /** Solves Lᵀ·x = b in place for four right-hand sides, as {@link #solveLower4} does for {@link #solveUpper}. */
    static void solveUpper4(Mat lo, double[] bh, double[] bl, int o0, int o1, int o2, int o3) {
        int n = lo.rows;
        double[] four = new double[8];
        Acc q = new Acc();
        int[] o = {o0, o1, o2, o3};
        for (int i = n - 1; i >= 0; i--) {
            for (int r = 0; r < 4; r++) {
                four[2 * r] = bh[o[r] + i];
                four[2 * r + 1] = bl[o[r] + i];
            }
            dot4(lo.h, lo.l, i + 1 + i * n, -1.0, bh, bl, o0 + i + 1, o1 + i + 1, o2 + i + 1, o3 + i + 1, 1,
                    n - i - 1, four);
            for (int r = 0; r < 4; r++) {
                div(four[2 * r], four[2 * r + 1], lo.h[i + i * n], lo.l[i + i * n], q);
                bh[o[r] + i] = q.hi;
                bl[o[r] + i] = q.lo;
            }
        }
    }

    /**
     * (L Lᵀ)⁻¹ from the Cholesky factor L, symmetrised: column j solves L Lᵀ x = e_j ({@link #solveLower4},
     * {@link #solveUpper4}, four columns at a time, each bit-identical to the single solves).
     */
    static Mat inverseFromCholesky(Mat lo) {
        int n = lo.rows;
        Mat inv = new Mat(n, n);
        for (int j = 0; j < n; j++) {
            inv.h[j + j * n] = 1;
        }
        for (int j = 0; j < n; j += 4) {
            int o0 = j * n;
            int o1 = Math.min(j + 1, n - 1) * n;
            int o2 = Math.min(j + 2, n - 1) * n;
            int o3 = Math.min(j + 3, n - 1) * n;
            solveLower4(lo, inv.h, inv.l, o0, o1, o2, o3);
            solveUpper4(lo, inv.h, inv.l, o0, o1, o2, o3);
        }
        inv.symmetrize();
        return inv;
    }

    /**
     * L⁻¹ · S · L⁻ᵀ for a symmetric S, symmetrised: W = L⁻¹ S column by column, then the rows of W solved (as columns
     * of Wᵀ); four right-hand sides at a time ({@link #solveLower4}), each bit-identical to a single solve.
     */
    static Mat congruenceInverse(Mat lo, Mat s) {
        Mat w = s.copy();
        solveColumns(lo, w);
        Mat wt = transpose(w);
        solveColumns(lo, wt);
        Mat out = transpose(wt);
        out.symmetrize();
        return out;
    }

    /** Every column of w replaced by L⁻¹ times it, four at a time. */
    private static void solveColumns(Mat lo, Mat w) {
        int n = lo.rows;
        for (int j = 0; j < w.cols; j += 4) {
            int last = w.cols - 1;
            solveLower4(lo, w.h, w.l, j * n, Math.min(j + 1, last) * n, Math.min(j + 2, last) * n,
                    Math.min(j + 3, last) * n);
        }
    }
}
