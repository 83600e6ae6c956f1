package org.psdkit.regression;

import org.psdkit.optim.smo.KernelRows;
import org.psdkit.optim.smo.Smo;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;
import org.psdkit.kernel.GaussianKernel;
import org.psdkit.kernel.Kernel;
import org.psdkit.linalg.Matrix;

class SvrTest {

    static Matrix grid(int m) {
        Matrix x = Matrix.zeros(m, 1);
        for (int i = 0; i < m; i++) {
            x.set(i, 0, -3 + 6.0 * i / (m - 1));
        }
        return x;
    }

    static double[] noisySine(Matrix x, long seed) {
        Random r = new Random(seed);
        double[] y = new double[x.rows()];
        for (int i = 0; i < y.length; i++) {
            y[i] = Math.sin(x.get(i, 0)) + 0.1 * r.nextGaussian();
        }
        return y;
    }

    @Test
    void primalAndDualObjectivesMeetAndTheTubeConditionsHold() {
        Matrix x = grid(60);
        double[] y = noisySine(x, 1);
        Kernel k = new GaussianKernel(0.7);
        double c = 5;
        double eps = 0.1;
        Svr s = Svr.fit(k, x, y, c, eps, 1e-9);
        assertTrue(s.diagnostics().converged());
        double gap = s.diagnostics().primal() - s.diagnostics().dual();
        assertTrue(gap >= -1e-9 && gap <= 1e-6 * Math.max(1, Math.abs(s.diagnostics().primal())),
                "primal " + s.diagnostics().primal() + " dual " + s.diagnostics().dual());
        // KKT of the ε-insensitive loss: inside the tube β = 0, on its edge 0 < |β| < C, outside |β| = C
        double[] f = s.predictVector(x);
        double[] beta = new double[x.rows()];
        Matrix sv = s.supportVectors();
        for (int t = 0; t < sv.rows(); t++) {
            int i = (int) Math.round((sv.get(t, 0) + 3) / 6.0 * 59);
            beta[i] = s.coef()[t];
        }
        int free = 0;
        for (int i = 0; i < y.length; i++) {
            double res = y[i] - f[i];
            double b = Math.abs(beta[i]);
            if (b == 0) {
                assertTrue(Math.abs(res) <= eps + 1e-6, "point " + i + " residual " + res);
            } else if (b < c * (1 - 1e-12)) {
                free++;
                assertEquals(eps, Math.abs(res), 1e-6, "point " + i);
                assertEquals(Math.signum(beta[i]), Math.signum(res), "point " + i); // β > 0 above the fit
            } else {
                assertTrue(Math.abs(res) >= eps - 1e-6, "point " + i + " residual " + res);
            }
        }
        assertTrue(free > 0 && sv.rows() < y.length, "free " + free + ", support " + sv.rows());
        // the fit follows the sine
        double err = 0;
        for (int i = 0; i < y.length; i++) {
            err = Math.max(err, Math.abs(f[i] - Math.sin(x.get(i, 0))));
        }
        assertTrue(err < 0.35, "max error " + err);
    }

    @Test
    void aTubeWiderThanTheDataNeedsNoSupportVectors() {
        Matrix x = grid(20);
        double[] y = noisySine(x, 2);
        Svr s = Svr.fit(new GaussianKernel(1), x, y, 10, 2.0, 1e-6);
        assertEquals(0, s.supportVectors().rows());
        for (double v : s.predictVector(x)) {
            assertEquals(s.bias(), v, 0.0);
        }
        assertThrows(IllegalArgumentException.class, () -> s.predictVector(Matrix.zeros(3, 2)));
        for (int i = 0; i < y.length; i++) {
            assertTrue(Math.abs(y[i] - s.bias()) <= 2.0 + 1e-9);
        }
    }

    @Test
    void aSmallRowCacheGivesTheSameSolution() {
        Matrix x = grid(40);
        double[] y = noisySine(x, 3);
        Matrix g = new GaussianKernel(0.5).gram(x);
        int m = x.rows();
        double[] z = new double[2 * m];
        double[] p = new double[2 * m];
        for (int i = 0; i < m; i++) {
            z[i] = 1;
            z[i + m] = -1;
            p[i] = 0.05 - y[i];
            p[i + m] = 0.05 + y[i];
        }
        Smo.Result all = Smo.solve(Svr.doubled(KernelRows.dense(g), 1L << 30), z, p, 3, 1e-6, null);
        Smo.Result two = Smo.solve(Svr.doubled(KernelRows.dense(g), 1), z, p, 3, 1e-6, null);
        assertArrayEquals(all.alpha(), two.alpha(), 0.0);
        assertEquals(all.bias(), two.bias(), 0.0);
    }

    @Test
    void classificationDualIsUnchangedByTheGeneralLinearTerm() {
        Matrix x = grid(30);
        double[] y = new double[30];
        for (int i = 0; i < y.length; i++) {
            y[i] = Math.sin(2 * x.get(i, 0)) > 0 ? 1 : -1;
        }
        KernelRows rows = KernelRows.dense(new GaussianKernel(0.5).gram(x));
        double[] minusOne = new double[30];
        java.util.Arrays.fill(minusOne, -1);
        Smo.Result a = Smo.solve(rows, y, 2, 1e-6, null);
        Smo.Result b = Smo.solve(rows, y, minusOne, 2, 1e-6, null);
        assertArrayEquals(a.alpha(), b.alpha(), 0.0);
        assertEquals(a.dual(), b.dual(), 0.0);
    }

    @Test
    void badInputIsRejectedWithItsName() {
        Matrix x = grid(5);
        double[] y = {0, 1, 2, 3, 4};
        Kernel k = new GaussianKernel(1);
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Svr.fit(k, x, y, 0, 0.1, 1e-3))
                .getMessage().contains("C"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Svr.fit(k, x, y, 1, -0.1, 1e-3))
                .getMessage().contains("epsilon"));
        double[] bad = y.clone();
        bad[2] = Double.NaN;
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Svr.fit(k, x, bad, 1, 0.1, 1e-3))
                .getMessage().contains("target 2"));
        assertThrows(IllegalArgumentException.class, () -> Svr.fit(k, grid(5).selectRows(new int[] {0}),
                new double[] {1}, 1, 0.1, 1e-3));
    }
}
