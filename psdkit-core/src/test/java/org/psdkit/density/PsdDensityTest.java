package org.psdkit.density;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.psdkit.kernel.GaussianKernel;
import org.psdkit.linalg.Linalg;
import org.psdkit.linalg.Matrix;

class PsdDensityTest {

    /** Nelder–Mead on a smooth function (test-only brute force). */
    static double[] nelderMead(java.util.function.ToDoubleFunction<double[]> f, double[] x0, double step, int iters) {
        int d = x0.length;
        double[][] s = new double[d + 1][];
        double[] fs = new double[d + 1];
        for (int i = 0; i <= d; i++) {
            s[i] = x0.clone();
            if (i > 0) {
                s[i][i - 1] += step;
            }
            fs[i] = f.applyAsDouble(s[i]);
        }
        for (int it = 0; it < iters; it++) {
            Integer[] idx = new Integer[d + 1];
            for (int i = 0; i <= d; i++) {
                idx[i] = i;
            }
            final double[] fsc = fs;
            java.util.Arrays.sort(idx, (a, b) -> Double.compare(fsc[a], fsc[b]));
            double[][] s2 = new double[d + 1][];
            double[] f2 = new double[d + 1];
            for (int i = 0; i <= d; i++) {
                s2[i] = s[idx[i]];
                f2[i] = fs[idx[i]];
            }
            s = s2;
            fs = f2;
            double[] c = new double[d];
            for (int i = 0; i < d; i++) {
                for (int j = 0; j < d; j++) {
                    c[j] += s[i][j] / d;
                }
            }
            double[] xr = new double[d];
            for (int j = 0; j < d; j++) {
                xr[j] = c[j] + (c[j] - s[d][j]);
            }
            double fr = f.applyAsDouble(xr);
            if (fr < fs[0]) {
                double[] xe = new double[d];
                for (int j = 0; j < d; j++) {
                    xe[j] = c[j] + 2 * (c[j] - s[d][j]);
                }
                double fe = f.applyAsDouble(xe);
                if (fe < fr) {
                    s[d] = xe;
                    fs[d] = fe;
                } else {
                    s[d] = xr;
                    fs[d] = fr;
                }
            } else if (fr < fs[d - 1]) {
                s[d] = xr;
                fs[d] = fr;
            } else {
                double[] xc = new double[d];
                for (int j = 0; j < d; j++) {
                    xc[j] = c[j] + 0.5 * (s[d][j] - c[j]);
                }
                double fc = f.applyAsDouble(xc);
                if (fc < fs[d]) {
                    s[d] = xc;
                    fs[d] = fc;
                } else {
                    for (int i = 1; i <= d; i++) {
                        for (int j = 0; j < d; j++) {
                            s[i][j] = s[0][j] + 0.5 * (s[i][j] - s[0][j]);
                        }
                        fs[i] = f.applyAsDouble(s[i]);
                    }
                }
            }
        }
        int b = 0;
        for (int i = 1; i <= d; i++) {
            if (fs[i] < fs[b]) {
                b = i;
            }
        }
        return s[b];
    }

    @Test
    void dualOptimumMatchesBruteForcePrimalOnTinyProblem() {
        Matrix x = Matrix.of(new double[][] {{-0.8}, {0.1}, {0.9}});
        double sigma = 0.7;
        double l1 = 0.05;
        double l2 = 0.1;
        GaussianKernel k = new GaussianKernel(sigma);
        BaseMeasure leb = new BaseMeasure.Lebesgue();
        PsdDensity fit = PsdDensityEstimator.fit(x, k, leb,
                new PsdDensityOptions(l1, l2, PsdDensityOptions.LambdaScale.RAW, 1e-10, 100000, 60));
        assertTrue(fit.diagnostics().converged(), "gap " + fit.diagnostics().relativeGap());
        // brute force: A = L Lᵀ in feature space, scaled onto Tr(A W) = 1, objective of eq. (12) with raw λ's
        FeatureBasis fb = FeatureBasis.of(k, x);
        assertEquals(3, fb.rank());
        Matrix w = fb.congruence(KernelIntegrals.gaussianProducts(sigma, x, leb));
        java.util.function.ToDoubleFunction<double[]> obj = p -> {
            Matrix l = Matrix.zeros(3, 3);
            int c = 0;
            for (int i = 0; i < 3; i++) {
                for (int j = 0; j <= i; j++) {
                    l.set(i, j, p[c++]);
                }
            }
            Matrix a = Linalg.gemm(1.0, l, false, l, true);
            double tr = Linalg.gemm(1.0, a, false, w, false).trace();
            a.scaleInPlace(1.0 / tr);
            double s = 0;
            for (int i = 0; i < 3; i++) {
                double[] phi = fb.v.col(i);
                s -= Math.log(Linalg.dot(phi, a.times(phi))) / 3;
            }
            return s + l1 * a.trace() + 0.5 * l2 * a.normF() * a.normF();
        };
        double best = Double.POSITIVE_INFINITY;
        double[] start = {1, 0, 1, 0, 0, 1};
        for (int rep = 0; rep < 6; rep++) {
            double[] p = nelderMead(obj, start, 0.3, 4000);
            best = Math.min(best, obj.applyAsDouble(p));
            start = p;
        }
        assertEquals(best, fit.diagnostics().objective(), 1e-7);
        // the fitted model's values agree with its own objective
        double[] f = fit.f(x);
        double ll = 0;
        for (double v : f) {
            ll -= Math.log(v) / 3;
        }
        Matrix b = fit.coefficients();
        assertTrue(ll < fit.diagnostics().objective(), "regulariser is positive");
        assertEquals(1.0, fit.integral(), 1e-12);
        assertTrue(Linalg.eigvalsh(b)[0] > -1e-9 * Linalg.eigvalsh(b)[2]);
    }

    @Test
    void fittedDensityIntegratesToOneAndIsNonNegative() {
        Matrix x = Mixtures.fig1().sample(50, 3);
        PsdDensity p = PsdDensityEstimator.fit(x, new GaussianKernel(1.0), new BaseMeasure.Lebesgue(),
                PsdDensityOptions.of(1e-3, PsdDensityOptions.SEC6_FROBENIUS_RATIO));
        assertTrue(p.diagnostics().converged());
        assertEquals(1.0, p.integral(), 1e-9);
        // independent check: Gauss–Legendre quadrature of the evaluated density over [−12, 12]
        double[][] gl = KernelIntegrals.gaussLegendre(600);
        Matrix nodes = Matrix.zeros(600, 1);
        for (int q = 0; q < 600; q++) {
            nodes.set(q, 0, 12 * gl[0][q]);
        }
        double[] dens = p.density(nodes);
        double s = 0;
        for (int q = 0; q < 600; q++) {
            s += 12 * gl[1][q] * dens[q];
            assertTrue(dens[q] >= 0);
        }
        assertEquals(1.0, s, 1e-9);
        // non-negative everywhere it is evaluated, including far from the data
        SplittableRandom r = new SplittableRandom(5);
        Matrix z = Matrix.zeros(5000, 1);
        for (int i = 0; i < 5000; i++) {
            z.set(i, 0, 40 * (r.nextDouble() - 0.5));
        }
        for (double v : p.density(z)) {
            assertTrue(v >= 0);
        }
        // box integrals add up: P(X <= 0) + P(X > 0) = 1
        double left = p.integralOver(new double[] {Double.NEGATIVE_INFINITY}, new double[] {0});
        double right = p.integralOver(new double[] {0}, new double[] {Double.POSITIVE_INFINITY});
        assertEquals(1.0, left + right, 1e-9);
        assertTrue(left > 0.3 && right > 0.3);
    }

    @Test
    void nystromWithEveryPointAsAnchorIsTheExactModel() {
        Matrix x = new Mixtures.TwoBumps(2, 1.0, 0.5).sample(40, 6);
        GaussianKernel k = new GaussianKernel(0.6);
        PsdDensityOptions o = PsdDensityOptions.of(1e-3, 0.1).withTolerance(1e-9);
        PsdDensity exact = PsdDensityEstimator.fit(x, k, new BaseMeasure.Lebesgue(), o);
        int[] order = new int[40];
        for (int i = 0; i < 40; i++) {
            order[i] = 39 - i; // the anchors in another order than the data
        }
        PsdDensity nys = PsdDensityEstimator.fit(x, x.selectRows(order), k, new BaseMeasure.Lebesgue(), o, null);
        assertEquals(exact.diagnostics().rank(), nys.diagnostics().rank());
        assertEquals(40, nys.diagnostics().anchors());
        assertEquals(exact.diagnostics().objective(), nys.diagnostics().objective(), 1e-7);
        double[] a = exact.density(x);
        double[] b = nys.density(x);
        // two solves of one problem agree as far as the gap makes them: λ₂-strong convexity gives
        // ‖A − A*‖_F² ≤ 2·gap/λ₂ (solver scale), ~1e-2 at gap 1e-9 and λ₂ = 1e-4, so 1e-5 relative (met by the
        // dual FISTA, whose two runs follow the same path up to scale) is not a property of the problem; the
        // primal L-BFGS agrees to ~3e-5
        for (int i = 0; i < a.length; i++) {
            assertEquals(a[i], b[i], 1e-4 * a[i]);
        }
        PsdDensity few = PsdDensityEstimator.fit(x, x.selectRows(java.util.Arrays.copyOf(order, 12)), k,
                new BaseMeasure.Lebesgue(), o.withTolerance(1e-6), null);
        assertEquals(12, few.diagnostics().anchors());
        assertEquals(1.0, few.integral(), 1e-9);
    }

    @Test
    void traceScaleIsRawScaleWithLambdasTimesTheTraceOfW() {
        Matrix x = new Mixtures.TwoBumps(2, 1.0, 0.5).sample(40, 4);
        GaussianKernel k = new GaussianKernel(0.5);
        BaseMeasure nu = new BaseMeasure.Lebesgue();
        PsdDensity tr = PsdDensityEstimator.fit(x, k, nu, PsdDensityOptions.of(1e-3, 0.1)
                .withScale(PsdDensityOptions.LambdaScale.TRACE).withTolerance(1e-9));
        FeatureBasis fb = FeatureBasis.of(k, x);
        double t = fb.congruence(KernelIntegrals.gaussianProducts(0.5, x, nu)).trace();
        PsdDensity raw = PsdDensityEstimator.fit(x, k, nu,
                new PsdDensityOptions(1e-3 * t, 1e-4 * t * t, PsdDensityOptions.LambdaScale.RAW, 1e-9, 20000, 60));
        assertTrue(tr.diagnostics().converged() && raw.diagnostics().converged());
        double[] a = tr.density(x);
        double[] b = raw.density(x);
        // two solves of one problem agree as far as the gap makes them: λ₂-strong convexity gives
        // ‖A − A*‖_F² ≤ 2·gap/λ₂ (solver scale), ~1e-2 at gap 1e-9 and λ₂ = 1e-4, so 1e-5 relative (met by the
        // dual FISTA, whose two runs follow the same path up to scale) is not a property of the problem; the
        // primal L-BFGS agrees to ~3e-5
        for (int i = 0; i < a.length; i++) {
            assertEquals(a[i], b[i], 1e-4 * a[i]);
        }
        // the feature space is reported: rank of K above 1e-8·λ_max on all 40 points
        assertEquals(fb.rank(), tr.diagnostics().rank());
        assertEquals(PsdDensityOptions.DEFAULT_RANK_THRESHOLD, tr.diagnostics().rankThreshold(), 0.0);
        assertEquals(40, tr.diagnostics().anchors());
    }

    @Test
    void aLowerRankThresholdKeepsMoreDirections() {
        Matrix x = new Mixtures.TwoBumps(2, 1.0, 0.5).sample(60, 5);
        GaussianKernel k = new GaussianKernel(1.0);
        PsdDensityOptions o = PsdDensityOptions.of(1e-3, 0.1).withTolerance(1e-4);
        PsdDensity dflt = PsdDensityEstimator.fit(x, k, new BaseMeasure.Lebesgue(), o);
        PsdDensity low = PsdDensityEstimator.fit(x, k, new BaseMeasure.Lebesgue(), o.withRankThreshold(1e-11));
        assertTrue(low.diagnostics().rank() > dflt.diagnostics().rank(),
                low.diagnostics().rank() + " vs " + dflt.diagnostics().rank());
        assertEquals(1e-11, low.diagnostics().rankThreshold(), 0.0);
        assertThrows(IllegalArgumentException.class, () -> o.withRankThreshold(0));
        assertThrows(IllegalArgumentException.class, () -> o.withRankThreshold(1));
    }

    @Test
    void gaussianBaseMeasureIn3dIntegratesToOneAndRawScaleAgrees() {
        Matrix x = new Mixtures.TwoBumps(3, 1.0, 0.5).sample(40, 9);
        BaseMeasure nu = BaseMeasure.Gaussian.isotropic(3, 0, 4);
        PsdDensity p = PsdDensityEstimator.fit(x, new GaussianKernel(0.8), nu,
                PsdDensityOptions.of(1e-3, 0.1).withTolerance(1e-8));
        assertEquals(1.0, p.integral(), 1e-9);
        // the same problem posed with raw λ's (λ_raw = λ·‖W‖) reaches the same density
        FeatureBasis fb = FeatureBasis.of(new GaussianKernel(0.8), x);
        double wn = fb.congruence(KernelIntegrals.gaussianProducts(0.8, x, nu)).normF();
        PsdDensity raw = PsdDensityEstimator.fit(x, new GaussianKernel(0.8), nu,
                new PsdDensityOptions(1e-3 * wn, 1e-4 * wn * wn, PsdDensityOptions.LambdaScale.RAW, 1e-8, 20000, 60));
        double[] a = p.density(x);
        double[] b = raw.density(x);
        // two solves of one problem agree as far as the gap makes them: λ₂-strong convexity gives
        // ‖A − A*‖_F² ≤ 2·gap/λ₂ (solver scale), ~1e-2 at gap 1e-9 and λ₂ = 1e-4, so 1e-5 relative (met by the
        // dual FISTA, whose two runs follow the same path up to scale) is not a property of the problem; the
        // primal L-BFGS agrees to ~3e-5
        for (int i = 0; i < a.length; i++) {
            assertEquals(a[i], b[i], 1e-4 * a[i]);
        }
        // Monte-Carlo check of ∫ f dν with draws from ν
        SplittableRandom r = new SplittableRandom(3);
        int m = 100_000;
        Matrix z = Matrix.zeros(m, 3);
        for (int i = 0; i < m; i++) {
            double[] s = nu.sample(r);
            for (int t = 0; t < 3; t++) {
                z.set(i, t, s[t]);
            }
        }
        double[] f = p.f(z);
        double s1 = 0;
        double s2 = 0;
        for (double v : f) {
            s1 += v;
            s2 += v * v;
        }
        double mean = s1 / m;
        double se = Math.sqrt((s2 / m - mean * mean) / m);
        assertEquals(1.0, mean, 5 * se);
        // the defensive importance sampler used for models without a closed form agrees with the closed form
        double is = ImportanceIntegral.integrate(x, nu, pts -> {
            double[] v = p.f(pts);
            for (int i = 0; i < v.length; i++) {
                v[i] = Math.log(v[i]);
            }
            return v;
        }, 4, 20_000);
        assertEquals(1.0, is, 0.05);
    }

    @Test
    void samplesPassKolmogorovSmirnovAgainstTheDensity() {
        Matrix x = Mixtures.fig1().sample(40, 4);
        PsdDensity p = PsdDensityEstimator.fit(x, new GaussianKernel(0.6), new BaseMeasure.Lebesgue(),
                PsdDensityOptions.of(1e-3, 0.01));
        Matrix s = p.sample(600, 77);
        java.util.function.DoubleUnaryOperator cdf = t -> p.integralOver(new double[] {Double.NEGATIVE_INFINITY},
                new double[] {t});
        GoodnessOfFit.Ks ks = GoodnessOfFit.kolmogorovSmirnov(s.col(0), cdf);
        assertTrue(ks.pValue() > 0.01, "KS p = " + ks.pValue());
        // the test has power: samples shifted by 0.3 are rejected
        double[] shifted = s.col(0);
        for (int i = 0; i < shifted.length; i++) {
            shifted[i] += 0.3;
        }
        assertTrue(GoodnessOfFit.kolmogorovSmirnov(shifted, cdf).pValue() < 1e-3);
        // same seed, same samples
        assertEquals(s.get(10, 0), p.sample(20, 77).get(10, 0), 0);
    }

    @Test
    void samplesFromABoxBaseMeasureStayInTheBoxAndFitTheMarginal() {
        Matrix x = new Mixtures.TwoBumps(2, 0.8, 0.4).sample(30, 6);
        BaseMeasure.Box box = BaseMeasure.Box.cube(2, -2, 2);
        PsdDensity p = PsdDensityEstimator.fit(x, new GaussianKernel(0.7), box, PsdDensityOptions.of(1e-3, 0.1));
        assertEquals(1.0, p.integral(), 1e-9);
        Matrix s = p.sample(300, 8);
        for (int i = 0; i < s.rows(); i++) {
            assertTrue(box.contains(s.row(i)));
        }
        java.util.function.DoubleUnaryOperator cdf = t -> p.integralOver(new double[] {-2, -2},
                new double[] {t, 2});
        assertTrue(GoodnessOfFit.kolmogorovSmirnov(s.col(0), cdf).pValue() > 0.01);
    }

    @Test
    void badInputIsRejected() {
        Matrix one = Matrix.of(new double[][] {{1.0}});
        assertThrows(IllegalArgumentException.class, () -> PsdDensityEstimator.fit(one, new GaussianKernel(1),
                new BaseMeasure.Lebesgue(), PsdDensityOptions.of(1e-3, 0.1)));
        Matrix nan = Matrix.of(new double[][] {{1.0}, {Double.NaN}});
        assertThrows(IllegalArgumentException.class, () -> PsdDensityEstimator.fit(nan, new GaussianKernel(1),
                new BaseMeasure.Lebesgue(), PsdDensityOptions.of(1e-3, 0.1)));
        assertThrows(IllegalArgumentException.class, () -> new PsdDensityOptions(-1, 1,
                PsdDensityOptions.LambdaScale.RAW, 1e-6, 10, 1));
        assertThrows(IllegalArgumentException.class, () -> new PsdDensityOptions(1, 0,
                PsdDensityOptions.LambdaScale.RAW, 1e-6, 10, 1));
        Matrix x2 = Matrix.of(new double[][] {{1.0, 2.0}, {0.0, 1.0}});
        assertThrows(IllegalArgumentException.class, () -> PsdDensityEstimator.fit(x2, new GaussianKernel(1),
                BaseMeasure.Gaussian.isotropic(3, 0, 1), PsdDensityOptions.of(1e-3, 0.1)));
    }
}
