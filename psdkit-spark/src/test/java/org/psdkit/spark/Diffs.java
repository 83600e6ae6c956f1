package org.psdkit.spark;

/** How this module's tests compare a Spark result with the single-machine one. */
final class Diffs {

    private Diffs() {
    }

    /** max |a_i - b_i| / max |b_i|. */
    static double maxRelDiff(double[] a, double[] b) {
        double scale = 0;
        double diff = 0;
        for (int i = 0; i < a.length; i++) {
            scale = Math.max(scale, Math.abs(b[i]));
            diff = Math.max(diff, Math.abs(a[i] - b[i]));
        }
        return diff / scale;
    }
}
