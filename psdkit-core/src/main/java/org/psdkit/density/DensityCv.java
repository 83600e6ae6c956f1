package org.psdkit.density;

import java.util.ArrayList;
import java.util.List;
import org.psdkit.linalg.Matrix;

/**
 * Selection of (σ, λ) by K-fold cross-validation on held-out log-likelihood (seed 002 App. E uses K = 7). Each
 * grid point is fitted on K−1 folds and scored by the mean log p on the held-out fold; a held-out point where the
 * model gives p ≤ 0 (PNM) scores log {@link #DENSITY_FLOOR}, and a fit that fails scores −∞ for that fold.
 */
public final class DensityCv {
    /** Floor for p in held-out scores: log(1e-300) ≈ −690.8, a heavy but finite penalty for p ≤ 0. */
    public static final double DENSITY_FLOOR = 1e-300;
    /** Folds of App. E. */
    public static final int APPE_FOLDS = 7;

    private DensityCv() {
    }

    /** Trains one model on the given rows. */
    public interface Fitter {
        DensityModel fit(Matrix train, double sigma, double lambda);
    }

    public record Point(double sigma, double lambda, double meanLogLik, double sdLogLik, int failures) {
    }

    public record Result(Point best, List<Point> grid) {
    }

    /** Held-out score: mean of log max(p, floor). */
    public static double score(DensityModel m, Matrix test) {
        double[] p = m.density(test);
        double s = 0;
        for (double v : p) {
            s += Math.log(Math.max(v, DENSITY_FLOOR));
        }
        return s / p.length;
    }

    public static Result select(Matrix x, double[] sigmas, double[] lambdas, int folds, long seed, Fitter fitter) {
        int n = x.rows();
        if (folds < 2 || folds > n) {
            throw new IllegalArgumentException("cross-validation needs 2 <= folds <= n, got " + folds + " for n=" + n);
        }
        int[] perm = new int[n];
        for (int i = 0; i < n; i++) {
            perm[i] = i;
        }
        java.util.SplittableRandom r = new java.util.SplittableRandom(seed);
        for (int i = n - 1; i > 0; i--) {
            int j = r.nextInt(i + 1);
            int t = perm[i];
            perm[i] = perm[j];
            perm[j] = t;
        }
        List<Point> grid = new ArrayList<>();
        Point best = null;
        for (double s : sigmas) {
            for (double l : lambdas) {
                double[] scores = new double[folds];
                int fails = 0;
                for (int f = 0; f < folds; f++) {
                    List<Integer> tr = new ArrayList<>();
                    List<Integer> te = new ArrayList<>();
                    for (int i = 0; i < n; i++) {
                        (i % folds == f ? te : tr).add(perm[i]);
                    }
                    Matrix xtr = x.selectRows(tr.stream().mapToInt(Integer::intValue).toArray());
                    Matrix xte = x.selectRows(te.stream().mapToInt(Integer::intValue).toArray());
                    try {
                        scores[f] = score(fitter.fit(xtr, s, l), xte);
                    } catch (IllegalStateException | org.psdkit.linalg.LinalgException e) {
                        scores[f] = Double.NEGATIVE_INFINITY;
                        fails++;
                    }
                }
                double mean = 0;
                for (double v : scores) {
                    mean += v / folds;
                }
                double var = 0;
                for (double v : scores) {
                    var += (v - mean) * (v - mean) / Math.max(1, folds - 1);
                }
                Point p = new Point(s, l, mean, Math.sqrt(var), fails);
                grid.add(p);
                if (best == null || p.meanLogLik() > best.meanLogLik()) {
                    best = p;
                }
            }
        }
        return new Result(best, grid);
    }
}
