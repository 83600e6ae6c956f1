package org.psdkit.kernel;

/**
 * Kernel values of one point against many, for solvers that ask for kernel rows one at a time (SMO's kernel cache):
 * for the radial kernels (Gaussian, Laplacian) and the dot-product kernels (linear, polynomial, exponential, series)
 * the inner sums are those of {@link Kernel#eval} (‖x − t‖² or xᵀt summed over the features in order, so a value
 * and its transpose agree bit for bit), and the function of them runs over the whole range at once on the
 * kernels' elementwise pass ({@code gInPlace} / {@code fInPlace}: the vectorised exponential of
 * {@code linalg.internal.ArrayExp}), as in their Gram and cross matrices. Every other kernel is evaluated by
 * {@link Kernel#eval}, unchanged.
 */
public final class KernelValues {

    /**
     * Whether the Gaussian, Laplacian and exponential kernels' elementwise passes (Gram, cross, rows) use
     * {@code linalg.internal.ArrayExp} instead of {@link Math#exp}: system property {@code psdkit.kernel.vectorExp},
     * off by default. On, kernel values move by at most one ulp; KRR coefficients and predictions then agree with
     * the {@code Math.exp} path to ~1e-12, but SMO, an iterative solver stopped at a tolerance, may take another
     * path on small problems (docs/benchmarks/hot-loops.md), and fits pinned bit for bit would change.
     */
    public static final boolean VECTOR_EXP = Boolean.getBoolean("psdkit.kernel.vectorExp");

    private KernelValues() {
    }

    /**
     * out[b] = k(x, pts[idx[b]]) for from ≤ b &lt; to ({@code idx == null}: pts[b]).
     *
     * @throws IllegalArgumentException when a point's dimension differs from x's
     */
    public static void values(Kernel k, double[] x, double[][] pts, int[] idx, int from, int to, double[] out) {
        if (k instanceof RadialKernel rk) {
            for (int b = from; b < to; b++) {
                out[b] = RadialKernel.squaredDistance(x, pts[idx == null ? b : idx[b]]);
            }
            rk.gInPlace(out, from, to);
        } else if (k instanceof DotProductKernel dk) {
            for (int b = from; b < to; b++) {
                out[b] = DotProductKernel.dot(x, pts[idx == null ? b : idx[b]]);
            }
            dk.fInPlace(out, from, to);
        } else {
            for (int b = from; b < to; b++) {
                out[b] = k.eval(x, pts[idx == null ? b : idx[b]]);
            }
        }
    }

    /** Points per tile of {@link #radialValues}: the tile's sums (2 kB) stay in the first-level cache across features. */
    private static final int TILE = 256;

    /** Whether {@link #radialValues} evaluates {@code k} (the radial kernels). */
    public static boolean radial(Kernel k) {
        return k instanceof RadialKernel;
    }

    /**
     * out[b] = k(x, t_b) for from ≤ b &lt; to and a radial kernel ({@link #radial}), where feature j of point t_b is
     * {@code cols[j * stride + b]} (feature-major, so each feature of consecutive points is one contiguous run). The
     * squared distance is the sum of {@link #values}, (x_j − t_j)² added over j = 0, 1, … in order, so every value
     * is the one {@link #values} gives bit for bit; only the memory order of the pass differs (a tile of points
     * takes one feature at a time).
     *
     * @throws IllegalArgumentException when k is not radial or cols does not hold x.length features
     */
    public static void radialValues(Kernel k, double[] x, double[] cols, int stride, int from, int to, double[] out) {
        if (!(k instanceof RadialKernel rk)) {
            throw new IllegalArgumentException("radialValues needs a radial kernel, got " + k.spec());
        }
        int d = x.length;
        if ((long) d * stride != cols.length) {
            throw new IllegalArgumentException("points of dimension " + d + " and " + cols.length / Math.max(1, stride));
        }
        for (int lo = from; lo < to; lo += TILE) {
            int hi = Math.min(to, lo + TILE);
            if (d == 0) {
                java.util.Arrays.fill(out, lo, hi, 0.0);
            } else {
                first(x[0], cols, lo, hi, out);
                for (int j = 1; j < d; j++) {
                    addSquares(x[j], cols, j * stride, lo, hi, out);
                }
            }
        }
        rk.gInPlace(out, from, to);
    }

    /** out[b] = (c − cols[b])² for lo ≤ b &lt; hi (0 + v = v for v ≥ 0: the first term of the sum). */
    private static void first(double c, double[] cols, int lo, int hi, double[] out) {
        for (int b = lo; b < hi; b++) {
            double e = c - cols[b];
            out[b] = e * e;
        }
    }

    /** out[b] += (c − cols[off + b])² for lo ≤ b &lt; hi. */
    private static void addSquares(double c, double[] cols, int off, int lo, int hi, double[] out) {
        for (int b = lo; b < hi; b++) {
            double e = c - cols[off + b];
            out[b] += e * e;
        }
    }

    /** k(x, t) computed as {@link #values} computes it (for single entries that must match its rows). */
    public static double value(Kernel k, double[] x, double[] t) {
        double[] out = new double[1];
        values(k, x, new double[][] {t}, null, 0, 1, out);
        return out[0];
    }

    /**
     * Whether {@link #values} evaluates {@code k} differently from {@link Kernel#eval} (the radial and dot-product
     * kernels whose function is an exponential, within an ulp or two).
     */
    public static boolean vectorised(Kernel k) {
        return k instanceof GaussianKernel || k instanceof LaplacianKernel || k instanceof ExponentialKernel;
    }
}
