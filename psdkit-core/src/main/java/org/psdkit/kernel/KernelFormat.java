package org.psdkit.kernel;

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
}
