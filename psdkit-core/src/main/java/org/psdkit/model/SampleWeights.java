package org.psdkit.model;

/** The check of per-row sample weights that the weighted fits share (SVM, SVR). */
public final class SampleWeights {
    private SampleWeights() {
    }

    /**
     * Refuses sample weights of the wrong length, negative, NaN or infinite, or all zero, naming the first bad row
     * ({@link ParameterException} of {@code sampleWeights}); {@code null} (no weights) passes.
     *
     * @param w the weights, one per row
     * @param n the number of rows
     */
    public static void check(double[] w, int n) {
        if (w == null) {
            return;
        }
        if (w.length != n) {
            throw new ParameterException("sampleWeights", "must hold one weight per row (" + n + "), got "
                    + w.length);
        }
        boolean positive = false;
        for (int i = 0; i < n; i++) {
            if (!(w[i] >= 0) || Double.isInfinite(w[i])) {
                throw new ParameterException("sampleWeights", "row " + (i + 1) + ": must be >= 0 and finite, got "
                        + w[i]);
            }
            positive |= w[i] > 0;
        }
        if (!positive) {
            throw new ParameterException("sampleWeights", "are all 0: no row left to train on");
        }
    }
}
