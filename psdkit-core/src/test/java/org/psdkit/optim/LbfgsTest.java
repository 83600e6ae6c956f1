package org.psdkit.optim;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** {@link Lbfgs} and {@link WolfeLineSearch} on textbook problems. */
class LbfgsTest {

    /** Rosenbrock in n dimensions: Σ 100(x_{i+1} − x_i²)² + (1 − x_i)², minimum 0 at (1, …, 1). */
    private static double rosenbrock(double[] x, double[] g) {
        double f = 0;
        java.util.Arrays.fill(g, 0);
        for (int i = 0; i + 1 < x.length; i++) {
            double a = x[i + 1] - x[i] * x[i];
            double b = 1 - x[i];
            f += 100 * a * a + b * b;
            g[i] += -400 * a * x[i] - 2 * b;
            g[i + 1] += 200 * a;
        }
        return f;
    }

    @Test
    void minimisesRosenbrockFromTheClassicStart() {
        double[] x0 = {-1.2, 1};
        Lbfgs.Result r = Lbfgs.minimize(LbfgsTest::rosenbrock, x0, Lbfgs.Options.of(1e-10, 200));
        assertTrue(r.converged(), "iterations " + r.iterations());
        assertArrayEquals(new double[] {1, 1}, r.x(), 1e-8);
        assertTrue(r.value() < 1e-16, "f = " + r.value());
        // L-BFGS takes a few dozen iterations here (Nocedal & Wright 2006, Sec. 7.2); steepest descent thousands
        assertTrue(r.iterations() <= 60, "iterations " + r.iterations());
        assertArrayEquals(new double[] {-1.2, 1}, x0, "start not modified");
    }

    @Test
    void minimisesRosenbrockIn20Dimensions() {
        double[] x0 = new double[20];
        for (int i = 0; i < 20; i++) {
            x0[i] = i % 2 == 0 ? -1.2 : 1;
        }
        Lbfgs.Result r = Lbfgs.minimize(LbfgsTest::rosenbrock, x0, Lbfgs.Options.of(1e-9, 500));
        assertTrue(r.converged(), "iterations " + r.iterations());
        for (double v : r.x()) {
            assertEquals(1, v, 1e-6);
        }
    }

    @Test
    void onAQuadraticTheDirectionIsNewtonsAfterEnoughPairs() {
        // f = ½ xᵀ diag(1, 10, 100) x: with the three exact pairs s_i = e_i, y_i = A e_i the BFGS update of any H₀
        // is A⁻¹ (Nocedal & Wright 2006, Thm. 6.4's quadratic termination), so the direction is −A⁻¹∇f = −x
        double[] d = {1, 10, 100};
        double[][] s = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
        double[][] y = {{1, 0, 0}, {0, 10, 0}, {0, 0, 100}};
        double[] x = {3, -2, 0.5};
        double[] g = {d[0] * x[0], d[1] * x[1], d[2] * x[2]};
        assertArrayEquals(new double[] {-3, 2, -0.5}, Lbfgs.direction(g, s, y), 1e-12);
        // no pairs: steepest descent
        assertArrayEquals(new double[] {-g[0], -g[1], -g[2]}, Lbfgs.direction(g, new double[0][], new double[0][]));
    }

    /** The fused two-loop recursion is the textbook one (Nocedal &amp; Wright 2006, Alg. 7.4) up to rounding. */
    @Test
    void fusedTwoLoopIsTheTextbookRecursion() {
        java.util.SplittableRandom rnd = new java.util.SplittableRandom(7);
        for (int m : new int[] {0, 1, 2, 10}) {
            for (int len : new int[] {1, 7, 64}) {
                double[][] s = new double[m][];
                double[][] y = new double[m][];
                for (int i = 0; i < m; i++) {
                    s[i] = random(rnd, len);
                    double[] e = random(rnd, len);
                    y[i] = new double[len];
                    for (int k = 0; k < len; k++) {
                        y[i][k] = 2 * s[i][k] + 0.3 * e[k]; // sᵀy > 0
                    }
                }
                double[] g = random(rnd, len);
                // textbook
                double[] q = new double[len];
                for (int k = 0; k < len; k++) {
                    q[k] = -g[k];
                }
                double[] alpha = new double[m];
                for (int i = m - 1; i >= 0; i--) {
                    alpha[i] = dot(s[i], q) / dot(s[i], y[i]);
                    for (int k = 0; k < len; k++) {
                        q[k] -= alpha[i] * y[i][k];
                    }
                }
                if (m > 0) {
                    double gamma = dot(s[m - 1], y[m - 1]) / dot(y[m - 1], y[m - 1]);
                    for (int k = 0; k < len; k++) {
                        q[k] *= gamma;
                    }
                }
                for (int i = 0; i < m; i++) {
                    double beta = dot(y[i], q) / dot(s[i], y[i]);
                    for (int k = 0; k < len; k++) {
                        q[k] += (alpha[i] - beta) * s[i][k];
                    }
                }
                double[] fused = Lbfgs.direction(g, s, y);
                for (int k = 0; k < len; k++) {
                    assertEquals(q[k], fused[k], 1e-12 * (1 + Math.abs(q[k])), "m " + m + ", length " + len);
                }
            }
        }
    }

    private static double[] random(java.util.SplittableRandom rnd, int len) {
        double[] a = new double[len];
        for (int k = 0; k < len; k++) {
            a[k] = rnd.nextGaussian();
        }
        return a;
    }

    @Test
    void theWolfeStepSatisfiesBothConditions() {
        // φ(t) = (t − 3)² − 9 from t = 0: φ'(0) = −6
        WolfeLineSearch ls = WolfeLineSearch.defaults();
        WolfeLineSearch.Line line = t -> new double[] {(t - 3) * (t - 3) - 9, 2 * (t - 3)};
        for (double first : new double[] {0.01, 1, 5.5, 100}) {
            double t = ls.search(line, 0, -6, first);
            double[] v = line.at(t);
            assertTrue(v[0] <= WolfeLineSearch.DEFAULT_C1 * t * -6, "first " + first + ": decrease at " + t);
            assertTrue(Math.abs(v[1]) <= WolfeLineSearch.DEFAULT_C2 * 6, "first " + first + ": curvature at " + t);
        }
        // a tight c₂ lands near the minimiser t = 3
        double t = new WolfeLineSearch(1e-4, 0.01, 60).search(line, 0, -6, 1);
        assertEquals(3, t, 0.03);
        // a function undefined beyond t = 1 (φ = +∞ there): the search bisects back into the domain
        WolfeLineSearch.Line walled = u -> u >= 1 ? new double[] {Double.POSITIVE_INFINITY, Double.NaN}
                : new double[] {-Math.log(1 - u) - 2 * u, 1 / (1 - u) - 2};
        double w = ls.search(walled, 0, -1, 4);
        assertTrue(w > 0 && w < 1, "step " + w);
        // an ascent everywhere: no step
        assertEquals(0, ls.search(x -> new double[] {x, 1}, 0, -1, 1));
    }

    private static double dot(double[] a, double[] b) {
        double s = 0;
        for (int k = 0; k < a.length; k++) {
            s += a[k] * b[k];
        }
        return s;
    }
}
