package org.psdkit.optim.smo;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.psdkit.kernel.GaussianKernel;
import org.psdkit.linalg.Matrix;
import org.psdkit.optim.ProgressListener;

/** Per-variable box bounds C_i (LIBSVM's class and instance weights) and the kernel cache shared by sub-problems. */
class SmoBoundsTest {

    private static Matrix points(int m, long seed) {
        Random rnd = new Random(seed);
        Matrix x = Matrix.zeros(m, 2);
        for (int i = 0; i < m; i++) {
            x.set(i, 0, rnd.nextGaussian());
            x.set(i, 1, rnd.nextGaussian());
        }
        return x;
    }

    private static double[] labels(Matrix x, long seed) {
        Random rnd = new Random(seed);
        double[] y = new double[x.rows()];
        for (int i = 0; i < y.length; i++) {
            y[i] = x.get(i, 0) * x.get(i, 1) + 0.3 * rnd.nextGaussian() > 0 ? 1 : -1;
        }
        return y;
    }

    @Test
    void equalBoundsGiveTheScalarSolveBitForBit() {
        Matrix x = points(120, 1);
        double[] y = labels(x, 2);
        GaussianKernel k = new GaussianKernel(0.7);
        double[] upper = new double[y.length];
        Arrays.fill(upper, 3.0);
        Smo.Options o = Smo.Options.defaults();
        Smo.Result a = Smo.solve(k, x, y, null, 3.0, o, 1L << 20, null, ProgressListener.NONE);
        Smo.Result b = Smo.solve(k, x, y, null, upper, o, 1L << 20, null, ProgressListener.NONE);
        assertArrayEquals(a.alpha(), b.alpha(), 0.0);
        assertEquals(a.bias(), b.bias(), 0.0);
        assertEquals(a.iterations(), b.iterations());
        // a cache too small for the double rows (single precision, shrinking swaps) as well
        Smo.Result c = Smo.solve(k, x, y, null, 3.0, o, 20_000, null, ProgressListener.NONE);
        Smo.Result d = Smo.solve(k, x, y, null, upper, o, 20_000, null, ProgressListener.NONE);
        assertArrayEquals(c.alpha(), d.alpha(), 0.0);
        assertEquals(c.bias(), d.bias(), 0.0);
    }

    /** KKT conditions of min ½αᵀQα − eᵀα, yᵀα = 0, 0 ≤ α_i ≤ C_i, checked on the returned α and b. */
    @Test
    void unequalBoundsSatisfyTheirOwnKktConditions() {
        Matrix x = points(150, 3);
        double[] y = labels(x, 4);
        Random rnd = new Random(5);
        double[] upper = new double[y.length];
        for (int i = 0; i < upper.length; i++) {
            upper[i] = 0.2 + 5 * rnd.nextDouble();
        }
        Matrix g = new GaussianKernel(0.8).gram(x);
        Smo.Result r = Smo.solve(KernelRows.dense(g), y, null, upper, new Smo.Options(1e-8, true), null, null);
        assertTrue(r.converged());
        double sum = 0;
        int atUpper = 0;
        for (int i = 0; i < y.length; i++) {
            double a = r.alpha()[i];
            assertTrue(a >= 0 && a <= upper[i], "alpha " + i + " outside [0, C_i]");
            sum += a * y[i];
            double f = r.bias();
            for (int j = 0; j < y.length; j++) {
                f += r.alpha()[j] * y[j] * g.get(i, j);
            }
            double margin = y[i] * f;
            if (a <= 0) {
                assertTrue(margin >= 1 - 1e-6, "alpha = 0 but margin " + margin);
            } else if (a >= upper[i]) {
                atUpper++;
                assertTrue(margin <= 1 + 1e-6, "alpha = C_i but margin " + margin);
            } else {
                assertEquals(1.0, margin, 1e-6);
            }
        }
        assertEquals(0.0, sum, 1e-9);
        assertTrue(atUpper > 0, "the test needs bounded variables");
    }

    @Test
    void sharedRowsGiveThePairsOwnCacheSolution() {
        Matrix x = points(90, 6);
        int[] cls = new int[90];
        for (int i = 0; i < cls.length; i++) {
            cls[i] = i % 3;
        }
        GaussianKernel k = new GaussianKernel(0.9);
        SharedKernelRows shared = new SharedKernelRows(k, x, cls, 3);
        for (int[] pair : new int[][] {{0, 1}, {0, 2}, {1, 2}}) {
            int n = 0;
            int[] pts = new int[60];
            double[] y = new double[60];
            for (int i = 0; i < 90; i++) {
                if (cls[i] == pair[0] || cls[i] == pair[1]) {
                    pts[n] = i;
                    y[n++] = cls[i] == pair[0] ? 1 : -1;
                }
            }
            double[] upper = new double[60];
            Arrays.fill(upper, 2.0);
            Smo.Result s = Smo.solve(shared, pts, y, upper, Smo.Options.defaults(), null, null);
            // the row cache of the pair alone, in double precision (kernel.eval, as the shared blocks)
            Smo.Result d = Smo.solve(k, x.selectRows(pts), y, null, 2.0, Smo.Options.defaults(), 1L << 24, null,
                    null);
            assertArrayEquals(d.alpha(), s.alpha(), 0.0);
            assertEquals(d.bias(), s.bias(), 0.0);
        }
        // the three pairs read each of the 90 × 3 blocks at most once: at most 90² values
        assertTrue(shared.computedEntries() <= 90L * 90, "computed " + shared.computedEntries());
    }

    /**
     * The one-vs-one layout (points grouped by class, a pair = its first class's points then its second's, read as
     * two blocks side by side) and a shuffled subset of a pair (a probability fold), on 9 features (the Gaussian
     * blocks take four features per pass plus a remainder), long enough that shrinking swaps positions: the same α
     * and bias, bit for bit, as each sub-problem solved alone with its own double-precision row cache.
     */
    @Test
    void sharedRowsInClassOrderAndShuffledSubsetsGiveTheOwnCacheSolution() {
        int perClass = 150;
        Random rnd = new Random(11);
        Matrix x = Matrix.zeros(3 * perClass, 9);
        int[] cls = new int[3 * perClass];
        for (int i = 0; i < cls.length; i++) {
            cls[i] = i / perClass;
            for (int j = 0; j < 9; j++) {
                x.set(i, j, rnd.nextGaussian() + (j == cls[i] ? 0.8 : 0));
            }
        }
        GaussianKernel k = new GaussianKernel(2.0);
        SharedKernelRows shared = new SharedKernelRows(k, x, cls, 3);
        Smo.Options o = new Smo.Options(1e-6, true);
        for (int[] pair : new int[][] {{0, 1}, {0, 2}, {1, 2}}) {
            int l = 2 * perClass;
            int[] pts = new int[l];
            double[] y = new double[l];
            for (int t = 0; t < l; t++) {
                pts[t] = (t < perClass ? pair[0] : pair[1]) * perClass + t % perClass;
                y[t] = t < perClass ? 1 : -1;
            }
            double[] upper = new double[l];
            Arrays.fill(upper, 10.0);
            sameAsOwnCache(k, x, shared, pts, y, upper, o);
            // a shuffled four-fifths of the pair, as the probability folds take it
            int[] perm = new int[l];
            for (int t = 0; t < l; t++) {
                perm[t] = t;
            }
            for (int t = 0; t < l; t++) {
                int u = t + rnd.nextInt(l - t);
                int v = perm[t];
                perm[t] = perm[u];
                perm[u] = v;
            }
            int m = l * 4 / 5;
            int[] sub = new int[m];
            double[] sy = new double[m];
            for (int t = 0; t < m; t++) {
                sub[t] = pts[perm[t]];
                sy[t] = y[perm[t]];
            }
            sameAsOwnCache(k, x, shared, sub, sy, Arrays.copyOf(upper, m), o);
        }
    }

    private static void sameAsOwnCache(GaussianKernel k, Matrix x, SharedKernelRows shared, int[] pts, double[] y,
                                       double[] upper, Smo.Options o) {
        Smo.Result s = Smo.solve(shared, pts, y, upper, o, null, null);
        Smo.Result d = Smo.solve(k, x.selectRows(pts), y, null, upper[0], o, 1L << 26, null, null);
        assertTrue(s.iterations() > pts.length, "too few iterations to shrink: " + s.iterations());
        assertEquals(d.iterations(), s.iterations());
        assertArrayEquals(d.alpha(), s.alpha(), 0.0);
        assertEquals(d.bias(), s.bias(), 0.0);
    }

    @Test
    void nonPositiveBoundsAreRefused() {
        Matrix x = points(10, 7);
        double[] y = {1, -1, 1, -1, 1, -1, 1, -1, 1, -1};
        double[] upper = new double[10];
        Arrays.fill(upper, 1);
        upper[4] = 0;
        Matrix g = new GaussianKernel(1).gram(x);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Smo.solve(KernelRows.dense(g), y, null, upper, Smo.Options.defaults(), null, null));
        assertTrue(e.getMessage().contains("C_4"), e.getMessage());
    }
}
