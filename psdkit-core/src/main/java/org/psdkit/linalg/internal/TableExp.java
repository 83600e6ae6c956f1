package org.psdkit.linalg.internal;

/**
 * The exponential of the kernel values of prediction sums (radial kernels' {@code crossTimes}), as one loop
 * s[i] += e^(a[i] · scale) · c with the arithmetic written out in it: that loop runs in C1-compiled code (a short
 * predict), where it costs less than {@link Math#exp}'s call per entry, and C1 would not inline a method of this
 * size (HotSpot's {@code MaxInlineSize}, 35 bytes of bytecode).
 *
 * <p>Method: Tang (1989), "Table-driven implementation of the exponential function in IEEE floating-point
 * arithmetic", ACM TOMS 15(2), with a table of 64 entries. For z in [{@value #MIN_ARGUMENT}, {@value #MAX_ARGUMENT}],
 * e^z = 2^m · 2^(j/64) · e^r with k = round(64 z / ln 2) = 64 m + j (0 ≤ j &lt; 64) and r = z − k ln 2 / 64, computed
 * in two parts (ln 2 / 64 = {@code L1 + L2}, L1 with 32 significant bits, fdlibm's {@code ln2HI} / 64, so that
 * k · L1 is exact for |k| &lt; 2²¹); |r| ≤ ln 2 / 128 + ε. e^r − 1 is its Taylor polynomial of degree 5 (remainder
 * ≤ 0.00542⁶/6! &lt; 3.6e-17, a sixth of an ulp of 1); 2^(j/64) is read from {@link #TABLE}, the 64 values
 * 2^(j/64) correctly rounded to double (computed with 60-digit decimal arithmetic). The result 2^(j/64) + 2^(j/64)
 * (e^r − 1) is rounded once and then scaled by 2^m exactly (no subnormal or infinite result in that range).
 * Outside the range (and for NaN) it is {@link Math#exp}.
 *
 * <p>Accuracy: within 1.1 ulps of e^z (the table entry's rounding adds up to half an ulp to the final rounding's
 * half, Tang 1989 §4; 1.03 is the largest measured) and within 1 ulp of {@link Math#exp} and of fdlibm's
 * {@link StrictMath#exp} on 2.2 million samples; e^0 = 1 exactly ({@code TableExpTest}). It is not bit for bit {@link Math#exp}, so it serves only sums whose order already
 * differs from the recorded ones (a prediction's tiled sum), never a Gram matrix that a solver's path depends on.
 */
public final class TableExp {

    /** Below this, e^z would be near or below the smallest normal double: {@link Math#exp} handles it. */
    static final double MIN_ARGUMENT = -708.0;
    /** Above this, 2^(j/64) · e^r · 2^m could overflow: {@link Math#exp} handles it. */
    static final double MAX_ARGUMENT = 709.0;

    private static final double INV_L = 64 / 0.6931471805599453;
    /** fdlibm's ln2HI (ln 2 to 32 significant bits) / 64. */
    private static final double L1 = 6.93147180369123816490e-01 / 64;
    /** fdlibm's ln2LO / 64: L1 + L2 = ln 2 / 64 to double-double precision. */
    private static final double L2 = 1.90821492927058770002e-10 / 64;
    /** 1.5 · 2⁵²: adding it rounds 64 z / ln 2 to an integer held in the low bits of the sum. */
    private static final double SHIFT = 0x1.8p52;
    private static final long SHIFT_BITS = Double.doubleToRawLongBits(SHIFT);

    private static final double C2 = 1.0 / 2;
    private static final double C3 = 1.0 / 6;
    private static final double C4 = 1.0 / 24;
    private static final double C5 = 1.0 / 120;

    /** 2^(j/64), j = 0..63, correctly rounded. */
    static final double[] TABLE = {
        0x1.0000000000000p+0, 0x1.02c9a3e778061p+0, 0x1.059b0d3158574p+0,
        0x1.0874518759bc8p+0, 0x1.0b5586cf9890fp+0, 0x1.0e3ec32d3d1a2p+0,
        0x1.11301d0125b51p+0, 0x1.1429aaea92de0p+0, 0x1.172b83c7d517bp+0,
        0x1.1a35beb6fcb75p+0, 0x1.1d4873168b9aap+0, 0x1.2063b88628cd6p+0,
        0x1.2387a6e756238p+0, 0x1.26b4565e27cddp+0, 0x1.29e9df51fdee1p+0,
        0x1.2d285a6e4030bp+0, 0x1.306fe0a31b715p+0, 0x1.33c08b26416ffp+0,
        0x1.371a7373aa9cbp+0, 0x1.3a7db34e59ff7p+0, 0x1.3dea64c123422p+0,
        0x1.4160a21f72e2ap+0, 0x1.44e086061892dp+0, 0x1.486a2b5c13cd0p+0,
        0x1.4bfdad5362a27p+0, 0x1.4f9b2769d2ca7p+0, 0x1.5342b569d4f82p+0,
        0x1.56f4736b527dap+0, 0x1.5ab07dd485429p+0, 0x1.5e76f15ad2148p+0,
        0x1.6247eb03a5585p+0, 0x1.6623882552225p+0, 0x1.6a09e667f3bcdp+0,
        0x1.6dfb23c651a2fp+0, 0x1.71f75e8ec5f74p+0, 0x1.75feb564267c9p+0,
        0x1.7a11473eb0187p+0, 0x1.7e2f336cf4e62p+0, 0x1.82589994cce13p+0,
        0x1.868d99b4492edp+0, 0x1.8ace5422aa0dbp+0, 0x1.8f1ae99157736p+0,
        0x1.93737b0cdc5e5p+0, 0x1.97d829fde4e50p+0, 0x1.9c49182a3f090p+0,
        0x1.a0c667b5de565p+0, 0x1.a5503b23e255dp+0, 0x1.a9e6b5579fdbfp+0,
        0x1.ae89f995ad3adp+0, 0x1.b33a2b84f15fbp+0, 0x1.b7f76f2fb5e47p+0,
        0x1.bcc1e904bc1d2p+0, 0x1.c199bdd85529cp+0, 0x1.c67f12e57d14bp+0,
        0x1.cb720dcef9069p+0, 0x1.d072d4a07897cp+0, 0x1.d5818dcfba487p+0,
        0x1.da9e603db3285p+0, 0x1.dfc97337b9b5fp+0, 0x1.e502ee78b3ff6p+0,
        0x1.ea4afa2a490dap+0, 0x1.efa1bee615a27p+0, 0x1.f50765b6e4540p+0,
        0x1.fa7c1819e90d8p+0
    };

    private TableExp() {
    }

    /**
     * s[i − from] += e^z · c with z = a[i] · scale (rounded), for from ≤ i &lt; to; e^z as in the class comment.
     * The exponential alone is {@code expScaledAxpy(new double[] {z}, 0, 1, 1.0, 1.0, s)} on s = {0}.
     */
    public static void expScaledAxpy(double[] a, int from, int to, double scale, double c, double[] s) {
        final double[] table = TABLE;
        for (int i = from; i < to; i++) {
            double z = a[i] * scale;
            double e;
            if (z >= MIN_ARGUMENT && z <= MAX_ARGUMENT) {
                double sh = z * INV_L + SHIFT;
                long k = Double.doubleToRawLongBits(sh) - SHIFT_BITS;
                double kd = sh - SHIFT;
                double r = (z - kd * L1) - kd * L2;
                double p = r + r * r * (C2 + r * (C3 + r * (C4 + r * C5)));
                double t = table[(int) (k & 63)];
                e = (t + t * p) * Double.longBitsToDouble(((k >> 6) + 1023) << 52);
            } else {
                e = Math.exp(z);
            }
            s[i - from] += e * c;
        }
    }
    /**
     * A radial kernel's column of a prediction sum in one pass: for 0 ≤ i &lt; n, r2 = (nx[i] + nz) − 2 · prod[po + i]
     * (the squared distance from an inner product and the two squared norms, as the radial kernels expand it), r its
     * square root when {@code root} is set (the Laplacian kernel) or r2 itself, and s[i] += e^(r · scale) · c with
     * e^z as in {@link #expScaledAxpy}: bit for bit a pass writing r2 and {@link #expScaledAxpy} over it, without
     * the store and load of r2 in between. An i where the expansion cancels, r2 &lt; guard · (nx[i] + nz), gets no
     * term: it is put into {@code skipped}, and the count of such i is returned, for the caller to add their terms
     * from distances computed directly. The exponential's arithmetic is {@link #expScaledAxpy}'s, written out
     * again for the class comment's reason (C1 inlines neither); {@code TableExpTest} holds the two to the same bits.
     */
    public static int expDistanceAxpy(double[] prod, int po, int n, double[] nx, double nz, double guard,
                                      boolean root, double scale, double c, double[] s, int[] skipped) {
        final double[] table = TABLE;
        int k0 = 0;
        for (int i = 0; i < n; i++) {
            double norms = nx[i] + nz;
            double r2 = norms - 2 * prod[po + i];
            if (r2 < guard * norms) {
                skipped[k0++] = i;
                continue;
            }
            double z = (root ? Math.sqrt(r2) : r2) * scale;
            double e;
            if (z >= MIN_ARGUMENT && z <= MAX_ARGUMENT) {
                double sh = z * INV_L + SHIFT;
                long k = Double.doubleToRawLongBits(sh) - SHIFT_BITS;
                double kd = sh - SHIFT;
                double r = (z - kd * L1) - kd * L2;
                double p = r + r * r * (C2 + r * (C3 + r * (C4 + r * C5)));
                double t = table[(int) (k & 63)];
                e = (t + t * p) * Double.longBitsToDouble(((k >> 6) + 1023) << 52);
            } else {
                e = Math.exp(z);
            }
            s[i] += e * c;
        }
        return k0;
    }
}
