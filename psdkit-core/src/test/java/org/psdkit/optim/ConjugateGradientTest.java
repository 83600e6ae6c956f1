package org.psdkit.optim;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** {@link ConjugateGradient} on quadratics whose minimiser and condition number are known. */
class ConjugateGradientTest {

    /** A = Q diag(λ) Qᵀ with a random orthogonal Q (Householder products), dense n×n. */
    private static double[][] spd(double[] lambda, long seed) {
        int n = lambda.length;
        double[][] a = new double[n][n];
        for (int i = 0; i < n; i++) {
            a[i][i] = lambda[i];
        }
        SplittableRandom rnd = new SplittableRandom(seed);
        for (int h = 0; h < 3; h++) { // A ← (I − 2vvᵀ) A (I − 2vvᵀ)
            double[] v = new double[n];
            double nv = 0;
            for (int i = 0; i < n; i++) {
                v[i] = rnd.nextGaussian();
                nv += v[i] * v[i];
            }
            nv = Math.sqrt(nv);
            for (int i = 0; i < n; i++) {
                v[i] /= nv;
            }
            double[] av = new double[n];
            for (int i = 0; i < n; i++) {
                for (int j = 0; j < n; j++) {
                    av[i] += a[i][j] * v[j];
                }
            }
            double vav = 0;
            for (int i = 0; i < n; i++) {
                vav += v[i] * av[i];
            }
            for (int i = 0; i < n; i++) {
                for (int j = 0; j < n; j++) {
                    a[i][j] += -2 * v[i] * av[j] - 2 * av[i] * v[j] + 4 * vav * v[i] * v[j];
                }
            }
        }
        return a;
    }

    private static ConjugateGradient.Operator times(double[][] a) {
        return v -> {
            double[] out = new double[v.length];
            for (int i = 0; i < v.length; i++) {
                double s = 0;
                for (int j = 0; j < v.length; j++) {
                    s += a[i][j] * v[j];
                }
                out[i] = s;
            }
            return out;
        };
    }

    /** Eigenvalues spread geometrically over [1, κ]. */
    private static double[] spectrum(int n, double kappa) {
        double[] l = new double[n];
        for (int i = 0; i < n; i++) {
            l[i] = Math.pow(kappa, i / (double) (n - 1));
        }
        return l;
    }

    @Test
    void reachesTheKnownMinimiserWithinTheClassicIterationBound() {
        int n = 200;
        for (double kappa : new double[] {10, 100, 1000}) {
            double[][] a = spd(spectrum(n, kappa), 7);
            double[] xStar = new double[n];
            for (int i = 0; i < n; i++) {
                xStar[i] = Math.sin(i + 1.0);
            }
            double[] b = times(a).apply(xStar);
            double tol = 1e-8;
            ConjugateGradient.Result r = ConjugateGradient.solve(times(a), b, tol, 10 * n);
            assertTrue(r.converged(), "kappa " + kappa);
            // ‖r‖/‖b‖ ≤ tol implies ‖e‖_A/‖x*‖_A ≤ √κ·tol; the A-norm bound gives the reduction √κ·tol... so the
            // iterations needed for a relative residual tol are at most the bound for a reduction tol/√κ
            int bound = ConjugateGradient.iterationBound(kappa, tol / Math.sqrt(kappa));
            assertTrue(r.iterations() <= bound, "kappa " + kappa + ": " + r.iterations() + " > bound " + bound);
            // and well above the bound at κ = 1 (the test can tell the bound from a trivial count)
            assertTrue(r.iterations() > 5, "kappa " + kappa + ": " + r.iterations());
            double err = 0;
            double ref = 0;
            for (int i = 0; i < n; i++) {
                err = Math.max(err, Math.abs(r.x()[i] - xStar[i]));
                ref = Math.max(ref, Math.abs(xStar[i]));
            }
            assertTrue(err <= kappa * tol * 10 * ref, "kappa " + kappa + ": error " + err);
            assertTrue(r.residual() <= tol);
        }
    }

    @Test
    void aWellConditionedSystemNeedsFewIterationsAndAnIdentityOneOne() {
        double[][] eye = spd(spectrum(50, 1), 3);
        double[] b = new double[50];
        b[3] = 2;
        ConjugateGradient.Result r = ConjugateGradient.solve(times(eye), b, 1e-12, 100);
        assertEquals(1, r.iterations());
        assertEquals(2, r.x()[3], 1e-12);
        // an exact preconditioner (M = A) converges in one step whatever κ
        double[] lambda = spectrum(40, 1e6);
        double[][] a = new double[40][40];
        for (int i = 0; i < 40; i++) {
            a[i][i] = lambda[i];
        }
        double[] c = new double[40];
        java.util.Arrays.fill(c, 1);
        ConjugateGradient.Result p = ConjugateGradient.solve(times(a), v -> {
            double[] z = new double[v.length];
            for (int i = 0; i < v.length; i++) {
                z[i] = v[i] / lambda[i];
            }
            return z;
        }, ConjugateGradient.Norm.EUCLIDEAN, c, null, 1e-10, 100);
        assertEquals(1, p.iterations());
        ConjugateGradient.Result plain = ConjugateGradient.solve(times(a), c, 1e-10, 100);
        assertTrue(plain.iterations() >= 20, "plain CG on a diagonal of 40 distinct values: " + plain.iterations());
    }

    @Test
    void aStartWithinTheToleranceReturnsAtOnceAndZeroRightHandSideIsSolved() {
        double[][] a = spd(spectrum(20, 50), 11);
        double[] x = new double[20];
        x[0] = 1;
        double[] b = times(a).apply(x);
        ConjugateGradient.Result r = ConjugateGradient.solve(times(a), ConjugateGradient.Preconditioner.IDENTITY,
                ConjugateGradient.Norm.EUCLIDEAN, b, x, 1e-10, 50);
        assertEquals(0, r.iterations());
        assertTrue(r.converged());
        assertArrayEquals(x, r.x());
        ConjugateGradient.Result z = ConjugateGradient.solve(times(a), new double[20], 1e-10, 50);
        assertEquals(0, z.iterations());
        assertArrayEquals(new double[20], z.x());
    }

    @Test
    void theReportedResidualIsTheTrueOne() {
        double[][] a = spd(spectrum(60, 1e4), 5);
        double[] b = new double[60];
        for (int i = 0; i < 60; i++) {
            b[i] = Math.cos(i);
        }
        ConjugateGradient.Result r = ConjugateGradient.solve(times(a), b, 1e-9, 3);
        double[] ax = times(a).apply(r.x());
        double num = 0;
        double den = 0;
        for (int i = 0; i < 60; i++) {
            num += (b[i] - ax[i]) * (b[i] - ax[i]);
            den += b[i] * b[i];
        }
        assertEquals(Math.sqrt(num / den), r.residual(), 1e-12);
        assertEquals(3, r.iterations());
        assertTrue(!r.converged());
    }

    @Test
    void theBoundFormula() {
        // κ = 100: (√κ+1)/(√κ−1) = 11/9; ln(2e6)/ln(11/9) = 72.3
        assertEquals(73, ConjugateGradient.iterationBound(100, 1e-6));
        assertThrows(IllegalArgumentException.class, () -> ConjugateGradient.iterationBound(0.5, 1e-6));
        assertThrows(IllegalArgumentException.class, () -> ConjugateGradient.solve(v -> v, new double[2], 0, 3));
    }
}
