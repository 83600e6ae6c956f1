package org.psdkit.svm;

/** Seeded train/test and k-fold index splits in the array form the SVM and kernel-learning code uses. */
public final class Splits {

    private Splits() {
    }

    /** A random permutation of 0..n−1: the same seeded permutation as {@link org.psdkit.data.Splits#permutation}. */
    public static int[] permutation(int n, long seed) {
        return org.psdkit.data.Splits.permutation(n, seed);
    }

    /** {train, test} indices: the first round(trainFraction·n) of a seeded permutation are training. */
    public static int[][] trainTest(int n, double trainFraction, long seed) {
        int[] p = permutation(n, seed);
        int nt = (int) Math.round(trainFraction * n);
        int[] tr = java.util.Arrays.copyOfRange(p, 0, nt);
        int[] te = java.util.Arrays.copyOfRange(p, nt, n);
        return new int[][] {tr, te};
    }

    /** For fold f of k over a seeded permutation: {train, validation} indices. */
    public static int[][] fold(int n, int k, int f, long seed) {
        int[] p = permutation(n, seed);
        int lo = (int) ((long) f * n / k);
        int hi = (int) ((long) (f + 1) * n / k);
        int[] va = java.util.Arrays.copyOfRange(p, lo, hi);
        int[] tr = new int[n - (hi - lo)];
        int t = 0;
        for (int i = 0; i < n; i++) {
            if (i < lo || i >= hi) {
                tr[t++] = p[i];
            }
        }
        return new int[][] {tr, va};
    }

    public static double[] select(double[] v, int[] idx) {
        double[] o = new double[idx.length];
        for (int i = 0; i < idx.length; i++) {
            o[i] = v[idx[i]];
        }
        return o;
    }
}
