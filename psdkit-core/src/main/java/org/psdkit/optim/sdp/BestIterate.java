package org.psdkit.optim.sdp;

/**
 * The best iterate an interior-point run has seen (kept by {@link IterateMonitor}): block-diagonal X and Z as one
 * array per block, y, the stopping measures {pobj, dobj, gap, pinf, dinf} and its iteration. A run that ends without
 * meeting its tolerances returns this iterate, not the last one.
 *
 * @param x         X, one array per block
 * @param z         Z, one array per block
 * @param y         the dual vector
 * @param stats     {pobj, dobj, gap, pinf, dinf}
 * @param iteration the iteration it was seen at
 */
public record BestIterate(double[][] x, double[][] z, double[] y, double[] stats, int iteration) {

    /** A copy of the current iterate (the arrays are cloned; {@code stats} is kept as given). */
    public static BestIterate copyOf(double[][] x, double[][] z, double[] y, double[] stats, int iteration) {
        return new BestIterate(blocks(x), blocks(z), y.clone(), stats, iteration);
    }

    /** What a result's message says when it returns this iterate. */
    public String note() {
        return "; returning the best iterate (iteration " + iteration + ")";
    }

    private static double[][] blocks(double[][] a) {
        double[][] c = new double[a.length][];
        for (int b = 0; b < a.length; b++) {
            c[b] = a[b].clone();
        }
        return c;
    }
}
