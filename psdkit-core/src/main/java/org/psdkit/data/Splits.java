package org.psdkit.data;

import java.util.Random;

/**
 * Seeded shuffles, k-fold partitions and random train/test splits (Fisher–Yates with {@link java.util.Random}; the
 * same seed gives the same split on every JVM).
 */
public final class Splits {
    private Splits() {
    }

    /** A train/test split as row indices. */
    public record TrainTest(int[] train, int[] test) {
    }

    /** A seeded random permutation of 0..n−1. */
    public static int[] permutation(int n, long seed) {
        int[] p = new int[n];
        for (int i = 0; i < n; i++) {
            p[i] = i;
        }
        Random r = new Random(seed);
        for (int i = n - 1; i > 0; i--) {
            int j = r.nextInt(i + 1);
            int t = p[i];
            p[i] = p[j];
            p[j] = t;
        }
        return p;
    }

    /**
     * The message for {@code n} rows split into more folds than rows: "4 rows are too few for 5-fold CV (need at
     * least 5)".
     */
    public static String tooFewRows(int n, int k) {
        return n + " row" + (n == 1 ? " is" : "s are") + " too few for " + k + "-fold CV (need at least " + k + ")";
    }

    /**
     * Checks the number of folds {@code k} of a CV over {@code n} rows: at least 2 and at most n, else a {@link
     * InputException} naming {@code folds} ("folds 5: 4 rows are too few for 5-fold CV (need at least 5)").
     */
    public static void checkFolds(int n, int k) {
        if (k < 2) {
            throw new InputException("", "folds", "must be at least 2, got " + k);
        }
        if (k > n) {
            throw new InputException("", "folds", k + ": " + tooFewRows(n, k));
        }
    }

    /**
     * k folds of a seeded permutation; fold sizes differ by at most one. Element f is fold f's test/train pair.
     */
    public static TrainTest[] kFold(int n, int k, long seed) {
        checkFolds(n, k);
        int[] p = permutation(n, seed);
        TrainTest[] out = new TrainTest[k];
        for (int f = 0; f < k; f++) {
            int lo = (int) ((long) f * n / k);
            int hi = (int) ((long) (f + 1) * n / k);
            int[] test = new int[hi - lo];
            int[] train = new int[n - (hi - lo)];
            System.arraycopy(p, lo, test, 0, hi - lo);
            System.arraycopy(p, 0, train, 0, lo);
            System.arraycopy(p, hi, train, lo, n - hi);
            out[f] = new TrainTest(train, test);
        }
        return out;
    }

    /** One random split with round(testFraction·n) test rows (at least one of each). */
    public static TrainTest trainTest(int n, double testFraction, long seed) {
        if (!(testFraction > 0 && testFraction < 1)) {
            throw new IllegalArgumentException("test fraction must be in (0, 1), got " + testFraction);
        }
        if (n < 2) {
            throw new IllegalArgumentException("a train/test split needs at least 2 rows, got " + n);
        }
        int nt = (int) Math.round(testFraction * n);
        nt = Math.max(1, Math.min(n - 1, nt));
        int[] p = permutation(n, seed);
        int[] test = java.util.Arrays.copyOfRange(p, 0, nt);
        int[] train = java.util.Arrays.copyOfRange(p, nt, n);
        return new TrainTest(train, test);
    }

    /** The rows {@code idx} of a data set (labels, target and sample weights follow). */
    public static Dataset subset(Dataset ds, int[] idx) {
        double[] y = null;
        if (ds.y() != null) {
            y = new double[idx.length];
            for (int i = 0; i < idx.length; i++) {
                y[i] = ds.y()[idx[i]];
            }
        }
        String[] labels = null;
        if (ds.labels() != null) {
            labels = new String[idx.length];
            for (int i = 0; i < idx.length; i++) {
                labels[i] = ds.labels()[idx[i]];
            }
        }
        double[] w = null;
        if (ds.weights() != null) {
            w = new double[idx.length];
            for (int i = 0; i < idx.length; i++) {
                w[i] = ds.weights()[idx[i]];
            }
        }
        return new Dataset(ds.x().selectRows(idx), y, labels, ds.featureNames(), ds.targetName(), ds.source(), w,
                ds.targets() == null ? null : ds.targets().selectRows(idx));
    }
}
