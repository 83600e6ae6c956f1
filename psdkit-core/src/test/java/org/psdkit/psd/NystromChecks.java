package org.psdkit.psd;

import static org.junit.jupiter.api.Assertions.assertTrue;

/** Assertions shared by the tests that compare a Nyström fit with the exact one. */
public final class NystromChecks {
    private NystromChecks() {
    }

    /**
     * Fails unless {@code max |a - b| <= tol * max(1, max |a|)}, naming {@code what}, the largest difference and the
     * scale.
     */
    public static void assertClose(double[] a, double[] b, double tol, String what) {
        double scale = 0;
        double diff = 0;
        for (int i = 0; i < a.length; i++) {
            scale = Math.max(scale, Math.abs(a[i]));
            diff = Math.max(diff, Math.abs(a[i] - b[i]));
        }
        assertTrue(diff <= tol * Math.max(1, scale), what + ": max difference " + diff + " at scale " + scale);
    }
}
