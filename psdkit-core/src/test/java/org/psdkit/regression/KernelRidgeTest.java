package org.psdkit.regression;

import java.util.Random;
import org.junit.jupiter.api.Test;
import org.psdkit.kernel.GaussianKernel;
import org.psdkit.kernel.Kernel;
import org.psdkit.linalg.Linalg;
import org.psdkit.linalg.Matrix;
import org.psdkit.linalg.SpdSolve;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

public class KernelRidgeTest {

    public static Matrix points(int n, int d, long seed) {
        Random r = new Random(seed);
        Matrix x = Matrix.zeros(n, d);
        for (int k = 0; k < n * d; k++) {
            x.data()[k] = r.nextGaussian();
        }
        return x;
    }

    public static double[] target(Matrix x, long seed) {
        Random r = new Random(seed);
        double[] y = new double[x.rows()];
        for (int i = 0; i < y.length; i++) {
            y[i] = Math.sin(2 * x.get(i, 0)) + 0.5 * x.get(i, x.cols() - 1) + 0.1 * r.nextGaussian();
        }
        return y;
    }

    /** Brute force: K by a double loop over eval, (K + λI) α = y by LU (dgesv), f = Σ α_i k(x, x_i). */
    static double[] bruteForce(Kernel k, Matrix x, double[] y, double lambda, Matrix test) {
        int n = x.rows();
        double[][] px = x.toRowArrays();
        Matrix a = Matrix.zeros(n, n);
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                a.set(i, j, k.eval(px[i], px[j]) + (i == j ? lambda : 0));
            }
        }
        double[] alpha = Linalg.solve(a, Matrix.column(y)).col(0);
        double[][] pt = test.toRowArrays();
        double[] f = new double[pt.length];
        for (int t = 0; t < pt.length; t++) {
            for (int i = 0; i < n; i++) {
                f[t] += alpha[i] * k.eval(pt[t], px[i]);
            }
        }
        return f;
    }

    public static double maxRelDiff(double[] a, double[] b) {
        double num = 0;
        double den = 0;
        for (int i = 0; i < a.length; i++) {
            num = Math.max(num, Math.abs(a[i] - b[i]));
            den = Math.max(den, Math.abs(b[i]));
        }
        return num / den;
    }

    @Test
    void standardFormEqualsDirectDenseSolve() {
        Matrix x = points(60, 3, 1);
        double[] y = target(x, 2);
        Matrix test = points(25, 3, 3);
        GaussianKernel k = new GaussianKernel(0.8);
        KernelRidge m = KernelRidge.fit(k, x, y, KernelRidge.Options.standard(0.05));
        assertTrue(maxRelDiff(m.predictVector(test), bruteForce(k, x, y, 0.05, test)) < 1e-10);
        assertEquals("cholesky", m.diagnostics().route());
        assertEquals(0.0, m.diagnostics().jitter());
    }

    @Test
    void standardFormMinimisesTheObjective() {
        // ‖y − Kα‖² + λ αᵀKα is stationary at the solution: K((K + λI)α − y) = 0 and any perturbation increases it
        Matrix x = points(30, 2, 4);
        double[] y = target(x, 5);
        GaussianKernel k = new GaussianKernel(1.0);
        double lambda = 0.1;
        KernelRidge m = KernelRidge.fit(k, x, y, KernelRidge.Options.standard(lambda));
        Matrix kk = k.gram(x);
        double[] a = m.alpha();
        double base = objective(kk, y, a, lambda);
        Random r = new Random(6);
        for (int t = 0; t < 20; t++) {
            double[] b = a.clone();
            for (int i = 0; i < b.length; i++) {
                b[i] += 1e-3 * r.nextGaussian();
            }
            assertTrue(objective(kk, y, b, lambda) > base);
        }
    }

    static double objective(Matrix k, double[] y, double[] a, double lambda) {
        double[] ka = k.times(a);
        double s = 0;
        for (int i = 0; i < y.length; i++) {
            s += (y[i] - ka[i]) * (y[i] - ka[i]) + lambda * a[i] * ka[i];
        }
        return s;
    }

    @Test
    void representerFormWithoutNuggetEqualsStandardWithNLambda() {
        Matrix x = points(40, 2, 7);
        double[] y = target(x, 8);
        Matrix test = points(10, 2, 9);
        GaussianKernel k = new GaussianKernel(1.5);
        double lambda = 0.01;
        KernelRidge rep = KernelRidge.fit(k, x, y, new KernelRidge.Options(lambda, KernelRidge.Form.REPRESENTER, 0,
                false));
        double[] std = bruteForce(k, x, y, 40 * lambda, test);
        assertTrue(maxRelDiff(rep.predictVector(test), std) < 1e-7);
    }

    @Test
    void representerFormWithNuggetFollowsTheFormula() {
        // z = (K + NλI)⁻¹ K y, α = (K + σ²I)⁻¹ z computed here by LU on explicit matrices
        Matrix x = points(25, 2, 10);
        double[] y = target(x, 11);
        GaussianKernel k = new GaussianKernel(0.7);
        double lambda = 0.02;
        double nugget = 0.05;
        KernelRidge rep = KernelRidge.fit(k, x, y, new KernelRidge.Options(lambda, KernelRidge.Form.REPRESENTER,
                nugget, false));
        Matrix kk = k.gram(x);
        Matrix a1 = kk.copy();
        a1.addToDiagonal(25 * lambda);
        double[] z = Linalg.solve(a1, Matrix.column(kk.times(y))).col(0);
        Matrix a2 = kk.copy();
        a2.addToDiagonal(nugget);
        double[] alpha = Linalg.solve(a2, Matrix.column(z)).col(0);
        assertTrue(maxRelDiff(rep.alpha(), alpha) < 1e-9);
    }

    @Test
    void duplicatePointsWithoutRegularisationUseTheEigenRoute() {
        // K is singular (repeated rows) and λ = 0: Cholesky with jitter or the eigen route must give a finite
        // least-squares interpolant that reproduces the (consistent) targets.
        Matrix base = points(8, 2, 12);
        Matrix x = Matrix.zeros(16, 2);
        double[] y = new double[16];
        for (int i = 0; i < 16; i++) {
            x.set(i, 0, base.get(i % 8, 0));
            x.set(i, 1, base.get(i % 8, 1));
            y[i] = Math.cos(base.get(i % 8, 0));
        }
        GaussianKernel k = new GaussianKernel(1.0);
        KernelRidge m = KernelRidge.fit(k, x, y, KernelRidge.Options.standard(0));
        double[] f = m.predictVector(x);
        for (int i = 0; i < 16; i++) {
            assertTrue(Double.isFinite(f[i]));
            assertEquals(y[i], f[i], 1e-4);
        }
        assertTrue(m.diagnostics().jitter() > 0 || m.diagnostics().route().equals("eigen"));
        SpdSolve.Result e = SpdSolve.eigenSolve(k.gram(x), 0, Matrix.column(y));
        assertEquals(8, e.diagnostics().rank());
        double[] fe = k.cross(x, x).times(e.x().col(0));
        for (int i = 0; i < 16; i++) {
            assertEquals(y[i], fe[i], 1e-6);
        }
    }

    @Test
    void eigenRouteEqualsCholeskyRouteOnWellConditionedSystems() {
        Matrix x = points(30, 2, 13);
        double[] y = target(x, 14);
        Matrix kk = new GaussianKernel(1).gram(x);
        double[] a = SpdSolve.solve(kk, 0.1, Matrix.column(y)).x().col(0);
        double[] b = SpdSolve.eigenSolve(kk, 0.1, Matrix.column(y)).x().col(0);
        assertTrue(maxRelDiff(a, b) < 1e-10);
    }

    @Test
    void optionsAreChecked() {
        assertThrows(IllegalArgumentException.class, () -> KernelRidge.Options.standard(-1));
        assertThrows(IllegalArgumentException.class,
                () -> new KernelRidge.Options(1, KernelRidge.Form.REPRESENTER, -0.1, false));
        Matrix x = points(3, 2, 1);
        assertThrows(IllegalArgumentException.class,
                () -> KernelRidge.fit(new GaussianKernel(1), x, new double[2], KernelRidge.Options.standard(1)));
    }

    /**
     * A kernel that overflows on the data is refused, naming the kernel and the point. Unchecked, the Cholesky of a
     * Gram matrix of infinities "succeeded" and returned α = 0: a model that predicts the offset everywhere.
     */
    @Test
    void aKernelThatOverflowsIsNamedInTheFailure() {
        Matrix x = points(10, 2, 3);
        double[] y = target(x, 4);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> KernelRidge.fit(
                org.psdkit.kernel.Kernels.parse("polynomial(degree=3, offset=1e300)"), x, y,
                KernelRidge.Options.standard(0.1)));
        assertTrue(e.getMessage().contains("the kernel polynomial(degree=3, offset=1.0E300) is Infinity at training "
                + "point 1 (k(x_1, x_1))"), e.getMessage());
    }
}
