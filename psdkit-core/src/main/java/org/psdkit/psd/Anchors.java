package org.psdkit.psd;

import java.util.Arrays;
import java.util.Locale;
import java.util.SplittableRandom;
import org.psdkit.data.Splits;
import org.psdkit.kernel.Kernel;
import org.psdkit.linalg.Matrix;

/**
 * Choice of the m expansion points ("anchors") of a Nyström PSD model (Marteau-Ferey, Bach &amp; Rudi 2020 App. B.5):
 * the model lives on the features of the anchors while the loss still uses every data point. Every method is
 * seeded (the same seed gives the same anchors) and needs O(nm) kernel evaluations and O(n) memory beyond the data
 * (leverage: O(nm) for the partial factor), never the n×n Gram matrix.
 */
public final class Anchors {

    /** How anchors are chosen. */
    public enum Method {
        /** m distinct training points uniformly at random. */
        UNIFORM,
        /**
         * Kernel k-means++ seeding (Arthur &amp; Vassilvitskii 2007) in the feature space of k: each next anchor is
         * drawn with probability proportional to its squared feature distance k(x,x) + k(c,c) − 2k(x,c) to the
         * nearest anchor so far; spreads anchors over the data.
         */
        KMEANSPP,
        /**
         * Randomly pivoted Cholesky (Chen, Epperly, Tropp &amp; Webber 2023, Alg. 2.1): each next anchor is drawn
         * with probability proportional to the diagonal of the residual K − G Gᵀ of the partial Cholesky factor G
         * built on the anchors so far; it samples approximately by ridge leverage scores and concentrates on what
         * the current anchors explain least.
         */
        LEVERAGE;

        /** {@code uniform}, {@code kmeans++}, {@code leverage} (case-insensitive). */
        public static Method parse(String s) {
            String t = s == null ? "" : s.trim().toLowerCase(Locale.ROOT);
            return switch (t) {
                case "uniform" -> UNIFORM;
                case "kmeans++", "kmeanspp", "k-means++" -> KMEANSPP;
                case "leverage", "rpcholesky" -> LEVERAGE;
                default -> throw new IllegalArgumentException("anchor method must be uniform, kmeans++ or leverage, "
                        + "got '" + s + "'");
            };
        }

        /** The name {@link #parse} reads. */
        public String id() {
            return this == KMEANSPP ? "kmeans++" : name().toLowerCase(Locale.ROOT);
        }
    }

    private Anchors() {
    }

    /**
     * Row indices of m anchors among the rows of x, in the order chosen; m ≤ 0 or m ≥ n gives all rows 0…n−1 (the
     * exact model).
     */
    public static int[] select(Kernel kernel, Matrix x, int m, Method method, long seed) {
        int n = x.rows();
        if (n < 1) {
            throw new IllegalArgumentException("anchors: no data points");
        }
        if (m <= 0 || m >= n) {
            int[] all = new int[n];
            for (int i = 0; i < n; i++) {
                all[i] = i;
            }
            return all;
        }
        if (method == null) {
            throw new IllegalArgumentException("anchor method must not be null");
        }
        return switch (method) {
            case UNIFORM -> uniform(n, m, seed);
            case KMEANSPP -> bySquaredResidual(kernel, x, m, seed, false);
            case LEVERAGE -> bySquaredResidual(kernel, x, m, seed, true);
        };
    }

    /**
     * The row indices {@link #select} takes with {@link Method#UNIFORM} for 0 &lt; m &lt; n: the first m of a seeded
     * permutation of 0…n−1, a function of (n, m, seed) alone, so that an engine that holds the rows elsewhere
     * (psdkit-spark) picks the same rows as the single-machine fit.
     */
    public static int[] uniform(int n, int m, long seed) {
        if (m < 1 || m > n) {
            throw new IllegalArgumentException("anchors must be between 1 and the number of points " + n
                    + ", got " + m);
        }
        return Arrays.copyOf(Splits.permutation(n, seed), m);
    }

    /** The anchors' rows of x. */
    public static Matrix rows(Matrix x, int[] idx) {
        return x.selectRows(idx);
    }

    /**
     * D²-sampling: draws each next anchor with probability ∝ score_i, where score is the squared feature distance to
     * the nearest anchor (k-means++) or the residual diagonal of the partial Cholesky factor (leverage). Chosen
     * points have score 0 and are never drawn again; if every score vanishes (m above the rank of K), the remaining
     * anchors are drawn uniformly from the points not chosen yet.
     */
    private static int[] bySquaredResidual(Kernel kernel, Matrix x, int m, long seed, boolean cholesky) {
        int n = x.rows();
        double[][] pts = x.toRowArrays();
        double[] diag = new double[n];
        for (int i = 0; i < n; i++) {
            diag[i] = kernel.eval(pts[i], pts[i]);
        }
        double[] score = cholesky ? diag.clone() : new double[n];
        if (!cholesky) {
            Arrays.fill(score, Double.POSITIVE_INFINITY);
        }
        Matrix g = cholesky ? Matrix.zeros(n, m) : null;
        boolean[] chosen = new boolean[n];
        int[] out = new int[m];
        SplittableRandom rng = new SplittableRandom(seed);
        for (int j = 0; j < m; j++) {
            int s;
            if (j == 0 && !cholesky) {
                s = rng.nextInt(n);
            } else {
                double total = 0;
                for (int i = 0; i < n; i++) {
                    if (!chosen[i] && score[i] > 0) {
                        total += score[i];
                    }
                }
                s = -1;
                if (total > 0) {
                    double u = rng.nextDouble() * total;
                    double acc = 0;
                    for (int i = 0; i < n; i++) {
                        if (!chosen[i] && score[i] > 0) {
                            acc += score[i];
                            s = i;
                            if (acc > u) {
                                break;
                            }
                        }
                    }
                }
                if (s < 0) { // every remaining point is already explained: fill uniformly
                    int left = n - j;
                    int pick = rng.nextInt(left);
                    for (int i = 0; i < n; i++) {
                        if (!chosen[i] && pick-- == 0) {
                            s = i;
                            break;
                        }
                    }
                }
            }
            chosen[s] = true;
            out[j] = s;
            if (cholesky) {
                double piv = score[s];
                double[] col = new double[n];
                for (int i = 0; i < n; i++) {
                    double v = kernel.eval(pts[i], pts[s]);
                    for (int l = 0; l < j; l++) {
                        v -= g.get(i, l) * g.get(s, l);
                    }
                    col[i] = v;
                }
                double inv = piv > 0 ? 1.0 / Math.sqrt(piv) : 0.0;
                for (int i = 0; i < n; i++) {
                    double v = col[i] * inv;
                    g.set(i, j, v);
                    score[i] = chosen[i] ? 0 : Math.max(0, score[i] - v * v);
                }
            } else {
                for (int i = 0; i < n; i++) {
                    double d2 = chosen[i] ? 0 : Math.max(0, diag[i] + diag[s] - 2 * kernel.eval(pts[i], pts[s]));
                    score[i] = Math.min(score[i], d2);
                }
            }
        }
        return out;
    }
}
