package org.psdkit.optim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;

class FistaTest {

    /** h(x) = ½ Σ q_i (x_i − c_i)², separable: the constrained minimiser over x ≥ 0 is max(c, 0). */
    static SmoothFunction diagonalQuadratic(double[] q, double[] c) {
        return new SmoothFunction() {
            @Override
            public int dimension() {
                return q.length;
            }

            @Override
            public double valueAndGradient(double[] x, double[] g) {
                double v = 0;
                for (int i = 0; i < q.length; i++) {
                    double d = x[i] - c[i];
                    g[i] = q[i] * d;
                    v += 0.5 * q[i] * d * d;
                }
                return v;
            }
        };
    }

    @Test
    void nonNegativeQuadraticConvergesToClosedForm() {
        Random r = new Random(1);
        int n = 50;
        double[] q = new double[n];
        double[] c = new double[n];
        for (int i = 0; i < n; i++) {
            q[i] = Math.pow(10, -3 * r.nextDouble()); // condition number 1e3
            c[i] = r.nextGaussian();
        }
        FistaResult res = Fista.minimize(diagonalQuadratic(q, c), ProxFunction.nonNegative(), new double[n],
                FistaOptions.withLipschitz(1.0, 3000), null, null);
        for (int i = 0; i < n; i++) {
            assertEquals(Math.max(c[i], 0), res.x()[i], 1e-8);
        }
        assertTrue(res.restarts() > 0, "adaptive restart should trigger on an ill-conditioned quadratic");
    }

    @Test
    void backtrackingFindsAStepAndConverges() {
        double[] q = {100, 1, 0.5};
        double[] c = {1, -2, 3};
        FistaResult res = Fista.minimize(diagonalQuadratic(q, c), ProxFunction.zero(), new double[3],
                FistaOptions.backtracking(2000), null, null);
        assertTrue(res.lipschitz() >= 100 && res.lipschitz() <= 400, "L = " + res.lipschitz());
        for (int i = 0; i < 3; i++) {
            assertEquals(c[i], res.x()[i], 1e-8);
        }
    }

    @Test
    void stopRuleListenerAndBudgetsAreHonoured() {
        double[] q = {1, 1};
        double[] c = {1, 1};
        int[] calls = {0};
        FistaResult res = Fista.minimize(diagonalQuadratic(q, c), ProxFunction.zero(), new double[2],
                FistaOptions.withLipschitz(10, 1000), (it, y, v, g) -> it == 7,
                e -> calls[0]++);
        assertEquals(FistaResult.Status.CONVERGED, res.status());
        assertEquals(7, res.iterations());
        assertEquals(7, calls[0]);
        FistaResult capped = Fista.minimize(diagonalQuadratic(q, c), ProxFunction.zero(), new double[2],
                FistaOptions.withLipschitz(1e6, 5), null, null);
        assertEquals(FistaResult.Status.MAX_ITERATIONS, capped.status());
        assertEquals(5, capped.iterations());
    }
}
