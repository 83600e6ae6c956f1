package org.psdkit.regression.nystrom.internal;

import org.psdkit.kernel.GaussianKernel;
import org.psdkit.linalg.internal.FloatBlas;
import org.psdkit.linalg.Matrix;

/**
 * Row blocks of K_nm = exp(−γ‖x_i − c_j‖²) in single precision, fast: the exponents −γ‖x − c‖² of a whole block
 * come from one {@code sgemm} of augmented rows, [x, 1, ‖x‖²]·[−2c, ‖c‖², 1]ᵀ scaled by −γ (points centred on the
 * anchors' mean first: the kernel is translation invariant and centring shrinks the cancelling terms), and the
 * exponential is {@link #expNonPositive}, a branch-free polynomial the JIT vectorises when it runs on a double
 * array ({@link #expInPlace}). Used by {@link NystromKrr} when single-precision K_nm is allowed and
 * {@link #errorBound} is small; the double path
 * ({@code Kernel.cross}) stays the reference.
 */
public final class GaussianFloatBlocks {

    /**
     * The fast path is used only when the worst-case bound {@link #errorBound} on the relative error of an entry is
     * at most this: 1e-4, the agreement {@code NystromKrrTest} demands of single-precision storage and far below any
     * statistical error; standardised data pass (d = 10, σ = 3 at n = 10⁶: ≈ 1e-6). Typical errors are far below
     * the bound (the roundings are not all of one sign and size).
     */
    public static final double MAX_RELATIVE_ERROR = 1e-4;

    /** Unit roundoff of single precision, 2⁻²⁴. */
    private static final double FLOAT_UNIT_ROUNDOFF = 0x1p-24;

    /**
     * Smallest exponent computed: e^−104 ≈ 6.8e-46 is below half the smallest subnormal float (7e-46), so every
     * smaller exponent rounds to 0 in single precision anyway; the clamp keeps the argument of the polynomial in
     * [−104/256, 0].
     */
    public static final double MIN_EXPONENT = -104;

    private final int m;
    private final int d;
    private final double gamma;
    private final double[] mean;
    private final float[] anchorsAug; // m × (d + 2), row-major: [−2(c − mean), ‖c − mean‖², 1]
    private final double maxAnchorNorm2;

    public GaussianFloatBlocks(GaussianKernel kernel, Matrix anchors) {
        this.m = anchors.rows();
        this.d = anchors.cols();
        this.gamma = kernel.gamma();
        this.mean = new double[d];
        double[] a = anchors.data();
        for (int t = 0; t < d; t++) {
            double s = 0;
            for (int j = 0; j < m; j++) {
                s += a[t * m + j];
            }
            mean[t] = s / m;
        }
        int k = d + 2;
        anchorsAug = new float[m * k];
        double mx = 0;
        for (int j = 0; j < m; j++) {
            double nrm = 0;
            for (int t = 0; t < d; t++) {
                double v = a[t * m + j] - mean[t];
                nrm += v * v;
                anchorsAug[j * k + t] = (float) (-2 * v);
            }
            anchorsAug[j * k + d] = (float) nrm;
            anchorsAug[j * k + d + 1] = 1f;
            mx = Math.max(mx, nrm);
        }
        maxAnchorNorm2 = mx;
    }

    /**
     * A bound on the relative error of an entry for points with centred squared norms up to {@code maxPointNorm2}:
     * the (d + 3) roundings of the inputs and of the sgemm sum, each at most u·(‖x‖² + ‖c‖²) in the exponent
     * (Higham 2002, eq. 3.5), times γ, plus the polynomial's 5e-10 and the final rounding (see
     * {@link #expNonPositive}).
     */
    public double errorBound(double maxPointNorm2) {
        return gamma * (d + 3) * FLOAT_UNIT_ROUNDOFF * (maxPointNorm2 + maxAnchorNorm2) * 2 + 2 * FLOAT_UNIT_ROUNDOFF;
    }

    /** Largest squared norm of the rows of x after centring on the anchors' mean. */
    public double maxCentredNorm2(Matrix x) {
        int n = x.rows();
        double[] a = x.data();
        double[] nrm = new double[n];
        for (int t = 0; t < d; t++) {
            int off = t * n;
            double mu = mean[t];
            for (int i = 0; i < n; i++) {
                double v = a[off + i] - mu;
                nrm[i] += v * v;
            }
        }
        double mx = 0;
        for (double v : nrm) {
            mx = Math.max(mx, v);
        }
        return mx;
    }

    /**
     * K(block, anchors) into {@code out} (rows × m, row-major); {@code aug} is scratch of at least rows·(d + 2).
     */
    public void fill(Matrix block, float[] aug, float[] out) {
        int rows = block.rows();
        int k = d + 2;
        double[] a = block.data();
        for (int i = 0; i < rows; i++) {
            double nrm = 0;
            for (int t = 0; t < d; t++) {
                double v = a[t * rows + i] - mean[t];
                nrm += v * v;
                aug[i * k + t] = (float) v;
            }
            aug[i * k + d] = 1f;
            aug[i * k + d + 1] = (float) nrm;
        }
        FloatBlas.gemmNT(rows, m, k, (float) -gamma, aug, anchorsAug, out);
        expInPlace(out, rows * m);
    }

    /**
     * Length of the double scratch of {@link #expInPlace}: 1,024 entries (8 KB, in L1 with its float slice).
     */
    public static final int EXP_CHUNK = 1024;

    /** Per-thread double scratch of {@link #expInPlace}. */
    private static final ThreadLocal<double[]> EXP_SCRATCH = ThreadLocal.withInitial(() -> new double[EXP_CHUNK]);

    /**
     * out[i] = (float) expNonPositive(out[i]) for i &lt; len, in chunks widened to a double scratch first: HotSpot's
     * superword pass (JDK 17) does not vectorise a loop that mixes float loads with double arithmetic, so the
     * polynomial runs on a double array (vectorised) between two plain conversion loops. The same double
     * operations on the same values: the result is bit for bit that of the scalar loop, and an order of magnitude
     * faster (docs/benchmarks/krr-scale.md).
     */
    public static void expInPlace(float[] out, int len) {
        double[] t = EXP_SCRATCH.get();
        for (int s = 0; s < len; s += EXP_CHUNK) {
            int c = Math.min(EXP_CHUNK, len - s);
            for (int i = 0; i < c; i++) {
                t[i] = out[s + i];
            }
            for (int i = 0; i < c; i++) {
                t[i] = expNonPositive(t[i]);
            }
            for (int i = 0; i < c; i++) {
                out[s + i] = (float) t[i];
            }
        }
    }

    /**
     * e^z for z ≤ 0 (positive z, from rounding of a zero distance, is taken as 0; z &lt; {@link #MIN_EXPONENT}
     * as MIN_EXPONENT), without branches so that the loop vectorises: e^z = (e^{z/256})^{2^8}, with e^y for
     * y = z/256 ∈ [−0.41, 0] from its Taylor polynomial of degree 10 (remainder ≤ 0.41¹¹/11! = 1.3e-12, i.e.
     * 1.9e-12 relative to e^y ≥ 0.66) and eight squarings, which multiply a relative error by 2⁸: at most 5e-10
     * relative in double (the roundings add ≈ 256 × 1.1e-16), far below the 6e-8 of the final rounding to single
     * precision.
     */
    public static double expNonPositive(double z) {
        double y = Math.max(Math.min(z, 0.0), MIN_EXPONENT) * (1.0 / 256);
        double p = 1 + y * (1 + y * (1.0 / 2 + y * (1.0 / 6 + y * (1.0 / 24 + y * (1.0 / 120 + y * (1.0 / 720
                + y * (1.0 / 5040 + y * (1.0 / 40320 + y * (1.0 / 362880 + y * (1.0 / 3628800))))))))));
        p *= p;
        p *= p;
        p *= p;
        p *= p;
        p *= p;
        p *= p;
        p *= p;
        p *= p;
        return p;
    }
}
