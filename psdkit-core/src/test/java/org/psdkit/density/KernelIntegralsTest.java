package org.psdkit.density;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.psdkit.kernel.GaussianKernel;
import org.psdkit.kernel.Kernel;
import org.psdkit.linalg.Matrix;

class KernelIntegralsTest {

    private static Matrix randomPoints(int n, int d, long seed, double scale) {
        SplittableRandom r = new SplittableRandom(seed);
        Matrix x = Matrix.zeros(n, d);
        for (int i = 0; i < n; i++) {
            for (int t = 0; t < d; t++) {
                x.set(i, t, scale * (2 * r.nextDouble() - 1));
            }
        }
        return x;
    }

    private static double maxRelDiff(Matrix a, Matrix b) {
        double m = 0;
        double scale = b.maxAbs();
        for (int k = 0; k < a.data().length; k++) {
            m = Math.max(m, Math.abs(a.data()[k] - b.data()[k]) / scale);
        }
        return m;
    }

    @Test
    void erfMatchesTabulatedValues() {
        // values from the standard tables (Abramowitz & Stegun 7.1, extended precision)
        assertEquals(0.8427007929497149, SpecialFunctions.erf(1.0), 2e-16);
        assertEquals(0.5204998778130465, SpecialFunctions.erf(0.5), 2e-16);
        assertEquals(0.9953222650189527, SpecialFunctions.erf(2.0), 2e-16);
        assertEquals(2.209049699858544e-05, SpecialFunctions.erfc(3.0), 1e-14 * 2.2e-5);
        assertEquals(1.5374597944280349e-12, SpecialFunctions.erfc(5.0), 1e-13 * 1.5e-12);
        assertEquals(1.9999779095030015, SpecialFunctions.erfc(-3.0), 1e-15);
        assertEquals(-SpecialFunctions.erf(0.7), SpecialFunctions.erf(-0.7), 0);
        // a tail difference keeps relative precision
        double d = SpecialFunctions.erfDiff(5.0, 6.0);
        assertEquals(1.5374597944280349e-12 - 2.1519736712498913e-17, d, 1e-12 * d);
    }

    @Test
    void gaussianLebesgue1dMatchesQuadratureAndClosedForm() {
        Matrix x = randomPoints(7, 1, 1, 2.0);
        double sigma = 0.7;
        Matrix closed = KernelIntegrals.gaussianProducts(sigma, x, new BaseMeasure.Lebesgue());
        // (πσ²)^{1/2} exp(−(xi−xj)²/(4σ²)) by hand
        for (int i = 0; i < 7; i++) {
            for (int j = 0; j < 7; j++) {
                double dd = x.get(i, 0) - x.get(j, 0);
                assertEquals(Math.sqrt(Math.PI) * sigma * Math.exp(-dd * dd / (4 * sigma * sigma)), closed.get(i, j),
                        1e-14);
            }
        }
        Matrix quad = KernelIntegrals.quadratureProducts(new GaussianKernel(sigma), x, new BaseMeasure.Lebesgue(), 200,
                new double[] {-15}, new double[] {15});
        assertTrue(maxRelDiff(quad, closed) < 1e-12, "quadrature differs by " + maxRelDiff(quad, closed));
    }

    @Test
    void gaussianOnBoxAndGaussianMeasure1dMatchQuadrature() {
        Matrix x = randomPoints(6, 1, 2, 3.0);
        double sigma = 0.5;
        Kernel k = new GaussianKernel(sigma);
        double[] lo = {-1.2};
        double[] hi = {0.9};
        BaseMeasure leb = new BaseMeasure.Lebesgue();
        assertTrue(maxRelDiff(KernelIntegrals.quadratureProducts(k, x, leb, 120, lo, hi),
                KernelIntegrals.gaussianProducts(sigma, x, leb, lo, hi)) < 1e-12);
        BaseMeasure g = BaseMeasure.Gaussian.isotropic(1, 0.3, 2.0);
        // whole line: Gauss–Legendre on [−15, 15] (ν's mass outside is below e^{-50})
        assertTrue(maxRelDiff(KernelIntegrals.quadratureProducts(k, x, g, 300, new double[] {-15}, new double[] {15}),
                KernelIntegrals.gaussianProducts(sigma, x, g)) < 1e-12);
        // Gauss–Hermite fallback: a wide kernel that the Hermite nodes resolve
        Kernel wide = new GaussianKernel(2.0);
        assertTrue(maxRelDiff(KernelIntegrals.quadratureProducts(wide, x, g, 80, null, null),
                KernelIntegrals.gaussianProducts(2.0, x, g)) < 1e-10);
        assertTrue(maxRelDiff(KernelIntegrals.quadratureProducts(k, x, g, 120, lo, hi),
                KernelIntegrals.gaussianProducts(sigma, x, g, lo, hi)) < 1e-12);
        BaseMeasure box = BaseMeasure.Box.cube(1, -2, 1);
        assertTrue(maxRelDiff(KernelIntegrals.quadratureProducts(k, x, box, 120, null, null),
                KernelIntegrals.gaussianProducts(sigma, x, box)) < 1e-12);
        // single integrals u_i
        double[] u = KernelIntegrals.gaussianSingles(sigma, x, g, lo, hi);
        double[] uq = KernelIntegrals.quadratureSingles(k, x, g, 120, lo, hi);
        for (int i = 0; i < u.length; i++) {
            assertEquals(uq[i], u[i], 1e-12);
        }
    }

    @Test
    void gaussian3dMatchesMonteCarloAndTensorQuadrature() {
        int d = 3;
        Matrix x = randomPoints(5, d, 3, 1.5);
        double sigma = 0.8;
        Kernel k = new GaussianKernel(sigma);
        BaseMeasure.Gaussian g = BaseMeasure.Gaussian.diagonal(new double[] {0.2, -0.1, 0.0},
                new double[] {1.5, 0.7, 2.0});
        Matrix closed = KernelIntegrals.gaussianProducts(sigma, x, g);
        // Monte Carlo with 200k draws from ν; tolerance 5 standard errors
        SplittableRandom rng = new SplittableRandom(11);
        int mc = 200_000;
        Matrix pts = Matrix.zeros(mc, d);
        for (int s = 0; s < mc; s++) {
            double[] z = g.sample(rng);
            for (int t = 0; t < d; t++) {
                pts.set(s, t, z[t]);
            }
        }
        Matrix kx = k.cross(x, pts);
        for (int i = 0; i < 5; i++) {
            for (int j = 0; j <= i; j++) {
                double s1 = 0;
                double s2 = 0;
                for (int s = 0; s < mc; s++) {
                    double v = kx.get(i, s) * kx.get(j, s);
                    s1 += v;
                    s2 += v * v;
                }
                double mean = s1 / mc;
                double se = Math.sqrt((s2 / mc - mean * mean) / mc);
                assertEquals(mean, closed.get(i, j), 5 * se, "entry " + i + "," + j);
            }
        }
        // box in 3-D against a 3-D Gauss–Legendre rule, and full covariance against the diagonal formula
        double[] lo = {-1, -0.5, Double.NEGATIVE_INFINITY};
        double[] hi = {0.5, 2, 0.3};
        BaseMeasure leb = new BaseMeasure.Lebesgue();
        double[] loQ = {-1, -0.5, -12};
        assertTrue(maxRelDiff(KernelIntegrals.quadratureProducts(k, x, leb, 40, loQ, hi),
                KernelIntegrals.gaussianProducts(sigma, x, leb, lo, hi)) < 1e-11);
        BaseMeasure full = BaseMeasure.Gaussian.full(g.mean(), Matrix.diag(g.variances()));
        assertTrue(maxRelDiff(KernelIntegrals.gaussianProducts(sigma, x, full), closed) < 1e-13);
    }

    @Test
    void fullCovarianceMatchesMonteCarlo() {
        int d = 3;
        Matrix x = randomPoints(4, d, 5, 1.0);
        double sigma = 1.1;
        Matrix cov = Matrix.of(new double[][] {{1.0, 0.5, 0.1}, {0.5, 2.0, -0.3}, {0.1, -0.3, 0.8}});
        BaseMeasure.Gaussian g = BaseMeasure.Gaussian.full(new double[] {0.1, 0.2, -0.3}, cov);
        Matrix closed = KernelIntegrals.gaussianProducts(sigma, x, g);
        double[] u = KernelIntegrals.gaussianSingles(sigma, x, g);
        SplittableRandom rng = new SplittableRandom(7);
        int mc = 200_000;
        Matrix pts = Matrix.zeros(mc, d);
        for (int s = 0; s < mc; s++) {
            double[] z = g.sample(rng);
            for (int t = 0; t < d; t++) {
                pts.set(s, t, z[t]);
            }
        }
        Matrix kx = new GaussianKernel(sigma).cross(x, pts);
        for (int i = 0; i < 4; i++) {
            double s1 = 0;
            double s2 = 0;
            double u1 = 0;
            double u2 = 0;
            for (int s = 0; s < mc; s++) {
                double v = kx.get(i, s) * kx.get(0, s);
                s1 += v;
                s2 += v * v;
                u1 += kx.get(i, s);
                u2 += kx.get(i, s) * kx.get(i, s);
            }
            double mean = s1 / mc;
            assertEquals(mean, closed.get(i, 0), 5 * Math.sqrt((s2 / mc - mean * mean) / mc));
            double um = u1 / mc;
            assertEquals(um, u[i], 5 * Math.sqrt((u2 / mc - um * um) / mc));
        }
    }

    @Test
    void laplacianClosedFormsMatchQuadrature() {
        double s = 0.6;
        // on the whole line: (s + |a−b|) e^{−|a−b|/s}
        assertEquals((s + 0.9) * Math.exp(-0.9 / s), KernelIntegrals.laplacianPair1d(0.3, 1.2,
                s, Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY), 1e-15);
        // piecewise closed form on assorted intervals vs a fine composite midpoint rule
        double[][] cases = {{0.3, 1.2, -1, 2}, {0.3, 1.2, 0.5, 1.0}, {-0.4, 0.2, 0.6, 3}, {0.1, 0.1, -2, 0}};
        for (double[] c : cases) {
            int m = 400_000;
            double h = (c[3] - c[2]) / m;
            double sum = 0;
            for (int q = 0; q < m; q++) {
                double xq = c[2] + (q + 0.5) * h;
                sum += Math.exp(-(Math.abs(xq - c[0]) + Math.abs(xq - c[1])) / s) * h;
            }
            assertEquals(sum, KernelIntegrals.laplacianPair1d(c[0], c[1], s, c[2], c[3]), 1e-9);
        }
        // 2-D separable form against a box measure (uniform probability), by a tensor midpoint rule
        Matrix x = Matrix.of(new double[][] {{0.1, -0.2}, {0.5, 0.4}});
        BaseMeasure.Box box = BaseMeasure.Box.cube(2, -1, 1);
        Matrix closed = KernelIntegrals.laplacianProducts(s, x, box, null, null);
        int m = 1000;
        double h = 2.0 / m;
        double sum = 0;
        for (int a = 0; a < m; a++) {
            for (int b = 0; b < m; b++) {
                double p = -1 + (a + 0.5) * h;
                double q = -1 + (b + 0.5) * h;
                double k0 = Math.exp(-(Math.abs(p - 0.1) + Math.abs(q + 0.2)) / s);
                double k1 = Math.exp(-(Math.abs(p - 0.5) + Math.abs(q - 0.4)) / s);
                sum += k0 * k1 * h * h / 4;
            }
        }
        assertEquals(sum, closed.get(0, 1), 1e-6);
        assertThrows(IllegalArgumentException.class, () -> KernelIntegrals.laplacianProducts(s, x,
                BaseMeasure.Gaussian.isotropic(2, 0, 1), null, null));
    }

    @Test
    void quadratureFallbackRefusesUnboundedLebesgueAndHighDimension() {
        Kernel k = new GaussianKernel(1);
        assertThrows(IllegalArgumentException.class, () -> KernelIntegrals.quadratureProducts(k,
                randomPoints(3, 1, 1, 1), new BaseMeasure.Lebesgue(), 10, null, null));
        assertThrows(IllegalArgumentException.class, () -> KernelIntegrals.quadratureProducts(k,
                randomPoints(3, 8, 1, 1), BaseMeasure.Box.cube(8, 0, 1), 64, null, null));
    }

    @Test
    void baseMeasureParsingDistinguishesVarianceFromStandardDeviation() {
        BaseMeasure.Gaussian v = (BaseMeasure.Gaussian) BaseMeasure.parse("gaussian(mu=0,sigma2=5)", 3);
        BaseMeasure.Gaussian s = (BaseMeasure.Gaussian) BaseMeasure.parse("gaussian(mu=0,sd=5)", 3);
        assertEquals(5.0, v.variances()[2], 0);
        assertEquals(25.0, s.variances()[0], 0);
        assertEquals(v, BaseMeasure.parse(v.spec(), 3));
        BaseMeasure.Box b = (BaseMeasure.Box) BaseMeasure.parse("box(a=-4,b=4)", 2);
        assertEquals(-Math.log(64), b.logDensity(new double[] {0, 0}), 1e-15);
        assertThrows(IllegalArgumentException.class, () -> BaseMeasure.parse("gaussian(mu=0)", 2));
        assertThrows(IllegalArgumentException.class, () -> BaseMeasure.parse("gaussian(mu=0,sd=5,sigma2=5)", 2));
        assertThrows(IllegalArgumentException.class, () -> BaseMeasure.parse("box(a=1,b=0)", 2));
        assertThrows(IllegalArgumentException.class, () -> BaseMeasure.parse("gaussian(mu=1;2;3,sd=1)", 2));
        assertThrows(IllegalArgumentException.class, () -> BaseMeasure.parse("cauchy(x=1)", 2));
    }
}
