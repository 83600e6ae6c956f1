package org.psdkit.model.cone;

import java.util.ArrayList;
import java.util.List;
import org.psdkit.kernel.GaussianKernel;
import org.psdkit.kernel.Kernel;
import org.psdkit.linalg.Matrix;

/**
 * K-fold cross-validation over a grid of kernels × λ for the vector-valued models: every grid point is fitted on
 * K − 1 folds and scored (lower is better: held-out NLL or pinball loss) on the remaining one; the point with the
 * lowest mean score wins. Folds come from a seeded permutation. A fit that throws {@link IllegalStateException} or
 * scores +∞/NaN (e.g. PNM's variance ≤ 0 on a held-out point) counts as +∞.
 */
public final class GridSelection {

    /**
     * Default σ grid as multiples of the data's spread s = √(mean over features of the variance): kernel widths
     * from a tenth of the spread (local fits on n ≈ 100–1000 points) to the spread itself (near-global fits).
     */
    public static final double[] DEFAULT_SIGMA_MULTIPLES = {0.1, 0.2, 0.5, 1.0};

    /** Fits on a training part and scores on a test part. */
    @FunctionalInterface
    public interface Scorer {
        double fitAndScore(Matrix trainX, double[] trainY, Kernel kernel, double lambda, Matrix testX,
                           double[] testY);
    }

    /** One grid point: mean and standard deviation of the fold scores. */
    public record Point(String kernel, double lambda, double score, double sd) {
    }

    /** The winner and the whole table. */
    public record Outcome(Kernel kernel, double lambda, double score, int folds, List<Point> table) {
    }

    private GridSelection() {
    }

    /** Gaussian kernels with σ = multiple × spread of x. */
    public static List<Kernel> defaultGaussians(Matrix x) {
        int d = x.cols();
        int n = x.rows();
        double tot = 0;
        for (int j = 0; j < d; j++) {
            double mean = 0;
            for (int i = 0; i < n; i++) {
                mean += x.get(i, j);
            }
            mean /= n;
            double v = 0;
            for (int i = 0; i < n; i++) {
                v += (x.get(i, j) - mean) * (x.get(i, j) - mean);
            }
            tot += v / Math.max(1, n - 1);
        }
        double spread = Math.sqrt(tot / d);
        if (!(spread > 0)) {
            spread = 1;
        }
        List<Kernel> ks = new ArrayList<>();
        for (double m : DEFAULT_SIGMA_MULTIPLES) {
            ks.add(new GaussianKernel(round3(m * spread)));
        }
        return ks;
    }

    private static double round3(double v) {
        // three significant digits keep kernel specs readable in reports and model files
        return Double.parseDouble(String.format(java.util.Locale.ROOT, "%.3g", v));
    }

    public static Outcome select(Matrix x, double[] y, List<Kernel> kernels, double[] lambdas, int folds, long seed,
                                 Scorer scorer) {
        int n = x.rows();
        if (folds < 2 || folds > n) {
            throw new IllegalArgumentException("folds must be in [2, n=" + n + "], got " + folds);
        }
        int[] perm = permutation(n, seed);
        List<Point> table = new ArrayList<>();
        Kernel bestK = null;
        double bestL = Double.NaN;
        double best = Double.POSITIVE_INFINITY;
        for (Kernel k : kernels) {
            for (double lam : lambdas) {
                double[] scores = new double[folds];
                for (int f = 0; f < folds; f++) {
                    int[][] split = split(perm, folds, f);
                    Matrix trX = x.selectRows(split[0]);
                    Matrix teX = x.selectRows(split[1]);
                    double[] trY = pick(y, split[0]);
                    double[] teY = pick(y, split[1]);
                    double s;
                    try {
                        s = scorer.fitAndScore(trX, trY, k, lam, teX, teY);
                    } catch (IllegalStateException | org.psdkit.linalg.LinalgException e) {
                        s = Double.POSITIVE_INFINITY;
                    }
                    scores[f] = Double.isNaN(s) ? Double.POSITIVE_INFINITY : s;
                }
                double mean = 0;
                for (double s : scores) {
                    mean += s;
                }
                mean /= folds;
                double var = 0;
                for (double s : scores) {
                    var += (s - mean) * (s - mean);
                }
                double sd = Double.isFinite(mean) ? Math.sqrt(var / Math.max(1, folds - 1)) : Double.NaN;
                table.add(new Point(k.spec(), lam, mean, sd));
                if (mean < best || bestK == null) {
                    best = mean;
                    bestK = k;
                    bestL = lam;
                }
            }
        }
        return new Outcome(bestK, bestL, best, folds, table);
    }

    static int[] permutation(int n, long seed) {
        int[] p = new int[n];
        for (int i = 0; i < n; i++) {
            p[i] = i;
        }
        java.util.Random rnd = new java.util.Random(seed);
        for (int i = n - 1; i > 0; i--) {
            int j = rnd.nextInt(i + 1);
            int t = p[i];
            p[i] = p[j];
            p[j] = t;
        }
        return p;
    }

    private static int[][] split(int[] perm, int folds, int f) {
        int n = perm.length;
        int lo = (int) ((long) n * f / folds);
        int hi = (int) ((long) n * (f + 1) / folds);
        int[] test = java.util.Arrays.copyOfRange(perm, lo, hi);
        int[] train = new int[n - (hi - lo)];
        int c = 0;
        for (int i = 0; i < n; i++) {
            if (i < lo || i >= hi) {
                train[c++] = perm[i];
            }
        }
        java.util.Arrays.sort(test);
        java.util.Arrays.sort(train);
        return new int[][] {train, test};
    }

    private static double[] pick(double[] y, int[] idx) {
        double[] o = new double[idx.length];
        for (int i = 0; i < idx.length; i++) {
            o[i] = y[idx[i]];
        }
        return o;
    }
}
