package org.psdkit.optim.smo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;
import org.psdkit.kernel.GaussianKernel;
import org.psdkit.linalg.Matrix;

/**
 * The shrinking solver with the kernel-row cache (double rows when all fit, single-precision rows in a small budget)
 * gives the decision values of the dense double-precision path without shrinking, and the cache stays in budget.
 */
class SmoCacheTest {

    private static final int M = 400;
    private static final double C = 10;
    private static final double TOL = 1e-6;

    private static Matrix points(long seed) {
        Random rnd = new Random(seed);
        Matrix x = Matrix.zeros(M, 4);
        for (int i = 0; i < M; i++) {
            for (int j = 0; j < 4; j++) {
                x.set(i, j, rnd.nextGaussian());
            }
        }
        return x;
    }

    private static double[] labels(Matrix x, long seed) {
        Random rnd = new Random(seed);
        double[] y = new double[M];
        for (int i = 0; i < M; i++) {
            double f = x.get(i, 0) * x.get(i, 1) + Math.sin(2 * x.get(i, 2)) + 0.3 * rnd.nextGaussian();
            y[i] = f >= 0 ? 1 : -1;
        }
        return y;
    }

    /** f(x_t) = Σ α_i y_i K(x_i, x_t) + b on the training points, from the exact Gram matrix. */
    private static double[] decision(Matrix k, double[] y, Smo.Result r) {
        double[] f = new double[M];
        for (int t = 0; t < M; t++) {
            double s = r.bias();
            for (int i = 0; i < M; i++) {
                s += r.alpha()[i] * y[i] * k.get(i, t);
            }
            f[t] = s;
        }
        return f;
    }

    /** Largest KKT violation max_{I_up} −y∇ − min_{I_low} −y∇ of α, with the exact gradient. */
    private static double violation(Matrix k, double[] y, double[] a) {
        double up = Double.NEGATIVE_INFINITY;
        double low = Double.POSITIVE_INFINITY;
        for (int t = 0; t < M; t++) {
            double g = -1;
            for (int i = 0; i < M; i++) {
                g += y[t] * y[i] * k.get(i, t) * a[i];
            }
            double v = -y[t] * g;
            if (y[t] > 0 ? a[t] < C : a[t] > 0) {
                up = Math.max(up, v);
            }
            if (y[t] > 0 ? a[t] > 0 : a[t] < C) {
                low = Math.min(low, v);
            }
        }
        return up - low;
    }

    @Test
    void shrinkingAndCacheGiveTheDenseDecisionValues() {
        Matrix x = points(3);
        double[] y = labels(x, 4);
        GaussianKernel g = new GaussianKernel(1.0);
        Matrix k = g.gram(x);
        Smo.Result dense = Smo.solve(KernelRows.dense(k), y, null, C, new Smo.Options(TOL, false), null, null);
        double[] f0 = decision(k, y, dense);
        // all rows fit in double precision; then single precision in a budget of 12 full rows
        long[] budgets = {1L << 30, 12 * RowCache.bytes(M, 4)};
        for (long budget : budgets) {
            Smo.Result r = Smo.solve(g, x, y, null, C, new Smo.Options(TOL, true), budget, null, null);
            assertTrue(r.converged());
            double[] f = decision(k, y, r);
            double scale = 0;
            double diff = 0;
            for (int t = 0; t < M; t++) {
                scale = Math.max(scale, Math.abs(f0[t]));
                diff = Math.max(diff, Math.abs(f[t] - f0[t]));
            }
            // both stop at a KKT violation below TOL: their decision values differ by a few TOL
            assertTrue(diff <= 10 * TOL * Math.max(1, scale), "budget " + budget + ": max |f - f_dense| " + diff);
            for (int t = 0; t < M; t++) {
                assertEquals(Math.signum(f0[t]), Math.signum(f[t]), "label of point " + t);
            }
            assertEquals(dense.dual(), r.dual(), 1e-6 * Math.abs(dense.dual()));
            // the exact-gradient KKT violation (float rows perturb Q by 2^-24 relative)
            assertTrue(violation(k, y, r.alpha()) < 2 * TOL + 1e-4, "violation " + violation(k, y, r.alpha()));
            assertTrue(r.cachePeakBytes() <= budget, "peak " + r.cachePeakBytes() + " > budget " + budget);
        }
    }

    @Test
    void cacheNeverExceedsItsBudgetAndShrinkingSwapsKeepRowsRight() {
        Matrix x = points(5);
        double[] y = labels(x, 6);
        GaussianKernel g = new GaussianKernel(0.7);
        int[] perm = new int[M];
        for (int i = 0; i < M; i++) {
            perm[i] = i;
        }
        double[] yw = y.clone();
        long budget = 7 * RowCache.bytes(M, 4) + 123;
        RowCache cache = new RowCache(g, x.toRowArrays(), budget, perm, yw);
        assertFalse(cache.exact());
        Random rnd = new Random(7);
        double[] out = new double[M];
        for (int step = 0; step < 3000; step++) {
            int a = rnd.nextInt(M);
            if (rnd.nextInt(4) == 0) {
                int b = rnd.nextInt(M);
                int pa = perm[a];
                perm[a] = perm[b];
                perm[b] = pa;
                double ya = yw[a];
                yw[a] = yw[b];
                yw[b] = ya;
                cache.swap(a, b);
            } else {
                int len = 1 + rnd.nextInt(M);
                cache.row(a, len, out);
                for (int t = 0; t < len; t += 37) {
                    double want = yw[a] * yw[t] * g.eval(x.row(perm[a]), x.row(perm[t]));
                    assertEquals(want, out[t], 1e-7, "entry (" + a + ", " + t + ")");
                }
            }
            assertTrue(cache.used() <= budget, "used " + cache.used() + " > budget " + budget);
        }
        assertTrue(cache.peak() <= budget);
        assertTrue(cache.peak() > 5 * RowCache.bytes(M, 4), "the budget was used: " + cache.peak());
        assertTrue(cache.reusedRows() > 0, "no row was stored in a given-up row's array");
    }

    /**
     * The swaps of a shrinking pass handed over at once ({@link RowCache#swapAll}) leave the cache as one swap at a
     * time does: the same bytes in use, the same later misses, the same entries (single and double precision).
     */
    @Test
    void batchedSwapsEqualSwapsOneAtATime() {
        Matrix x = points(8);
        double[] y = labels(x, 9);
        GaussianKernel g = new GaussianKernel(0.9);
        long[] budgets = {9 * RowCache.bytes(M, 4) + 77, 1L << 30};
        for (long budget : budgets) {
            int[] perm1 = new int[M];
            for (int i = 0; i < M; i++) {
                perm1[i] = i;
            }
            int[] perm2 = perm1.clone();
            double[] y1 = y.clone();
            double[] y2 = y.clone();
            RowCache one = new RowCache(g, x.toRowArrays(), budget, perm1, y1);
            RowCache batch = new RowCache(g, x.toRowArrays(), budget, perm2, y2);
            Random rnd = new Random(10);
            double[] out1 = new double[M];
            double[] out2 = new double[M];
            int[] pairs = new int[2 * 40];
            for (int round = 0; round < 60; round++) {
                for (int r = 0; r < 25; r++) {
                    int a = rnd.nextInt(M);
                    int len = 1 + rnd.nextInt(M);
                    one.row(a, len, out1);
                    batch.row(a, len, out2);
                    for (int t = 0; t < len; t++) {
                        assertEquals(out1[t], out2[t], 0.0, "round " + round + " entry (" + a + ", " + t + ")");
                    }
                }
                assertEquals(one.used(), batch.used(), "bytes in use, round " + round);
                assertEquals(one.computedEntries(), batch.computedEntries(), "misses, round " + round);
                int count = 1 + rnd.nextInt(40);
                for (int k = 0; k < count; k++) {
                    // as shrinking does: one end rising, the other falling, sometimes a == b
                    int a = rnd.nextInt(M);
                    int b = rnd.nextInt(8) == 0 ? a : rnd.nextInt(M);
                    pairs[2 * k] = a;
                    pairs[2 * k + 1] = b;
                    swapEntries(perm1, y1, a, b);
                    one.swap(a, b);
                    swapEntries(perm2, y2, a, b);
                }
                batch.swapAll(pairs, count);
                assertEquals(one.used(), batch.used(), "bytes in use after swaps, round " + round);
            }
        }
    }

    private static void swapEntries(int[] perm, double[] y, int a, int b) {
        int p = perm[a];
        perm[a] = perm[b];
        perm[b] = p;
        double t = y[a];
        y[a] = y[b];
        y[b] = t;
    }
}
