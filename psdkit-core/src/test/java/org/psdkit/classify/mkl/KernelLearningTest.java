package org.psdkit.classify.mkl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.psdkit.kernel.GaussianKernel;
import org.psdkit.kernel.Kernel;
import org.psdkit.kernel.LibraryKernel;
import org.psdkit.kernel.TessellatedKernel.Orthant;
import org.psdkit.kernel.TessellatedKernel;
import org.psdkit.kernel.TkGram;
import org.psdkit.kernel.WeightedSumKernel;
import org.psdkit.linalg.Matrix;
import org.psdkit.optim.smo.KernelRows;
import org.psdkit.optim.smo.Smo;

class KernelLearningTest {

    /** SMO tolerance for the brute-force references (tight, so that J is accurate). */
    static final double TIGHT = 1e-9;

    static Matrix points(int m, int n, Random rnd) {
        Matrix x = Matrix.zeros(m, n);
        for (int i = 0; i < m * n; i++) {
            x.data()[i] = rnd.nextDouble();
        }
        return x;
    }

    static double[] labels(Matrix x, Random rnd) {
        double[] y = new double[x.rows()];
        for (int i = 0; i < y.length; i++) {
            double s = Math.sin(6 * x.get(i, 0)) + 0.3 * rnd.nextGaussian();
            y[i] = s > 0 ? 1 : -1;
        }
        return y;
    }

    @Test
    void cvGaussScalingPicksTheBetterPreparationAndFitsWithIt() {
        // features on very different scales: minmax and zscore give different libraries
        Random rnd = new Random(11);
        Matrix x = points(40, 2, rnd);
        for (int i = 0; i < x.rows(); i++) {
            x.set(i, 1, 0.02 * x.get(i, 1));
        }
        double[] y = labels(x, rnd);
        double[] cg = {0.1, 10};
        double[] eg = {0.5};
        KernelLearning.Settings cv = new KernelLearning.Settings(1, Orthant.LOWER, 4, 3, false,
                KernelLearning.GaussScaling.CV);
        for (KernelLearning.Method m : new KernelLearning.Method[] {KernelLearning.Method.SIMPLEMKL,
            KernelLearning.Method.COMBINED}) {
            KernelLearning.Choice mm = KernelLearning.crossValidate(m, x, y, cg, eg, 3, 5,
                    cv.withGaussScaling(KernelLearning.GaussScaling.MINMAX), 1e-3);
            KernelLearning.Choice zs = KernelLearning.crossValidate(m, x, y, cg, eg, 3, 5,
                    cv.withGaussScaling(KernelLearning.GaussScaling.ZSCORE), 1e-3);
            assertEquals(KernelLearning.GaussScaling.MINMAX, mm.gaussScaling());
            assertEquals(KernelLearning.GaussScaling.ZSCORE, zs.gaussScaling());
            assertEquals(3, mm.grid().get(0).length); // untagged grid when the scaling is fixed
            KernelLearning.CvFit both = KernelLearning.crossValidateAndFit(m, x, y, cg, true, eg, 3, 5, cv, 1e-3);
            KernelLearning.Choice ch = both.choice();
            KernelLearning.Choice want = zs.accuracy() > mm.accuracy() ? zs : mm; // ties go to minmax
            assertEquals(want.gaussScaling(), ch.gaussScaling(), m.label());
            assertEquals(want.accuracy(), ch.accuracy(), 0.0);
            assertEquals(want.cRel(), ch.cRel(), 0.0);
            assertEquals(mm.grid().size() + zs.grid().size(), ch.grid().size());
            for (double[] row : ch.grid()) {
                assertEquals(4, row.length);
            }
            // the final classifier is the one a fixed-scaling fit with the chosen parameters gives
            KernelLearning.Fitted ref = KernelLearning.fit(m, x, y, ch.cRel(), true, 0.5, ch.resolve(cv), 1e-3);
            double[] a = both.fitted().decision(x, y, x);
            double[] b = ref.decision(x, y, x);
            for (int i = 0; i < a.length; i++) {
                assertEquals(b[i], a[i], 1e-9 * (1 + Math.abs(b[i])));
            }
        }
        // an unresolved CV preparation cannot build a library
        assertThrows(IllegalStateException.class, () -> cv.gaussPoly(x));
        assertThrows(IllegalArgumentException.class, () -> new KernelLearning.Settings(1, Orthant.LOWER, 4, 3,
                false, null));
    }

    @Test
    void bandwidthReadingsGiveTheirKernelsAndTessellatedColumnsShareTheWideGrid() {
        // β reading (Sec. II): exp(−β‖x−y‖²), i.e. σ = 1/√(2β); σ reading (the default): exp(−‖x−y‖²/(2σ²))
        double[] sig = new KernelLearning.Settings(1, Orthant.LOWER, 5, 1, true).gaussSigmas();
        double[] sigOld = new KernelLearning.Settings(1, Orthant.LOWER, 5, 1).gaussSigmas();
        double[] x = {0.1, 0.7};
        double[] y = {0.4, 0.2};
        double d2 = 0.3 * 0.3 + 0.5 * 0.5;
        for (int i = 0; i < sig.length; i++) {
            double b = GaussPolyLibrary.PAPER_BANDWIDTHS[i];
            assertEquals(Math.exp(-b * d2), new GaussianKernel(sig[i]).eval(x, y), 1e-15);
            assertEquals(Math.exp(-d2 / (2 * b * b)), new GaussianKernel(sigOld[i]).eval(x, y), 1e-15);
        }
        assertTrue(java.util.Arrays.equals(KernelLearning.TK_C_GRID,
                KernelLearning.Method.SIMPLEMKL_TK.defaultCGrid()));
        assertTrue(java.util.Arrays.equals(KernelLearning.TK_EPSILON_GRID,
                KernelLearning.Method.SIMPLEMKL_TK.defaultEpsilonGrid()));
        assertTrue(java.util.Arrays.equals(KernelLearning.DEFAULT_C_GRID,
                KernelLearning.Method.COMBINED.defaultCGrid()));
    }

    @Test
    void standardisedLibraryEqualsThePlainLibraryOnStandardisedData() {
        Random rnd = new Random(21);
        Matrix x = points(25, 3, rnd);
        for (int i = 0; i < 25; i++) {
            x.set(i, 2, 0.5); // a constant feature keeps scale 1
        }
        LibraryKernel.Standardization std = LibraryKernel.Standardization.of(x);
        Matrix z = Matrix.zeros(25, 3);
        for (int j = 0; j < 3; j++) {
            double mean = 0;
            for (int i = 0; i < 25; i++) {
                mean += x.get(i, j) / 25;
            }
            double ss = 0;
            for (int i = 0; i < 25; i++) {
                ss += (x.get(i, j) - mean) * (x.get(i, j) - mean);
            }
            double sd = j == 2 ? 1 : Math.sqrt(ss / 24); // the constant feature is only centred
            for (int i = 0; i < 25; i++) {
                z.set(i, j, j == 2 ? 0 : (x.get(i, j) - mean) / sd);
            }
        }
        GaussPolyLibrary a = new GaussPolyLibrary(x, GaussPolyLibrary.PAPER_BANDWIDTHS, GaussPolyLibrary.PAPER_DEGREES,
                std);
        GaussPolyLibrary b = new GaussPolyLibrary(z, GaussPolyLibrary.PAPER_BANDWIDTHS, GaussPolyLibrary.PAPER_DEGREES);
        assertEquals(b.size(), a.size());
        double[][] xr = x.toRowArrays();
        double[][] zr = z.toRowArrays();
        for (int k = 0; k < a.size(); k++) {
            for (int i = 0; i < 25; i += 6) {
                for (int j = 0; j < 25; j += 5) {
                    double want = b.member(k).eval(zr[i], zr[j]);
                    assertEquals(want, a.member(k).eval(xr[i], xr[j]), 1e-12 * Math.max(1, Math.abs(want)),
                            a.describe(k));
                }
            }
        }
        assertTrue(a.describe(0).contains("standardised"));
        assertThrows(IllegalArgumentException.class,
                () -> new LibraryKernel.Standardization(new double[] {0}, new double[] {0}));
        assertThrows(IllegalArgumentException.class, () -> new GaussPolyLibrary(x, GaussPolyLibrary.PAPER_BANDWIDTHS,
                GaussPolyLibrary.PAPER_DEGREES, new LibraryKernel.Standardization(new double[2], new double[] {1, 1})));
    }

    @Test
    void frankWolfeReachesTheBruteForceOptimumOverTwoByTwoP() {
        // n = 1, d = 0: P = [[t, r], [r, 1 − t]] ⪰ 0 is a disc; grid it and take the smallest SVM dual value
        Random rnd = new Random(17);
        Matrix x = points(24, 1, rnd);
        double[] y = labels(x, rnd);
        double c = 5.0;
        TkGram eng = new TkGram(x, 0, -0.1, 1.1, Orthant.LOWER);
        double best = Double.POSITIVE_INFINITY;
        int grid = 40;
        for (int a = 0; a <= grid; a++) {
            double t = (double) a / grid;
            double rmax = Math.sqrt(t * (1 - t));
            for (int b = -grid / 2; b <= grid / 2; b++) {
                double r = rmax * b / (grid / 2.0);
                Matrix p = Matrix.of(new double[][] {{t, r}, {r, 1 - t}});
                double j = Smo.solve(KernelRows.dense(eng.gram(p)), y, c, TIGHT, null).dual();
                best = Math.min(best, j);
            }
        }
        TkLearner.Options o = new TkLearner.Options(0, 0.1, Orthant.LOWER, c, 1.0, 1e-6, 500, TIGHT);
        TkLearner.Result res = TkLearner.fit(x, y, o);
        // FW's value is an upper bound on the optimum, the grid's too; they must agree to the grid resolution
        assertEquals(best, res.objective(), 2e-3 * best);
        assertTrue(res.objective() <= best * (1 + 1e-9) + 1e-9 || Math.abs(res.objective() - best) < 2e-3 * best);
        // the certified lower bound objective − gap is below the grid minimum
        assertTrue(res.objective() - res.gap() <= best + 1e-9);
        Matrix p = res.kernel().p();
        assertEquals(1.0, p.trace(), 1e-9);
        assertTrue(org.psdkit.linalg.Linalg.eigvalsh(p)[0] >= -1e-9);
    }

    @Test
    void learnedKernelBeatsItsStartAndModelPredictsConsistently() {
        Random rnd = new Random(3);
        Matrix x = points(40, 2, rnd);
        double[] y = labels(x, rnd);
        TkLearner.Result r = TkLearner.fit(x, y, TkLearner.Options.of(1, 0.1, 5.0).withGap(1e-2, 100));
        TkGram eng = new TkGram(x, 1, -0.1, 1.1, Orthant.LOWER);
        int q = eng.q();
        double[] s0 = new double[2 * q];
        s0[0] = Math.sqrt(0.5);
        s0[q] = Math.sqrt(0.5);
        double start = Smo.solve(KernelRows.dense(eng.rankOne(s0)), y, 5.0, 1e-3, null).dual();
        assertTrue(r.objective() < start);
        assertTrue(r.converged());
        // the Gram matrix the learner trained on is the kernel class's Gram matrix (train = test function)
        Matrix viaKernel = r.kernel().gram(x);
        Matrix viaEngine = eng.gram(r.kernel().p());
        assertEquals(0, viaKernel.minus(viaEngine).maxAbs(), 1e-10 * viaKernel.maxAbs());
    }

    @Test
    void simpleMklMatchesBruteForceOnTwoKernels() {
        Random rnd = new Random(5);
        Matrix x = points(40, 2, rnd);
        double[] y = labels(x, rnd);
        Kernel k1 = new GaussianKernel(0.1);
        Kernel k2 = new GaussianKernel(1.0);
        Matrix g1 = k1.gram(x);
        Matrix g2 = k2.gram(x);
        g1.scaleInPlace(1 / g1.trace());
        g2.scaleInPlace(1 / g2.trace());
        KernelLibrary lib = new KernelLibrary() {
            @Override
            public int size() {
                return 2;
            }

            @Override
            public int points() {
                return 40;
            }

            @Override
            public String describe(int k) {
                return "k" + k;
            }

            @Override
            public double[] quadForms(double[] beta) {
                return new double[] {TkLearner.quad(g1, beta), TkLearner.quad(g2, beta)};
            }

            @Override
            public void addCombination(double[] w, double[] out) {
                for (int i = 0; i < out.length; i++) {
                    out[i] += w[0] * g1.data()[i] + w[1] * g2.data()[i];
                }
            }

            @Override
            public Kernel combined(double[] w) {
                return new WeightedSumKernel(List.of(k1, k2), w);
            }
        };
        double c = 40 * 1.0;
        double best = Double.POSITIVE_INFINITY;
        for (int a = 0; a <= 200; a++) {
            double mu = a / 200.0;
            Matrix k = g1.scale(mu).plus(g2.scale(1 - mu));
            best = Math.min(best, Smo.solve(KernelRows.dense(k), y, c, TIGHT, null).dual());
        }
        SimpleMkl.Result r = SimpleMkl.fit(lib, y, new SimpleMkl.Options(c, 1e-5, 200, TIGHT));
        assertEquals(best, r.objective(), 1e-3 * best);
        assertEquals(1.0, r.mu()[0] + r.mu()[1], 1e-12);
    }

    @Test
    void randomTkLibraryQuadFormsMatchExplicitGrams() {
        Random rnd = new Random(8);
        Matrix x = points(12, 2, rnd);
        TkGram eng = new TkGram(x, 1, -0.1, 1.1, Orthant.LOWER);
        TkRandomLibrary lib = new TkRandomLibrary(eng, 3, 99);
        double[] beta = new double[12];
        for (int i = 0; i < 12; i++) {
            beta[i] = rnd.nextGaussian();
        }
        double[] qf = lib.quadForms(beta);
        double[] w = {0.2, 0.5, 0.3};
        double[] combo = new double[144];
        lib.addCombination(w, combo);
        double direct = TkLearner.quad(Matrix.wrap(12, 12, combo), beta);
        // sparse combinations are summed from single-precision Gram matrices: float rounding (~1e-7 relative)
        assertEquals(direct, 0.2 * qf[0] + 0.5 * qf[1] + 0.3 * qf[2], 1e-5 * Math.abs(direct));
        // each library kernel has unit trace on the training set
        for (int k = 0; k < 3; k++) {
            double[] one = new double[3];
            one[k] = 1;
            double[] g = new double[144];
            lib.addCombination(one, g);
            assertEquals(1.0, Matrix.wrap(12, 12, g).trace(), 1e-6);
        }
        TessellatedKernel kk = (TessellatedKernel) lib.combined(w);
        Matrix viaKernel = kk.gram(x);
        assertEquals(0, viaKernel.minus(Matrix.wrap(12, 12, combo)).maxAbs(), 1e-6 * viaKernel.maxAbs());
    }
}
