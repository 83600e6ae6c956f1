package org.psdkit.density;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.psdkit.data.Dataset;
import org.psdkit.data.Scaler;
import org.psdkit.data.Splits;
import org.psdkit.kernel.GaussianKernel;
import org.psdkit.linalg.Matrix;
import org.psdkit.select.CrossValidation;

/**
 * The GLM density's Monte-Carlo normaliser (Marteau-Ferey, Bach &amp; Rudi 2020, eq. 33) checked against an
 * independent estimate: on a 1-D case whose base measure is far wider than the data, the 10 000 draws of ν almost
 * never reach the data, the fit makes g large there, and ∫ exp(g − log Z) dν is ~1e100 by brute-force quadrature
 * (not 1); such a fit is refused and left out of cross-validation. The check itself must find the mass where it is,
 * also away from the expansion points.
 */
class GlmNormaliserTest {
    /** 20 points around ±0.5 with sd 0.1. */
    private static Matrix data() {
        SplittableRandom r = new SplittableRandom(3);
        Matrix x = Matrix.zeros(20, 1);
        for (int i = 0; i < 20; i++) {
            x.set(i, 0, (i % 2 == 0 ? -0.5 : 0.5) + 0.1 * r.nextGaussian());
        }
        return x;
    }

    private static final BaseMeasure WIDE = BaseMeasure.Gaussian.isotropic(1, 0, 1000.0 * 1000.0);
    private static final GaussianKernel NARROW = new GaussianKernel(0.05);

    /**
     * log ∫ exp(g − log Z) dν by a composite 16-node Gauss–Legendre rule on panels of width 0.005 over [−3, 3] (where
     * g lives: the kernel is 0 beyond) in log space, plus the ν-mass outside times exp(−log Z) (g = 0 there).
     */
    private static double bruteForceLogIntegral(GlmDensity m) {
        double[][] gl = KernelIntegrals.gaussLegendre(16);
        int panels = 1200;
        double lo = -3;
        double h = 6.0 / panels;
        Matrix nodes = Matrix.zeros(panels * 16, 1);
        double[] logW = new double[panels * 16];
        for (int p = 0; p < panels; p++) {
            for (int q = 0; q < 16; q++) {
                nodes.set(p * 16 + q, 0, lo + h * (p + 0.5) + 0.5 * h * gl[0][q]);
                logW[p * 16 + q] = Math.log(0.5 * h * gl[1][q]);
            }
        }
        double[] ld = m.logDensity(nodes);
        double mx = Double.NEGATIVE_INFINITY;
        for (int i = 0; i < ld.length; i++) {
            ld[i] += logW[i];
            mx = Math.max(mx, ld[i]);
        }
        double s = 0;
        for (double v : ld) {
            s += Math.exp(v - mx);
        }
        double inside = mx + Math.log(s);
        double outside = Math.log(1 - 0.0023936) - m.logZ(); // ν(|x| > 3) = erfc(3/(1000√2)) for sd 1000
        double a = Math.max(inside, outside);
        return a + Math.log(Math.exp(inside - a) + Math.exp(outside - a));
    }

    @Test
    void aNormaliserThatTheDrawsOfNuMissIsRefused() {
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> Baselines.glm(data(), NARROW, WIDE, 1e-3, 1e-6, 20000, 1L));
        String msg = e.getMessage();
        assertTrue(msg.startsWith("glm density (lambda 0.00100): the Monte-Carlo normaliser Z of eq. 33 is "
                + "unreliable: an independent importance-sampling estimate of the integral of exp(g - log Z) dnu is "
                + "10^"), msg);
        assertTrue(msg.contains("the draws of nu miss where exp(g) has its mass"), msg);
        assertFalse(msg.contains("Infinity") || msg.contains("NaN"), msg);
        // a λ large enough to keep g small is a density with respect to the same ν, and is accepted
        GlmDensity flat = Baselines.glm(data(), NARROW, WIDE, 100, 1e-6, 20000, 1L);
        assertEquals(1.0, flat.integral(), 0.05);
    }

    @Test
    void theCheckAgreesWithBruteForceQuadrature() {
        // an accepted fit: the check is 1 up to its standard error, as the quadrature says
        BaseMeasure nu = BaseMeasure.Gaussian.isotropic(1, 0, 25);
        GlmDensity ok = Baselines.glm(data(), new GaussianKernel(0.3), nu, 1e-3, 1e-6, 20000, 1L);
        ImportanceIntegral.Estimate c = ok.normaliserCheck();
        double brute = bruteForceIntegralOver(ok, 60);
        assertEquals(brute, c.value(), 4 * c.relativeStandardError() * brute + 1e-9);
        assertEquals(1.0, brute, 0.05);
        assertEquals(Math.log(c.value()), c.log(), 1e-12);
        assertEquals(c.value(), ok.integral(), 0.0); // the reported integral is this estimate
        // the coefficients of a fit that ignores where exp(g) has its mass: g = 30 Σ k(·, x_i), log Z = 0
        Matrix x = data();
        double[] big = new double[x.rows()];
        Arrays.fill(big, 30);
        GlmDensity bad = new GlmDensity(NARROW, x, big, 0.0, WIDE, ok.diagnostics(), 1L);
        ImportanceIntegral.Estimate b = bad.normaliserCheck();
        double logBrute = bruteForceLogIntegral(bad);
        assertTrue(logBrute > 100, "log integral " + logBrute);
        assertEquals(logBrute, b.log(), 0.1);
        assertThrows(IllegalStateException.class, () -> Baselines.requireReliableNormaliser(bad, 0.0, 1e-3));
        // beyond double precision the value overflows but its logarithm does not
        double[] huge = new double[x.rows()];
        Arrays.fill(huge, 150);
        GlmDensity worse = new GlmDensity(NARROW, x, huge, 0.0, WIDE, ok.diagnostics(), 1L);
        ImportanceIntegral.Estimate w = worse.normaliserCheck();
        assertEquals(Double.POSITIVE_INFINITY, w.value());
        assertEquals(bruteForceLogIntegral(worse), w.log(), 0.1);
        String msg = assertThrows(IllegalStateException.class,
                () -> Baselines.requireReliableNormaliser(worse, 0.0, 1e-3)).getMessage();
        assertFalse(msg.contains("Infinity") || msg.contains("NaN"), msg);
    }

    /**
     * exp(40 Σ_i k(x, x_i)) over two clusters of 20 points in 10-D (σ = 0.5, sd 0.4 around ±2e₁) peaks at each
     * cluster's centroid, nearer to all its points than they are to each other: the draws around single points never
     * reach it and miss the mass by a factor e^40; the Laplace components at the maxima of exp(g)·ν find it. The
     * reference samples ν and narrow normals at the two centroids.
     */
    @Test
    void theCheckFindsMassAtTheCentroidOfTheExpansionPoints() {
        int d = 10;
        SplittableRandom r = new SplittableRandom(4);
        Matrix x = Matrix.zeros(40, d);
        for (int i = 0; i < 40; i++) {
            for (int t = 0; t < d; t++) {
                x.set(i, t, (t == 0 ? (i % 2 == 0 ? 2 : -2) : 0) + 0.4 * r.nextGaussian());
            }
        }
        GaussianKernel k = new GaussianKernel(0.5);
        BaseMeasure nu = BaseMeasure.Gaussian.isotropic(d, 0, 25);
        double[] alpha = new double[40];
        Arrays.fill(alpha, 40);
        java.util.function.Function<Matrix, double[]> logG = z -> org.psdkit.linalg.Linalg.gemv(k.cross(x, z), true,
                alpha);
        int n = 200_000;
        double w = 0.1;
        SplittableRandom q = new SplittableRandom(99);
        Matrix z = Matrix.zeros(n, d);
        for (int j = 0; j < n; j++) {
            if (q.nextBoolean()) {
                double[] s = nu.sample(q);
                for (int t = 0; t < d; t++) {
                    z.set(j, t, s[t]);
                }
            } else {
                double c = q.nextBoolean() ? 2 : -2;
                for (int t = 0; t < d; t++) {
                    z.set(j, t, (t == 0 ? c : 0) + w * q.nextGaussian());
                }
            }
        }
        double[] lnu = nu.logDensity(z);
        double[] lg = logG.apply(z);
        double[] lt = new double[n];
        double mx = Double.NEGATIVE_INFINITY;
        for (int j = 0; j < n; j++) {
            double d1 = 0;
            double d2 = 0;
            for (int t = 0; t < d; t++) {
                double v = z.get(j, t);
                d1 += (v - (t == 0 ? 2 : 0)) * (v - (t == 0 ? 2 : 0));
                d2 += (v + (t == 0 ? 2 : 0)) * (v + (t == 0 ? 2 : 0));
            }
            double l1 = -d1 / (2 * w * w);
            double l2 = -d2 / (2 * w * w);
            double m = Math.max(l1, l2);
            double lc = -0.5 * d * Math.log(2 * Math.PI * w * w) + m + Math.log(0.5 * Math.exp(l1 - m)
                    + 0.5 * Math.exp(l2 - m));
            double a = Math.max(lc, lnu[j]);
            lt[j] = lg[j] + lnu[j] - (a + Math.log(0.5 * Math.exp(lnu[j] - a) + 0.5 * Math.exp(lc - a)));
            mx = Math.max(mx, lt[j]);
        }
        double sum = 0;
        for (double v : lt) {
            sum += Math.exp(v - mx);
        }
        double reference = mx + Math.log(sum / n); // ≈ 45.35
        ImportanceIntegral.Estimate modes = ImportanceIntegral.estimateWithModes(x, nu, logG, 7, 100_000);
        assertEquals(reference, modes.log(), 0.15);
        assertTrue(modes.relativeStandardError() < 0.05, modes.toString());
        ImportanceIntegral.Estimate aroundPoints = ImportanceIntegral.estimate(x, nu, logG, 7, 100_000);
        assertTrue(aroundPoints.log() < reference - 10, aroundPoints + " against " + reference);
    }

    @Test
    void crossValidationLeavesTheRefusedFitOut() {
        // λ = 1e-3 reaches a held-out log-likelihood far above any density's when its normaliser is taken at face
        // value; refused, it cannot win
        List<CrossValidation.Result<Double>> cv = CrossValidation.evaluate(Dataset.of(data(), null),
                Splits.kFold(20, 4, 1), List.of(1e-3, 100.0),
                l -> new GlmDensityTrainer(new BaselineOptions(NARROW, WIDE, l, 1e-6, 20000, 1L, Scaler.Kind.NONE,
                        null)),
                DensityPipeline::heldOutScores, null);
        assertNotNull(cv.get(0).error());
        assertTrue(cv.get(0).error().contains("normaliser Z of eq. 33 is unreliable"), cv.get(0).error());
        assertNull(cv.get(1).error(), cv.get(1).error());
        assertEquals(100.0, CrossValidation.best(cv, DensityPipeline.HELD_OUT_LOGLIK, false).params());
    }

    /** ∫ p dx over [−L, L] by a composite 16-node Gauss–Legendre rule (ν's mass beyond is negligible). */
    private static double bruteForceIntegralOver(GlmDensity m, double half) {
        double[][] gl = KernelIntegrals.gaussLegendre(16);
        int panels = 4000;
        double h = 2 * half / panels;
        Matrix nodes = Matrix.zeros(panels * 16, 1);
        double[] w = new double[panels * 16];
        for (int p = 0; p < panels; p++) {
            for (int q = 0; q < 16; q++) {
                nodes.set(p * 16 + q, 0, -half + h * (p + 0.5) + 0.5 * h * gl[0][q]);
                w[p * 16 + q] = 0.5 * h * gl[1][q];
            }
        }
        double[] d = m.density(nodes);
        double s = 0;
        for (int i = 0; i < d.length; i++) {
            s += w[i] * d[i];
        }
        return s;
    }
}
