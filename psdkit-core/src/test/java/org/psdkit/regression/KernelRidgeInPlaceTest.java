package org.psdkit.regression;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.psdkit.kernel.GaussianKernel;
import org.psdkit.kernel.KernelProducts;
import org.psdkit.kernel.Kernel;
import org.psdkit.kernel.Kernels;
import org.psdkit.kernel.ParallelColumns;
import org.psdkit.linalg.Linalg;
import org.psdkit.linalg.LinalgException;
import org.psdkit.linalg.Matrix;
import org.psdkit.linalg.SpdBuffer;
import org.psdkit.linalg.SpdSolve;
import org.psdkit.linalg.Threads;

/** The exact path of {@link KernelRidge#fit}: the Gram matrix written into one native buffer and factored in place. */
class KernelRidgeInPlaceTest {

    /** α by LU (dgesv) on the explicit matrix K + λI of a Java Gram matrix. */
    static double[] denseAlpha(Kernel k, Matrix x, double[] y, double lambda) {
        Matrix a = k.gram(x);
        a.addToDiagonal(lambda);
        return Linalg.solve(a, Matrix.column(y)).col(0);
    }

    @Test
    void inPlacePathAgreesWithADenseSolveOverSeveralBlocks() {
        // n = 700 > 128 columns per Gram block, so several blocks run (on two threads where the machine has them)
        Matrix x = KernelRidgeTest.points(700, 4, 21);
        double[] y = KernelRidgeTest.target(x, 22);
        GaussianKernel k = new GaussianKernel(1.0);
        KernelRidge m = KernelRidge.fit(k, x, y, KernelRidge.Options.standard(0.01));
        assertEquals("cholesky", m.diagnostics().route());
        assertTrue(KernelRidgeTest.maxRelDiff(m.alpha(), denseAlpha(k, x, y, 0.01)) < 1e-8);
        // the precomputed-Gram entry point takes the same in-place solver
        KernelRidge g = KernelRidge.fitGram(k, x, k.gram(x), y, KernelRidge.Options.standard(0.01));
        assertTrue(KernelRidgeTest.maxRelDiff(g.alpha(), m.alpha()) < 1e-10);
    }

    @Test
    void gramIntoMatchesGramForRadialAndGenericKernels() {
        Matrix x = KernelRidgeTest.points(300, 3, 23);
        for (String spec : new String[] {"gaussian(sigma=0.7)", "laplacian(sigma=2)", "polynomial(degree=2)"}) {
            Kernel k = Kernels.parse(spec);
            Matrix ref = k.gram(x);
            try (SpdBuffer b = SpdBuffer.allocate(300)) {
                k.gramInto(x, b);
                double[] col = new double[300 * 300];
                b.read(0, 0, 300, col);
                for (int j = 0; j < 300; j++) {
                    for (int i = j; i < 300; i++) {
                        assertEquals(ref.get(i, j), col[i + j * 300], 1e-13 * Math.max(1, Math.abs(ref.get(i, j))),
                                spec + " at " + i + "," + j);
                    }
                }
            }
        }
    }

    @Test
    void oneAndTwoThreadsGiveTheSameSolution() {
        Matrix x = KernelRidgeTest.points(600, 5, 24);
        double[] y = KernelRidgeTest.target(x, 25);
        GaussianKernel k = new GaussianKernel(1.0);
        int before = Threads.get();
        try {
            Threads.set(1);
            assertEquals(1, ParallelColumns.threads());
            double[] a1 = KernelRidge.fit(k, x, y, KernelRidge.Options.standard(0.01)).alpha();
            Threads.set(2);
            double[] a2 = KernelRidge.fit(k, x, y, KernelRidge.Options.standard(0.01)).alpha();
            assertTrue(KernelRidgeTest.maxRelDiff(a2, a1) < 1e-12);
        } finally {
            Threads.set(before);
        }
        assertThrows(IllegalArgumentException.class, () -> Threads.set(0));
    }

    @Test
    void failedFactorisationIsRefilledWithJitterOrRefused() {
        // rank-one matrix 1·1ᵀ with no shift: dpotrf fails at the second pivot; with a refill the jitter rescues it
        Matrix ones = Matrix.zeros(5, 5);
        java.util.Arrays.fill(ones.data(), 1.0);
        double[] b = {1, 1, 1, 1, 1};
        try (SpdBuffer a = SpdBuffer.copyOf(ones)) {
            SpdSolve.Result r = SpdSolve.choleskyInPlace(a, 0, b, buf -> buf.setLower(ones));
            assertTrue(r.diagnostics().jitter() > 0);
            double[] back = ones.times(r.x().col(0));
            assertArrayEquals(b, back, 1e-6);
        }
        try (SpdBuffer a = SpdBuffer.copyOf(ones)) {
            assertThrows(LinalgException.class, () -> SpdSolve.choleskyInPlace(a, 0, b, null));
        }
    }

    @Test
    void predictionInRowBlocksEqualsOneCrossMatrix() {
        Matrix x = KernelRidgeTest.points(200, 2, 26);
        double[] y = KernelRidgeTest.target(x, 27);
        GaussianKernel k = new GaussianKernel(0.9);
        KernelRidge m = KernelRidge.fit(k, x, y, KernelRidge.Options.standard(0.1));
        // 22,000 test rows × 200 points = 4.4e6 entries > KernelProducts.BLOCK_ENTRIES: two blocks
        Matrix test = KernelRidgeTest.points(22_000, 2, 28);
        double[] whole = Linalg.gemv(k.cross(test, x), false, m.alpha());
        assertTrue(22_000L * 200 > KernelProducts.BLOCK_ENTRIES);
        assertTrue(KernelRidgeTest.maxRelDiff(m.predictVector(test), whole) < 1e-13);
    }

    @Test
    void smallPredictionsKeepDgemvLargerOnesSumByTiles() {
        Matrix x = KernelRidgeTest.points(200, 2, 29);
        double[] y = KernelRidgeTest.target(x, 30);
        GaussianKernel k = new GaussianKernel(0.9);
        KernelRidge m = KernelRidge.fit(k, x, y, KernelRidge.Options.standard(0.01));
        // 600 × 200 = 120,000 entries: the cross matrix and dgemv, bit for bit
        Matrix small = KernelRidgeTest.points(600, 2, 31);
        assertTrue(600L * 200 <= KernelProducts.DGEMV_ENTRIES);
        double[] viaMatrix = Linalg.gemv(k.cross(small, x), false, m.alpha());
        double[] p = m.predictVector(small);
        for (int i = 0; i < p.length; i++) {
            assertEquals(viaMatrix[i] + m.offset(), p[i], 0.0);
        }
        // 700 × 200 = 140,000 entries (one block): crossTimes, bit for bit, within 1e-13 of dgemv's
        Matrix large = KernelRidgeTest.points(700, 2, 32);
        assertTrue(700L * 200 > KernelProducts.DGEMV_ENTRIES);
        double[] tiled = k.crossTimes(large, x, m.alpha());
        p = m.predictVector(large);
        for (int i = 0; i < p.length; i++) {
            assertEquals(tiled[i] + m.offset(), p[i], 0.0);
        }
        double[] dgemv = Linalg.gemv(k.cross(large, x), false, m.alpha());
        for (int i = 0; i < dgemv.length; i++) {
            dgemv[i] += m.offset();
        }
        assertTrue(KernelRidgeTest.maxRelDiff(p, dgemv) < 1e-13);
    }

    @Test
    void tooLargeABufferIsABadInputNamingTheSize() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> SpdBuffer.allocate(-1));
        assertTrue(e.getMessage().contains("n must be >= 0"));
    }
}
