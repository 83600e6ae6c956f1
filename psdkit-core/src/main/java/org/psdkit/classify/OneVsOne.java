package org.psdkit.classify;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.psdkit.kernel.Kernel;
import org.psdkit.kernel.KernelValues;
import org.psdkit.linalg.Matrix;
import org.psdkit.optim.smo.SharedKernelRows;
import org.psdkit.optim.smo.Smo;

/**
 * The one-vs-one fit of a C-SVM on k classes, LIBSVM's {@code svm_train} for C-SVC (Chang &amp; Lin 2011, Sec. 7;
 * Hsu &amp; Lin 2002): the classes in order of first appearance, the points grouped by class (stable), one binary
 * problem per pair (i, j), i &lt; j, on the points of class i (label +1) followed by those of class j (−1), with bounds
 * C·w_i or C·w_j times each point's sample weight; the support vectors of all pairs stored once. Points of sample
 * weight 0 are left out (their α would be 0), as LIBSVM's instance-weight extension does.
 *
 * <p>When the Gram matrix of all points fits the kernel-cache budget ({@link Smo#denseFits}), the pairs share one
 * cache of kernel values ({@link SharedKernelRows}); otherwise each pair solves with its own cache of that budget.
 *
 * <p>Probabilities (LIBSVM's {@code svm_binary_svc_probability}): for each pair, the points are shuffled (one seeded
 * {@link Random} for all pairs, in pair order) and cut into 5 folds; each fold's decision values come from the pair's
 * SVM fitted on the other four (a fold whose training part holds one class gets ±1), and {@link Platt#fit} fits the
 * sigmoid to them, weighting each point by its sample weight.
 */
final class OneVsOne {
    /** Folds of the out-of-fold decision values (LIBSVM's {@code nr_fold}). */
    static final int PROBABILITY_FOLDS = 5;

    private OneVsOne() {
    }

    /** The fitted decision functions and what the solves reported. */
    record Result(OvoDecision decision, SvmTrainer.Fit fit) {
    }

    /**
     * @param tokens        canonical class labels of the rows of {@code x}
     * @param classWeight   the class weights, or null
     * @param sampleWeights weights ≥ 0 per row, or null
     */
    static Result fit(Kernel kernel, Matrix x, String[] tokens, double c, ClassWeights classWeight,
                      double[] sampleWeights, Smo.Options o, long cacheBytes, boolean probability, long seed) {
        long t0 = System.nanoTime();
        // rows kept (weight > 0), classes in order of first appearance
        List<String> labels = new ArrayList<>();
        Map<String, Integer> index = new LinkedHashMap<>();
        int n = tokens.length;
        int[] clsAll = new int[n];
        int kept = 0;
        for (int i = 0; i < n; i++) {
            if (sampleWeights != null && sampleWeights[i] == 0) {
                clsAll[i] = -1;
                continue;
            }
            kept++;
            Integer ci = index.get(tokens[i]);
            if (ci == null) {
                ci = labels.size();
                index.put(tokens[i], ci);
                labels.add(tokens[i]);
            }
            clsAll[i] = ci;
        }
        int k = labels.size();
        if (k < 2) {
            throw new IllegalArgumentException("the SVM needs at least two classes (of positive weight), found "
                    + labels);
        }
        // group the kept rows by class, stably: row g of the grouped data is original row orig[g]
        int[] count = new int[k];
        for (int i = 0; i < n; i++) {
            if (clsAll[i] >= 0) {
                count[clsAll[i]]++;
            }
        }
        int[] start = new int[k];
        for (int ci = 1; ci < k; ci++) {
            start[ci] = start[ci - 1] + count[ci - 1];
        }
        int[] orig = new int[kept];
        int[] cls = new int[kept];
        int[] fill = start.clone();
        for (int i = 0; i < n; i++) {
            if (clsAll[i] >= 0) {
                int g = fill[clsAll[i]]++;
                orig[g] = i;
                cls[g] = clsAll[i];
            }
        }
        Matrix xg = x.selectRows(orig);
        double[] sw = new double[kept];
        for (int g = 0; g < kept; g++) {
            sw[g] = sampleWeights == null ? 1 : sampleWeights[orig[g]];
        }
        double[] cw = classWeight == null ? ones(k) : classWeight.resolve(labels, cls, sampleWeights == null ? null
                : sw);
        Gram gram = Smo.denseFits(kept, cacheBytes) ? new SharedGram(new SharedKernelRows(kernel, xg, cls, k))
                : new OwnGram(kernel, xg, cacheBytes);
        int np = k * (k - 1) / 2;
        double[][] alphaOf = new double[np][];
        int[][] ptsOf = new int[np][];
        double[] bias = new double[np];
        double[] probA = probability ? new double[np] : null;
        double[] probB = probability ? new double[np] : null;
        boolean[] nonzero = new boolean[kept];
        Random rnd = new Random(seed);
        int iterations = 0;
        double violation = 0;
        double dual = 0;
        boolean converged = true;
        int p = 0;
        for (int i = 0; i < k; i++) {
            for (int j = i + 1; j < k; j++) {
                int l = count[i] + count[j];
                int[] pts = new int[l];
                double[] y = new double[l];
                double[] upper = new double[l];
                for (int t = 0; t < l; t++) {
                    int g = t < count[i] ? start[i] + t : start[j] + t - count[i];
                    pts[t] = g;
                    y[t] = t < count[i] ? 1 : -1;
                    upper[t] = c * cw[cls[g]] * sw[g];
                }
                if (probability) {
                    Platt.Sigmoid s = sigmoid(gram, pts, y, upper, sw, o, rnd);
                    probA[p] = s.a();
                    probB[p] = s.b();
                }
                Smo.Result r = gram.solve(pts, y, upper, o);
                iterations += r.iterations();
                violation = Math.max(violation, r.violation());
                dual += r.dual();
                converged &= r.converged();
                for (int t = 0; t < l; t++) {
                    if (r.alpha()[t] > 0) {
                        nonzero[pts[t]] = true;
                    }
                }
                alphaOf[p] = r.alpha();
                ptsOf[p] = pts;
                bias[p] = r.bias();
                p++;
            }
        }
        // support vectors: the points with α > 0 in some pair, class by class (LIBSVM's nz_start / nz_count)
        int[] svIndex = new int[kept];
        int[] classCounts = new int[k];
        int total = 0;
        List<Integer> svRows = new ArrayList<>();
        for (int g = 0; g < kept; g++) {
            if (nonzero[g]) {
                svIndex[g] = total++;
                classCounts[cls[g]]++;
                svRows.add(g);
            } else {
                svIndex[g] = -1;
            }
        }
        double[][] coef = new double[k - 1][total];
        p = 0;
        for (int i = 0; i < k; i++) {
            for (int j = i + 1; j < k; j++) {
                int[] pts = ptsOf[p];
                double[] a = alphaOf[p];
                for (int t = 0; t < pts.length; t++) {
                    if (a[t] > 0) {
                        int s = svIndex[pts[t]];
                        if (t < count[i]) {
                            coef[j - 1][s] = a[t];
                        } else {
                            coef[i][s] = -a[t];
                        }
                    }
                }
                p++;
            }
        }
        int[] svg = svRows.stream().mapToInt(Integer::intValue).toArray();
        OvoDecision d = new OvoDecision(labels, kernel, xg.selectRows(svg), classCounts, coef, bias, probA, probB);
        double secs = (System.nanoTime() - t0) * 1e-9;
        return new Result(d, new SvmTrainer.Fit(iterations, violation, dual, converged, secs));
    }

    private static double[] ones(int k) {
        double[] w = new double[k];
        Arrays.fill(w, 1.0);
        return w;
    }

    /** The sigmoid of one pair from out-of-fold decision values (LIBSVM's {@code svm_binary_svc_probability}). */
    private static Platt.Sigmoid sigmoid(Gram gram, int[] pts, double[] y, double[] upper, double[] sw,
                                         Smo.Options o, Random rnd) {
        int l = pts.length;
        int[] perm = new int[l];
        for (int t = 0; t < l; t++) {
            perm[t] = t;
        }
        for (int t = 0; t < l; t++) {
            int s = t + rnd.nextInt(l - t);
            int v = perm[t];
            perm[t] = perm[s];
            perm[s] = v;
        }
        double[] dec = new double[l];
        for (int f = 0; f < PROBABILITY_FOLDS; f++) {
            int begin = f * l / PROBABILITY_FOLDS;
            int end = (f + 1) * l / PROBABILITY_FOLDS;
            int m = l - (end - begin);
            int[] sub = new int[m];
            double[] sy = new double[m];
            double[] su = new double[m];
            int q = 0;
            boolean pos = false;
            boolean neg = false;
            for (int t = 0; t < l; t++) {
                if (t < begin || t >= end) {
                    int u = perm[t];
                    sub[q] = pts[u];
                    sy[q] = y[u];
                    su[q] = upper[u];
                    pos |= y[u] > 0;
                    neg |= y[u] < 0;
                    q++;
                }
            }
            if (!pos || !neg) {
                double v = pos ? 1 : neg ? -1 : 0;
                for (int t = begin; t < end; t++) {
                    dec[perm[t]] = v;
                }
                continue;
            }
            Smo.Result r = gram.solve(sub, sy, su, o);
            for (int t = begin; t < end; t++) {
                int g = pts[perm[t]];
                double s = r.bias();
                for (int u = 0; u < m; u++) {
                    double a = r.alpha()[u];
                    if (a > 0) {
                        s += a * sy[u] * gram.value(sub[u], g);
                    }
                }
                dec[perm[t]] = s;
            }
        }
        double[] w = new double[l];
        for (int t = 0; t < l; t++) {
            w[t] = sw[pts[t]];
        }
        return Platt.fit(dec, y, w);
    }

    /** Kernel access of the pairs: solves and single values on the grouped points. */
    private interface Gram {
        Smo.Result solve(int[] pts, double[] y, double[] upper, Smo.Options o);

        double value(int a, int b);
    }

    private record SharedGram(SharedKernelRows rows) implements Gram {
        @Override
        public Smo.Result solve(int[] pts, double[] y, double[] upper, Smo.Options o) {
            return Smo.solve(rows, pts, y, upper, o, null, null);
        }

        @Override
        public double value(int a, int b) {
            return rows.value(a, b);
        }
    }

    private static final class OwnGram implements Gram {
        private final Kernel kernel;
        private final Matrix x;
        private final double[][] pts;
        private final long cacheBytes;

        OwnGram(Kernel kernel, Matrix x, long cacheBytes) {
            this.kernel = kernel;
            this.x = x;
            this.pts = x.toRowArrays();
            this.cacheBytes = cacheBytes;
        }

        @Override
        public Smo.Result solve(int[] sel, double[] y, double[] upper, Smo.Options o) {
            return Smo.solve(kernel, x.selectRows(sel), y, null, upper, o, cacheBytes, null, null);
        }

        @Override
        public double value(int a, int b) {
            return KernelValues.value(kernel, pts[a], pts[b]); // as the pair's kernel rows (RowCache) compute it
        }
    }
}
