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
        int j = 0;
        // four features per pass over the points: the same additions in the same order, a quarter of the passes
        for (; j + 3 < d; j += 4) {
            double x0 = xi[j];
            double x1 = xi[j + 1];
            double x2 = xi[j + 2];
            double x3 = xi[j + 3];
            int o0 = j * n;
            int o1 = o0 + n;
            int o2 = o1 + n;
            int o3 = o2 + n;
            for (int t = lo; t < hi; t++) {
                double v0 = x0 - cols[o0 + t];
                double v1 = x1 - cols[o1 + t];
                double v2 = x2 - cols[o2 + t];
                double v3 = x3 - cols[o3 + t];
                out[t] = out[t] + v0 * v0 + v1 * v1 + v2 * v2 + v3 * v3;
            }
        }
        for (; j < d; j++) {
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
     * Row buffers given back by finished sub-problems ({@link Sub#release}), reused by the next ones: the pairs of
     * a one-vs-one fit all need rows of about the same length, so after the first pair no row is allocated.
     */
    private double[][] spare = new double[0][];
    private int spareCount;

    private double[] buffer(int length) {
        while (spareCount > 0) {
            double[] b = spare[--spareCount];
            spare[spareCount] = null;
            if (b.length >= length) {
                return b;
            }
        }
        return new double[length];
    }

    private void giveBack(double[] b) {
        if (spareCount == spare.length) {
            spare = java.util.Arrays.copyOf(spare, Math.max(16, 2 * spare.length));
        }
        spare[spareCount++] = b;
    }

    /**
     * Q_ab = y_a y_b K(points[perm[a]], points[perm[b]]): the sub-problem's row of a position is gathered from the
     * shared blocks once, with the signs applied, and kept in the solver's working order while the sub-problem lives,
     * so that the solver reads it in place ({@link #doubleRow}); a swap of two positions exchanges the two rows and
     * the two entries of every kept row, as LIBSVM's {@code Cache::swap_index} does (Chang &amp; Lin 2011, Sec. 5.1).
     * The values are those of a {@link RowCache} that holds all rows.
     */
    private static final class Sub extends QRows {
        private final SharedKernelRows s;
        private final int[] points;
        private final int l;
        /** rows[a]: the kept row of position a in working order (length ≥ l, entries [0, l) used), or null. */
        private final double[][] rows;
        /** Positions whose row is kept, in the order they were filled. */
        private final int[] kept;
        private int keptCount;

        Sub(SharedKernelRows s, int[] points, int[] perm, double[] y) {
            super(perm, y);
            this.s = s;
            this.points = points.clone();
            this.l = points.length;
            int c0 = -1;
            int c1 = -1;
            for (int t = 0; t < l; t++) {
                int c = s.cls[points[t]];
                if (c0 < 0 || c == c0) {
                    c0 = c;
                } else if (c1 < 0 || c == c1) {
                    c1 = c;
                } else {
                    throw new IllegalArgumentException("a shared sub-problem holds at most two classes");
                }
            }
            this.rows = new double[l][];
            this.kept = new int[l];
            // the one-vs-one pairs list the points of their first class in class order, then those of the second
            int n0 = c0 < 0 ? 0 : s.members[c0].length;
            boolean runs = c1 >= 0 && n0 + s.members[c1].length == l;
            for (int t = 0; runs && t < l; t++) {
                runs = t < n0 ? points[t] == s.members[c0][t] : points[t] == s.members[c1][t - n0];
            }
            this.first = runs ? c0 : -1;
            this.second = runs ? c1 : -1;
            this.split = runs ? n0 : 0;
        }

        /**
         * When the points are all of class {@link #first} in class order followed by all of {@link #second} (and no
         * position has been swapped yet), a row is the two blocks side by side.
         */
        private final int first;
        private final int second;
        private final int split;
        private boolean swapped;

        private double[] kept(int a) {
            double[] r = rows[a];
            if (r == null) {
                r = s.buffer(l);
                int g = points[perm[a]];
                if (first >= 0 && !swapped) {
                    double ya = y[a];
                    double[] k0 = s.block(g, first);
                    double[] k1 = s.block(g, second);
                    double[] yw = y;
                    int n0 = split;
                    for (int b = 0; b < n0; b++) {
                        r[b] = ya * yw[b] * k0[b];
                    }
                    for (int b = n0; b < l; b++) {
                        r[b] = ya * yw[b] * k1[b - n0];
                    }
                    rows[a] = r;
                    kept[keptCount++] = a;
                    return r;
                }
                int[] cls = s.cls;
                int[] pos = s.pos;
                double[][] blk = s.blocks[g];
                double ya = y[a];
                int[] p = perm;
                for (int b = 0; b < l; b++) {
                    int h = points[p[b]];
                    double[] k = blk[cls[h]];
                    if (k == null) {
                        k = s.block(g, cls[h]);
                    }
                    r[b] = ya * y[b] * k[pos[h]];
                }
                rows[a] = r;
                kept[keptCount++] = a;
            }
            return r;
        }

        @Override
        void row(int a, int len, double[] out) {
            System.arraycopy(kept(a), 0, out, 0, len);
        }

        @Override
        double[] doubleRow(int a, int len, double[] buf) {
            return kept(a);
        }

        @Override
        void swap(int a, int b) {
            swapAll(new int[] {a, b}, 1);
        }

        @Override
        void swapAll(int[] pairs, int count) {
            boolean any = false;
            for (int k = 0; k < count; k++) {
                int a = pairs[2 * k];
                int b = pairs[2 * k + 1];
                if (a != b) {
                    double[] t = rows[a];
                    rows[a] = rows[b];
                    rows[b] = t;
                    any = true;
                    swapped = true;
                }
            }
            if (!any) {
                return;
            }
            // positions of the kept rows after the row swaps, then the entry swaps of each kept row in order
            keptCount = 0;
            for (int a = 0; a < l; a++) {
                if (rows[a] != null) {
                    kept[keptCount++] = a;
                }
            }
            for (int q = 0; q < keptCount; q++) {
                double[] r = rows[kept[q]];
                for (int k = 0; k < count; k++) {
                    int a = pairs[2 * k];
                    int b = pairs[2 * k + 1];
                    double t = r[a];
                    r[a] = r[b];
                    r[b] = t;
                }
            }
        }

        @Override
        void release() {
            for (int q = 0; q < keptCount; q++) {
                s.giveBack(rows[kept[q]]);
                rows[kept[q]] = null;
            }
            keptCount = 0;
        }
    }
}
