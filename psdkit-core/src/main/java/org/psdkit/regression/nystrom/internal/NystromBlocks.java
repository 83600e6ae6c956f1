package org.psdkit.regression.nystrom.internal;

import org.psdkit.kernel.GaussianKernel;
import org.psdkit.kernel.Kernel;
import org.psdkit.linalg.Cholesky;
import org.psdkit.linalg.internal.FloatBlas;
import org.psdkit.linalg.Matrix;
import org.psdkit.regression.nystrom.KnmBlocks;
import org.psdkit.regression.nystrom.KnmOperator;
import org.psdkit.regression.nystrom.NystromKrr;
import org.psdkit.regression.nystrom.Storage;

/**
 * The per-block arithmetic of {@link NystromKrr}'s single-precision routes, for engines that hold the rows
 * elsewhere (psdkit-spark computes these sums per partition and combines them with {@code treeAggregate}): a row
 * block K_b of K_nm in single precision computed as {@link KnmBlocks} computes it (the fast Gaussian block
 * of {@link GaussianFloatBlocks} when its error bound allows, else {@code Kernel.cross} rounded to float), the Gram
 * pass's K_bᵀK_b ({@link FloatBlas.GramAccumulator}: the floats widened to double, dsyrk) with K_bᵀ(y_b − offset),
 * a CG pass's K_bᵀ(K_b u), and the Gram-preconditioned solve ({@link NystromKrr}'s, package-private there).
 *
 * <p>The whole data set decides whether the fast Gaussian block is used ({@link KnmBlocks}: the largest
 * squared norm of the points centred on the anchors' mean), so an engine first takes the maximum of
 * {@link #maxCentredNorm2} over its blocks and then builds the instance with {@link #of}. An instance is
 * immutable and may be shared between threads; its scratch arrays are per thread.
 */
public final class NystromBlocks {

    private final Kernel kernel;
    private final Matrix anchors;
    private final int m;
    private final GaussianFloatBlocks fast; // null: Kernel.cross rounded to float

    private static final ThreadLocal<float[][]> SCRATCH = ThreadLocal.withInitial(() -> new float[2][]);

    private NystromBlocks(Kernel kernel, Matrix anchors, GaussianFloatBlocks fast) {
        this.kernel = kernel;
        this.anchors = anchors;
        this.m = anchors.rows();
        this.fast = fast;
    }

    /**
     * The largest squared norm of the rows of {@code xb} centred on the anchors' mean, the input of the fast
     * Gaussian block's error bound; 0 for other kernels (not used).
     */
    public static double maxCentredNorm2(Kernel kernel, Matrix anchors, Matrix xb) {
        if (!(kernel instanceof GaussianKernel gk) || xb.rows() == 0) {
            return 0;
        }
        return new GaussianFloatBlocks(gk, anchors).maxCentredNorm2(xb);
    }

    /**
     * The block computer for data whose centred squared norms are at most {@code maxCentredNorm2} (the maximum of
     * {@link #maxCentredNorm2} over all blocks): the fast Gaussian block when its bound is at most
     * {@link GaussianFloatBlocks#MAX_RELATIVE_ERROR}, exactly as {@link KnmBlocks} decides.
     */
    public static NystromBlocks of(Kernel kernel, Matrix anchors, double maxCentredNorm2) {
        if (kernel == null) {
            throw new IllegalArgumentException("kernel must not be null");
        }
        GaussianFloatBlocks g = null;
        if (kernel instanceof GaussianKernel gk) {
            g = new GaussianFloatBlocks(gk, anchors);
            if (g.errorBound(maxCentredNorm2) > GaussianFloatBlocks.MAX_RELATIVE_ERROR) {
                g = null;
            }
        }
        return new NystromBlocks(kernel, anchors, g);
    }

    /** Whether K_b comes from the fast single-precision Gaussian block. */
    public boolean fast() {
        return fast != null;
    }

    /** K_b = k(xb, anchors) in single precision, row-major (rows × m), in this thread's scratch array. */
    public float[] floatBlock(Matrix xb) {
        if (xb.cols() != anchors.cols()) {
            throw new IllegalArgumentException("block has " + xb.cols() + " features, anchors " + anchors.cols());
        }
        int rows = xb.rows();
        float[][] s = SCRATCH.get();
        if (s[0] == null || s[0].length < rows * m) {
            s[0] = new float[rows * m];
        }
        float[] out = s[0];
        if (fast != null) {
            int len = rows * (xb.cols() + 2);
            if (s[1] == null || s[1].length < len) {
                s[1] = new float[len];
            }
            fast.fill(xb, s[1], out);
        } else {
            Matrix k = kernel.cross(xb, anchors); // column-major rows × m
            double[] a = k.data();
            for (int j = 0; j < m; j++) {
                for (int i = 0; i < rows; i++) {
                    out[i * m + j] = (float) a[j * rows + i];
                }
            }
        }
        return out;
    }

    /** {@link #floatBlock} in a new array of exactly rows·m entries (to keep). */
    public float[] floatBlockCopy(Matrix xb) {
        return java.util.Arrays.copyOf(floatBlock(xb), xb.rows() * m);
    }

    /**
     * The Gram pass over one block: adds K_bᵀK_b into {@code acc} (its lower triangle, in double from the widened
     * floats) and K_bᵀ(y_b − offset) into {@code rhs} (length m).
     */
    public void addGram(Matrix xb, double[] y, double offset, FloatBlas.GramAccumulator acc, double[] rhs) {
        addGram(floatBlock(xb), xb.rows(), y, offset, acc, rhs);
    }

    /** {@link #addGram(Matrix, double[], double, FloatBlas.GramAccumulator, double[])} for a K_b already computed. */
    public static void addGram(float[] a, int rows, double[] y, double offset, FloatBlas.GramAccumulator acc,
                               double[] rhs) {
        int m = rhs.length;
        if (y.length < rows || (long) rows * m > a.length) {
            throw new IllegalArgumentException("gram block: " + rows + " rows, " + y.length + " targets, "
                    + a.length + " kernel entries for " + m + " anchors");
        }
        acc.add(rows, a);
        for (int i = 0; i < rows; i++) {
            double t = y[i] - offset;
            if (t != 0) {
                int off = i * m;
                for (int j = 0; j < m; j++) {
                    rhs[j] += a[off + j] * t;
                }
            }
        }
    }

    /** A CG pass over one block: adds K_bᵀ(K_b u) into {@code w} (length m), K_b in single precision. */
    public void addKtK(Matrix xb, double[] u, double[] w) {
        if (u.length != m) {
            throw new IllegalArgumentException("ktk block: u of " + u.length + " for " + m + " anchors");
        }
        addKtK(floatBlock(xb), xb.rows(), u, w);
    }

    /** {@link #addKtK(Matrix, double[], double[])} for a K_b already computed (rows × m, row-major). */
    public static void addKtK(float[] a, int rows, double[] u, double[] w) {
        if (u.length != w.length) {
            throw new IllegalArgumentException("ktk block: u of " + u.length + ", w of " + w.length);
        }
        addKtK(a, rows, u, null, 0, w);
    }

    /**
     * w += K_bᵀ(K_b u + v[from, from + rows)) for K_b = {@code a} (rows × m, row-major, m = w.length); u or v may be
     * null (taken as 0): the row loop of every single-precision pass.
     *
     * <p>Row i contributes t_i = v_i + {@link #rowDot}(K_i, u) and, when t_i ≠ 0, w_j += K_ij·t_i for every j, rows in
     * order. The rows are taken {@value #GROUP} at a time: each is first widened to a double scratch row (HotSpot's
     * superword pass in JDK 17 leaves a loop that mixes float loads with double arithmetic scalar, see
     * {@link GaussianFloatBlocks#expInPlace}; a plain float-to-double copy and all-double loops are vectorised), and
     * the group's updates are one loop w_j = (((w_j + K_1j t_1) + K_2j t_2) + K_3j t_3) + K_4j t_4: the same
     * products (a float times a double is exact in double) added in the same order as row by row, so w is the
     * same bit for bit, with w read and written once per group instead of once per row.
     */
    public static void addKtK(float[] a, int rows, double[] u, double[] v, int from, double[] w) {
        int m = w.length;
        if ((long) rows * m > a.length) {
            throw new IllegalArgumentException("ktk block: w of " + m + ", " + a.length + " kernel entries for "
                    + rows + " rows");
        }
        double[][] r = rowScratch(m);
        double[] r0 = r[0];
        double[] r1 = r[1];
        double[] r2 = r[2];
        double[] r3 = r[3];
        int i = 0;
        for (; i + GROUP <= rows; i += GROUP) {
            int off = i * m;
            widen(a, off, r0, m);
            widen(a, off + m, r1, m);
            widen(a, off + 2 * m, r2, m);
            widen(a, off + 3 * m, r3, m);
            double t0 = v == null ? 0 : v[from + i];
            double t1 = v == null ? 0 : v[from + i + 1];
            double t2 = v == null ? 0 : v[from + i + 2];
            double t3 = v == null ? 0 : v[from + i + 3];
            if (u != null) {
                t0 += rowDot(r0, u, m);
                t1 += rowDot(r1, u, m);
                t2 += rowDot(r2, u, m);
                t3 += rowDot(r3, u, m);
            }
            if (t0 != 0 && t1 != 0 && t2 != 0 && t3 != 0) {
                for (int j = 0; j < m; j++) {
                    w[j] = (((w[j] + r0[j] * t0) + r1[j] * t1) + r2[j] * t2) + r3[j] * t3;
                }
            } else {
                axpy(r0, t0, w, m);
                axpy(r1, t1, w, m);
                axpy(r2, t2, w, m);
                axpy(r3, t3, w, m);
            }
        }
        for (; i < rows; i++) {
            widen(a, i * m, r0, m);
            double t = v == null ? 0 : v[from + i];
            if (u != null) {
                t += rowDot(r0, u, m);
            }
            axpy(r0, t, w, m);
        }
    }

    /** Rows widened together by {@link #addKtK(float[], int, double[], double[], int, double[])}. */
    private static final int GROUP = 4;

    /** Per-thread double rows of {@link #addKtK(float[], int, double[], double[], int, double[])}. */
    private static final ThreadLocal<double[][]> ROWS = ThreadLocal.withInitial(() -> new double[GROUP][0]);

    private static double[][] rowScratch(int m) {
        double[][] r = ROWS.get();
        if (r[0].length < m) {
            for (int g = 0; g < GROUP; g++) {
                r[g] = new double[m];
            }
        }
        return r;
    }

    private static void widen(float[] a, int off, double[] r, int m) {
        for (int j = 0; j < m; j++) {
            r[j] = a[off + j];
        }
    }

    /** w += r·t when t ≠ 0 (a zero t adds nothing, as the row-by-row loop skips it). */
    private static void axpy(double[] r, double t, double[] w, int m) {
        if (t != 0) {
            for (int j = 0; j < m; j++) {
                w[j] += r[j] * t;
            }
        }
    }

    /** {@link #rowDot(float[], int, double[], int)} of a row already widened to double: the same sums. */
    static double rowDot(double[] r, double[] u, int m) {
        double s0 = 0;
        double s1 = 0;
        double s2 = 0;
        double s3 = 0;
        int j = 0;
        for (; j + 3 < m; j += 4) {
            s0 += r[j] * u[j];
            s1 += r[j + 1] * u[j + 1];
            s2 += r[j + 2] * u[j + 2];
            s3 += r[j + 3] * u[j + 3];
        }
        for (; j < m; j++) {
            s0 += r[j] * u[j];
        }
        return (s0 + s1) + (s2 + s3);
    }

    /**
     * Σ_j a[off + j]·u[j] over j &lt; m with four partial sums: independent chains the CPU can overlap (a single sum is
     * latency-bound); the row product of every single-precision pass ({@link KnmBlocks}'s and this class's).
     */
    public static double rowDot(float[] a, int off, double[] u, int m) {
        double s0 = 0;
        double s1 = 0;
        double s2 = 0;
        double s3 = 0;
        int j = 0;
        for (; j + 3 < m; j += 4) {
            s0 += a[off + j] * u[j];
            s1 += a[off + j + 1] * u[j + 1];
            s2 += a[off + j + 2] * u[j + 2];
            s3 += a[off + j + 3] * u[j + 3];
        }
        for (; j < m; j++) {
            s0 += a[off + j] * u[j];
        }
        return (s0 + s1) + (s2 + s3);
    }

    /**
     * The symmetric m×m matrix (column-major) whose lower triangle is {@code lower} as
     * {@link FloatBlas.GramAccumulator#addLowerInto} fills it (row-major: lower[i·m + j], j ≤ i); mirrors in place.
     */
    public static Matrix symmetricFromLower(double[] lower, int m) {
        if (lower.length != m * m) {
            throw new IllegalArgumentException("gram: " + lower.length + " entries for " + m + "x" + m);
        }
        for (int i = 0; i < m; i++) {
            for (int j = 0; j < i; j++) {
                lower[j * m + i] = lower[i * m + j];
            }
        }
        return Matrix.wrap(m, m, lower);
    }

    /**
     * Whether {@link Storage#AUTO} would take the Gram route on cost for n rows and m anchors
     * ({@code NystromKrr.gramCheaper}: the Gram pass against the plain CG passes it saves).
     */
    public static boolean gramCheaper(long n, int m) {
        return RoutePlanner.gramCheaper(n, m);
    }

    /**
     * {@link NystromKrr#solve(KnmOperator, Matrix, Cholesky, double[], double, double, double, int)}
     * preconditioned by {@code gram} = K_nmᵀK_nm (the Gram route: CG in one to three iterations); null is the
     * plain Falkon CG.
     */
    public static NystromKrr.Solution solve(KnmOperator op, Matrix kmm, Cholesky kmmChol, double[] b,
                                            double offset, double lambda, double tolerance, int maxIterations,
                                            Matrix gram) {
        return NystromKrr.solve(op, kmm, kmmChol, b, offset, lambda, tolerance, maxIterations, gram);
    }
}
