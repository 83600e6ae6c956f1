package org.psdkit.optim.smo;

import org.psdkit.kernel.GaussianKernel;
import org.psdkit.kernel.Kernel;
import org.psdkit.kernel.KernelValues;
import org.psdkit.linalg.internal.ArrayExp;
import org.psdkit.kernel.ParallelColumns;
import org.psdkit.linalg.Matrix;

/**
 * Kernel values of m points grouped in classes, computed on demand and kept for every sub-problem that uses them: the
 * k(k−1)/2 one-vs-one problems of a multi-class SVM and the cross-validation fits of their probability models. The
 * unit is a block, the kernel values between one point and all the points of one class; a pair (i, j) reads the
 * blocks of classes i and j of its points, so each value is computed at most once over all pairs (LIBSVM computes each
 * pair's values in its own cache, Chang &amp; Lin 2011, Sec. 7.1). Blocks are kept in double precision and computed as
 * {@link KernelValues} computes them, as a {@link RowCache} that holds all rows: a pair solved here gives the same α, bit for bit, as
 * that pair solved alone with its own cache ({@code SmoBoundsTest}).
 *
 * <p>Every block is kept, 8m² bytes at most: callers use it when {@link Smo#denseFits} allows the dense Gram matrix,
 * otherwise they solve each pair with its own {@link RowCache}. Not thread-safe.
 */
public final class SharedKernelRows {
    /** Elementwise cost of one kernel entry relative to a multiply-add (as {@link RowCache}). */
    private static final int ENTRY_COST = 20;

    private final Kernel kernel;
    /** γ of a {@link GaussianKernel} (its values are computed four at a time), else 0. */
    private final double gamma;
    private final double[][] pts;
    private final double[] diag;
    /** Class of each point. */
    private final int[] cls;
    /** Index of each point within its class. */
    private final int[] pos;
    /** Points of each class, in order. */
    private final int[][] members;
    /** For the Gaussian kernel: each class's points feature by feature (x_t[j] at [j·n_c + t]), else null. */
    private final double[][] byFeature;
    /** blocks[point][class], null until computed. */
    private final double[][][] blocks;
    private long computed;

    /**
     * @param kernel  the kernel
     * @param x       the m points (rows)
     * @param classes the class index of each point, 0 ≤ classes[i] &lt; k
     * @param k       the number of classes
     */
    public SharedKernelRows(Kernel kernel, Matrix x, int[] classes, int k) {
        if (classes.length != x.rows()) {
            throw new IllegalArgumentException(classes.length + " classes for " + x.rows() + " points");
        }
        this.kernel = kernel;
        this.gamma = kernel instanceof GaussianKernel g ? g.gamma() : 0;
        this.pts = x.toRowArrays();
        this.diag = kernel.diag(x);
        int m = pts.length;
        this.cls = classes.clone();
        this.pos = new int[m];
        int[] count = new int[k];
        for (int i = 0; i < m; i++) {
            pos[i] = count[cls[i]]++;
        }
        this.members = new int[k][];
        for (int c = 0; c < k; c++) {
            members[c] = new int[count[c]];
        }
        for (int i = 0; i < m; i++) {
            members[cls[i]][pos[i]] = i;
        }
        this.blocks = new double[m][k][];
        this.byFeature = gamma > 0 ? new double[k][] : null;
        if (gamma > 0) {
            int d = x.cols();
            for (int c = 0; c < k; c++) {
                int nc = members[c].length;
                double[] f = new double[d * nc];
                for (int t = 0; t < nc; t++) {
                    double[] p = pts[members[c][t]];
                    for (int j = 0; j < d; j++) {
                        f[j * nc + t] = p[j];
                    }
                }
                byFeature[c] = f;
            }
        }
    }

    /** K(x_i, x_i). */
    public double diag(int i) {
        return diag[i];
    }

    /** K(x_i, x_j), read from (and computing if needed) the block of point i and the class of j. */
    public double value(int i, int j) {
        return block(i, cls[j])[pos[j]];
    }

    /** Kernel values computed so far. */
    public long computedEntries() {
        return computed;
    }

    /** K(x_i, x_t) for the points t of class c, in class order (computed on first use). */
    double[] block(int i, int c) {
        double[] b = blocks[i][c];
        if (b == null) {
            int[] mem = members[c];
            double[] out = new double[mem.length];
            double[] xi = pts[i];
            long work = (long) mem.length * (xi.length + ENTRY_COST);
            ParallelColumns.forColumns(mem.length, work, (lo, hi) -> {
                if (gamma > 0) {
                    gaussian(xi, byFeature[c], mem.length, lo, hi, out);
                } else {
                    KernelValues.values(kernel, xi, pts, mem, lo, hi, out);
                }
            });
            computed += mem.length;
            blocks[i][c] = out;
            b = out;
        }
        return b;
    }

    /**
     * The Gaussian kernel's values exp(−γ‖x_i − x_t‖²) for the points t = lo..hi−1 of a class, a feature at a time
     * over the class's points stored feature by feature (a loop the compiler vectorises); each squared distance is
     * still summed over the features in order, as {@link Kernel#eval} sums it, and the exponential is the vectorised
     * one of {@link KernelValues}, so every value is the one {@link RowCache} computes, bit for bit.
     */
    private void gaussian(double[] xi, double[] cols, int n, int lo, int hi, double[] out) {
        int d = xi.length;
        for (int t = lo; t < hi; t++) {
            out[t] = 0;
        }
        for (int j = 0; j < d; j++) {
            double x = xi[j];
            int off = j * n;
            for (int t = lo; t < hi; t++) {
                double v = x - cols[off + t];
                out[t] += v * v;
            }
        }
        if (KernelValues.VECTOR_EXP) {
            ArrayExp.expScaledInPlace(out, lo, hi, -gamma); // as GaussianKernel's rows, bit for bit
        } else {
            for (int t = lo; t < hi; t++) {
                out[t] = Math.exp(-out[t] * gamma);
            }
        }
    }

    /** Q rows of the sub-problem on {@code points} (at most two classes) in working order {@code perm}. */
    QRows rows(int[] points, int[] perm, double[] y) {
        return new Sub(this, points, perm, y);
    }

    /**
     * Q_ab = y_a y_b K(points[perm[a]], points[perm[b]]): the sub-problem's row of a point is gathered from the shared
     * blocks once, in the sub-problem's own order with the signs applied, and kept while the sub-problem lives.
     */
    private static final class Sub extends QRows {
        private final SharedKernelRows s;
        private final int[] points;
        /** The labels in the sub-problem's own order (the solver swaps {@link #y}, not these). */
        private final double[] yo;
        private final double[][] rows;

        Sub(SharedKernelRows s, int[] points, int[] perm, double[] y) {
            super(perm, y);
            this.s = s;
            this.points = points.clone();
            this.yo = new double[points.length];
            int c0 = -1;
            int c1 = -1;
            for (int t = 0; t < points.length; t++) {
                yo[perm[t]] = y[t];
                int c = s.cls[points[t]];
                if (c0 < 0 || c == c0) {
                    c0 = c;
                } else if (c1 < 0 || c == c1) {
                    c1 = c;
                } else {
                    throw new IllegalArgumentException("a shared sub-problem holds at most two classes");
                }
            }
            this.rows = new double[points.length][];
        }

        private double[] own(int o) {
            double[] r = rows[o];
            if (r == null) {
                int n = points.length;
                r = new double[n];
                int g = points[o];
                int[] cls = s.cls;
                int[] pos = s.pos;
                double[][] blk = s.blocks[g];
                double yg = yo[o];
                for (int t = 0; t < n; t++) {
                    int h = points[t];
                    double[] b = blk[cls[h]];
                    if (b == null) {
                        b = s.block(g, cls[h]);
                    }
                    r[t] = yg * yo[t] * b[pos[h]];
                }
                rows[o] = r;
            }
            return r;
        }

        @Override
        void row(int a, int len, double[] out) {
            double[] r = own(perm[a]);
            int[] p = perm;
            for (int b = 0; b < len; b++) {
                out[b] = r[p[b]];
            }
        }
    }
}
