package org.psdkit.optim;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Random;
import org.junit.jupiter.api.Test;

/** Conjugates against their definition (a numeric sup) and proxes against their optimality condition. */
class LossesTest {

    /** sup_z a·z − ℓ(z) by a fine grid search around the maximiser, one coordinate. */
    static double numericConjugate(ConjugateLoss loss, int n, int i, double a, double[] base) {
        double best = Double.NEGATIVE_INFINITY;
        double[] z = base.clone();
        for (int k = -200000; k <= 200000; k++) {
            z[i] = k * 1e-4;
            double lv = loss.value(z) - loss.value(base);
            best = Math.max(best, a * z[i] - lv);
        }
        return best;
    }

    static void checkLoss(ConjugateLoss loss, double[] alphas) {
        int n = loss.size();
        double[] base = new double[n];
        java.util.Arrays.fill(base, 1.0);
        // the conjugate of one coordinate: L*(a e_i + rest) − L*(rest-part) checked through the separable form
        for (double a : alphas) {
            double[] al = new double[n];
            java.util.Arrays.fill(al, alphas[0]);
            double[] al2 = al.clone();
            al2[0] = a;
            double d = loss.conjugate(al2) - loss.conjugate(al);
            double num = numericConjugate(loss, n, 0, a, base) - numericConjugate(loss, n, 0, alphas[0], base);
            assertEquals(num, d, 1e-5, "conjugate at " + a);
        }
        // prox optimality: u = argmin L*(u) + |u − v|²/(2t) ⇒ perturbing u does not decrease the objective
        Random r = new Random(2);
        for (int trial = 0; trial < 20; trial++) {
            double t = 0.1 + r.nextDouble();
            double[] v = new double[n];
            for (int i = 0; i < n; i++) {
                v[i] = alphas[r.nextInt(alphas.length)] + 0.01 * r.nextGaussian();
            }
            double[] u = new double[n];
            loss.proxConjugate(t, v, u);
            double f0 = loss.conjugate(u) + dist2(u, v) / (2 * t);
            for (int k = 0; k < 10; k++) {
                double[] w = u.clone();
                w[r.nextInt(n)] += 1e-4 * r.nextGaussian();
                double f1 = loss.conjugate(w) + dist2(w, v) / (2 * t);
                assertEquals(true, f1 >= f0 - 1e-12, "prox is not a minimiser");
            }
        }
    }

    static double dist2(double[] a, double[] b) {
        double s = 0;
        for (int i = 0; i < a.length; i++) {
            s += (a[i] - b[i]) * (a[i] - b[i]);
        }
        return s;
    }

    @Test
    void squared() {
        checkLoss(Losses.squared(new double[] {0.5, -1, 2}), new double[] {0.1, -0.2, 0.3});
    }

    @Test
    void negativeLog() {
        checkLoss(Losses.negativeLog(3), new double[] {-0.5, -0.2, -1.0});
    }

    @Test
    void pinball() {
        checkLoss(Losses.pinball(new double[] {0.5, -1, 2}, 0.3), new double[] {-0.05, 0.1, 0.2});
    }
}
