package org.psdkit.optim.sdp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.psdkit.optim.sdp.DoubleDouble.Acc;
import org.psdkit.optim.sdp.DoubleDouble.Mat;

class DoubleDoubleTest {

    /** 60 decimal digits: exact enough to judge ~32-digit arithmetic. */
    static final MathContext MC = new MathContext(60);
    /**
     * Double-double results are within a few units of 2⁻¹⁰⁶ ≈ 1.2e-32 (Hida, Li and Bailey); 1e-30 leaves room for
     * the compound operations (division, square root) while failing for anything computed in plain double.
     */
    static final double DD_RELATIVE = 1e-30;

    static BigDecimal big(double h, double l) {
        return new BigDecimal(h).add(new BigDecimal(l));
    }

    static double relErr(BigDecimal got, BigDecimal ref) {
        if (ref.signum() == 0) {
            return got.abs().doubleValue();
        }
        return got.subtract(ref).abs().divide(ref.abs(), MC).doubleValue();
    }

    @Test
    void arithmeticMatchesBigDecimal() {
        Random rnd = new Random(5);
        for (int t = 0; t < 200; t++) {
            double ah = rnd.nextGaussian() * Math.pow(10, rnd.nextInt(9) - 4);
            double al = ah * 1e-17 * rnd.nextGaussian();
            double bh = rnd.nextGaussian() * Math.pow(10, rnd.nextInt(9) - 4);
            double bl = bh * 1e-17 * rnd.nextGaussian();
            BigDecimal a = big(ah, al);
            BigDecimal b = big(bh, bl);
            Acc s = new Acc().set(ah, al).add(bh, bl);
            BigDecimal sum = a.add(b);
            // addition: error relative to the operands (cancellation is exact up to that)
            double scale = a.abs().add(b.abs()).doubleValue();
            assertTrue(big(s.hi, s.lo).subtract(sum).abs().doubleValue() <= DD_RELATIVE * scale, "add " + t);
            Acc p = new Acc().addProduct(ah, al, bh, bl);
            assertTrue(relErr(big(p.hi, p.lo), a.multiply(b)) <= DD_RELATIVE, "mul " + t);
            Acc q = new Acc();
            DoubleDouble.div(ah, al, bh, bl, q);
            assertTrue(relErr(big(q.hi, q.lo), a.divide(b, MC)) <= DD_RELATIVE, "div " + t);
            Acc r = new Acc();
            DoubleDouble.sqrt(Math.abs(ah), Math.signum(ah) * al, r);
            assertTrue(relErr(big(r.hi, r.lo), a.abs().sqrt(MC)) <= DD_RELATIVE, "sqrt " + t);
            assertTrue(Math.abs(s.lo) <= Math.ulp(s.hi), "normalised");
        }
    }

    @Test
    void cancellationThatPlainDoubleLosesIsKept() {
        // (1 + 2⁻⁸⁰) − 1 = 2⁻⁸⁰: zero in double, exact in double-double
        double tiny = Math.scalb(1.0, -80);
        Acc a = new Acc().set(1.0, 0).add(tiny, 0).add(-1.0, 0);
        assertEquals(tiny, a.hi + a.lo, 0.0);
        assertEquals(0.0, (1.0 + tiny) - 1.0, 0.0);
        // x·y − fl(x·y) is recovered exactly by the fma two-product
        double x = 1 + Math.ulp(1.0);
        Acc p = new Acc().addProduct(x, x);
        assertEquals(new BigDecimal(x).multiply(new BigDecimal(x)), big(p.hi, p.lo));
    }

    @Test
    void choleskyAndInverseReconstructToDoubleDoubleAccuracy() {
        Random rnd = new Random(9);
        int n = 6;
        double[] g = new double[n * n];
        for (int k = 0; k < g.length; k++) {
            g[k] = rnd.nextGaussian();
        }
        Mat gm = Mat.of(n, n, g);
        Mat a = DoubleDouble.times(gm, DoubleDouble.transpose(gm)); // SPD, exact products in double-double
        for (int i = 0; i < n; i++) {
            a.h[i + i * n] += 1e-3;
        }
        Mat l = DoubleDouble.cholesky(a);
        Mat llt = DoubleDouble.times(l, DoubleDouble.transpose(l));
        Mat inv = DoubleDouble.inverseFromCholesky(l);
        Mat id = DoubleDouble.times(a, inv);
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                int k = i + j * n;
                BigDecimal ref = big(a.h[k], a.l[k]);
                assertTrue(big(llt.h[k], llt.l[k]).subtract(ref).abs().doubleValue() <= 1e-29 * 10, "LLt " + k);
                double want = i == j ? 1 : 0;
                // A·A⁻¹ = I up to κ(A)·2⁻¹⁰⁶ (κ ≈ 1e4 here)
                assertTrue(big(id.h[k], id.l[k]).subtract(new BigDecimal(want)).abs().doubleValue() < 1e-25,
                        "A A^-1 " + k);
            }
        }
        Mat notPd = Mat.of(2, 2, new double[] {1, 2, 2, 1});
        assertNull(DoubleDouble.cholesky(notPd));
    }

    /**
     * DoubleDouble.dot (Dot2 of Ogita, Rump & Oishi 2005) against BigDecimal, on inner products that cancel to 1e-12
     * of Σ|a_t b_t| (as the pivots of a nearly singular Schur complement do): the error stays below
     * 4·len·2⁻¹⁰⁶·Σ|a_t b_t|, the order of a double-double accumulation, and far below what double gives.
     */
    @Test
    void dotIsAccurateToDoubleDoubleLevelUnderCancellation() {
        Random rnd = new Random(11);
        for (int trial = 0; trial < 50; trial++) {
            int len = 1 + rnd.nextInt(300);
            double[] ah = new double[len + 1];
            double[] al = new double[len + 1];
            double[] bh = new double[len + 1];
            double[] bl = new double[len + 1];
            BigDecimal exact = BigDecimal.ZERO;
            BigDecimal abs = BigDecimal.ZERO;
            for (int t = 0; t < len; t++) {
                ah[t] = rnd.nextGaussian();
                al[t] = ah[t] * 1e-17 * rnd.nextGaussian();
                bh[t] = rnd.nextGaussian();
                bl[t] = bh[t] * 1e-17 * rnd.nextGaussian();
                BigDecimal p = big(ah[t], al[t]).multiply(big(bh[t], bl[t]), MC);
                exact = exact.add(p, MC);
                abs = abs.add(p.abs(), MC);
            }
            // start value cancelling all but 1e-12 of the sum (hi and lo parts of −exact·(1 − 1e-12))
            BigDecimal c = exact.negate().multiply(new BigDecimal(1 - 1e-12), MC);
            double ch = c.doubleValue();
            double cl = c.subtract(new BigDecimal(ch), MC).doubleValue();
            BigDecimal ref = exact.add(big(ch, cl), MC);
            Acc out = new Acc();
            DoubleDouble.dot(ch, cl, ah, al, 0, 1, bh, bl, 0, 1, len, 1.0, out);
            double err = big(out.hi, out.lo).subtract(ref, MC).abs().doubleValue();
            assertTrue(err <= 4.0 * len * 0x1p-106 * abs.doubleValue(), "trial " + trial + ": error " + err);
            // and the negated sum with a stride: −Σ a_t b_t read from every other entry of interleaved copies
            double[] a2h = new double[2 * len];
            double[] a2l = new double[2 * len];
            for (int t = 0; t < len; t++) {
                a2h[2 * t] = ah[t];
                a2l[2 * t] = al[t];
            }
            DoubleDouble.dot(-ch, -cl, a2h, a2l, 0, 2, bh, bl, 0, 1, len, -1.0, out);
            double err2 = big(out.hi, out.lo).add(ref, MC).abs().doubleValue();
            assertTrue(err2 <= 4.0 * len * 0x1p-106 * abs.doubleValue(), "trial " + trial + ": error " + err2);
        }
    }

    /**
     * Above {@link DoubleDouble#PARALLEL_MIN_ORDER} the factor is formed by panels whose rows are spread over the pool;
     * it is bit for bit the column-by-column factor with 1 and with 2 threads (orders not multiples of the panel
     * width or of four, and a pivot failure detected too).
     */
    @Test
    void panelCholeskyOnTwoThreadsIsBitIdenticalToTheColumnByColumnOne() {
        int before = org.psdkit.linalg.Threads.get();
        try {
            for (int n : new int[] {DoubleDouble.PARALLEL_MIN_ORDER, 203}) {
                Random rnd = new Random(n);
                Mat g = new Mat(n, n);
                for (int k = 0; k < n * n; k++) {
                    g.h[k] = rnd.nextGaussian();
                    g.l[k] = g.h[k] * 1e-17 * rnd.nextGaussian();
                }
                Mat a = DoubleDouble.times(g, DoubleDouble.transpose(g));
                for (int i = 0; i < n; i++) {
                    a.h[i + i * n] += 0.1;
                }
                Mat ref = DoubleDouble.choleskyColumns(a);
                for (int threads : new int[] {1, 2}) {
                    org.psdkit.linalg.Threads.set(threads);
                    Mat l = DoubleDouble.cholesky(a);
                    assertTrue(java.util.Arrays.equals(ref.h, l.h) && java.util.Arrays.equals(ref.l, l.l),
                            "n = " + n + ", threads = " + threads);
                    assertTrue(java.util.Arrays.equals(ref.upper.h, l.upper.h)
                            && java.util.Arrays.equals(ref.upper.l, l.upper.l), "stored transpose");
                }
                Mat bad = a.copy();
                int c = n - 37; // not positive definite at column n − 37 (inside a panel, rows below it)
                bad.h[c + c * n] = -1;
                assertNull(DoubleDouble.cholesky(bad));
                assertNull(DoubleDouble.choleskyColumns(bad));
            }
        } finally {
            org.psdkit.linalg.Threads.set(before);
        }
    }

    /**
     * The Cholesky factor (four rows at a time) is bit for bit the one of the plain one-dot-per-entry algorithm, also
     * for sizes that are not multiples of four, and the lower solve gives the same bits with and without the stored
     * transpose.
     */
    @Test
    void blockedCholeskyAndSolveAreBitIdenticalToThePlainOnes() {
        for (int n : new int[] {1, 5, 23}) {
            Random rnd = new Random(n);
            Mat g = new Mat(n, n);
            for (int k = 0; k < n * n; k++) {
                g.h[k] = rnd.nextGaussian();
                g.l[k] = g.h[k] * 1e-17 * rnd.nextGaussian();
            }
            Mat a = DoubleDouble.times(g, DoubleDouble.transpose(g));
            for (int i = 0; i < n; i++) {
                a.h[i + i * n] += 0.1;
            }
            Mat u = new Mat(n, n); // plain left-looking Cholesky of Uᵀ = L, one Dot2 per entry
            Acc acc = new Acc();
            Acc tmp = new Acc();
            for (int j = 0; j < n; j++) {
                DoubleDouble.dot(a.h[j + j * n], a.l[j + j * n], u.h, u.l, j * n, 1, u.h, u.l, j * n, 1, j, -1.0,
                        acc);
                DoubleDouble.sqrt(acc.hi, acc.lo, tmp);
                double dh = tmp.hi;
                double dl = tmp.lo;
                u.h[j + j * n] = dh;
                u.l[j + j * n] = dl;
                for (int i = j + 1; i < n; i++) {
                    DoubleDouble.dot(a.h[i + j * n], a.l[i + j * n], u.h, u.l, i * n, 1, u.h, u.l, j * n, 1, j, -1.0,
                            acc);
                    DoubleDouble.div(acc.hi, acc.lo, dh, dl, tmp);
                    u.h[j + i * n] = tmp.hi;
                    u.l[j + i * n] = tmp.lo;
                }
            }
            Mat ref = DoubleDouble.transpose(u);
            Mat l = DoubleDouble.cholesky(a);
            assertTrue(java.util.Arrays.equals(ref.h, l.h) && java.util.Arrays.equals(ref.l, l.l), "n = " + n);
            double[] bh = new double[n];
            double[] bl = new double[n];
            for (int i = 0; i < n; i++) {
                bh[i] = rnd.nextGaussian();
            }
            double[] ch = bh.clone();
            double[] cl = bl.clone();
            DoubleDouble.solveLower(l, bh, bl); // through the stored transpose
            DoubleDouble.solveLower(ref, ch, cl); // strided rows of L
            assertTrue(java.util.Arrays.equals(bh, ch) && java.util.Arrays.equals(bl, cl), "solve, n = " + n);
        }
    }

    /** A random double-double n×k matrix (low parts ~1e-17 of the high ones), some entries exactly zero. */
    private static Mat randomMat(Random rnd, int n, int k) {
        Mat g = new Mat(n, k);
        for (int e = 0; e < n * k; e++) {
            if (rnd.nextInt(7) == 0) {
                continue;
            }
            g.h[e] = rnd.nextGaussian() * Math.pow(10, rnd.nextInt(5) - 2);
            g.l[e] = g.h[e] * 1e-17 * rnd.nextGaussian();
        }
        return g;
    }

    /** A random symmetric positive definite double-double n×n matrix. */
    private static Mat randomSpd(Random rnd, int n) {
        Mat g = randomMat(rnd, n, n);
        Mat a = DoubleDouble.times(g, DoubleDouble.transpose(g));
        for (int i = 0; i < n; i++) {
            a.h[i + i * n] += 0.1;
        }
        a.symmetrize();
        return a;
    }

    /** The product entry by entry, one {@link DoubleDouble#dot} each (the reference of the four-row product). */
    private static Mat timesPlain(Mat a, Mat b) {
        Mat out = new Mat(a.rows, b.cols);
        Acc acc = new Acc();
        for (int j = 0; j < b.cols; j++) {
            for (int i = 0; i < a.rows; i++) {
                DoubleDouble.dot(0, 0, a.h, a.l, i, a.rows, b.h, b.l, j * a.cols, 1, a.cols, 1.0, acc);
                out.h[i + j * a.rows] = acc.hi;
                out.l[i + j * a.rows] = acc.lo;
            }
        }
        return out;
    }

    private static void assertSameBits(Mat want, Mat got, String what) {
        assertEquals(want.rows, got.rows, what);
        assertEquals(want.cols, got.cols, what);
        assertTrue(java.util.Arrays.equals(want.h, got.h) && java.util.Arrays.equals(want.l, got.l), what);
    }

    /**
     * The four-row product, the triangular congruence Lᵀ S L, and the four-right-hand-side solves behind
     * (L Lᵀ)⁻¹ and L⁻¹ S L⁻ᵀ give bit for bit what the entry-by-entry product and the single solves give, for
     * orders that are and are not multiples of four (1–3 use only the padded groups).
     */
    @Test
    void fourWayKernelsAreBitIdenticalToThePlainOnes() {
        for (int n : new int[] {1, 2, 3, 4, 5, 6, 7, 9, 14, 18, 23}) {
            Random rnd = new Random(100 + n);
            Mat a = randomMat(rnd, n, n + 2);
            Mat b = randomMat(rnd, n + 2, n);
            assertSameBits(timesPlain(a, b), DoubleDouble.times(a, b), "times, n = " + n);
            Mat spd = randomSpd(rnd, n);
            Mat l = DoubleDouble.cholesky(spd);
            Mat s = randomSpd(rnd, n);
            Mat want = timesPlain(DoubleDouble.transpose(l), timesPlain(s, l));
            assertSameBits(want, DoubleDouble.congruence(l, s), "Lᵀ S L, n = " + n);
            // (L Lᵀ)⁻¹ by single solves of the unit vectors
            Mat inv = new Mat(n, n);
            for (int j = 0; j < n; j++) {
                double[] ch = new double[n];
                double[] cl = new double[n];
                ch[j] = 1;
                DoubleDouble.solveLower(l, ch, cl);
                DoubleDouble.solveUpper(l, ch, cl);
                System.arraycopy(ch, 0, inv.h, j * n, n);
                System.arraycopy(cl, 0, inv.l, j * n, n);
            }
            inv.symmetrize();
            assertSameBits(inv, DoubleDouble.inverseFromCholesky(l), "(L Lᵀ)⁻¹, n = " + n);
            // L⁻¹ S L⁻ᵀ: columns of S, then the rows of the result, by single solves
            Mat w = s.copy();
            for (int j = 0; j < n; j++) {
                double[] ch = java.util.Arrays.copyOfRange(w.h, j * n, j * n + n);
                double[] cl = java.util.Arrays.copyOfRange(w.l, j * n, j * n + n);
                DoubleDouble.solveLower(l, ch, cl);
                System.arraycopy(ch, 0, w.h, j * n, n);
                System.arraycopy(cl, 0, w.l, j * n, n);
            }
            Mat c = new Mat(n, n);
            for (int i = 0; i < n; i++) {
                double[] ch = new double[n];
                double[] cl = new double[n];
                for (int t = 0; t < n; t++) {
                    ch[t] = w.h[i + t * n];
                    cl[t] = w.l[i + t * n];
                }
                DoubleDouble.solveLower(l, ch, cl);
                for (int t = 0; t < n; t++) {
                    c.h[i + t * n] = ch[t];
                    c.l[i + t * n] = cl[t];
                }
            }
            c.symmetrize();
            assertSameBits(c, DoubleDouble.congruenceInverse(l, s), "L⁻¹ S L⁻ᵀ, n = " + n);
        }
    }
}
