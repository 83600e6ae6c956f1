package org.psdkit.classify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;

/** Brute-force checks of the sigmoid fit (Lin, Lin &amp; Weng 2007) and the coupling (Wu, Lin &amp; Weng 2004). */
class PlattTest {

    private static double[][] problem(int n, long seed) {
        Random r = new Random(seed);
        double[] f = new double[n];
        double[] y = new double[n];
        for (int i = 0; i < n; i++) {
            y[i] = r.nextBoolean() ? 1 : -1;
            f[i] = 1.3 * y[i] + r.nextGaussian();
        }
        return new double[][] {f, y};
    }

    private static double[] targets(double[] y, double[] w) {
        double p1 = 0;
        double p0 = 0;
        for (int i = 0; i < y.length; i++) {
            double wi = w == null ? 1 : w[i];
            if (y[i] > 0) {
                p1 += wi;
            } else {
                p0 += wi;
            }
        }
        double[] t = new double[y.length];
        for (int i = 0; i < y.length; i++) {
            t[i] = y[i] > 0 ? (p1 + 1) / (p1 + 2) : 1 / (p0 + 2);
        }
        return t;
    }

    @Test
    void theSigmoidIsTheMinimumOfTheRegularisedLikelihood() {
        double[][] pr = problem(200, 1);
        Platt.Sigmoid s = Platt.fit(pr[0], pr[1], null);
        double[] t = targets(pr[1], null);
        double at = Platt.objective(pr[0], t, null, s.a(), s.b());
        // a grid around the fit finds nothing lower, and the fit lies on the grid's best cell
        double best = Double.POSITIVE_INFINITY;
        for (int i = -50; i <= 50; i++) {
            for (int j = -50; j <= 50; j++) {
                double v = Platt.objective(pr[0], t, null, s.a() + i * 0.002, s.b() + j * 0.002);
                best = Math.min(best, v);
            }
        }
        assertEquals(best, at, 1e-9 * Math.abs(at));
        assertTrue(at <= best + 1e-12);
        assertTrue(s.a() < 0, "P(+1 | f) grows with f");
    }

    @Test
    void integerWeightsEqualRepeatedPoints() {
        double[][] pr = problem(60, 2);
        Random r = new Random(3);
        double[] w = new double[60];
        int total = 0;
        for (int i = 0; i < 60; i++) {
            w[i] = 1 + r.nextInt(3);
            total += (int) w[i];
        }
        double[] f = new double[total];
        double[] y = new double[total];
        int t = 0;
        for (int i = 0; i < 60; i++) {
            for (int c = 0; c < w[i]; c++) {
                f[t] = pr[0][i];
                y[t++] = pr[1][i];
            }
        }
        Platt.Sigmoid a = Platt.fit(pr[0], pr[1], w);
        Platt.Sigmoid b = Platt.fit(f, y, null);
        assertEquals(b.a(), a.a(), 1e-8);
        assertEquals(b.b(), a.b(), 1e-8);
        // and unit weights are the unweighted fit
        Platt.Sigmoid u = Platt.fit(pr[0], pr[1], java.util.stream.DoubleStream.generate(() -> 1).limit(60)
                .toArray());
        Platt.Sigmoid n = Platt.fit(pr[0], pr[1], null);
        assertEquals(n.a(), u.a(), 0.0);
        assertEquals(n.b(), u.b(), 0.0);
    }

    @Test
    void sigmoidNeverOverflows() {
        Platt.Sigmoid s = new Platt.Sigmoid(-1e3, 0);
        assertEquals(1.0, s.probability(1e6), 0.0);
        assertEquals(0.0, s.probability(-1e6), 0.0);
        assertEquals(0.5, s.probability(0), 0.0);
    }

    private static double[][] pairwise(int k, long seed) {
        Random r = new Random(seed);
        double[][] m = new double[k][k];
        for (int i = 0; i < k; i++) {
            for (int j = i + 1; j < k; j++) {
                m[i][j] = Math.min(Math.max(r.nextDouble(), Platt.MIN_PROB), 1 - Platt.MIN_PROB);
                m[j][i] = 1 - m[i][j];
            }
        }
        return m;
    }

    private static double coupling(double[][] r, double[] p) {
        double s = 0;
        for (int i = 0; i < p.length; i++) {
            for (int j = 0; j < p.length; j++) {
                if (i != j) {
                    double e = r[j][i] * p[i] - r[i][j] * p[j];
                    s += e * e;
                }
            }
        }
        return s;
    }

    @Test
    void couplingIsTheMinimumOverTheSimplex() {
        for (int k : new int[] {3, 4, 7, 10}) {
            for (long seed = 0; seed < 5; seed++) {
                double[][] r = pairwise(k, seed);
                double[] p = Platt.couple(r);
                double sum = 0;
                for (double v : p) {
                    assertTrue(v >= 0);
                    sum += v;
                }
                assertEquals(1.0, sum, 1e-12);
                // LIBSVM's fixed-point iteration (run to 1e-14) reaches the same point
                double[] it = Platt.iterative(r, Platt.couplingMatrix(r));
                for (int i = 0; i < k; i++) {
                    assertEquals(it[i], p[i], 1e-9, "k=" + k + " seed=" + seed);
                }
                // no feasible perturbation lowers the objective
                double at = coupling(r, p);
                Random rnd = new Random(seed + 100);
                for (int trial = 0; trial < 2000; trial++) {
                    double[] q = p.clone();
                    int a = rnd.nextInt(k);
                    int b = rnd.nextInt(k);
                    double d = (rnd.nextDouble() - 0.5) * 1e-3;
                    if (a == b || q[a] + d < 0 || q[b] - d < 0) {
                        continue;
                    }
                    q[a] += d;
                    q[b] -= d;
                    assertTrue(coupling(r, q) >= at - 1e-15, "k=" + k);
                }
            }
        }
    }

    @Test
    void twoClassCouplingIsThePairwiseProbability() {
        double[] p = Platt.couple(new double[][] {{0, 0.8}, {0.2, 0}});
        assertEquals(0.8, p[0], 0.0);
        assertEquals(0.2, p[1], 0.0);
    }
}
