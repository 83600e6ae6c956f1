package org.psdkit.density;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.psdkit.kernel.GaussianKernel;
import org.psdkit.kernel.LaplacianKernel;
import org.psdkit.linalg.Matrix;
import org.psdkit.linalg.Threads;

/** Exactness of {@link PsdSampler}: the draws against the model's own density, computed independently. */
class PsdSamplerTest {
    /** Kolmogorov's K⁻¹(1 − 0.001): the asymptotic KS critical value √n·D at α = 0.001. */
    static final double KS_CRITICAL_001 = 1.9495;

    private static PsdDensity oneD() {
        return PsdDensityEstimator.fit(Mixtures.fig1().sample(40, 4), new GaussianKernel(0.6),
                new BaseMeasure.Lebesgue(), PsdDensityOptions.of(1e-3, 0.01));
    }

    /** The model's CDF by composite 8-point Gauss–Legendre quadrature of density() on 4,000 panels. */
    private static double[] quadratureCdf(PsdDensity p, double[] sortedT, double lo, double hi) {
        int panels = 4000;
        double[][] gl = KernelIntegrals.gaussLegendre(8);
        double h = (hi - lo) / panels;
        double[] out = new double[sortedT.length];
        double acc = 0;
        int k = 0;
        for (int c = 0; c < panels && k < out.length; c++) {
            double a = lo + c * h;
            double b = a + h;
            while (k < out.length && sortedT[k] <= b) {
                out[k] = acc + panel(p, a, sortedT[k], gl);
                k++;
            }
            acc += panel(p, a, b, gl);
        }
        while (k < out.length) {
            out[k++] = acc;
        }
        double total = acc + 0; // normalise by the quadrature's own total (≈ 1)
        for (int i = 0; i < out.length; i++) {
            out[i] /= total;
        }
        return out;
    }

    private static double panel(PsdDensity p, double a, double b, double[][] gl) {
        Matrix x = Matrix.zeros(gl[0].length, 1);
        for (int i = 0; i < gl[0].length; i++) {
            x.set(i, 0, 0.5 * (a + b) + 0.5 * (b - a) * gl[0][i]);
        }
        double[] v = p.density(x);
        double s = 0;
        for (int i = 0; i < v.length; i++) {
            s += gl[1][i] * v[i];
        }
        return 0.5 * (b - a) * s;
    }

    private static double ksStatistic(double[] draws, PsdDensity p) {
        double[] s = draws.clone();
        Arrays.sort(s);
        double[] f = quadratureCdf(p, s, -12, 12);
        int n = s.length;
        double dMax = 0;
        for (int i = 0; i < n; i++) {
            dMax = Math.max(dMax, Math.max((i + 1.0) / n - f[i], f[i] - (double) i / n));
        }
        return dMax;
    }

    /**
     * A hand-made model f = ‖Rᵀφ‖² with mixed signs in R but little cancellation, so that the pair envelope is tight
     * (fitted low-dimensional models have pair-envelope ratios of 1e5 and more: docs/benchmarks/psd-scale.md §4).
     */
    private static PsdDensity handMade(int d, BaseMeasure base) {
        double[][] pts1 = {{-1.2}, {-0.3}, {0.4}, {1.5}};
        double[][] pts2 = {{-1.2, 0.3}, {-0.3, -0.5}, {0.4, 0.1}, {1.5, 0.6}};
        Matrix r = Matrix.of(new double[][] {{1, 0.2}, {0.6, -0.4}, {0.9, 0.3}, {0.5, -0.2}});
        return new PsdDensity(new GaussianKernel(0.5), Matrix.of(d == 1 ? pts1 : pts2), r, base, null);
    }

    @Test
    void oneDimensionalDrawsPassKolmogorovSmirnovAgainstTheQuadratureCdfForBothEnvelopes() {
        int m = 2000;
        double crit = KS_CRITICAL_001 / Math.sqrt(m);
        for (PsdSampler.Method method : new PsdSampler.Method[] {PsdSampler.Method.GRID, PsdSampler.Method.PAIRS}) {
            PsdDensity p = method == PsdSampler.Method.GRID ? oneD() : handMade(1, new BaseMeasure.Lebesgue());
            double[] draws = (method == PsdSampler.Method.PAIRS ? pairs(p, m, 11)
                    : p.sampleWith(m, 11, method)).col(0);
            double ks = ksStatistic(draws, p);
            assertTrue(ks < crit, method + ": KS D = " + ks + " >= " + crit);
            // the test has power: the same draws shifted by 0.1 (a third of a component's sd) are rejected
            double[] shifted = draws.clone();
            for (int i = 0; i < m; i++) {
                shifted[i] += 0.1;
            }
            assertTrue(ksStatistic(shifted, p) > crit, method + ": shifted draws not rejected");
        }
    }

    @Test
    void tenDimensionalFractionOfPositiveFirstCoordinateMatchesTheClosedFormMarginal() {
        // unequal components (30 points at −2e₁, 50 at +2e₁) so that P(x₁ > 0) is not 1/2 by symmetry
        Mixtures.TwoBumps mix = Mixtures.appE();
        Matrix a = mix.sample(200, 3);
        int[] left = new int[30];
        int[] right = new int[50];
        int nl = 0;
        int nr = 0;
        for (int i = 0; i < a.rows() && (nl < 30 || nr < 50); i++) {
            if (a.get(i, 0) < 0 && nl < 30) {
                left[nl++] = i;
            } else if (a.get(i, 0) > 0 && nr < 50) {
                right[nr++] = i;
            }
        }
        int[] idx = new int[80];
        System.arraycopy(left, 0, idx, 0, 30);
        System.arraycopy(right, 0, idx, 30, 50);
        PsdDensity p = PsdDensityEstimator.fit(a.selectRows(idx), new GaussianKernel(0.44),
                new BaseMeasure.Lebesgue(), PsdDensityOptions.of(1e-3, 0.01));
        double[] lo = new double[10];
        double[] hi = new double[10];
        Arrays.fill(lo, Double.NEGATIVE_INFINITY);
        Arrays.fill(hi, Double.POSITIVE_INFINITY);
        lo[0] = 0;
        double pPos = p.integralOver(lo, hi) / p.integral();
        assertTrue(pPos > 0.55 && pPos < 0.7, "P(x1 > 0) = " + pPos);
        int m = 10_000;
        Matrix s = p.sample(m, 5);
        int pos = 0;
        for (int i = 0; i < m; i++) {
            pos += s.get(i, 0) > 0 ? 1 : 0;
        }
        assertEquals(pPos, (double) pos / m, 0.02);
        // the pair envelope is tight here (the d = 10 model of the issue has 1.5 proposals per draw)
        assertTrue(new PsdSampler.Pairs(p).mass / p.integral() < 10);
    }

    @Test
    void twoDimensionalMeanAndCovarianceMatchQuadratureMoments() {
        Matrix x = new Mixtures.TwoBumps(2, 1.0, 0.4).sample(40, 6);
        PsdDensity p = PsdDensityEstimator.fit(x, new GaussianKernel(0.4), new BaseMeasure.Lebesgue(),
                PsdDensityOptions.of(1e-3, 0.01));
        // moments by tensor Gauss–Legendre quadrature of density() on [−6, 6]² (200 × 200 panels, 4 nodes each)
        double[][] gl = KernelIntegrals.gaussLegendre(4);
        int panels = 200;
        double h = 12.0 / panels;
        int per = panels * 4;
        double[] nodes = new double[per];
        double[] weights = new double[per];
        for (int c = 0; c < panels; c++) {
            for (int k = 0; k < 4; k++) {
                nodes[c * 4 + k] = -6 + (c + 0.5) * h + 0.5 * h * gl[0][k];
                weights[c * 4 + k] = 0.5 * h * gl[1][k];
            }
        }
        double[] mom = new double[6]; // 1, x, y, xx, xy, yy
        Matrix row = Matrix.zeros(per, 2);
        for (int i = 0; i < per; i++) {
            for (int j = 0; j < per; j++) {
                row.set(j, 0, nodes[i]);
                row.set(j, 1, nodes[j]);
            }
            double[] v = p.density(row);
            for (int j = 0; j < per; j++) {
                double w = weights[i] * weights[j] * v[j];
                double a = nodes[i];
                double b = nodes[j];
                mom[0] += w;
                mom[1] += w * a;
                mom[2] += w * b;
                mom[3] += w * a * a;
                mom[4] += w * a * b;
                mom[5] += w * b * b;
            }
        }
        assertEquals(1.0, mom[0], 1e-6);
        double[] mean = {mom[1] / mom[0], mom[2] / mom[0]};
        double[] cov = {mom[3] / mom[0] - mean[0] * mean[0], mom[4] / mom[0] - mean[0] * mean[1],
            mom[5] / mom[0] - mean[1] * mean[1]};
        int m = 4000;
        Matrix s = p.sample(m, 9);
        double[] sm = new double[2];
        for (int i = 0; i < m; i++) {
            sm[0] += s.get(i, 0) / m;
            sm[1] += s.get(i, 1) / m;
        }
        // Monte-Carlo error: 4 standard errors of each mean and of each covariance entry (from the draws)
        for (int t = 0; t < 2; t++) {
            double se = Math.sqrt(cov[t == 0 ? 0 : 2] / m);
            assertEquals(mean[t], sm[t], 4 * se, "mean " + t);
        }
        int[][] pairs = {{0, 0}, {0, 1}, {1, 1}};
        for (int c = 0; c < 3; c++) {
            int a = pairs[c][0];
            int b = pairs[c][1];
            double c1 = 0;
            double c2 = 0;
            for (int i = 0; i < m; i++) {
                double v = (s.get(i, a) - sm[a]) * (s.get(i, b) - sm[b]);
                c1 += v / m;
                c2 += v * v / m;
            }
            double se = Math.sqrt((c2 - c1 * c1) / m);
            assertEquals(cov[c], c1, 4 * se, "covariance " + a + "," + b);
        }
    }

    @Test
    void newAndOldSamplersAgreeInDistributionOnATinyModel() {
        Matrix x = new Mixtures.TwoBumps(2, 0.8, 0.4).sample(12, 2);
        PsdDensity p = PsdDensityEstimator.fit(x, new GaussianKernel(0.5), new BaseMeasure.Lebesgue(),
                PsdDensityOptions.of(1e-3, 0.01));
        int nOld = 400;
        int nNew = 2000;
        Matrix old = p.sampleSequential(nOld, 3, null);
        Matrix grid = p.sample(nNew, 4);
        Matrix pairs = pairs(p, nNew, 5);
        double crit = KS_CRITICAL_001 * Math.sqrt((double) (nOld + nNew) / ((double) nOld * nNew));
        for (int t = 0; t < 2; t++) {
            assertTrue(twoSampleKs(old.col(t), grid.col(t)) < crit, "grid vs old, coordinate " + t);
            assertTrue(twoSampleKs(old.col(t), pairs.col(t)) < crit, "pairs vs old, coordinate " + t);
        }
        // and on the direction x₁ + x₂ (a joint property)
        assertTrue(twoSampleKs(sum(old), sum(grid)) < crit);
    }

    @Test
    void boxAndGaussianBaseMeasuresAreSampledWithinTheirSupportAndMatchTheMarginal() {
        Matrix x = new Mixtures.TwoBumps(2, 0.8, 0.4).sample(30, 6);
        BaseMeasure.Box box = BaseMeasure.Box.cube(2, -2, 2);
        PsdDensity p = PsdDensityEstimator.fit(x, new GaussianKernel(0.7), box, PsdDensityOptions.of(1e-3, 0.1));
        for (PsdSampler.Method method : new PsdSampler.Method[] {PsdSampler.Method.GRID, PsdSampler.Method.PAIRS}) {
            PsdDensity q = method == PsdSampler.Method.PAIRS ? handMade(2, box) : p;
            java.util.function.DoubleUnaryOperator cq = t -> q.integralOver(new double[] {-2, -2},
                    new double[] {t, 2}) / q.integral();
            Matrix s = method == PsdSampler.Method.PAIRS ? pairs(q, 1000, 8) : q.sampleWith(1000, 8, method);
            for (int i = 0; i < s.rows(); i++) {
                assertTrue(box.contains(s.row(i)));
            }
            assertTrue(GoodnessOfFit.kolmogorovSmirnov(s.col(0), cq).statistic() < KS_CRITICAL_001 / Math.sqrt(1000),
                    method.toString());
        }
        BaseMeasure.Gaussian g = BaseMeasure.Gaussian.diagonal(new double[] {0.2, 0}, new double[] {0.5, 0.8});
        PsdDensity pg = PsdDensityEstimator.fit(x, new GaussianKernel(0.6), g, PsdDensityOptions.of(1e-3, 0.1));
        double inf = Double.POSITIVE_INFINITY;
        for (PsdSampler.Method method : new PsdSampler.Method[] {PsdSampler.Method.GRID, PsdSampler.Method.PAIRS}) {
            PsdDensity q = method == PsdSampler.Method.PAIRS ? handMade(2, g) : pg;
            java.util.function.DoubleUnaryOperator cq = t -> q.integralOver(new double[] {-inf, -inf},
                    new double[] {t, inf}) / q.integral();
            Matrix s = method == PsdSampler.Method.PAIRS ? pairs(q, 1000, 8) : q.sampleWith(1000, 8, method);
            assertTrue(GoodnessOfFit.kolmogorovSmirnov(s.col(0), cq).statistic() < KS_CRITICAL_001 / Math.sqrt(1000),
                    method.toString());
        }
    }

    @Test
    void sameSeedSameDrawsWhateverTheThreadCount() {
        PsdDensity p = oneD();
        int before = Threads.get();
        try {
            Threads.set(1);
            Matrix a = p.sample(300, 21);
            Threads.set(2);
            Matrix b = p.sample(300, 21);
            assertEquals(a.get(299, 0), b.get(299, 0), 0.0);
            assertEquals(a.get(0, 0), b.get(0, 0), 0.0);
            // a draw does not depend on how many others are drawn beside it
            assertEquals(a.get(17, 0), p.sample(18, 21).get(17, 0), 0.0);
        } finally {
            Threads.set(before);
        }
    }

    @Test
    void batchesOnTheWorkersGiveTheDrawsOfTheLoop() {
        // more draws than one batch: the grid's box evaluations and the rejection rounds run in several batches,
        // on the workers with two threads and in a loop with one; every draw is the same to the last bit
        Matrix x = new Mixtures.TwoBumps(2, 1.0, 0.4).sample(40, 6);
        PsdDensity p = PsdDensityEstimator.fit(x, new GaussianKernel(0.4), new BaseMeasure.Lebesgue(),
                PsdDensityOptions.of(1e-3, 0.01));
        int m = 3 * PsdSampler.BATCH + 17;
        int before = Threads.get();
        try {
            Threads.set(1);
            Matrix a = p.sample(m, 5);
            Threads.set(2);
            Matrix b = p.sample(m, 5);
            for (int i = 0; i < m; i++) {
                for (int t = 0; t < 2; t++) {
                    assertEquals(a.get(i, t), b.get(i, t), 0.0, "draw " + i + ", coordinate " + t);
                }
            }
        } finally {
            Threads.set(before);
        }
    }

    @Test
    void badInputIsRejectedWithAClearMessage() {
        PsdDensity p = oneD();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> p.sample(0, 1));
        assertTrue(e.getMessage().contains("number of samples"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> p.sample(-3, 1));
        Matrix r = p.factor();
        r.set(2, 0, Double.NaN);
        PsdDensity bad = new PsdDensity(p.kernel(), p.points(), r, p.base(), p.diagnostics());
        e = assertThrows(IllegalArgumentException.class, () -> bad.sample(5, 1));
        assertTrue(e.getMessage().contains("factor") && e.getMessage().contains("row 2"), e.getMessage());
        Matrix pts = p.points();
        pts.set(1, 0, Double.POSITIVE_INFINITY);
        PsdDensity badPts = new PsdDensity(p.kernel(), pts, p.factor(), p.base(), p.diagnostics());
        e = assertThrows(IllegalArgumentException.class, () -> badPts.sample(5, 1));
        assertTrue(e.getMessage().contains("points"), e.getMessage());
        PsdDensity lap = new PsdDensity(new LaplacianKernel(1.0), p.points(), p.factor(), p.base(), p.diagnostics());
        e = assertThrows(IllegalArgumentException.class, () -> lap.sample(5, 1));
        assertTrue(e.getMessage().contains("Gaussian kernel"), e.getMessage());
    }

    /** Draws with the pair envelope after checking it is tight enough for a test (fails fast, never hangs). */
    private static Matrix pairs(PsdDensity p, int m, long seed) {
        double ratio = new PsdSampler.Pairs(p).mass / p.integral();
        assertTrue(ratio < 200, "pair envelope ratio " + ratio);
        return p.sampleWith(m, seed, PsdSampler.Method.PAIRS);
    }

    private static double[] sum(Matrix s) {
        double[] out = new double[s.rows()];
        for (int i = 0; i < out.length; i++) {
            out[i] = s.get(i, 0) + s.get(i, 1);
        }
        return out;
    }

    /** Two-sample KS statistic sup|F_a − F_b|. */
    static double twoSampleKs(double[] a, double[] b) {
        double[] x = a.clone();
        double[] y = b.clone();
        Arrays.sort(x);
        Arrays.sort(y);
        int i = 0;
        int j = 0;
        double dMax = 0;
        while (i < x.length && j < y.length) {
            double v = Math.min(x[i], y[j]);
            while (i < x.length && x[i] <= v) {
                i++;
            }
            while (j < y.length && y[j] <= v) {
                j++;
            }
            dMax = Math.max(dMax, Math.abs((double) i / x.length - (double) j / y.length));
        }
        return dMax;
    }
}
