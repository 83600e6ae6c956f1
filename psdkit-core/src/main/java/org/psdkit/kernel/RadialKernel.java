package org.psdkit.kernel;

import org.psdkit.linalg.Matrix;
import org.psdkit.linalg.SpdBuffer;

/**
 * Base of kernels k(x, t) = g(‖x − t‖²). Squared distances come from matrix products,
 * ‖x‖² + ‖t‖² − 2 xᵀt, with X Zᵀ from BLAS in column blocks ({@link InnerProductBlocks}); entries where that
 * formula cancels badly are recomputed directly; g runs over each column of squared distances at once
 * ({@link #gInPlace}: a vectorised exponential for the Gaussian and Laplacian kernels) on {@link ParallelColumns}.
 */
abstract class RadialKernel implements Kernel {

    /**
     * Entries with ‖x−t‖² &lt; CANCELLATION_GUARD · (‖x‖² + ‖t‖²) are recomputed as Σ(x_k − t_k)². The expanded
     * formula has an absolute error of a few ulps of ‖x‖² + ‖t‖², so below this ratio its relative error would
     * exceed ~1e-12 (1e-4 × the 2.2e-16 unit roundoff inverse); such near-duplicate pairs are rare, so the direct
     * recomputation costs nothing measurable.
     */
    static final double CANCELLATION_GUARD = 1e-4;

    /** g(r²). */
    abstract double g(double squaredDistance);

    /**
     * s[i − from] += g'(r2[i]) · c for from ≤ i &lt; to, where g' is g with its exponential table-driven: one column
     * of a prediction sum ({@link #crossTimes}); r2[from, to) may be overwritten. The Gaussian and Laplacian kernels
     * compute it with {@code linalg.internal.TableExp.expScaledAxpy} (within 1 ulp of {@link Math#exp}, the
     * arithmetic written out in the loop: C1, which compiles a short predict's code, inlines no method of the
     * exponential's size, HotSpot's {@code MaxInlineSize} of 35 bytes of bytecode). Never for Gram matrices or
     * kernel rows, whose values solvers' paths depend on. This default is g itself.
     */
    void gTermsAxpy(double[] r2, int from, int to, double c, double[] s) {
        for (int i = from; i < to; i++) {
            s[i - from] += g(r2[i]) * c;
        }
    }

    /**
     * The fused form of {@link #crossTimes}'s column: with r2 = (nx[i] + nz) − 2 · prod[po + i], s[i] += g'(r2) · c for
     * 0 ≤ i &lt; n exactly as the expansion with {@link #CANCELLATION_GUARD} followed by {@link #gTermsAxpy} would add
     * it, except at the i where the guard fires: those get no term, are put into {@code skipped}, and their count is
     * returned. −1 (this default): the kernel has no fused pass, and the caller takes the two passes.
     */
    int distanceTermsAxpy(double[] prod, int po, int n, double[] nx, double nz, double c, double[] s, int[] skipped) {
        return -1;
    }

    /**
     * a[i] = g(a[i]) for from ≤ i &lt; to: the elementwise pass of the Gram and cross matrices and of kernel rows.
     * With {@link KernelValues#VECTOR_EXP} set it runs {@link #gVector}, which kernels whose g is an exponential
     * override with {@code linalg.internal.ArrayExp} (vectorised, within 1 ulp of {@link Math#exp}); otherwise, and
     * always in {@link #eval}, g is {@link #g}.
     */
    final void gInPlace(double[] a, int from, int to) {
        if (KernelValues.VECTOR_EXP) {
            gVector(a, from, to);
            return;
        }
        for (int i = from; i < to; i++) {
            a[i] = g(a[i]);
        }
    }

    /** The vectorised pass of {@link #gInPlace}; the plain loop of {@link #g} for a kernel without one. */
    void gVector(double[] a, int from, int to) {
        for (int i = from; i < to; i++) {
            a[i] = g(a[i]);
        }
    }

    @Override
    public double eval(double[] x, double[] t) {
        return g(squaredDistance(x, t));
    }

    static double squaredDistance(double[] x, double[] t) {
        if (x.length != t.length) {
            throw new IllegalArgumentException("points of dimension " + x.length + " and " + t.length);
        }
        double s = 0;
        for (int i = 0; i < x.length; i++) {
            double d = x[i] - t[i];
            s += d * d;
        }
        return s;
    }

    /** Row-major copy of x (n×d), for direct recomputation of cancelling entries. */
    private static double[] rowMajor(Matrix x) {
        int n = x.rows();
        int d = x.cols();
        double[] a = x.data();
        double[] out = new double[n * d];
        for (int j = 0; j < d; j++) {
            for (int i = 0; i < n; i++) {
                out[i * d + j] = a[i + j * n];
            }
        }
        return out;
    }

    private static double direct(double[] xr, int i, double[] zr, int j, int d) {
        double s = 0;
        int oi = i * d;
        int oj = j * d;
        for (int k = 0; k < d; k++) {
            double v = xr[oi + k] - zr[oj + k];
            s += v * v;
        }
        return s;
    }

    /**
     * x with the column means {@code mean} subtracted: a radial kernel is translation invariant, and centring
     * shrinks ‖x‖² + ‖t‖² towards ‖x − t‖², which keeps the expanded formula accurate for data far from the origin.
     */
    static Matrix centred(Matrix x, double[] mean) {
        int n = x.rows();
        Matrix c = x.copy();
        double[] a = c.data();
        for (int j = 0; j < x.cols(); j++) {
            int off = j * n;
            for (int i = 0; i < n; i++) {
                a[off + i] -= mean[j];
            }
        }
        return c;
    }

    static double[] columnMeans(Matrix x) {
        int n = x.rows();
        double[] mean = new double[x.cols()];
        double[] a = x.data();
        for (int j = 0; j < x.cols() && n > 0; j++) {
            double s = 0;
            for (int i = 0; i < n; i++) {
                s += a[i + j * n];
            }
            mean[j] = s / n;
        }
        return mean;
    }

    private Matrix compute(Matrix x0, Matrix z0, boolean lower) {
        double[] mean = columnMeans(x0);
        Matrix x = centred(x0, mean);
        Matrix z = lower ? x : centred(z0, mean);
        int n = x.rows();
        int d = x.cols();
        double[] nx = SquaredDistances.rowNorms2(x);
        double[] nz = lower ? nx : SquaredDistances.rowNorms2(z);
        double[] xr = rowMajor(x);
        double[] zr = lower ? xr : rowMajor(z);
        Matrix k = Matrix.zeros(n, z.rows());
        double[] a = k.data();
        InnerProductBlocks.run(x, z, lower, 1, (prod, i0, rows, j0, j1) -> {
            for (int j = j0; j < j1; j++) {
                int off = j * n;
                int po = (j - j0) * rows - i0;
                double nzj = nz[j];
                int i0c = lower ? j : 0;
                for (int i = i0c; i < n; i++) {
                    double norms = nx[i] + nzj;
                    double r2 = norms - 2 * prod[po + i];
                    if (r2 < CANCELLATION_GUARD * norms) {
                        r2 = direct(xr, i, zr, j, d);
                    }
                    a[off + i] = r2;
                }
                gInPlace(a, off + i0c, off + n);
            }
        });
        if (lower) {
            ParallelColumns.mirrorLower(a, n);
        }
        return k;
    }

    /**
     * The Gram matrix straight into native memory: X Xᵀ of the centred points by one dsyrk into {@code out}, then
     * the elementwise pass (with the cancellation guard) over column blocks ({@link InnerProductBlocks#lowerInPlace}).
     */
    @Override
    public void gramInto(Matrix x0, SpdBuffer out) {
        int n = x0.rows();
        if (out.size() != n) {
            throw new IllegalArgumentException(kind() + " kernel: " + n + " points for an " + out.size() + "x"
                    + out.size() + " buffer");
        }
        Matrix x = centred(x0, columnMeans(x0));
        int d = x.cols();
        double[] nx = SquaredDistances.rowNorms2(x);
        double[] xr = rowMajor(x);
        out.syrkLower(x);
        InnerProductBlocks.lowerInPlace(out, n, (blk, i0, rows, j0, j1) -> {
            for (int j = j0; j < j1; j++) {
                int po = (j - j0) * rows - j0;
                double nxj = nx[j];
                for (int i = j; i < n; i++) {
                    double norms = nx[i] + nxj;
                    double r2 = norms - 2 * blk[po + i];
                    if (r2 < CANCELLATION_GUARD * norms) {
                        r2 = direct(xr, i, xr, j, d);
                    }
                    blk[po + i] = r2;
                }
                gInPlace(blk, po + j, po + n);
            }
        });
    }

    @Override
    public Matrix gram(Matrix x) {
        return compute(x, x, true);
    }

    @Override
    public Matrix cross(Matrix x, Matrix z) {
        if (x.cols() != z.cols()) {
            throw new IllegalArgumentException(kind() + " kernel: points of dimension " + x.cols() + " and "
                    + z.cols());
        }
        return compute(x, z, false);
    }

    /**
     * K(X, Z) c without the n×m matrix: for each column tile of {@link InnerProductBlocks#tiles} the squared
     * distances are computed exactly as {@link #cross} computes them (same centring on X's column means, same products,
     * same cancellation guard), the kernel values by {@link #gTermsAxpy} (within an ulp of {@link #gInPlace}'s; for
     * the Gaussian and Laplacian kernels in the same pass as the distances, {@link #distanceTermsAxpy}), then
     * summed against c over the tile's columns in column order into a partial vector of the tile; the partial
     * vectors are added in tile order. The
     * sum's order is fixed by m alone (not by the thread count); it differs from BLAS dgemv's, so the results agree
     * with {@code gemv(cross(x, z), c)} to rounding of the sum (about m ulps of Σ|k_ij c_j| at worst).
     */
    @Override
    public double[] crossTimes(Matrix x0, Matrix z0, double[] c) {
        if (x0.cols() != z0.cols()) {
            throw new IllegalArgumentException(kind() + " kernel: points of dimension " + x0.cols() + " and "
                    + z0.cols());
        }
        if (c.length != z0.rows()) {
            throw new IllegalArgumentException(kind() + " kernel: a vector of length " + c.length + " for "
                    + z0.rows() + " points");
        }
        double[] mean = columnMeans(x0);
        Matrix x = centred(x0, mean);
        Matrix z = centred(z0, mean);
        int n = x.rows();
        int m = z.rows();
        int d = x.cols();
        double[] nx = SquaredDistances.rowNorms2(x);
        double[] nz = SquaredDistances.rowNorms2(z);
        double[] xr = rowMajor(x);
        double[] zr = rowMajor(z);
        double[][] part = new double[(m + InnerProductBlocks.TILE - 1) / InnerProductBlocks.TILE][];
        InnerProductBlocks.tiles(x, z, 1, (prod, t, j0, j1) -> {
            double[] s = new double[n];
            int[] skipped = KernelValues.VECTOR_EXP ? null : new int[n];
            double[] one = new double[1];
            double[] acc = new double[1];
            for (int j = j0; j < j1; j++) {
                int po = (j - j0) * n;
                double nzj = nz[j];
                double cj = c[j];
                int k = skipped == null ? -1 : distanceTermsAxpy(prod, po, n, nx, nzj, cj, s, skipped);
                if (k >= 0) {
                    // the entries where the expansion cancels: their terms from the direct distance, added as the
                    // two passes below add them
                    for (int q = 0; q < k; q++) {
                        int i = skipped[q];
                        one[0] = direct(xr, i, zr, j, d);
                        acc[0] = s[i];
                        gTermsAxpy(one, 0, 1, cj, acc);
                        s[i] = acc[0];
                    }
                    continue;
                }
                for (int i = 0; i < n; i++) {
                    double norms = nx[i] + nzj;
                    double r2 = norms - 2 * prod[po + i];
                    if (r2 < CANCELLATION_GUARD * norms) {
                        r2 = direct(xr, i, zr, j, d);
                    }
                    prod[po + i] = r2;
                }
                if (KernelValues.VECTOR_EXP) {
                    gInPlace(prod, po, po + n);
                    for (int i = 0; i < n; i++) {
                        s[i] += prod[po + i] * cj;
                    }
                } else {
                    // for the Gaussian and Laplacian kernels a table-driven exponential within 1 ulp of
                    // gInPlace's Math.exp
                    gTermsAxpy(prod, po, po + n, cj, s);
                }
            }
            part[t] = s;
        });
        double[] out = new double[n];
        for (double[] s : part) {
            if (s == null) {
                continue; // n == 0 or m == 0: no tiles ran
            }
            for (int i = 0; i < n; i++) {
                out[i] += s[i];
            }
        }
        return out;
    }

    @Override
    public double[] diag(Matrix x) {
        double[] out = new double[x.rows()];
        java.util.Arrays.fill(out, g(0.0));
        return out;
    }

    @Override
    public String toString() {
        return spec();
    }
}
