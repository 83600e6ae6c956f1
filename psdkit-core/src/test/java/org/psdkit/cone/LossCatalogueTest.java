package org.psdkit.cone;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;

/** Conjugates and proximal operators checked against their definitions by brute force. */
class LossCatalogueTest {

    /** sup_z a z − ℓ(z) by a fine scan (ℓ convex, the sup attained inside [−R, R]). */
    private static double conjugateByScan(java.util.function.DoubleUnaryOperator l, double a) {
        double best = Double.NEGATIVE_INFINITY;
        for (int k = -200_000; k <= 200_000; k++) {
            double z = k * 1e-4;
            best = Math.max(best, a * z - l.applyAsDouble(z));
        }
        return best;
    }

    @Test
    void pinballConjugateMatchesDefinition() {
        double[] y = {0.3};
        double[] w = {0.5};
        ScalarLoss p = ScalarLoss.pinball(0.25, y, w);
        for (double a : new double[] {-0.12, -0.05, 0.0, 0.2, 0.37}) {
            assertEquals(conjugateByScan(z -> p.value(0, z), a), p.conjugate(0, a), 1e-6, "a=" + a);
        }
        assertEquals(Double.POSITIVE_INFINITY, p.conjugate(0, 0.4)); // outside [−wτ, w(1−τ)] = [−0.125, 0.375]
    }

    @Test
    void gaussianNllConjugateMatchesDefinition() {
        double y = 0.7;
        double w = 0.25;
        GaussianNaturalNll l = new GaussianNaturalNll(new double[] {y}, new double[] {w});
        double[][] pts = {{0.1, -0.3}, {-0.2, -0.05}, {0.05, -0.6}};
        for (double[] a : pts) {
            // sup over (η, θ) by a grid in θ with η at its closed-form optimum, then a local scan in η
            double best = Double.NEGATIVE_INFINITY;
            for (int k = 1; k <= 200_000; k++) {
                double th = k * 1e-4;
                double eta = th * (a[0] / w + y);
                for (double de : new double[] {-1e-3, 0, 1e-3}) {
                    double e = eta + de;
                    best = Math.max(best, a[0] * e + a[1] * th - l.value(0, new double[] {e, th}));
                }
            }
            assertEquals(best, l.conjugate(0, a), 1e-6);
        }
    }

    @Test
    void gaussianNllProxOfConjugateIsOptimal() {
        Random rnd = new Random(2);
        double[] y = {1.3};
        double[] w = {0.1};
        GaussianNaturalNll l = new GaussianNaturalNll(y, w);
        for (int trial = 0; trial < 20; trial++) {
            double[] v = {rnd.nextGaussian(), rnd.nextGaussian()};
            double s = Math.exp(rnd.nextGaussian() * 2);
            double[] a = new double[2];
            l.proxConjugate(0, v, s, a);
            double f0 = s * l.conjugate(0, a) + 0.5 * ((a[0] - v[0]) * (a[0] - v[0]) + (a[1] - v[1]) * (a[1] - v[1]));
            assertTrue(Double.isFinite(f0));
            for (int k = 0; k < 200; k++) {
                double[] b = {a[0] + 1e-3 * rnd.nextGaussian(), a[1] + 1e-3 * rnd.nextGaussian()};
                double f = s * l.conjugate(0, b) + 0.5 * ((b[0] - v[0]) * (b[0] - v[0]) + (b[1] - v[1]) * (b[1] - v[1]));
                assertTrue(f >= f0 - 1e-12 * (1 + Math.abs(f0)), "prox not optimal: " + f + " < " + f0);
            }
        }
    }
}
