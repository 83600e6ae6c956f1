package org.psdkit.regression.nystrom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.psdkit.kernel.GaussianKernel;
import org.psdkit.kernel.Kernel;
import org.psdkit.linalg.Linalg;
import org.psdkit.linalg.Matrix;
import org.psdkit.linalg.internal.FloatBlas;
import org.psdkit.psd.Anchors;
import org.psdkit.psd.Nystrom;
import org.psdkit.regression.KernelRidge;
import org.psdkit.regression.KernelRidgeTest;
import org.psdkit.regression.nystrom.internal.GaussianFloatBlocks;
import org.psdkit.regression.nystrom.internal.RoutePlanner;

class NystromKrrTest {

    static NystromKrrTrainer.Options opts(double lambda, int m, Anchors.Method method, double tol, Storage storage) {
        return new NystromKrrTrainer.Options(new GaussianKernel(1), null, Nystrom.of(m, method, 7), lambda, false, tol, 500,
                storage);
    }

    @Test
    void allPointsAsAnchorsEqualsExactKrr() {
        Matrix x = KernelRidgeTest.points(150, 3, 1);
        double[] y = KernelRidgeTest.target(x, 2);
        Matrix test = KernelRidgeTest.points(40, 3, 3);
        GaussianKernel k = new GaussianKernel(1.5);
        double lambda = 0.1;
        double[] exact = KernelRidge.fit(k, x, y, KernelRidge.Options.standard(lambda)).predictVector(test);
        NystromKrrTrainer.Fit f = NystromKrrTrainer.fitScaled(k, x, y,
                opts(lambda, 150, Anchors.Method.UNIFORM, 1e-9, Storage.RECOMPUTE));
        assertTrue(f.diagnostics().converged(), f.diagnostics().toString());
        double d = KernelRidgeTest.maxRelDiff(f.model().predictVector(test), exact);
        assertTrue(d < 1e-6, "max relative difference " + d);
    }

    @Test
    void singlePrecisionStorageIsCloseToDouble() {
        Matrix x = KernelRidgeTest.points(400, 4, 4);
        double[] y = KernelRidgeTest.target(x, 5);
        Matrix test = KernelRidgeTest.points(50, 4, 6);
        GaussianKernel k = new GaussianKernel(1.5);
        NystromKrrTrainer.Fit a = NystromKrrTrainer.fitScaled(k, x, y,
                opts(0.01, 60, Anchors.Method.UNIFORM, 1e-9, Storage.RECOMPUTE));
        NystromKrrTrainer.Fit b = NystromKrrTrainer.fitScaled(k, x, y,
                opts(0.01, 60, Anchors.Method.UNIFORM, 1e-9, Storage.FLOAT));
        assertEquals("recompute", a.diagnostics().storage());
        assertEquals("float", b.diagnostics().storage());
        double d = KernelRidgeTest.maxRelDiff(b.model().predictVector(test), a.model().predictVector(test));
        assertTrue(d < 1e-4, "float vs double " + d);
    }

    @Test
    void gramPreconditionedCgMatchesPlainCgInFewIterations() {
        Matrix x = KernelRidgeTest.points(3000, 4, 14);
        double[] y = KernelRidgeTest.target(x, 15);
        Matrix test = KernelRidgeTest.points(50, 4, 16);
        GaussianKernel k = new GaussianKernel(1.5);
        NystromKrrTrainer.Fit a = NystromKrrTrainer.fitScaled(k, x, y,
                opts(0.01, 80, Anchors.Method.UNIFORM, 1e-9, Storage.RECOMPUTE));
        NystromKrrTrainer.Fit b = NystromKrrTrainer.fitScaled(k, x, y,
                opts(0.01, 80, Anchors.Method.UNIFORM, 1e-9, Storage.GRAM));
        assertEquals("gram+float", b.diagnostics().storage());
        assertTrue(b.diagnostics().converged(), b.diagnostics().toString());
        assertTrue(b.diagnostics().iterations() <= 5 && b.diagnostics().iterations() < a.diagnostics().iterations(),
                "gram " + b.diagnostics().iterations() + " vs plain " + a.diagnostics().iterations());
        double d = KernelRidgeTest.maxRelDiff(b.model().predictVector(test), a.model().predictVector(test));
        assertTrue(d < 1e-4, "gram (single-precision K_nm) vs double " + d);
    }

    /** K_mm numerically singular (jitter needed, CG cannot reach the tolerance): the Gram route still ends. */
    @Test
    void gramRouteOnAnIllConditionedKmmAgreesWithPlainSinglePrecisionCg() {
        Matrix x = KernelRidgeTest.points(500, 2, 17);
        double[] y = KernelRidgeTest.target(x, 18);
        GaussianKernel k = new GaussianKernel(4); // wide kernel, close anchors: K_mm numerically singular
        NystromKrrTrainer.Fit f = NystromKrrTrainer.fitScaled(k, x, y,
                opts(1e-3, 120, Anchors.Method.UNIFORM, 1e-8, Storage.FLOAT));
        NystromKrrTrainer.Fit b = NystromKrrTrainer.fitScaled(k, x, y,
                opts(1e-3, 120, Anchors.Method.UNIFORM, 1e-8, Storage.GRAM));
        assertTrue(b.diagnostics().jitter() > 0, b.diagnostics().toString());
        double d = KernelRidgeTest.maxRelDiff(b.model().predictVector(x), f.model().predictVector(x));
        assertTrue(d < 1e-4, "fitted values differ by " + d + ": " + b.diagnostics() + " vs " + f.diagnostics());
    }

    @Test
    void fastSinglePrecisionGaussianBlocksMatchTheKernel() {
        Matrix x = KernelRidgeTest.points(300, 5, 19);
        Matrix c = KernelRidgeTest.points(70, 5, 20);
        GaussianKernel k = new GaussianKernel(1.3);
        GaussianFloatBlocks g = new GaussianFloatBlocks(k, c);
        float[] out = new float[300 * 70];
        g.fill(x, new float[300 * 7], out);
        Matrix ref = k.cross(x, c);
        double worst = 0;
        for (int i = 0; i < 300; i++) {
            for (int j = 0; j < 70; j++) {
                double e = ref.get(i, j);
                worst = Math.max(worst, Math.abs(out[i * 70 + j] - e) / e);
            }
        }
        double bound = g.errorBound(g.maxCentredNorm2(x));
        assertTrue(worst <= bound, "relative error " + worst + " above the stated bound " + bound);
        assertTrue(bound < GaussianFloatBlocks.MAX_RELATIVE_ERROR, "bound " + bound);
    }

    @Test
    void polynomialExponentialIsAccurate() {
        double worst = 0;
        for (int i = 0; i <= 200_000; i++) {
            double z = -104.0 * i / 200_000;
            double e = Math.exp(z);
            worst = Math.max(worst, Math.abs(GaussianFloatBlocks.expNonPositive(z) - e) / e);
        }
        assertTrue(worst < 5e-10, "relative error " + worst);
        assertEquals(1.0, GaussianFloatBlocks.expNonPositive(1e-7)); // a rounding-positive exponent is 0
        assertEquals(0f, (float) GaussianFloatBlocks.expNonPositive(-1e6));
    }

    @Test
    void chunkedExponentialEqualsTheScalarOneBitForBit() {
        java.util.Random rnd = new java.util.Random(4);
        for (int len : new int[] {0, 1, GaussianFloatBlocks.EXP_CHUNK - 1, GaussianFloatBlocks.EXP_CHUNK,
                2 * GaussianFloatBlocks.EXP_CHUNK + 37}) {
            float[] a = new float[len + 3];
            for (int i = 0; i < a.length; i++) {
                a[i] = (float) (-120 * rnd.nextDouble() + (i % 17 == 0 ? 1e-3 : 0));
            }
            float[] b = a.clone();
            GaussianFloatBlocks.expInPlace(b, len);
            for (int i = 0; i < a.length; i++) {
                float want = i < len ? (float) GaussianFloatBlocks.expNonPositive(a[i]) : a[i];
                assertEquals(Float.floatToRawIntBits(want), Float.floatToRawIntBits(b[i]), "entry " + i + " of " + len);
            }
        }
    }

    /** The minimiser of ‖y − K_nm α‖² + λαᵀK_mmα by a dense solve of its normal equations. */
    @Test
    void solutionSolvesTheNormalEquationsAndTheResidualIsTrue() {
        Matrix x = KernelRidgeTest.points(300, 3, 8);
        double[] y = KernelRidgeTest.target(x, 9);
        GaussianKernel k = new GaussianKernel(1.0);
        double lambda = 0.05;
        int[] idx = Anchors.select(k, x, 40, Anchors.Method.KMEANSPP_INPUT, 3, lambda);
        Matrix c = x.selectRows(idx);
        KnmBlocks p = NystromKrr.problem(k, x, c, Storage.RECOMPUTE);
        NystromKrr.Solution s = p.solve(y, 0, lambda, 1e-3, 500);
        // the reported residual is the recomputed one
        double again = p.relativeResidual(y, 0, s.alpha(), lambda);
        assertEquals(again, s.diagnostics().residual(), 1e-9 * Math.max(1, again));
        assertTrue(s.diagnostics().residual() <= 1e-3);
        // tight solve equals the dense normal equations
        NystromKrr.Solution tight = p.solve(y, 0, lambda, 1e-10, 500);
        Matrix knm = k.cross(x, c);
        Matrix h = Linalg.gemm(1.0, knm, true, knm, false).plus(k.gram(c).scale(lambda));
        double[] dense = Linalg.solve(h, Matrix.column(Linalg.gemv(knm, true, y))).col(0);
        double[] fa = Linalg.gemv(knm, false, tight.alpha());
        double[] fd = Linalg.gemv(knm, false, dense);
        double d = KernelRidgeTest.maxRelDiff(fa, fd);
        assertTrue(d < 1e-8, "fitted values differ by " + d);
        assertTrue(tight.diagnostics().iterations() > 0 && tight.diagnostics().iterations() < 200,
                "iterations " + tight.diagnostics().iterations());
    }

    @Test
    void sameSeedGivesSameAnchors() {
        Matrix x = KernelRidgeTest.points(500, 2, 10);
        Kernel k = new GaussianKernel(1.0);
        for (Anchors.Method m : Anchors.Method.values()) {
            int[] a = Anchors.select(k, x, 50, m, 11, 0.01);
            int[] b = Anchors.select(k, x, 50, m, 11, 0.01);
            int[] c = Anchors.select(k, x, 50, m, 12, 0.01);
            assertArrayEquals(a, b, m.id());
            assertTrue(!Arrays.equals(a, c), m.id() + ": another seed gave the same anchors");
            assertEquals(50, Arrays.stream(a).distinct().count(), m.id() + ": anchors repeat");
        }
    }

    @Test
    void centringAddsTheMeanBack() {
        Matrix x = KernelRidgeTest.points(200, 2, 12);
        double[] y = KernelRidgeTest.target(x, 13);
        for (int i = 0; i < y.length; i++) {
            y[i] += 100;
        }
        Kernel k = new GaussianKernel(1.0);
        NystromKrrTrainer.Fit f = NystromKrrTrainer.fitScaled(k, x, y, new NystromKrrTrainer.Options(k, null,
                Nystrom.of(30, Anchors.Method.UNIFORM, 1), 0.01, true, 1e-8, 200, Storage.AUTO));
        double[] p = f.model().predictVector(x);
        double sse = 0;
        for (int i = 0; i < y.length; i++) {
            sse += (p[i] - y[i]) * (p[i] - y[i]);
        }
        assertTrue(Math.sqrt(sse / y.length) < 0.5, "rmse " + Math.sqrt(sse / y.length));
        assertEquals(30, f.model().points().rows());
    }

    @Test
    void badOptionsNameTheParameter() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Anchors.Method.parse("random"));
        assertTrue(e.getMessage().contains("anchorMethod"));
        e = assertThrows(IllegalArgumentException.class, () -> NystromKrrTrainer.Options.of(new GaussianKernel(1), 0.1, 0, 1));
        assertTrue(e.getMessage().contains("anchors"));
    }

    @Test
    void costModelPicksTheRouteTheMeasurementsFavoured() {
        // Gram route won at n = 30,000, m = 500 and 1,000 and n = 100,000, m = 500 and 1,000; plain CG at
        // 50,000 × 5,000 (docs/benchmarks/krr-scale.md)
        assertTrue(RoutePlanner.gramCheaper(30_000, 500));
        assertTrue(RoutePlanner.gramCheaper(30_000, 1_000));
        assertTrue(RoutePlanner.gramCheaper(100_000, 500));
        assertTrue(RoutePlanner.gramCheaper(100_000, 1_000));
        assertTrue(RoutePlanner.gramCheaper(100_000, 2_000)); // single-threaded BLAS per worker, no CG passes (krr-scale.md)
        assertTrue(!RoutePlanner.gramCheaper(50_000, 5_000));
        assertTrue(!RoutePlanner.gramCheaper(30_000, 4_000));
        assertTrue(!RoutePlanner.gramCheaper(1_000, 1_000)); // m = n: √(n/m) = 1 iteration saved at most
    }

    @Test
    void autoRoutePricesPlainGramAndSketch() {
        // all kept: the Gram route at small m (measured faster at 30,000 × 500 and 100,000 × 1,000), the sketch
        // at 100,000 × 2,000 (krr-scale.md: 9.2 s against 13.6 s for the Gram route and 14.7 s for plain CG)
        assertEquals(Storage.GRAM, RoutePlanner.autoRoute(30_000, 500, 1, 1, true));
        assertEquals(Storage.GRAM, RoutePlanner.autoRoute(100_000, 1_000, 1, 1, true));
        assertEquals(Storage.SKETCH, RoutePlanner.autoRoute(100_000, 2_000, 1, 1, true));
        // 10⁶ × 5,000 in 8 GB: 15 % kept; the Gram pass alone took 317 s there (krr-scale.md)
        assertEquals(Storage.SKETCH, RoutePlanner.autoRoute(1_000_000, 5_000, 0.15, 0.13, true));
        // s = 20·m ≥ n: no sketch; plain CG at 50,000 × 5,000 (measured cheaper than the Gram route)
        assertEquals(Storage.FLOAT, RoutePlanner.autoRoute(50_000, 5_000, 1, 1, true));
        // the m×m arrays do not fit: plain CG whatever the cost
        assertEquals(Storage.FLOAT, RoutePlanner.autoRoute(1_000_000, 5_000, 0.15, 0.13, false));
    }

    /**
     * The Gram route iterates on G = K_nmᵀK_nm instead of data passes: G u equals a pass K_nmᵀ(K_nm u) over the same
     * single-precision blocks to double rounding, one pass checks the true residual (the one reported), and the
     * right-hand side fused into the Gram pass equals a separate pass.
     */
    @Test
    void gramOperatorAndFusedRightHandSideEqualDataPasses() {
        Matrix x = KernelRidgeTest.points(2500, 4, 21);
        double[] y = KernelRidgeTest.target(x, 22);
        GaussianKernel k = new GaussianKernel(1.5);
        Matrix c = x.selectRows(Anchors.select(k, x, 90, Anchors.Method.UNIFORM, 5, 0.01));
        KnmBlocks fused = NystromKrr.problem(k, x, c, Storage.GRAM, y);
        KnmBlocks plain = NystromKrr.problem(k, x, c, Storage.GRAM);
        double[] u = KernelRidgeTest.target(c, 23);
        double[] viaGram = fused.gramOperator().applyKtK(u);
        double[] viaPass = fused.pass(u, null);
        assertTrue(KernelRidgeTest.maxRelDiff(viaGram, viaPass) < 1e-12,
                "G u vs pass " + KernelRidgeTest.maxRelDiff(viaGram, viaPass));
        NystromKrr.Solution a = fused.solve(y, 0, 0.01, 1e-7, 50);
        NystromKrr.Solution b = plain.solve(y, 0, 0.01, 1e-7, 50);
        assertTrue(a.diagnostics().converged() && a.diagnostics().iterations() <= 3, a.diagnostics().toString());
        assertTrue(KernelRidgeTest.maxRelDiff(a.alpha(), b.alpha()) < 1e-6,
                "fused vs separate right-hand side " + KernelRidgeTest.maxRelDiff(a.alpha(), b.alpha()));
        double again = fused.relativeResidual(y, 0, a.alpha(), 0.01);
        assertEquals(again, a.diagnostics().residual(), 1e-2 * again + 1e-12);
        int passes = fused.timings().get("passes").intValue();
        // the solve read the data once (its true residual); the others are this test's and relativeResidual's two
        assertEquals(4, passes, "passes " + passes);
    }

    /**
     * The single-precision Gram sum (ssyrk per chunk of R rows, chunks added in double) is within its stated bound
     * |G̃ − G| ≤ γ_R·G entrywise for a nonnegative A, γ_R = R·u/(1 − R·u), u = 2⁻²⁴ (Higham 2002, eq. 3.4), and its
     * typical error is the √R·u of random rounding, far above double's: the reason it only preconditions.
     */
    @Test
    void singlePrecisionGramIsWithinItsBound() {
        int m = 48;
        int rows = 3000;
        int chunk = 1024;
        java.util.Random r = new java.util.Random(24);
        float[] a = new float[rows * m];
        for (int i = 0; i < a.length; i++) {
            a[i] = (float) Math.exp(-3 * r.nextDouble()); // kernel-like entries in (0.05, 1]
        }
        double[] gs = new double[m * m];
        double[] gd = new double[m * m];
        try (FloatBlas.GramAccumulator s = FloatBlas.GramAccumulator.single(m,
                chunk); FloatBlas.GramAccumulator d =
                new FloatBlas.GramAccumulator(m)) {
            s.add(1000, a); // block boundaries that do not match the chunks
            s.add(2000, Arrays.copyOfRange(a, 1000 * m, rows * m));
            d.add(rows, a);
            s.addLowerInto(gs);
            d.addLowerInto(gd);
        }
        double u = 0x1p-24;
        double gamma = chunk * u / (1 - chunk * u);
        double worst = 0;
        double sumSq = 0;
        int count = 0;
        for (int i = 0; i < m; i++) {
            for (int j = 0; j <= i; j++) {
                double e = Math.abs(gs[i * m + j] - gd[i * m + j]) / gd[i * m + j];
                worst = Math.max(worst, e);
                sumSq += e * e;
                count++;
            }
        }
        assertTrue(worst <= gamma, "worst relative error " + worst + " above γ_R = " + gamma);
        double typical = Math.sqrt(sumSq / count);
        assertTrue(typical > 1e-9 && typical < 10 * Math.sqrt(chunk) * u, "typical relative error " + typical);
    }

    /** The experimental single-precision Gram route reaches the same solution (its operator stays the passes). */
    @Test
    void singlePrecisionGramRouteReachesTheSameSolution() {
        Matrix x = KernelRidgeTest.points(3000, 4, 14);
        double[] y = KernelRidgeTest.target(x, 15);
        Matrix test = KernelRidgeTest.points(50, 4, 16);
        GaussianKernel k = new GaussianKernel(1.5);
        NystromKrrTrainer.Fit a = NystromKrrTrainer.fitScaled(k, x, y,
                opts(0.01, 80, Anchors.Method.UNIFORM, 1e-9, Storage.GRAM));
        NystromKrrTrainer.Fit b = NystromKrrTrainer.fitScaled(k, x, y,
                opts(0.01, 80, Anchors.Method.UNIFORM, 1e-9, Storage.GRAM_SINGLE));
        assertEquals("gram-single+float", b.diagnostics().storage());
        assertTrue(b.diagnostics().converged(), b.diagnostics().toString());
        double d = KernelRidgeTest.maxRelDiff(b.model().predictVector(test), a.model().predictVector(test));
        assertTrue(d < 1e-6, "single- vs double-precision Gram " + d);
    }

    /**
     * The sampled-Gram preconditioner reaches the plain CG's solution in fewer iterations, and with s ≥ n rows it
     * is the full Gram matrix (a handful of iterations).
     */
    @Test
    void sketchPreconditionedCgReachesTheSameSolutionInFewerIterations() {
        Matrix x = KernelRidgeTest.points(3000, 4, 14);
        double[] y = KernelRidgeTest.target(x, 15);
        Matrix test = KernelRidgeTest.points(50, 4, 16);
        GaussianKernel k = new GaussianKernel(1.5);
        NystromKrrTrainer.Fit a = NystromKrrTrainer.fitScaled(k, x, y,
                opts(0.01, 80, Anchors.Method.UNIFORM, 1e-9, Storage.FLOAT));
        NystromKrrTrainer.Fit b = NystromKrrTrainer.fitScaled(k, x, y,
                opts(0.01, 80, Anchors.Method.UNIFORM, 1e-9, Storage.SKETCH));
        // s = 20·80 = 1,600 sampled rows of 3,000
        assertEquals("sketch 1600+float", b.diagnostics().storage());
        assertTrue(b.diagnostics().converged(), b.diagnostics().toString());
        assertTrue(b.diagnostics().iterations() < a.diagnostics().iterations(),
                "sketch " + b.diagnostics().iterations() + " vs plain " + a.diagnostics().iterations());
        double d = KernelRidgeTest.maxRelDiff(b.model().predictVector(test), a.model().predictVector(test));
        assertTrue(d < 1e-6, "sketch vs plain CG " + d);
        // 150 anchors: s = 3,000 = n, the whole Gram matrix
        NystromKrrTrainer.Fit c = NystromKrrTrainer.fitScaled(k, x, y,
                opts(0.01, 150, Anchors.Method.UNIFORM, 1e-9, Storage.SKETCH));
        assertEquals("sketch 3000+float", c.diagnostics().storage());
        assertTrue(c.diagnostics().converged() && c.diagnostics().iterations() <= 5, c.diagnostics().toString());
    }
}
