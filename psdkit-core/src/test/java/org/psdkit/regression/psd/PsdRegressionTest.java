package org.psdkit.regression.psd;

import org.psdkit.psd.PsdModel;
import org.psdkit.psd.PsdOptions;
import org.psdkit.psd.SolverDiagnostics;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;
import org.psdkit.kernel.GaussianKernel;
import org.psdkit.kernel.Kernel;
import org.psdkit.linalg.Linalg;
import org.psdkit.linalg.Matrix;

class PsdRegressionTest {

    static Matrix uniform(int n, int d, double lo, double hi, Random r) {
        Matrix x = Matrix.zeros(n, d);
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < d; j++) {
                x.set(i, j, lo + (hi - lo) * r.nextDouble());
            }
        }
        return x;
    }

    static double target(double x) {
        return Math.max(0, Math.sin(2 * x)) * x * x + 0.0;
    }

    @Test
    void dualSolutionEqualsBruteForcePrimalOnTinyProblem() {
        Random rnd = new Random(11);
        int n = 6;
        Matrix x = uniform(n, 1, -1, 1, rnd);
        double[] y = new double[n];
        for (int i = 0; i < n; i++) {
            y[i] = target(x.get(i, 0)) + 0.3 * rnd.nextGaussian(); // some targets negative: the constraint binds
        }
        Kernel k = new GaussianKernel(0.4);
        double l1 = 1e-3;
        double l2 = 1e-2;
        PsdModel m = PsdRegression.fit(k, x, y, PsdOptions.of(l1, l2).withTolerance(1e-12).withMaxIterations(20000));
        BruteForce bf = new BruteForce(k, x, BruteForce.identity(n), y, l1, l2).solve(3000);
        double ref = bf.value();
        assertEquals(ref, m.diagnostics().objective(), 1e-9 * Math.abs(ref));
        assertTrue(m.diagnostics().dualityGap() <= 1e-11 * Math.abs(ref) + 1e-15, "gap " + m.diagnostics());
        // same function away from the training points
        Matrix t = uniform(50, 1, -2, 2, rnd);
        double[] fRef = new double[50];
        for (int i = 0; i < 50; i++) {
            fRef[i] = bf.predict(t.row(i));
        }
        double[] f = m.values(t);
        for (int i = 0; i < 50; i++) {
            assertEquals(fRef[i], f[i], 1e-5 * (1 + Math.abs(fRef[i])));
        }
    }

    @Test
    void positiveTargetsWithoutTraceTermMatchBruteForce() {
        // λ₁ = 0: the dual term reduces to ‖[−V Diag(α) Vᵀ]₊‖², the sign convention is all that is tested here;
        // the fit must also follow positive targets.
        Random rnd = new Random(5);
        int n = 8;
        Matrix x = uniform(n, 1, -1, 1, rnd);
        double[] y = new double[n];
        for (int i = 0; i < n; i++) {
            y[i] = 1 + x.get(i, 0);
        }
        Kernel k = new GaussianKernel(0.5);
        PsdModel m = PsdRegression.fit(k, x, y, PsdOptions.of(0, 1e-3).withTolerance(1e-12).withMaxIterations(50000));
        double ref = new BruteForce(k, x, BruteForce.identity(n), y, 0, 1e-3).solve(3000).value();
        assertEquals(ref, m.diagnostics().objective(), 1e-8 * ref);
        double[] f = m.values(x);
        for (int i = 0; i < n; i++) {
            assertEquals(y[i], f[i], 0.2, "fit at training point " + i);
        }
    }

    @Test
    void relativeGapOf1e8IsReachedOnTwoHundredPoints() {
        Random rnd = new Random(3);
        int n = 200;
        Matrix x = uniform(n, 1, -3, 3, rnd);
        double[] y = new double[n];
        for (int i = 0; i < n; i++) {
            y[i] = Math.max(0, Math.sin(x.get(i, 0))) * x.get(i, 0) * x.get(i, 0) + 0.1 * rnd.nextGaussian();
        }
        PsdModel m = PsdRegression.fit(new GaussianKernel(0.5), x, y, PsdOptions.of(1e-4, 1e-3).withTolerance(1e-8));
        SolverDiagnostics d = m.diagnostics();
        assertEquals("CONVERGED", d.status(), d.toString());
        assertTrue(d.relativeGap() <= 1e-8, d.toString());
        assertTrue(d.dualityGap() >= -1e-12 * Math.abs(d.objective()), "weak duality " + d);
    }

    @Test
    void duplicatePointsAndTinyBandwidthJustWork() {
        Random rnd = new Random(8);
        int n = 12;
        Matrix base = uniform(n / 2, 2, -1, 1, rnd);
        int[] index = new int[n];
        Matrix x = Matrix.zeros(n, 2);
        double[] y = new double[n];
        for (int i = 0; i < n; i++) {
            x.set(i, 0, base.get(i % (n / 2), 0));
            x.set(i, 1, base.get(i % (n / 2), 1));
            y[i] = x.get(i, 0) * x.get(i, 0) + 0.05 * (i % 2);
            index[i] = i % (n / 2);
        }
        for (double sigma : new double[] {0.5, 1e-4}) {
            Kernel k = new GaussianKernel(sigma);
            PsdModel m = PsdRegression.fit(k, x, y, PsdOptions.of(1e-4, 1e-3).withTolerance(1e-9));
            assertTrue(m.diagnostics().featureRank() <= n / 2, "rank " + m.diagnostics());
            assertTrue(m.diagnostics().relativeGap() <= 1e-9, m.diagnostics().toString());
            // brute force on the distinct points, duplicates sharing their features
            double ref = new BruteForce(k, base, index, y, 1e-4, 1e-3).solve(3000).value();
            assertEquals(ref, m.diagnostics().objective(), 1e-8 * ref, "sigma " + sigma);
        }
    }

    @Test
    void predictionsNeverNegativeIncludingFarFromTheData() {
        Random rnd = new Random(21);
        int n = 60;
        double sigma = 0.3;
        Matrix x = uniform(n, 2, -1, 1, rnd);
        double[] y = new double[n];
        for (int i = 0; i < n; i++) {
            y[i] = Math.sin(3 * x.get(i, 0)) + 0.2 * rnd.nextGaussian(); // half the targets negative
        }
        PsdModel m = PsdRegression.fit(new GaussianKernel(sigma), x, y, PsdOptions.of(1e-4, 1e-3));
        int m1 = 100_000;
        Matrix t = Matrix.zeros(m1, 2);
        for (int i = 0; i < m1; i++) {
            double scale = i % 4 == 0 ? 100 * sigma : (i % 4 == 1 ? 1e-3 : 2);
            t.set(i, 0, (i % 4 == 0 ? 1 + scale : 0) + scale * rnd.nextGaussian());
            t.set(i, 1, scale * rnd.nextGaussian());
        }
        double[] f = m.values(t);
        double min = Double.POSITIVE_INFINITY;
        for (double v : f) {
            assertTrue(Double.isFinite(v));
            min = Math.min(min, v);
        }
        assertTrue(min >= 0.0, "min prediction " + min);
        // and the model is not trivially zero
        double max = 0;
        for (double v : m.values(x)) {
            max = Math.max(max, v);
        }
        assertTrue(max > 0.3, "max fitted " + max);
    }

    @Test
    void gradientMatchesFiniteDifferences() {
        Random rnd = new Random(4);
        Matrix x = uniform(30, 3, -1, 1, rnd);
        double[] y = new double[30];
        for (int i = 0; i < 30; i++) {
            y[i] = Math.exp(-x.get(i, 0) * x.get(i, 0)) + x.get(i, 1);
        }
        PsdModel m = PsdRegression.fit(new GaussianKernel(0.7), x, y, PsdOptions.of(1e-4, 1e-3));
        double[] p = {0.2, -0.3, 0.5};
        double[] g = m.gradient(p);
        double h = 1e-5;
        for (int j = 0; j < 3; j++) {
            double[] a = p.clone();
            double[] b = p.clone();
            a[j] += h;
            b[j] -= h;
            double fd = (m.value(a) - m.value(b)) / (2 * h);
            assertEquals(fd, g[j], 1e-6 * (1 + Math.abs(fd)));
        }
    }

    @Test
    void badOptionsAndDataAreRejectedWithNames() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> PsdOptions.of(1e-3, 0)).getMessage()
                .contains("lambda2"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> PsdOptions.of(-1, 1)).getMessage()
                .contains("lambda1"));
        Matrix x = Matrix.of(new double[][] {{0}, {1}});
        assertThrows(IllegalArgumentException.class,
                () -> PsdRegression.fit(new GaussianKernel(1), x, new double[] {1, Double.NaN}, PsdOptions.of(0, 1)));
        assertThrows(IllegalArgumentException.class,
                () -> PsdRegression.fit(new GaussianKernel(1), x, new double[] {1}, PsdOptions.of(0, 1)));
        assertThrows(IllegalArgumentException.class, () -> PsdRegression.fit(new GaussianKernel(1),
                Matrix.of(new double[][] {{0}}), new double[] {1}, PsdOptions.of(0, 1)));
    }

    @Test
    void allNegativeTargetsGiveTheZeroModel() {
        Matrix x = Matrix.of(new double[][] {{0}, {0.5}, {1}, {1.5}});
        double[] y = {-1, -2, -0.5, -3};
        PsdModel m = PsdRegression.fit(new GaussianKernel(0.5), x, y, PsdOptions.of(1e-3, 1e-3).withTolerance(1e-12));
        assertEquals(0, m.rank());
        // optimum f = 0: objective = (1/2n) Σ y², dual attains it
        double ref = (1 + 4 + 0.25 + 9) / 8.0;
        assertEquals(ref, m.diagnostics().objective(), 1e-12);
        assertTrue(m.diagnostics().dualityGap() <= 1e-10, m.diagnostics().toString());
        for (double v : m.values(x)) {
            assertEquals(0.0, v);
        }
    }

    @Test
    void paperConventionMapsToLambdas() {
        PsdOptions o = PsdOptions.paper(1e-3, 0.05);
        assertEquals(1e-3, o.lambda1());
        assertEquals(1e-4, o.lambda2(), 1e-18);
    }
}
