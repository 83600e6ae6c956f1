package org.psdkit.optim.smo;

/**
 * Rows of Q (Q_ab = y_a y_b K_ab) in the solver's working order: position a holds the point {@code perm[a]}. The
 * solver permutes its arrays to keep the active (unshrunk) variables in front, as LIBSVM does (Chang &amp; Lin 2011,
 * Sec. 5.1), and tells the rows about every swap so that a cache can follow.
 */
abstract class QRows {
    /** Working order: position a holds point perm[a]; swapped by the solver. */
    final int[] perm;
    /** Labels in working order; swapped by the solver. */
    final double[] y;

    QRows(int[] perm, double[] y) {
        this.perm = perm;
        this.y = y;
    }

    /** Writes Q_{a,b} for the positions 0 &le; b &lt; len into out[0..len). */
    abstract void row(int a, int len, double[] out);

    /** Positions a and b were swapped ({@link #perm} and {@link #y} are already swapped). */
    void swap(int a, int b) {
    }

    /**
     * The swaps {@code (pairs[2k], pairs[2k+1])}, k &lt; count, were made in this order ({@link #perm} and {@link #y}
     * already swapped): the same as {@link #swap} for each in turn.
     */
    void swapAll(int[] pairs, int count) {
        for (int k = 0; k < count; k++) {
            swap(pairs[2 * k], pairs[2 * k + 1]);
        }
    }

    /** Whether rows are kept in single precision ({@link #floatRow} then reads them in place). */
    boolean floatRows() {
        return false;
    }

    /**
     * Q_{a,b} for 0 &le; b &lt; len in single precision, read in place (valid until the next swap), or {@code null}
     * when the rows are not kept in single precision.
     */
    float[] floatRow(int a, int len) {
        return null;
    }

    /**
     * Q_{a,b} for 0 &le; b &lt; len in double precision: the kept row itself when rows are kept in double precision
     * (valid until the next swap), otherwise {@code buf} filled by {@link #row}.
     */
    double[] doubleRow(int a, int len, double[] buf) {
        row(a, len, buf);
        return buf;
    }

    /** The solve is over: buffers the rows hold may be given back for reuse (no row is read afterwards). */
    void release() {
    }

    /** Q rows gathered from a {@link KernelRows} (each implementation keeps its own rows, or none). */
    static final class FromRows extends QRows {
        private final KernelRows k;

        FromRows(KernelRows k, int[] perm, double[] y) {
            super(perm, y);
            this.k = k;
        }

        @Override
        void row(int a, int len, double[] out) {
            double[] r = k.row(perm[a]);
            double ya = y[a];
            for (int b = 0; b < len; b++) {
                out[b] = ya * y[b] * r[perm[b]];
            }
        }
    }

    /** Q rows gathered from a dense symmetric Gram matrix (column-major, so row i is column i). */
    static final class Dense extends QRows {
        private final double[] gram;
        private final int m;

        Dense(double[] gram, int m, int[] perm, double[] y) {
            super(perm, y);
            this.gram = gram;
            this.m = m;
        }

        @Override
        void row(int a, int len, double[] out) {
            int off = perm[a] * m;
            double ya = y[a];
            for (int b = 0; b < len; b++) {
                out[b] = ya * y[b] * gram[off + perm[b]];
            }
        }
    }
}
