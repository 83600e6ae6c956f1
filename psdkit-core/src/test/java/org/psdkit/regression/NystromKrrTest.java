package org.psdkit.regression;

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

class NystromKrrTest {

    static NystromKrrTrainer.Options opts(double lambda, int m, NystromKrr.AnchorMethod method, double tol,
                                          NystromKrr.Storage storage) {
        return new NystromKrrTrainer.Options(lambda, false, m, method, 7, tol, 500, storage);
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
                opts(lambda, 150, NystromKrr.AnchorMethod.UNIFORM, 1e-9, NystromKrr.Storage.RECOMPUTE));
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
                opts(0.01, 60, NystromKrr.AnchorMethod.UNIFORM, 1e-9, NystromKrr.Storage.RECOMPUTE));
        NystromKrrTrainer.Fit b = NystromKrrTrainer.fitScaled(k, x, y,
                opts(0.01, 60, NystromKrr.AnchorMethod.UNIFORM, 1e-9, NystromKrr.Storage.FLOAT));
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
                opts(0.01, 80, NystromKrr.AnchorMethod.UNIFORM, 1e-9, NystromKrr.Storage.RECOMPUTE));
        NystromKrrTrainer.Fit b = NystromKrrTrainer.fitScaled(k, x, y,
                opts(0.01, 80, NystromKrr.AnchorMethod.UNIFORM, 1e-9, NystromKrr.Storage.GRAM));
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
                opts(1e-3, 120, NystromKrr.AnchorMethod.UNIFORM, 1e-8, NystromKrr.Storage.FLOAT));
        NystromKrrTrainer.Fit b = NystromKrrTrainer.fitScaled(k, x, y,
                opts(1e-3, 120, NystromKrr.AnchorMethod.UNIFORM, 1e-8, NystromKrr.Storage.GRAM));
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

    /** The minimiser of ‖y − K_nm α‖² + λαᵀK_mmα by a dense solve of its normal equations. */
    @Test
    void solutionSolvesTheNormalEquationsAndTheResidualIsTrue() {
        Matrix x = KernelRidgeTest.points(300, 3, 8);
        double[] y = KernelRidgeTest.target(x, 9);
        GaussianKernel k = new GaussianKernel(1.0);
        double lambda = 0.05;
        int[] idx = NystromKrr.selectAnchors(k, x, 40, NystromKrr.AnchorMethod.KMEANSPP, 3, lambda);
        Matrix c = x.selectRows(idx);
        NystromKrr.Problem p = NystromKrr.problem(k, x, c, NystromKrr.Storage.RECOMPUTE);
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
        for (NystromKrr.AnchorMethod m : NystromKrr.AnchorMethod.values()) {
            int[] a = NystromKrr.selectAnchors(k, x, 50, m, 11, 0.01);
            int[] b = NystromKrr.selectAnchors(k, x, 50, m, 11, 0.01);
            int[] c = NystromKrr.selectAnchors(k, x, 50, m, 12, 0.01);
            assertArrayEquals(a, b, m.label());
            assertTrue(!Arrays.equals(a, c), m.label() + ": another seed gave the same anchors");
            assertEquals(50, Arrays.stream(a).distinct().count(), m.label() + ": anchors repeat");
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
        NystromKrrTrainer.Fit f = NystromKrrTrainer.fitScaled(k, x, y, new NystromKrrTrainer.Options(0.01, true,
                30, NystromKrr.AnchorMethod.UNIFORM, 1, 1e-8, 200, NystromKrr.Storage.AUTO));
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
                () -> NystromKrr.AnchorMethod.parse("random"));
        assertTrue(e.getMessage().contains("anchorMethod"));
        e = assertThrows(IllegalArgumentException.class, () -> NystromKrrTrainer.Options.of(0.1, 0, 1));
        assertTrue(e.getMessage().contains("anchors"));
    }

    @Test
    void costModelPicksTheRouteTheMeasurementsFavoured() {
        // Gram route won at n = 30,000, m = 500 and 1,000 and n = 100,000, m = 500 and 1,000; plain CG at
        // n = 100,000, m = 2,000 and at 50,000 × 5,000 (docs/benchmarks/krr-scale.md)
        assertTrue(NystromKrr.gramCheaper(30_000, 500));
        assertTrue(NystromKrr.gramCheaper(30_000, 1_000));
        assertTrue(NystromKrr.gramCheaper(100_000, 500));
        assertTrue(NystromKrr.gramCheaper(100_000, 1_000));
        assertTrue(!NystromKrr.gramCheaper(100_000, 2_000));
        assertTrue(!NystromKrr.gramCheaper(50_000, 5_000));
        assertTrue(!NystromKrr.gramCheaper(30_000, 4_000));
        assertTrue(!NystromKrr.gramCheaper(1_000, 1_000)); // m = n: √(n/m) = 1 iteration saved at most
    }

    @Test
    void javaTriangularSolvesAndProductsMatchBlas() {
        java.util.Random r = new java.util.Random(3);
        int m = 37;
        Matrix a = Matrix.zeros(m, m);
        for (int j = 0; j < m; j++) {
            for (int i = 0; i < m; i++) {
                a.set(i, j, r.nextGaussian());
            }
        }
        Matrix spd = Linalg.syrk(a, true);
        spd.addToDiagonal(m);
        Matrix l = Linalg.cholesky(spd).lower();
        double[] v = new double[m];
        for (int i = 0; i < m; i++) {
            v[i] = r.nextGaussian();
        }
        for (boolean t : new boolean[] {false, true}) {
            assertArrayEquals(Linalg.solveLower(l, t, v), NystromKrr.solveLower(l, t, v), 1e-12);
            assertArrayEquals(Linalg.gemv(a, t, v), NystromKrr.gemv(a, t, v), 1e-12);
        }
    }
}
