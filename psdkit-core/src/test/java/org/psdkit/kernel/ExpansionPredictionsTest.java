package org.psdkit.kernel;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.psdkit.classify.OvoDecision;
import org.psdkit.cone.KernelExpansion;
import org.psdkit.density.BaseMeasure;
import org.psdkit.density.GlmDensity;
import org.psdkit.density.LinearDensity;
import org.psdkit.linalg.Linalg;
import org.psdkit.linalg.Matrix;
import org.psdkit.psd.PsdModel;
import org.psdkit.regression.KernelRidge;
import org.psdkit.regression.Svr;
import org.psdkit.regression.psd.KernelExpansionModel;

/**
 * Every family's prediction that is a kernel expansion K(x, Z) c goes through {@link KernelProducts}: up to
 * {@link KernelProducts#DGEMV_ENTRIES} entries each caller's values are those of its former expression bit for bit
 * (reproduced here); beyond, they agree with it to the rounding of the sum, 1e-12 of Σ_j |k(x_i, z_j) c_j| per entry
 * (the tolerance of {@code CrossTimesTest}). The large cases span several row blocks of
 * {@link KernelProducts#BLOCK_ENTRIES} where the caller's blocks matter.
 */
class ExpansionPredictionsTest {

    private static final Kernel GAUSS = new GaussianKernel(1.3);

    /** Σ_j |k(x_i, z_j) c_j| per row. */
    private static double[] magnitudes(Kernel k, Matrix x, Matrix z, double[] c) {
        Matrix kx = k.cross(x, z);
        double[] mag = new double[x.rows()];
        for (int j = 0; j < z.rows(); j++) {
            for (int i = 0; i < x.rows(); i++) {
                mag[i] += Math.abs(kx.get(i, j) * c[j]);
            }
        }
        return mag;
    }

    /** Asserts |got − old| ≤ 1e-12 Σ_j |k c| per row; returns the largest ratio. */
    static double assertWithinRounding(Kernel k, Matrix x, Matrix z, double[] c, double[] old, double[] got) {
        assertEquals(old.length, got.length);
        double[] mag = magnitudes(k, x, z, c);
        double worst = 0;
        for (int i = 0; i < old.length; i++) {
            double r = Math.abs(got[i] - old[i]) / mag[i];
            assertTrue(r <= 1e-12, "row " + i + ": " + got[i] + " against " + old[i] + " (sum of magnitudes "
                    + mag[i] + ")");
            worst = Math.max(worst, r);
        }
        return worst;
    }

    private static double[] plus(double[] v, double a) {
        double[] out = v.clone();
        for (int i = 0; i < out.length; i++) {
            out[i] += a;
        }
        return out;
    }

    @Test
    void transposedTimesKeepsTheTransposedExpressionUpToTheThreshold() {
        Matrix z = CrossTimesTest.gaussianPoints(200, 4, 11, 0.3);
        Matrix x = CrossTimesTest.gaussianPoints(600, 4, 12, 0.3);
        double[] c = CrossTimesTest.coefficients(200, 13);
        assertArrayEquals(Linalg.gemv(GAUSS.cross(z, x), true, c), KernelProducts.transposedTimes(GAUSS, z, x, c));
        Matrix big = CrossTimesTest.gaussianPoints(900, 4, 14, 0.3);
        assertTrue(900L * 200 > KernelProducts.DGEMV_ENTRIES);
        double[] old = Linalg.gemv(GAUSS.cross(z, big), true, c);
        double[] got = KernelProducts.transposedTimes(GAUSS, z, big, c);
        assertWithinRounding(GAUSS, big, z, c, old, got);
        assertTrue(java.util.stream.IntStream.range(0, old.length).anyMatch(i -> old[i] != got[i]),
                "beyond the threshold the values come from crossTimes, not the transposed matrix");
    }

    @Test
    void severalColumnsAreDgemmOfTheCrossMatrixPerBlock() {
        Matrix z = CrossTimesTest.gaussianPoints(200, 5, 21, 0.0);
        Matrix a = coefficientColumns(200, 3, 22);
        Matrix small = CrossTimesTest.gaussianPoints(500, 5, 25, 0.0);
        assertArrayEquals(Linalg.gemm(1.0, GAUSS.cross(small, z), false, a, false).data(),
                KernelProducts.times(GAUSS, small, z, a).data());
        // 22,000 × 200 = 4.4e6 entries > BLOCK_ENTRIES: two row blocks
        Matrix large = CrossTimesTest.gaussianPoints(22_000, 5, 26, 0.0);
        assertTrue(22_000L * 200 > KernelProducts.BLOCK_ENTRIES);
        assertTrue(KernelProducts.blockRows(22_000, 200) < 22_000);
        Matrix old = Linalg.gemm(1.0, GAUSS.cross(large, z), false, a, false);
        Matrix got = KernelProducts.times(GAUSS, large, z, a);
        for (int t = 0; t < 3; t++) {
            assertWithinRounding(GAUSS, large, z, a.col(t), old.col(t), got.col(t));
        }
        // the first block's rows are dgemm on that block's cross matrix bit for bit
        int b = KernelProducts.blockRows(22_000, 200);
        Matrix first = large.rowRange(0, b);
        Matrix firstOld = Linalg.gemm(1.0, GAUSS.cross(first, z), false, a, false);
        for (int t = 0; t < 3; t++) {
            for (int i = 0; i < b; i++) {
                assertEquals(firstOld.get(i, t), got.get(i, t), 0.0);
            }
        }
    }

    @Test
    void crossBlocksNeverHoldMoreThanOneBlock() {
        Matrix z = CrossTimesTest.gaussianPoints(200, 3, 27, 0.0);
        Matrix x = CrossTimesTest.gaussianPoints(50_000, 3, 28, 0.0);
        int[] next = {0};
        int[] blocks = {0};
        KernelProducts.crossBlocks(GAUSS, x, z, (r0, kb) -> {
            assertEquals(next[0], r0);
            assertEquals(200, kb.cols());
            assertTrue((long) kb.rows() * kb.cols() <= KernelProducts.BLOCK_ENTRIES, kb.rows() + " rows");
            if (blocks[0] == 1) {
                assertArrayEquals(GAUSS.cross(x.rowRange(r0, r0 + kb.rows()), z).data(), kb.data());
            }
            next[0] += kb.rows();
            blocks[0]++;
        });
        assertEquals(50_000, next[0]);
        int rows = KernelProducts.blockRows(50_000, 200);
        assertEquals((50_000 + rows - 1) / rows, blocks[0]);
        assertTrue(blocks[0] >= 3, blocks[0] + " blocks");
    }

    @Test
    void multiTargetKernelRidge() {
        Matrix pts = CrossTimesTest.gaussianPoints(200, 3, 31, 0.0);
        Matrix alphas = coefficientColumns(200, 2, 32);
        double[] offsets = {1.5, -2.0};
        KernelRidge m = KernelRidge.of(GAUSS, pts, alphas, offsets, KernelRidge.Options.standard(0.01), null);
        Function<Matrix, Matrix> old = x -> {
            Matrix p = Linalg.gemm(1.0, GAUSS.cross(x, pts), false, alphas, false);
            for (int t = 0; t < 2; t++) {
                for (int i = 0; i < x.rows(); i++) {
                    p.set(i, t, p.get(i, t) + offsets[t]);
                }
            }
            return p;
        };
        Matrix small = CrossTimesTest.gaussianPoints(600, 3, 34, 0.0);
        assertArrayEquals(old.apply(small).data(), m.predict(small).data());
        Matrix large = CrossTimesTest.gaussianPoints(22_000, 3, 35, 0.0);
        Matrix o = old.apply(large);
        Matrix g = m.predict(large);
        for (int t = 0; t < 2; t++) {
            assertWithinRounding(GAUSS, large, pts, alphas.col(t), o.col(t), g.col(t));
        }
    }

    @Test
    void svrDecisionValues() {
        Matrix sv = CrossTimesTest.gaussianPoints(200, 4, 41, 0.0);
        double[] coef = CrossTimesTest.coefficients(200, 42);
        Svr m = new Svr(GAUSS, sv, coef, 0.75, 1.0, 0.1, null);
        Matrix small = CrossTimesTest.gaussianPoints(600, 4, 43, 0.0);
        assertArrayEquals(plus(GAUSS.cross(small, sv).times(coef), 0.75), m.predictVector(small));
        Matrix large = CrossTimesTest.gaussianPoints(3_000, 4, 44, 0.0);
        assertWithinRounding(GAUSS, large, sv, coef, plus(GAUSS.cross(large, sv).times(coef), 0.75),
                m.predictVector(large));
    }

    @Test
    void coneKernelExpansion() {
        Matrix pts = CrossTimesTest.gaussianPoints(200, 2, 51, 0.0);
        double[] c = CrossTimesTest.coefficients(200, 52);
        KernelExpansion f = new KernelExpansion(GAUSS, 0.01, pts, c, 0.5, KernelExpansion.Link.IDENTITY);
        double sum = 0;
        for (double v : c) {
            sum += v;
        }
        double shift = 0.01 * sum + 0.5;
        Matrix small = CrossTimesTest.gaussianPoints(600, 2, 53, 0.0);
        double[] old = Linalg.gemv(GAUSS.cross(small, pts), false, c);
        for (int i = 0; i < old.length; i++) {
            old[i] += shift;
        }
        assertArrayEquals(old, f.eval(small));
        Matrix large = CrossTimesTest.gaussianPoints(3_000, 2, 54, 0.0);
        assertWithinRounding(GAUSS, large, pts, c, plus(Linalg.gemv(GAUSS.cross(large, pts), false, c), shift),
                f.eval(large));
    }

    @Test
    void psdRegressionKernelExpansionModel() {
        // 40 points: 3,000 rows are 120,000 entries, below the threshold, in two of PsdModel's 2,048-row blocks
        Matrix pts = CrossTimesTest.gaussianPoints(40, 3, 61, 0.0);
        double[] alpha = CrossTimesTest.coefficients(40, 62);
        KernelExpansionModel m = new KernelExpansionModel("pnm", GAUSS, pts, alpha, false, null);
        Matrix small = CrossTimesTest.gaussianPoints(3_000, 3, 63, 0.0);
        assertTrue(3_000L * 40 <= KernelProducts.DGEMV_ENTRIES && 3_000 > PsdModel.EVAL_BLOCK_ROWS);
        double[] old = new double[3_000];
        for (int s = 0; s < 3_000; s += PsdModel.EVAL_BLOCK_ROWS) {
            int e = Math.min(3_000, s + PsdModel.EVAL_BLOCK_ROWS);
            double[] part = Linalg.gemv(GAUSS.cross(small.rowRange(s, e), pts), false, alpha);
            System.arraycopy(part, 0, old, s, part.length);
        }
        assertArrayEquals(old, m.values(small));
        Matrix pts2 = CrossTimesTest.gaussianPoints(200, 3, 64, 0.0);
        double[] alpha2 = CrossTimesTest.coefficients(200, 65);
        KernelExpansionModel m2 = new KernelExpansionModel("pnm", GAUSS, pts2, alpha2, false, null);
        double[] old2 = new double[3_000];
        for (int s = 0; s < 3_000; s += PsdModel.EVAL_BLOCK_ROWS) {
            int e = Math.min(3_000, s + PsdModel.EVAL_BLOCK_ROWS);
            double[] part = Linalg.gemv(GAUSS.cross(small.rowRange(s, e), pts2), false, alpha2);
            System.arraycopy(part, 0, old2, s, part.length);
        }
        assertWithinRounding(GAUSS, small, pts2, alpha2, old2, m2.values(small));
    }

    @Test
    void linearAndGlmDensities() {
        Matrix pts = CrossTimesTest.gaussianPoints(200, 2, 71, 0.0);
        double[] alpha = new double[200];
        for (int j = 0; j < 200; j++) {
            alpha[j] = 1e-3 * (1 + j % 7);
        }
        LinearDensity lin = new LinearDensity("ncm", GAUSS, pts, alpha, new BaseMeasure.Lebesgue(), null);
        GlmDensity glm = new GlmDensity(GAUSS, pts, alpha, 0.25, new BaseMeasure.Lebesgue(), null, 1L);
        Matrix small = CrossTimesTest.gaussianPoints(600, 2, 72, 0.0);
        double[] old = Linalg.gemv(GAUSS.cross(pts, small), true, alpha);
        assertArrayEquals(old, lin.f(small));
        assertArrayEquals(plus(old, -0.25), glm.logDensity(small));
        Matrix large = CrossTimesTest.gaussianPoints(3_000, 2, 73, 0.0);
        double[] oldL = Linalg.gemv(GAUSS.cross(pts, large), true, alpha);
        assertWithinRounding(GAUSS, large, pts, alpha, oldL, lin.f(large));
        assertWithinRounding(GAUSS, large, pts, alpha, plus(oldL, -0.25), glm.logDensity(large));
    }

    /** The one-vs-one decision values as computed before: the whole cross matrix, then each pair's two sums. */
    private static double[] ovoOld(OvoDecision m, Matrix x, int[] counts, double[][] coef, double[] bias) {
        Matrix kv = m.kernel().cross(x, m.supportVectors());
        int k = counts.length;
        int[] start = new int[k];
        for (int i = 1; i < k; i++) {
            start[i] = start[i - 1] + counts[i - 1];
        }
        double[] out = new double[x.rows() * bias.length];
        for (int r = 0; r < x.rows(); r++) {
            int p = 0;
            for (int i = 0; i < k; i++) {
                for (int j = i + 1; j < k; j++) {
                    double sum = 0;
                    for (int s = start[i]; s < start[i] + counts[i]; s++) {
                        sum += coef[j - 1][s] * kv.get(r, s);
                    }
                    for (int s = start[j]; s < start[j] + counts[j]; s++) {
                        sum += coef[i][s] * kv.get(r, s);
                    }
                    out[r + p * x.rows()] = sum + bias[p];
                    p++;
                }
            }
        }
        return out;
    }

    @Test
    void oneVersusOneSvm() {
        int[] counts = {70, 60, 70};
        Matrix sv = CrossTimesTest.gaussianPoints(200, 3, 81, 0.0);
        double[][] coef = {CrossTimesTest.coefficients(200, 82), CrossTimesTest.coefficients(200, 83)};
        double[] bias = {0.1, -0.2, 0.3};
        OvoDecision m = new OvoDecision(List.of("a", "b", "c"), GAUSS, sv, counts, coef, bias, null, null);
        Matrix small = CrossTimesTest.gaussianPoints(600, 3, 84, 0.0);
        assertArrayEquals(ovoOld(m, small, counts, coef, bias), m.predict(small).data());
        // 22,000 rows × 200 support vectors: two row blocks
        Matrix large = CrossTimesTest.gaussianPoints(22_000, 3, 85, 0.0);
        double[] old = ovoOld(m, large, counts, coef, bias);
        Matrix got = m.predict(large);
        int p = 0;
        for (int i = 0; i < 3; i++) {
            for (int j = i + 1; j < 3; j++) {
                // pair (i, j): coefficients of class i's support vectors from row j − 1, of class j's from row i
                double[] c = new double[200];
                int si = i == 0 ? 0 : counts[0] + (i == 2 ? counts[1] : 0);
                int sj = j == 0 ? 0 : counts[0] + (j == 2 ? counts[1] : 0);
                for (int s = si; s < si + counts[i]; s++) {
                    c[s] = coef[j - 1][s];
                }
                for (int s = sj; s < sj + counts[j]; s++) {
                    c[s] = coef[i][s];
                }
                double[] o = java.util.Arrays.copyOfRange(old, p * 22_000, (p + 1) * 22_000);
                assertWithinRounding(GAUSS, large, sv, c, o, got.col(p));
                p++;
            }
        }
    }

    /** A rows × cols coefficient matrix whose column t is {@code CrossTimesTest.coefficients(rows, seed + t)}. */
    private static Matrix coefficientColumns(int rows, int cols, long seed) {
        Matrix a = Matrix.zeros(rows, cols);
        for (int t = 0; t < cols; t++) {
            double[] c = CrossTimesTest.coefficients(rows, seed + t);
            for (int j = 0; j < rows; j++) {
                a.set(j, t, c[j]);
            }
        }
        return a;
    }
}
