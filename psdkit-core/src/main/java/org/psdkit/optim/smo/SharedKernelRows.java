package org.psdkit.optim.smo;

import org.psdkit.kernel.Kernel;
import org.psdkit.kernel.ParallelColumns;
import org.psdkit.linalg.Matrix;

/**
 * Kernel values of m points grouped in classes, computed on demand and kept for every sub-problem that uses them: the
 * k(k−1)/2 one-vs-one problems of a multi-class SVM and the cross-validation fits of their probability models. The
 * unit is a block, the kernel values between one point and all the points of one class; a pair (i, j) reads the
 * blocks of classes i and j of its points, so each value is computed at most once over all pairs (LIBSVM computes each
 * pair's values in its own cache, Chang &amp; Lin 2011, Sec. 7.1). Blocks are kept in double precision and computed by
 * {@link Kernel#eval}, as a {@link RowCache} that holds all rows: a pair solved here gives the same α, bit for bit, as
 * that pair solved alone with its own cache ({@code SmoBoundsTest}).
 *
 * <p>Every block is kept, 8m² bytes at most: callers use it when {@link Smo#denseFits} allows the dense Gram matrix,
 * otherwise they solve each pair with its own {@link RowCache}. Not thread-safe.
 */
public final class SharedKernelRows {
    /** Elementwise cost of one kernel entry relative to a multiply-add (as {@link RowCache}). */
    private static final int ENTRY_COST = 20;

    private final Kernel kernel;
    private final double[][] pts;
    private final double[] diag;
    /** Class of each point. */
    private final int[] cls;
    /** Index of each point within its class. */
    private final int[] pos;
    /** Points of each class, in order. */
    private final int[][] members;
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
                for (int t = lo; t < hi; t++) {
                    out[t] = kernel.eval(xi, pts[mem[t]]);
                }
            });
            computed += mem.length;
            blocks[i][c] = out;
            b = out;
        }
        return b;
    }

    /** Q rows of the sub-problem on {@code points} (at most two classes) in working order {@code perm}. */
    QRows rows(int[] points, int[] perm, double[] y) {
        return new Sub(this, points, perm, y);
    }

    /** Q_ab = y_a y_b K(points[perm[a]], points[perm[b]]) read from the shared blocks. */
    private static final class Sub extends QRows {
        private final SharedKernelRows s;
        /** Global point of each working position (follows the swaps). */
        private final int[] global;
        /** The (at most two) classes of the sub-problem. */
        private final int c0;
        private final int c1;

        Sub(SharedKernelRows s, int[] points, int[] perm, double[] y) {
            super(perm, y);
            this.s = s;
            this.global = new int[points.length];
            int a = -1;
            int b = -1;
            for (int t = 0; t < points.length; t++) {
                global[t] = points[perm[t]];
                int c = s.cls[global[t]];
                if (a < 0 || c == a) {
                    a = c;
                } else if (b < 0 || c == b) {
                    b = c;
                } else {
                    throw new IllegalArgumentException("a shared sub-problem holds at most two classes");
                }
            }
            this.c0 = a;
            this.c1 = b < 0 ? a : b;
        }

        @Override
        void row(int a, int len, double[] out) {
            int ga = global[a];
            double[] b0 = s.block(ga, c0);
            double[] b1 = c1 == c0 ? b0 : s.block(ga, c1);
            double ya = y[a];
            int[] cls = s.cls;
            int[] pos = s.pos;
            for (int b = 0; b < len; b++) {
                int gb = global[b];
                double v = cls[gb] == c0 ? b0[pos[gb]] : b1[pos[gb]];
                out[b] = ya * y[b] * v;
            }
        }

        @Override
        void swap(int a, int b) {
            int t = global[a];
            global[a] = global[b];
            global[b] = t;
        }
    }
}
