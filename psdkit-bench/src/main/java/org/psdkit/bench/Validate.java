package org.psdkit.bench;

/** Checks of benchmark options; messages name the parameter. */
final class Validate {
    private Validate() {
    }

    /** A copy of {@code sizes}: non-empty, every entry at least {@code min}. */
    static int[] sizes(String name, int[] sizes, int min) {
        if (sizes == null || sizes.length == 0) {
            throw new IllegalArgumentException(name + ": give at least one size");
        }
        for (int n : sizes) {
            if (n < min) {
                throw new IllegalArgumentException(name + ": sizes must be >= " + min + ", got " + n);
            }
        }
        return sizes.clone();
    }
}
