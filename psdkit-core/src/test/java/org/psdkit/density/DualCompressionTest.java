package org.psdkit.density;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.psdkit.linalg.Eigen;
import org.psdkit.linalg.Linalg;
import org.psdkit.linalg.Matrix;

class DualCompressionTest {

    private static Matrix random(int r, int c, SplittableRandom rnd) {
        Matrix m = Matrix.zeros(r, c);
        for (int i = 0; i < m.data().length; i++) {
            m.data()[i] = rnd.nextGaussian();
        }
        return m;
    }

    private static double positiveSquares(Matrix c) {
        double s = 0;
        for (double x : Linalg.eigvalsh(c)) {
            s += x > 0 ? x * x : 0;
        }
        return s;
    }

    /** C = (a few positive directions) − (a spread of negative ones), W = GGᵀ/‖GGᵀ‖_F ⪰ 0. */
    private static Matrix[] problem(int r, long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        Matrix x = random(r, r, rnd);
        Matrix c = Linalg.gemm(1.0 / r, x, false, x, true);
        c.addToDiagonal(-1.2);
        Matrix g = random(r, r / 2, rnd);
        Matrix w = Linalg.gemm(1.0, g, false, g, true);
        w = w.scale(1.0 / w.normF());
        w.symmetrizeInPlace();
        c.symmetrizeInPlace();
        return new Matrix[] {c, w};
    }

    /**
     * lower(μ') ≤ ‖[C + (μ' − μ)W]_+‖² ≤ upper(μ') for μ' on both sides of μ (upper may be +∞ far above μ), both
     * equal to it at μ' = μ, from the top k eigenpairs of C and the (k+1)-th eigenvalue as the bound on the rest.
     */
    @Test
    void boundsEncloseThePositivePart() {
        for (int r : new int[] {12, 40, 90}) {
            Matrix[] pw = problem(r, r);
            Matrix c = pw[0];
            Matrix w = pw[1];
            Eigen e = Linalg.eigh(c);
            double[] lam = e.values();
            int p = 0;
            for (double v : lam) {
                p += v > 0 ? 1 : 0;
            }
            assertTrue(p > 0 && p < r - 4, "r=" + r + ": " + p + " positive");
            for (int k : new int[] {p, p + 3, r}) {
                Matrix q = Matrix.zeros(r, k);
                System.arraycopy(e.vectors().data(), (r - k) * r, q.data(), 0, r * k);
                Eigen top = new Eigen(Arrays.copyOfRange(lam, r - k, r), q);
                double out = k == r ? Double.NEGATIVE_INFINITY : lam[r - k - 1];
                DualCompression comp = new DualCompression(0.0, top, out, w, w.normF());
                double exact0 = positiveSquares(c);
                assertEquals(exact0, comp.lower(0.0), 1e-10 * (1 + exact0));
                assertEquals(exact0, comp.upper(0.0), 1e-10 * (1 + exact0));
                int finite = 0;
                for (double mu : new double[] {-1.0, -0.3, -0.05, -1e-3, 1e-3, 0.01, 0.05, 0.3, 1.0}) {
                    Matrix cm = c.plus(w.scale(mu));
                    double exact = positiveSquares(cm);
                    String where = "r=" + r + " k=" + k + " mu=" + mu;
                    assertTrue(comp.lower(mu) <= exact + 1e-10 * (1 + exact), where + ": lower " + comp.lower(mu)
                            + " > " + exact);
                    assertTrue(comp.upper(mu) >= exact - 1e-10 * (1 + exact), where + ": upper " + comp.upper(mu)
                            + " < " + exact);
                    if (k == r) {
                        assertEquals(exact, comp.lower(mu), 1e-9 * (1 + exact), where);
                        assertEquals(exact, comp.upper(mu), 1e-9 * (1 + exact), where);
                    }
                    finite += Double.isFinite(comp.upper(mu)) ? 1 : 0;
                }
                // the bound exists below μ (G ⪯ out < 0 only improves) and a little above it
                assertTrue(finite >= 5, "r=" + r + " k=" + k + ": upper finite at " + finite + " of 9 points");
            }
        }
    }

    /** The derivatives of the lower bound at μ' = μ (the diagonal shortcut) match finite differences. */
    @Test
    void lowerDerivativesMatchFiniteDifferences() {
        Matrix[] pw = problem(30, 7);
        Eigen e = Linalg.eigh(pw[0]);
        int r = 30;
        int k = 12;
        Matrix q = Matrix.zeros(r, k);
        System.arraycopy(e.vectors().data(), (r - k) * r, q.data(), 0, r * k);
        Eigen top = new Eigen(Arrays.copyOfRange(e.values(), r - k, r), q);
        DualCompression comp = new DualCompression(0.0, top, e.values()[r - k - 1], pw[1], pw[1].normF());
        for (double mu : new double[] {0.0, 0.02, -0.05}) {
            double[] d = comp.lowerDerivatives(mu);
            double h = 1e-5;
            double fd1 = (comp.lower(mu + h) - comp.lower(mu - h)) / (2 * h);
            double fd2 = (comp.lower(mu + h) - 2 * comp.lower(mu) + comp.lower(mu - h)) / (h * h);
            assertEquals(fd1, d[0], 1e-6 * (1 + Math.abs(fd1)), "d1 at " + mu);
            assertEquals(fd2, d[1], 1e-3 * (1 + Math.abs(fd2)), "d2 at " + mu);
        }
    }
}
