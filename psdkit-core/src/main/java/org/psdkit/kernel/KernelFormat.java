package org.psdkit.kernel;

import org.psdkit.linalg.Matrix;

/** Number formatting for kernel strings: the shortest text that parses back to the same double. */
public final class KernelFormat {
    private KernelFormat() {
    }

    public static String num(double v) {
        if (v == Math.rint(v) && Math.abs(v) < 1e15) {
            return Long.toString((long) v);
        }
        return Double.toString(v);
    }

    /** An exact vector {@code [v1, v2]} (every value in Java's round-trip decimal form). */
    public static String vector(double[] v) {
        StringBuilder sb = new StringBuilder("[");
        for (int i = 0; i < v.length; i++) {
            sb.append(i > 0 ? ", " : "").append(v[i]);
        }
        return sb.append(']').toString();
    }

    /** An exact matrix {@code [[a, b], [c, d]]}, row by row. */
    public static String matrix(Matrix m) {
        StringBuilder sb = new StringBuilder("[");
        for (int i = 0; i < m.rows(); i++) {
            sb.append(i > 0 ? ", " : "").append(vector(m.row(i)));
        }
        return sb.append(']').toString();
    }
}
