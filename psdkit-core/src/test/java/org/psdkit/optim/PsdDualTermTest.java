package org.psdkit.optim;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Random;
import org.junit.jupiter.api.Test;
import org.psdkit.linalg.Linalg;
import org.psdkit.linalg.Matrix;

class PsdDualTermTest {

    static Matrix random(int r, int c, long seed) {
        Random rnd = new Random(seed);
        Matrix m = Matrix.zeros(r, c);
        for (int k = 0; k < r * c; k++) {
            m.data()[k] = rnd.nextGaussian();
        }
        return m;
    }

    /** Dense reference: M = −V Diag(α) Vᵀ − λ₁I + βC, A = [M]₊/λ₂, h = λ₂‖A‖²/2, z_i = Φ_iᵀAΦ_i. */
    static void check(int r, int n, double l1, double l2, double[] alpha, Matrix c, double beta) {
        Matrix v = random(r, n, 7);
        try (PsdDualTerm term = new PsdDualTerm(v, l1, l2)) {
            if (c != null) {
                term.setOffsets(c);
                term.setOffsetCoefficients(beta);
            }
            double[] g = new double[n];
            double h = term.valueAndGradient(alpha, g);
            Matrix m = v.times(Matrix.diag(alpha)).times(v.transpose()).scale(-1);
            m.addToDiagonal(-l1);
            if (c != null) {
                m = m.plus(c.scale(beta));
            }
            Matrix a = Linalg.positivePart(m).scale(1 / l2);
            double nf = a.normF();
            assertEquals(0.5 * l2 * nf * nf, h, 1e-10 * (1 + h));
            Matrix aa = term.primalMatrix();
            for (int k = 0; k < r * r; k++) {
                assertEquals(a.data()[k], aa.data()[k], 1e-9 * (1 + a.maxAbs()));
            }
            for (int i = 0; i < n; i++) {
                double[] p = v.col(i);
                assertEquals(-Linalg.dot(p, a.times(p)), g[i], 1e-9 * (1 + Math.abs(g[i])), "gradient " + i);
            }
            // gradient = derivative of h (finite differences)
            double eps = 1e-6;
            for (int i = 0; i < Math.min(n, 4); i++) {
                double[] ap = alpha.clone();
                double[] am = alpha.clone();
                ap[i] += eps;
                am[i] -= eps;
                double fd = (term.valueAndGradient(ap, new double[n]) - term.valueAndGradient(am, new double[n]))
                        / (2 * eps);
                assertEquals(fd, g[i], 1e-5 * (1 + Math.abs(fd)));
            }
        }
    }

    @Test
    void fewPositiveEigenvaluesUseTheDirectRoute() {
        double[] alpha = new double[12];
        Random r = new Random(3);
        for (int i = 0; i < alpha.length; i++) {
            alpha[i] = 0.5 + r.nextDouble(); // mostly positive α: M mostly negative
        }
        alpha[0] = -3;
        check(5, 12, 0.1, 0.5, alpha, null, 0);
    }

    @Test
    void manyPositiveEigenvaluesUseTheComplement() {
        double[] alpha = new double[12];
        Random r = new Random(4);
        for (int i = 0; i < alpha.length; i++) {
            alpha[i] = -0.5 - r.nextDouble();
        }
        alpha[1] = 2;
        check(6, 12, 0.01, 0.3, alpha, null, 0);
    }

    @Test
    void offsetsEnterBothRoutes() {
        Matrix c = random(5, 5, 9);
        c = c.plus(c.transpose());
        double[] alpha = new double[10];
        Random r = new Random(5);
        for (int i = 0; i < alpha.length; i++) {
            alpha[i] = r.nextGaussian();
        }
        check(5, 10, 0.05, 1.0, alpha, c, 0.7);
        check(5, 10, 0.05, 1.0, alpha, c, -3);
    }

    /** V Diag(w) Vᵀ without the n×n diagonal matrix. */
    private static Matrix weighted(Matrix v, double[] w) {
        Matrix vw = v.copy();
        for (int i = 0; i < w.length; i++) {
            for (int a = 0; a < v.rows(); a++) {
                vw.set(a, i, v.get(a, i) * w[i]);
            }
        }
        return Linalg.gemm(1.0, vw, false, v, true);
    }

    @Test
    void aboveTheHadamardLimitGradientIsExactAndLipschitzAnUpperBound() {
        int n = PsdDualTerm.HADAMARD_MAX_N + 1;
        int r = 3;
        Matrix v = random(r, n, 11);
        double l2 = 0.5;
        Random rnd = new Random(6);
        double[] alpha = new double[n];
        for (int i = 0; i < n; i++) {
            alpha[i] = -0.5 - rnd.nextDouble(); // negative α: positive eigenvalues (the complement route below the limit)
        }
        try (PsdDualTerm term = new PsdDualTerm(v, 0.1, l2)) {
            double[] g = new double[n];
            term.valueAndGradient(alpha, g);
            Matrix m = weighted(v, alpha).scale(-1);
            m.addToDiagonal(-0.1);
            Matrix a = Linalg.positivePart(m).scale(1 / l2);
            for (int i = 0; i < n; i += 997) {
                double[] p = v.col(i);
                assertEquals(-Linalg.dot(p, a.times(p)), g[i], 1e-9 * (1 + Math.abs(g[i])), "gradient " + i);
            }
            // Rayleigh quotients of K̃∘K̃ (x ↦ (v_iᵀ S(x) v_i)_i, S(x) = V Diag(x) Vᵀ) never exceed λ₂·L
            for (int t = 0; t < 3; t++) {
                double[] x = new double[n];
                for (int i = 0; i < n; i++) {
                    x[i] = t == 0 ? 1.0 : rnd.nextGaussian();
                }
                Matrix s = weighted(v, x);
                double num = 0;
                double den = 0;
                for (int i = 0; i < n; i++) {
                    double[] p = v.col(i);
                    num += x[i] * Linalg.dot(p, s.times(p));
                    den += x[i] * x[i];
                }
                org.junit.jupiter.api.Assertions.assertTrue(num / den <= term.lipschitz() * l2 * (1 + 1e-12));
            }
        }
    }

    /**
     * The blocked term on single-precision columns (several column blocks, offsets on) gives the dense term's h,
     * f_A(x_i), Tr A and A on the same widened features, up to the rounding of another summation order.
     */
    @Test
    void blockedTermOnFloatColumnsMatchesTheDenseTermOnTheSameFeatures() {
        int r = 40;
        int n = 20_000; // above the Hadamard limit: both take the positive eigen-block route
        Matrix vt = random(r, n, 11).transpose();
        org.psdkit.linalg.FeatureColumns cols = org.psdkit.linalg.FeatureColumns.single(r, n,
                (from, to) -> vt.rowRange(from, to).transpose());
        assertEquals(true, cols.isSingle());
        assertEquals(true, PsdDualTerm.blockColumns(r, n) < n, "more than one block");
        Matrix v = cols.columns(0, n); // the widened floats: the dense term's features
        Matrix c = random(r, r, 5);
        c = c.plus(c.transpose());
        Random rnd = new Random(3);
        double[] alpha = new double[n];
        for (int i = 0; i < n; i++) {
            alpha[i] = i % 7 == 0 ? 0 : 0.02 * rnd.nextGaussian();
        }
        Matrix gram = Linalg.gemm(1.0, v, false, v, true);
        double gramMax = Linalg.eigvalsh(gram)[r - 1];
        try (PsdDualTerm dense = new PsdDualTerm(v, 0.01, 0.1);
             PsdDualTerm blocked = PsdDualTerm.blocked(cols, cols.columnNorms2(), gramMax, 0.01, 0.1)) {
            dense.setOffsets(c);
            dense.setOffsetCoefficients(0.3);
            blocked.setOffsets(c);
            blocked.setOffsetCoefficients(0.3);
            double[] gd = new double[n];
            double[] gb = new double[n];
            double hd = dense.valueAndGradient(alpha, gd);
            double hb = blocked.valueAndGradient(alpha, gb);
            assertEquals(true, dense.positiveRank() > 0 && dense.positiveRank() < r, "a proper positive part");
            assertEquals(dense.positiveRank(), blocked.positiveRank());
            assertEquals(hd, hb, 1e-10 * (1 + Math.abs(hd)));
            assertEquals(dense.traceA(), blocked.traceA(), 1e-10 * (1 + dense.traceA()));
            double scale = 0;
            for (double g : gd) {
                scale = Math.max(scale, Math.abs(g));
            }
            for (int i = 0; i < n; i++) {
                assertEquals(gd[i], gb[i], 1e-10 * scale, "gradient " + i);
            }
            assertEquals(dense.lipschitz(), blocked.lipschitz(), 1e-10 * dense.lipschitz());
            Matrix ad = dense.primalMatrix();
            Matrix ab = blocked.primalMatrix();
            for (int k = 0; k < r * r; k++) {
                assertEquals(ad.data()[k], ab.data()[k], 1e-10 * (1 + ad.normF()));
            }
        }
    }
}
