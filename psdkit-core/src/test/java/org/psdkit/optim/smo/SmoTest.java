package org.psdkit.optim.smo;

import org.psdkit.classify.BinaryLabels;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;
import org.psdkit.kernel.GaussianKernel;
import org.psdkit.linalg.Matrix;

class SmoTest {

    static Matrix linearGram(Matrix x) {
        return x.times(x.transpose());
    }

    @Test
    void separableOneDimensionalProblemHasTheKnownSolution() {
        // points −2, −1 | 1, 2 with the linear kernel: w = 1, b = 0, α = 0.5 on ±1, 0 elsewhere
        Matrix x = Matrix.of(new double[][] {{-2}, {-1}, {1}, {2}});
        double[] y = {-1, -1, 1, 1};
        Smo.Result r = Smo.solve(KernelRows.dense(linearGram(x)), y, 100.0, 1e-10, null);
        assertArrayEquals(new double[] {0, 0.5, 0.5, 0}, r.alpha(), 1e-9);
        assertEquals(0.0, r.bias(), 1e-9);
        assertEquals(0.5, r.dual(), 1e-9); // ½‖w‖² with w = 1
        assertTrue(r.converged());
    }

    /** Primal objective ½βᵀKβ + C Σ max(0, 1 − y_i f(x_i)) with f = Kβ + b. */
    static double primal(Matrix k, double[] y, double[] alpha, double b, double c) {
        int m = y.length;
        double[] beta = new double[m];
        for (int i = 0; i < m; i++) {
            beta[i] = alpha[i] * y[i];
        }
        double[] f = k.times(beta);
        double reg = 0;
        double loss = 0;
        for (int i = 0; i < m; i++) {
            reg += beta[i] * f[i];
            loss += Math.max(0, 1 - y[i] * (f[i] + b));
        }
        return 0.5 * reg + c * loss;
    }

    @Test
    void primalEqualsDualOnNoisyData() {
        Random rnd = new Random(42);
        int m = 80;
        Matrix x = Matrix.zeros(m, 2);
        double[] y = new double[m];
        for (int i = 0; i < m; i++) {
            x.set(i, 0, rnd.nextGaussian());
            x.set(i, 1, rnd.nextGaussian());
            y[i] = x.get(i, 0) * x.get(i, 1) + 0.3 * rnd.nextGaussian() > 0 ? 1 : -1;
        }
        Matrix k = new GaussianKernel(0.7).gram(x);
        double c = 2.0;
        Smo.Result r = Smo.solve(KernelRows.dense(k), y, c, 1e-6, null);
        double p = primal(k, y, r.alpha(), r.bias(), c);
        assertTrue(p >= r.dual() - 1e-9);
        assertEquals(p, r.dual(), 1e-4 * p);
        double sum = 0;
        for (int i = 0; i < m; i++) {
            assertTrue(r.alpha()[i] >= 0 && r.alpha()[i] <= c);
            sum += r.alpha()[i] * y[i];
        }
        assertEquals(0, sum, 1e-10);
    }

    @Test
    void warmStartReachesTheSameOptimumAndCachedRowsMatchDense() {
        Random rnd = new Random(4);
        int m = 60;
        Matrix x = Matrix.zeros(m, 3);
        double[] y = new double[m];
        for (int i = 0; i < m; i++) {
            for (int j = 0; j < 3; j++) {
                x.set(i, j, rnd.nextDouble());
            }
            y[i] = x.get(i, 0) + x.get(i, 1) > 1 ? 1 : -1;
        }
        GaussianKernel g = new GaussianKernel(0.5);
        Smo.Result cold = Smo.solve(KernelRows.dense(g.gram(x)), y, 5.0, 1e-8, null);
        double[] init = new double[m];
        for (int i = 0; i < m; i++) {
            init[i] = rnd.nextDouble() * 5; // infeasible: gets repaired
        }
        Smo.Result warm = Smo.solve(KernelRows.dense(g.gram(x)), y, 5.0, 1e-8, init);
        assertEquals(cold.dual(), warm.dual(), 1e-7 * cold.dual());
        Smo.Result cached = Smo.solve(new CachedKernelRows(g, x, 8 * 60 * 5), y, 5.0, 1e-8, null);
        assertEquals(cold.dual(), cached.dual(), 1e-9 * cold.dual());
        assertEquals(cold.bias(), cached.bias(), 1e-6);
    }

    @Test
    void rejectsBadInput() {
        Matrix k = Matrix.identity(2);
        assertThrows(IllegalArgumentException.class,
                () -> Smo.solve(KernelRows.dense(k), new double[] {1, 1}, 1.0));
        assertThrows(IllegalArgumentException.class,
                () -> Smo.solve(KernelRows.dense(k), new double[] {1, -1}, 0.0));
        assertThrows(IllegalArgumentException.class,
                () -> Smo.solve(KernelRows.dense(k), new double[] {1, 2}, 1.0));
    }

    @Test
    void labelsMapTwoValuesAndRejectMore() {
        BinaryLabels gb = BinaryLabels.of(new String[] {"g", "b", "g"}, "t.csv");
        assertEquals("b", gb.negative());
        assertArrayEquals(new double[] {1, -1, 1}, gb.encode(new String[] {"g", "b", "g"}, "t"), 0);
        assertEquals("g", gb.decode(0.3));
        BinaryLabels num = BinaryLabels.of(new String[] {"4", "2", "2.0"}, "t.csv");
        assertEquals("2", num.negative());
        assertEquals("4", num.positive());
        BinaryLabels pm = BinaryLabels.of(new String[] {"1", "-1", "1"}, "x");
        assertEquals("-1", pm.negative());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> BinaryLabels.of(new String[] {"1", "2", "3"}, "iris.csv"));
        assertTrue(e.getMessage().contains("iris.csv") && e.getMessage().contains("more than two"));
        assertThrows(IllegalArgumentException.class, () -> BinaryLabels.of(new String[] {"a", "a"}, "x"));
        assertThrows(IllegalArgumentException.class, () -> gb.encode(new String[] {"c"}, "x"));
    }

    /** The KKT violation max(0, m - M) is never negative (it was m - M, e.g. -1.8 on 4 rows; issue 17). */
    @Test
    void violationIsNeverNegative() {
        Random rnd = new Random(17);
        GaussianKernel g = new GaussianKernel(1.0);
        for (int trial = 0; trial < 200; trial++) {
            int n = 2 + rnd.nextInt(5);
            Matrix x = Matrix.zeros(n, 3);
            double[] y = new double[n];
            for (int i = 0; i < n; i++) {
                for (int j = 0; j < 3; j++) {
                    x.set(i, j, rnd.nextGaussian() * (1 + trial % 7));
                }
                y[i] = i % 2 == 0 ? 1 : -1;
            }
            double c = Math.pow(10, rnd.nextInt(7) - 3);
            Smo.Result r = Smo.solve(KernelRows.dense(g.gram(x)), y, c, 1e-3, null);
            assertTrue(r.violation() >= 0, "trial " + trial + ": violation " + r.violation());
        }
    }
}
