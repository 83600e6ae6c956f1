package org.psdkit.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.psdkit.kernel.TessellatedKernel.Orthant;
import org.psdkit.linalg.Linalg;
import org.psdkit.linalg.Matrix;

class TessellatedKernelTest {

    /** Closed form vs quadrature: the quadrature is exact for these piecewise polynomials, so only rounding. */
    static final double QUADRATURE_RELATIVE = 1e-9;
    /** 3-point Gauss–Legendre nodes/weights on [−1, 1]: exact for polynomials of degree ≤ 5 ≥ 2d = 4. */
    static final double[] GL_NODES = {-Math.sqrt(0.6), 0, Math.sqrt(0.6)};
    static final double[] GL_WEIGHTS = {5.0 / 9, 8.0 / 9, 5.0 / 9};

    static Matrix randomPsd(int dim, Random rnd) {
        Matrix g = Matrix.zeros(dim, dim);
        for (int i = 0; i < dim * dim; i++) {
            g.data()[i] = rnd.nextGaussian();
        }
        Matrix p = Linalg.gemm(1.0, g, false, g, true);
        p.scaleInPlace(1.0 / p.trace());
        p.symmetrizeInPlace();
        return p;
    }

    /** N(z, x) straight from eq. (6): monomials of (z, x) times the two indicators. */
    static double[] featureN(double[] z, double[] x, List<int[][]> mons, Orthant orthant) {
        int n = z.length;
        boolean upper = true;
        boolean lower = true;
        for (int j = 0; j < n; j++) {
            upper &= z[j] >= x[j];
            lower &= z[j] <= x[j];
        }
        double i1 = upper ? 1 : 0;
        double i2 = orthant == Orthant.LOWER ? (lower ? 1 : 0) : 1 - i1;
        int q = mons.size();
        double[] out = new double[2 * q];
        for (int k = 0; k < q; k++) {
            double v = 1;
            for (int j = 0; j < n; j++) {
                v *= Math.pow(z[j], mons.get(k)[0][j]) * Math.pow(x[j], mons.get(k)[1][j]);
            }
            out[k] = v * i1;
            out[q + k] = v * i2;
        }
        return out;
    }

    /** ∫_[a,b]^n N(z,x)ᵀ P N(z,y) dz by tensor Gauss–Legendre on the cells cut at the x_j, y_j. */
    static double quadrature(double[] x, double[] y, Matrix p, int degree, double a, double b, Orthant orthant) {
        int n = x.length;
        List<int[][]> mons = TessellatedKernel.monomials(n, degree);
        double[][] nodes = new double[n][];
        double[][] weights = new double[n][];
        for (int j = 0; j < n; j++) {
            TreeSet<Double> cuts = new TreeSet<>(List.of(a, b));
            if (x[j] > a && x[j] < b) {
                cuts.add(x[j]);
            }
            if (y[j] > a && y[j] < b) {
                cuts.add(y[j]);
            }
            Double[] c = cuts.toArray(new Double[0]);
            nodes[j] = new double[3 * (c.length - 1)];
            weights[j] = new double[3 * (c.length - 1)];
            for (int s = 0; s + 1 < c.length; s++) {
                double half = 0.5 * (c[s + 1] - c[s]);
                double mid = 0.5 * (c[s + 1] + c[s]);
                for (int g = 0; g < 3; g++) {
                    nodes[j][3 * s + g] = mid + half * GL_NODES[g];
                    weights[j][3 * s + g] = half * GL_WEIGHTS[g];
                }
            }
        }
        int[] idx = new int[n];
        double total = 0;
        double[] z = new double[n];
        while (true) {
            double w = 1;
            for (int j = 0; j < n; j++) {
                z[j] = nodes[j][idx[j]];
                w *= weights[j][idx[j]];
            }
            double[] nx = featureN(z, x, mons, orthant);
            double[] ny = featureN(z, y, mons, orthant);
            total += w * Linalg.dot(nx, p.times(ny));
            int j = 0;
            while (j < n && ++idx[j] == nodes[j].length) {
                idx[j] = 0;
                j++;
            }
            if (j == n) {
                break;
            }
        }
        return total;
    }

    @ParameterizedTest
    @CsvSource({"1,0,LOWER", "2,0,LOWER", "3,0,LOWER", "1,1,LOWER", "2,1,LOWER", "3,1,LOWER", "2,2,LOWER",
        "3,2,LOWER", "2,0,COMPLEMENT", "2,1,COMPLEMENT", "3,1,COMPLEMENT", "2,2,COMPLEMENT"})
    void closedFormEqualsQuadratureOfTheDefinition(int n, int degree, Orthant orthant) {
        Random rnd = new Random(100 * n + 10 * degree + orthant.ordinal());
        double a = -0.15;
        double b = 1.1;
        int q = TessellatedKernel.monomialCount(n, degree);
        for (int rep = 0; rep < 4; rep++) {
            Matrix p = randomPsd(2 * q, rnd);
            TessellatedKernel k = new TessellatedKernel(n, degree, a, b, p, orthant);
            double[] x = new double[n];
            double[] y = new double[n];
            for (int j = 0; j < n; j++) {
                x[j] = rnd.nextDouble();
                y[j] = rep == 3 ? x[j] : rnd.nextDouble();
            }
            double exact = quadrature(x, y, p, degree, a, b, orthant);
            double closed = k.eval(x, y);
            assertEquals(exact, closed, QUADRATURE_RELATIVE * Math.abs(exact), "n=" + n + " d=" + degree);
        }
    }

    @Test
    void monteCarloAgreesForFourFeatures() {
        // independent of the quadrature helper: plain Monte Carlo of eq. (5) in 4-D, loose tolerance (5 sd)
        Random rnd = new Random(7);
        int n = 4;
        int d = 1;
        double a = -0.1;
        double b = 1.1;
        int q = TessellatedKernel.monomialCount(n, d);
        Matrix p = randomPsd(2 * q, rnd);
        TessellatedKernel k = new TessellatedKernel(n, d, a, b, p, Orthant.LOWER);
        double[] x = {0.2, 0.5, 0.7, 0.1};
        double[] y = {0.4, 0.3, 0.9, 0.2};
        List<int[][]> mons = TessellatedKernel.monomials(n, d);
        int samples = 40_000;
        double vol = Math.pow(b - a, n);
        double sum = 0;
        double sum2 = 0;
        double[] z = new double[n];
        for (int s = 0; s < samples; s++) {
            for (int j = 0; j < n; j++) {
                z[j] = a + (b - a) * rnd.nextDouble();
            }
            double v = vol * Linalg.dot(featureN(z, x, mons, Orthant.LOWER),
                    p.times(featureN(z, y, mons, Orthant.LOWER)));
            sum += v;
            sum2 += v * v;
        }
        double mean = sum / samples;
        double sd = Math.sqrt((sum2 / samples - mean * mean) / samples);
        assertEquals(mean, k.eval(x, y), 5 * sd);
        // the quadrature (exact) agrees to rounding
        assertEquals(quadrature(x, y, p, d, a, b, Orthant.LOWER), k.eval(x, y), 1e-9 * Math.abs(mean));
    }

    @Test
    void paperEquationEightSignOfP22IsWrong() {
        // eq. (8) prints Q1 = P11 − P12 − P21 − P22; the definition needs + P22 (complement construction)
        Random rnd = new Random(3);
        int n = 2;
        Matrix p = randomPsd(2, rnd);
        double a = 0;
        double b = 1;
        double[] x = {0.3, 0.6};
        double[] y = {0.5, 0.2};
        double exact = quadrature(x, y, p, 0, a, b, Orthant.COMPLEMENT);
        double p11 = p.get(0, 0);
        double p12 = p.get(0, 1);
        double p21 = p.get(1, 0);
        double p22 = p.get(1, 1);
        double volMax = (1 - 0.5) * (1 - 0.6);
        double volX = (1 - 0.3) * (1 - 0.6);
        double volY = (1 - 0.5) * (1 - 0.2);
        double printed = volMax * (p11 - p12 - p21 - p22) + volX * (p12 - p22) + volY * (p21 - p22) + p22;
        double corrected = volMax * (p11 - p12 - p21 + p22) + volX * (p12 - p22) + volY * (p21 - p22) + p22;
        assertEquals(exact, corrected, 1e-12);
        assertTrue(Math.abs(exact - printed) > 1e-3);
    }

    @ParameterizedTest
    @CsvSource({"0,LOWER", "1,LOWER", "2,LOWER", "1,COMPLEMENT"})
    void gramIsPsdForRandomPsdP(int degree, Orthant orthant) {
        Random rnd = new Random(11 + degree);
        int n = 3;
        int m = 30;
        int q = TessellatedKernel.monomialCount(n, degree);
        TessellatedKernel k = new TessellatedKernel(n, degree, -0.1, 1.1, randomPsd(2 * q, rnd), orthant);
        Matrix x = Matrix.zeros(m, n);
        for (int i = 0; i < m * n; i++) {
            x.data()[i] = rnd.nextDouble();
        }
        Matrix g = k.gram(x);
        double[] ev = Linalg.eigvalsh(g);
        assertTrue(ev[0] >= -1e-10 * ev[ev.length - 1], "min eigenvalue " + ev[0]);
        assertTrue(ev[ev.length - 1] > 0);
    }

    @Test
    void trainAndTestKernelsAreTheSameFunction() {
        Random rnd = new Random(5);
        int n = 3;
        int d = 1;
        int q = TessellatedKernel.monomialCount(n, d);
        TessellatedKernel k = new TessellatedKernel(n, d, -0.05, 1.05, randomPsd(2 * q, rnd), Orthant.LOWER);
        Matrix train = Matrix.zeros(12, n);
        Matrix test = Matrix.zeros(7, n);
        for (int i = 0; i < train.data().length; i++) {
            train.data()[i] = rnd.nextDouble();
        }
        for (int i = 0; i < test.data().length; i++) {
            test.data()[i] = 1.4 * rnd.nextDouble() - 0.2; // some test points outside the training box
        }
        Matrix g = k.gram(train);
        Matrix c = k.cross(train, train);
        Matrix ct = k.cross(test, train);
        Matrix tc = k.cross(train, test);
        for (int i = 0; i < 12; i++) {
            for (int j = 0; j < 12; j++) {
                assertEquals(g.get(i, j), c.get(i, j), 1e-15);
                assertEquals(g.get(i, j), g.get(j, i), 0.0);
            }
            for (int j = 0; j < 7; j++) {
                assertEquals(ct.get(j, i), tc.get(i, j), 1e-14 * Math.abs(ct.get(j, i)) + 1e-300);
                assertEquals(k.eval(test.row(j), train.row(i)), ct.get(j, i), 0.0);
            }
        }
    }

    @Test
    void orthantConstructionsAgreeInOneDimension() {
        Random rnd = new Random(9);
        Matrix p = randomPsd(6, rnd);
        TessellatedKernel lower = new TessellatedKernel(1, 1, -0.2, 1.2, p, Orthant.LOWER);
        TessellatedKernel comp = new TessellatedKernel(1, 1, -0.2, 1.2, p, Orthant.COMPLEMENT);
        for (int r = 0; r < 10; r++) {
            double[] x = {rnd.nextDouble()};
            double[] y = {rnd.nextDouble()};
            assertEquals(lower.eval(x, y), comp.eval(x, y), 1e-12);
        }
        // but not in two dimensions
        Matrix p2 = randomPsd(2, rnd);
        double[] x = {0.2, 0.7};
        double[] y = {0.6, 0.3};
        assertTrue(Math.abs(new TessellatedKernel(2, 0, 0, 1, p2, Orthant.LOWER).eval(x, y)
                - new TessellatedKernel(2, 0, 0, 1, p2, Orthant.COMPLEMENT).eval(x, y)) > 1e-3);
    }

    @Test
    void badArgumentsAreRejected() {
        assertThrows(IllegalArgumentException.class,
                () -> new TessellatedKernel(2, 3, 0, 1, Matrix.identity(2), Orthant.LOWER));
        assertThrows(IllegalArgumentException.class,
                () -> new TessellatedKernel(2, 0, 1, 0, Matrix.identity(2), Orthant.LOWER));
        assertThrows(IllegalArgumentException.class,
                () -> new TessellatedKernel(2, 1, 0, 1, Matrix.identity(2), Orthant.LOWER));
        TessellatedKernel k = new TessellatedKernel(2, 0, 0, 1, Matrix.identity(2), Orthant.LOWER);
        assertThrows(IllegalArgumentException.class, () -> k.eval(new double[3], new double[2]));
    }
}
