package org.psdkit.regression.psd;

import org.psdkit.psd.EmpiricalFeatureMap;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;
import org.psdkit.kernel.GaussianKernel;
import org.psdkit.kernel.Kernel;
import org.psdkit.linalg.Linalg;
import org.psdkit.linalg.Matrix;
import org.psdkit.optim.ProgressListener;

class BaselinesTest {

    static Matrix data(int n, Random r) {
        return PsdRegressionTest.uniform(n, 1, -2, 2, r);
    }

    @Test
    void ncmSatisfiesKktConditions() {
        Random r = new Random(1);
        Matrix x = data(30, r);
        double[] y = new double[30];
        for (int i = 0; i < 30; i++) {
            y[i] = Math.sin(2 * x.get(i, 0)) + 0.1 * r.nextGaussian();
        }
        Kernel k = new GaussianKernel(0.5);
        double lambda = 1e-3;
        KernelExpansionModel m = Baselines.ncm(k, x, y, Baselines.Options.of(lambda), ProgressListener.NONE);
        double[] a = m.coefficients();
        double[] g = new double[30];
        Baselines.quadratic(k.gram(x), y, lambda).valueAndGradient(a, g);
        // KKT: α ≥ 0, ∇ ≥ 0, α_i ∇_i = 0
        for (int i = 0; i < 30; i++) {
            assertTrue(a[i] >= 0);
            assertTrue(g[i] >= -1e-7, "gradient " + g[i]);
            assertEquals(0.0, a[i] * g[i], 1e-8);
        }
        for (double v : m.values(PsdRegressionTest.uniform(1000, 1, -50, 50, r))) {
            assertTrue(v >= 0);
        }
    }

    @Test
    void pnmIsNonNegativeOnTrainingPointsAndMatchesKkt() {
        Random r = new Random(2);
        Matrix x = data(25, r);
        double[] y = new double[25];
        for (int i = 0; i < 25; i++) {
            y[i] = Math.sin(2 * x.get(i, 0)) + 0.1 * r.nextGaussian();
        }
        Kernel k = new GaussianKernel(0.5);
        double lambda = 1e-3;
        KernelExpansionModel m = Baselines.pnm(k, x, y, Baselines.Options.of(lambda).withTolerance(1e-10)
                .withMaxIterations(20000), ProgressListener.NONE);
        assertTrue(m.diagnostics().relativeGap() <= 1e-10, m.diagnostics().toString());
        double[] f = m.values(x);
        double ymax = Baselines.maxAbs(y);
        for (double v : f) {
            assertTrue(v >= -Baselines.PNM_VIOLATION_TOLERANCE * ymax, "f(x_i) = " + v);
        }
        // the certificate (weak duality: any dual value bounds the optimum from below) refers to the returned model
        assertEquals(m.diagnostics().objective(), Baselines.objective(k.gram(x), m.coefficients(), y, lambda, false),
                1e-6 * m.diagnostics().objective());
    }

    @Test
    void glmFitsAPositiveFunctionAndIsPositiveEverywhere() {
        Random r = new Random(3);
        Matrix x = data(30, r);
        double[] y = new double[30];
        for (int i = 0; i < 30; i++) {
            y[i] = Math.exp(-x.get(i, 0) * x.get(i, 0));
        }
        KernelExpansionModel m = Baselines.glm(new GaussianKernel(0.7), x, y,
                Baselines.Options.of(1e-6).withMaxIterations(3000), ProgressListener.NONE);
        double[] f = m.values(x);
        double err = 0;
        for (int i = 0; i < 30; i++) {
            err = Math.max(err, Math.abs(f[i] - y[i]));
            assertTrue(f[i] > 0);
        }
        assertTrue(err < 0.05, "max error " + err);
    }

    /**
     * App. F: for distinct points and a universal kernel, the Bagnell–Farahmand class
     * {A = Σ α_i φ(x_i)φ(x_i)ᵀ ⪰ 0} has α ≥ 0: in feature coordinates, V Diag(α) Vᵀ ⪰ 0 with V invertible iff
     * Diag(α) ⪰ 0. Numerically: any α with a negative entry gives a negative eigenvalue; and the resulting model is
     * Σ α_i k(x, x_i)², an NCM with the squared kernel.
     */
    @Test
    void appendixFBagnellFarahmandClassCollapsesToNonNegativeCoefficients() {
        Random r = new Random(4);
        int n = 8;
        Matrix x = PsdRegressionTest.uniform(n, 2, -1, 1, r);
        Kernel k = new GaussianKernel(0.6);
        EmpiricalFeatureMap map = EmpiricalFeatureMap.of(k, x);
        assertEquals(n, map.rank(), "distinct points, Gaussian kernel: full rank");
        Matrix v = map.trainingFeatures();
        for (int trial = 0; trial < 50; trial++) {
            double[] alpha = new double[n];
            for (int i = 0; i < n; i++) {
                alpha[i] = Math.abs(r.nextGaussian());
            }
            int neg = r.nextInt(n);
            alpha[neg] = -Math.pow(10, -4 * r.nextDouble()); // one small negative coefficient
            Matrix a = v.times(Matrix.diag(alpha)).times(v.transpose());
            a.symmetrizeInPlace();
            assertTrue(Linalg.eigvalsh(a)[0] < 0, "negative α_" + neg + " must give an indefinite A");
            alpha[neg] = -alpha[neg];
            Matrix ap = v.times(Matrix.diag(alpha)).times(v.transpose());
            ap.symmetrizeInPlace();
            assertTrue(Linalg.eigvalsh(ap)[0] > -1e-12);
            // f_A(t) = Φ(t)ᵀAΦ(t) = Σ α_i k(t, x_i)²
            Matrix t = PsdRegressionTest.uniform(5, 2, -2, 2, r);
            Matrix phi = map.features(t);
            Matrix cross = k.cross(t, x);
            for (int j = 0; j < 5; j++) {
                double[] p = phi.col(j);
                double f = Linalg.dot(p, ap.times(p));
                double ncm = 0;
                for (int i = 0; i < n; i++) {
                    ncm += alpha[i] * cross.get(j, i) * cross.get(j, i);
                }
                assertEquals(ncm, f, 1e-8 * (1 + Math.abs(ncm)));
            }
        }
    }
}
