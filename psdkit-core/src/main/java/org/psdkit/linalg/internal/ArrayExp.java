package org.psdkit.linalg.internal;

/**
 * The exponential over a range of a {@code double[]} in place, in loops the JIT compiles to vector instructions:
 * for the elementwise pass of kernel matrices (Gaussian, Laplacian and exponential kernels), where
 * {@link Math#exp} one value at a time is the largest cost after the matrix product.
 *
 * <p>Method (Tang 1989, "Table-driven implementation of the exponential function in IEEE floating-point
 * arithmetic", ACM TOMS 15(2), without the table; the reduction of fdlibm's {@code e_exp.c}): e^z = 2^k · e^r with
 * k = round(z / ln 2) and r = z − k ln 2 computed in two parts (ln 2 = LN2_HI + LN2_LO, LN2_HI with trailing zero
 * bits so that k · LN2_HI is exact), |r| ≤ ln 2 / 2; e^r is its Taylor polynomial of degree 13 in Horner form
 * (remainder ≤ 0.347¹⁴/14! = 4.2e-18, below 1/50 of an ulp), and 2^k is applied as two exact power-of-two factors
 * 2^⌊k/2⌋ · 2^(k − ⌊k/2⌋) so that results in the subnormal range are rounded once, as {@link Math#exp} rounds
 * them. k is read from the low bits of z / ln 2 + 1.5 · 2⁵² (the round-to-nearest of adding a large constant), so
 * no loop has a branch. Arguments are clamped to [−746, 710] first (beyond them e^z is 0 or
 * +∞ in double precision all the same); NaN stays NaN.
 *
 * <p>Accuracy: within 1 ulp of {@link Math#exp} (which is itself within 1 ulp of e^z) over the whole range,
 * {@code ArrayExpTest}. The work runs in chunks of {@link #CHUNK} entries copied to per-thread scratch, in separate
 * simple loops (reduction and polynomial; reading k; scaling) that HotSpot's superword pass vectorises.
 */
public final class ArrayExp {

    /** Entries per chunk: 1,024 (8 KB of the range and 8 KB of scratch stay in the L1 cache). */
    static final int CHUNK = 1024;

    private static final double LOG2E = 1.4426950408889634;
    /** fdlibm's ln2HI: ln 2 to 32 significant bits, so that k · LN2_HI is exact for |k| &lt; 2²¹. */
    private static final double LN2_HI = 6.93147180369123816490e-01;
    /** fdlibm's ln2LO = ln 2 − LN2_HI. */
    private static final double LN2_LO = 1.90821492927058770002e-10;
    /** 1.5 · 2⁵²: adding it rounds z / ln 2 to an integer held in the low bits of the sum. */
    private static final double SHIFT = 0x1.8p52;
    private static final long SHIFT_BITS = Double.doubleToRawLongBits(SHIFT);
    /** Below this, e^z &lt; 2^−1075 rounds to 0. */
    private static final double MIN_ARGUMENT = -746.0;
    /** Above this, e^z overflows to +∞. */
    private static final double MAX_ARGUMENT = 710.0;

    private static final double C2 = 1.0 / 2;
    private static final double C3 = 1.0 / 6;
    private static final double C4 = 1.0 / 24;
    private static final double C5 = 1.0 / 120;
    private static final double C6 = 1.0 / 720;
    private static final double C7 = 1.0 / 5040;
    private static final double C8 = 1.0 / 40320;
    private static final double C9 = 1.0 / 362880;
    private static final double C10 = 1.0 / 3628800;
    private static final double C11 = 1.0 / 39916800;
    private static final double C12 = 1.0 / 479001600;
    private static final double C13 = 1.0 / 6227020800.0;

    /** Per-thread scratch of one chunk: the values, the shifted z / ln 2 (k in its low bits), and k. */
    private static final class Scratch {
        final double[] w = new double[CHUNK];
        final double[] t = new double[CHUNK];
        final long[] k = new long[CHUNK];
    }

    private static final ThreadLocal<Scratch> SCRATCH = ThreadLocal.withInitial(Scratch::new);

    private ArrayExp() {
    }

    /** a[i] = e^{a[i]} for from ≤ i &lt; to. */
    public static void expInPlace(double[] a, int from, int to) {
        expScaledInPlace(a, from, to, 1.0);
    }

    /**
     * a[i] = e^{c · a[i]} for from ≤ i &lt; to, the product rounded first (as {@code Math.exp(c * a[i])}; for the
     * Gaussian kernel c = −γ gives exp(−r² γ) exactly as {@code Math.exp(-r2 * gamma)} rounds its argument).
     */
    public static void expScaledInPlace(double[] a, int from, int to, double c) {
        if (from < 0 || to > a.length || from > to) {
            throw new IndexOutOfBoundsException("range " + from + ".." + to + " of " + a.length);
        }
        Scratch sc = SCRATCH.get();
        for (int s = from; s < to; s += CHUNK) {
            int len = Math.min(to - s, CHUNK);
            // every vector loop indexes its arrays alike from 0: JDK 17's superword pass leaves a loop scalar when
            // its arrays are indexed with different offsets, so the chunk is moved by arraycopy
            System.arraycopy(a, s, sc.w, 0, len);
            polynomial(sc.w, sc.t, len, c);
            exponents(sc.t, sc.k, len);
            scale(sc.w, sc.k, len);
            System.arraycopy(sc.w, 0, a, s, len);
        }
    }

    /** e^z by the same operations as {@link #expInPlace}, bit for bit (for single values and tests). */
    public static double exp(double z) {
        double[] one = {z};
        expInPlace(one, 0, 1);
        return one[0];
    }

    /** Reduction and polynomial: w[j] = e^r, t[j] = z / ln 2 + SHIFT for z = c · w[j] (double arithmetic only). */
    private static void polynomial(double[] w, double[] t, int len, double c) {
        for (int j = 0; j < len; j++) {
            double z = Math.min(Math.max(c * w[j], MIN_ARGUMENT), MAX_ARGUMENT);
            double sh = z * LOG2E + SHIFT;
            double k = sh - SHIFT;
            double r = (z - k * LN2_HI) - k * LN2_LO;
            w[j] = 1 + r * (1 + r * (C2 + r * (C3 + r * (C4 + r * (C5 + r * (C6 + r * (C7 + r * (C8 + r * (C9
                    + r * (C10 + r * (C11 + r * (C12 + r * C13))))))))))));
            t[j] = sh;
        }
    }

    /** k[j] = the integer in the low bits of t[j]. */
    private static void exponents(double[] t, long[] k, int len) {
        for (int j = 0; j < len; j++) {
            k[j] = Double.doubleToRawLongBits(t[j]) - SHIFT_BITS;
        }
    }

    /** w[j] ·= 2^k[j] as two exact factors 2^⌊k/2⌋ · 2^(k − ⌊k/2⌋) (one rounding in the subnormal range). */
    private static void scale(double[] w, long[] k, int len) {
        for (int j = 0; j < len; j++) {
            long k1 = k[j] >> 1;
            w[j] = w[j] * Double.longBitsToDouble((k1 + 1023) << 52) * Double.longBitsToDouble((k[j] - k1 + 1023) << 52);
        }
    }
}
