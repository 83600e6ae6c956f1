package org.psdkit.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.psdkit.linalg.Linalg;
import org.psdkit.linalg.Matrix;

/** Seeded property checks: PSD Gram matrices, eval = Gram/cross/diag entries, explicit feature maps. */
class KernelPropertyTest {

    /** The PSD criterion of the issue: smallest eigenvalue ≥ −1e-10 · trace. */
    private static final double PSD_FLOOR = 1e-10;
    /** Agreement between eval and matrix entries, relative to max(1, |value|). */
    private static final double AGREE = 1e-11;

    static Matrix uniform(int n, int d, long seed) {
        Random r = new Random(seed);
        Matrix x = Matrix.zeros(n, d);
        for (int k = 0; k < n * d; k++) {
            x.data()[k] = r.nextDouble();
        }
        return x;
    }

    /** Points in [0,1]^d with rows 1 and 3 copies of row 0 (duplicates exercise the delta kernel and rank loss). */
    static Matrix withDuplicates(int n, int d, long seed) {
        Matrix x = uniform(n, d, seed);
        for (int j = 0; j < d; j++) {
            x.set(1, j, x.get(0, j));
            x.set(3, j, x.get(0, j));
        }
        return x;
    }

    static List<Kernel> zoo(int d) {
        Matrix a = Matrix.zeros(d, d);
        Random r = new Random(7);
        Matrix g = uniform(d, d, 8);
        a = Linalg.syrk(g, false);
        List<Kernel> ks = new ArrayList<>(List.of(
                Kernels.gaussian(0.7), Kernels.laplacian(0.9), Kernels.linear(), Kernels.linear(a),
                Kernels.polynomial(3, 0), Kernels.polynomial(2, 1.5), Kernels.exponential(0.8),
                Kernels.exponentialSeries(0.5, 4), Kernels.anova(), Kernels.min(), Kernels.delta(),
                Kernels.constant(),
                Kernels.parse("gaussian(sigma=0.5) + 0.01*delta"),
                Kernels.parse("laplacian(sigma=2) * polynomial(degree=2, offset=1)"),
                Kernels.parse("0.3*anova + 2*min * gaussian(sigma=1.5) + linear"),
                Kernels.parse("(exponential(a=0.2, degree=3) + 1) * (delta + gaussian(gamma=3))"),
                Kernels.compose(Kernels.gaussian(0.4), x -> new double[] {x[0] * x[0], Math.sin(3 * x[1])}),
                Kernels.compose(Kernels.polynomial(2, 1), x -> new double[] {x[0] + x[1], x[0] * x[1]})));
        r.nextInt();
        return ks;
    }

    static double minEig(Matrix g) {
        return Linalg.eigvalsh(g)[0];
    }

    static void assertClose(double expected, double actual, String what) {
        double tol = AGREE * Math.max(1.0, Math.abs(expected));
        assertTrue(Math.abs(expected - actual) <= tol, what + ": expected " + expected + " got " + actual);
    }

    @Test
    void everyKernelGivesSymmetricPsdGramMatricesThatAgreeWithEval() {
        int d = 3;
        for (long seed = 1; seed <= 5; seed++) {
            Matrix x = withDuplicates(30, d, seed);
            Matrix z = uniform(17, d, seed + 100);
            double[][] px = x.toRowArrays();
            double[][] pz = z.toRowArrays();
            for (Kernel k : zoo(d)) {
                String name = k.toString() + " seed " + seed;
                Matrix g = k.gram(x);
                for (int i = 0; i < px.length; i++) {
                    for (int j = 0; j < px.length; j++) {
                        assertEquals(g.get(i, j), g.get(j, i), 0.0, name + " symmetric");
                        assertClose(k.eval(px[i], px[j]), g.get(i, j), name + " gram(" + i + "," + j + ")");
                    }
                }
                assertTrue(minEig(g) >= -PSD_FLOOR * Math.abs(g.trace()), name + " PSD: " + minEig(g));
                Matrix c = k.cross(x, z);
                for (int i = 0; i < px.length; i++) {
                    for (int j = 0; j < pz.length; j++) {
                        assertClose(k.eval(px[i], pz[j]), c.get(i, j), name + " cross(" + i + "," + j + ")");
                    }
                }
                double[] dg = k.diag(x);
                for (int i = 0; i < px.length; i++) {
                    assertClose(k.eval(px[i], px[i]), dg[i], name + " diag " + i);
                }
            }
        }
    }

    @Test
    void parallelPathAgreesWithEvalOnLargerMatrices() {
        // n = 520: n²/2 ≈ 1.35e5 entries, above ParallelColumns.SEQUENTIAL_BELOW, so the threaded path runs.
        assertTrue(520L * 520 / 2 > ParallelColumns.SEQUENTIAL_BELOW);
        Matrix x = uniform(520, 4, 11);
        Matrix z = uniform(300, 4, 12);
        double[][] px = x.toRowArrays();
        double[][] pz = z.toRowArrays();
        for (Kernel k : List.of(Kernels.gaussian(0.3), Kernels.laplacian(0.5), Kernels.polynomial(3, 1),
                Kernels.anova(), Kernels.min())) {
            Matrix g = k.gram(x);
            Matrix c = k.cross(x, z);
            for (int i = 0; i < px.length; i += 3) {
                for (int j = 0; j < px.length; j += 5) {
                    assertClose(k.eval(px[i], px[j]), g.get(i, j), k + " gram");
                }
                for (int j = 0; j < pz.length; j += 7) {
                    assertClose(k.eval(px[i], pz[j]), c.get(i, j), k + " cross");
                }
            }
        }
    }

    @Test
    void radialKernelsStayAccurateFarFromTheOrigin() {
        // Points near 1e4 with spread 1e-2: the expanded ‖x‖²+‖t‖²−2xᵀt would lose all digits without centring.
        Matrix x = uniform(50, 3, 21);
        x.scaleInPlace(1e-2);
        for (int k = 0; k < x.data().length; k++) {
            x.data()[k] += 1e4;
        }
        double[][] px = x.toRowArrays();
        Kernel k = Kernels.gaussian(0.01);
        Matrix g = k.gram(x);
        for (int i = 0; i < px.length; i++) {
            for (int j = 0; j < px.length; j++) {
                assertClose(k.eval(px[i], px[j]), g.get(i, j), "far gaussian");
            }
        }
    }

    @Test
    void deltaAddsTheNuggetToTheGramMatrixOfDistinctPoints() {
        Matrix x = uniform(25, 2, 31);
        Matrix plain = Kernels.gaussian(0.5).gram(x);
        Matrix nugget = Kernels.parse("gaussian(sigma=0.5) + 0.01*delta").gram(x);
        Matrix expected = plain.copy();
        expected.addToDiagonal(0.01);
        assertTrue(nugget.minus(expected).maxAbs() < 1e-15);
        Matrix dup = withDuplicates(6, 2, 32);
        Matrix dg = Kernels.delta().gram(dup);
        assertEquals(1.0, dg.get(0, 3));
        assertEquals(1.0, dg.get(1, 3));
        assertEquals(0.0, dg.get(0, 2));
        assertEquals(6.0, dg.trace(), 0.0); // 6 points on the diagonal
        assertEquals(3 + 3 * 3, sum(dg), 0.0); // three singletons plus the 3x3 block of the triple {0, 1, 3}
    }

    private static double sum(Matrix m) {
        double s = 0;
        for (double v : m.data()) {
            s += v;
        }
        return s;
    }

    @Test
    void minKernelRejectsNegativeInputWithItsPosition() {
        Matrix x = uniform(5, 2, 41);
        x.set(3, 1, -0.25);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Kernels.min().gram(x));
        assertTrue(e.getMessage().contains("row 3, column 1"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Kernels.min().eval(new double[] {1, -1},
                new double[] {1, 1}));
    }

    @Test
    void explicitFeatureMapsReproduceTheKernel() {
        int d = 3;
        Matrix x = uniform(12, d, 51);
        x.data()[5] = -0.7; // a negative coordinate: odd powers must keep their sign
        List<Kernel> withMaps = List.of(Kernels.linear(), Kernels.polynomial(3, 0), Kernels.polynomial(3, 1.5),
                Kernels.exponentialSeries(0.7, 4), Kernels.anova(), Kernels.constant(),
                Kernels.linear(Linalg.syrk(uniform(d, d, 52), false)),
                Kernels.parse("2*polynomial(degree=2) + linear * anova + 3"));
        for (Kernel k : withMaps) {
            Optional<FeatureMap> phi = k.featureMap(d);
            assertTrue(phi.isPresent(), k + " has a feature map");
            Matrix f = phi.get().map(x);
            Matrix ffT = Linalg.gemm(1.0, f, false, f, true);
            Matrix g = k.gram(x);
            for (int i = 0; i < x.rows(); i++) {
                for (int j = 0; j < x.rows(); j++) {
                    assertClose(g.get(i, j), ffT.get(i, j), k + " φ(x)ᵀφ(t)");
                }
            }
        }
        assertTrue(Kernels.gaussian(1).featureMap(d).isEmpty());
        assertTrue(Kernels.parse("gaussian(sigma=1) + linear").featureMap(d).isEmpty());
    }

    @Test
    void polynomialFeatureMapMatchesTheSlidesExample() {
        // Herbster's slides "Kernels and Regularization": for n = 2, (xᵀt)² is generated by φ(x) = (x1², √2 x1 x2, x2²); count C(d+r−1, r) monomials.
        double[] phi = Kernels.polynomial(2, 0).featureMap(2).orElseThrow().apply(new double[] {3, 5});
        assertEquals(3, phi.length);
        java.util.Arrays.sort(phi);
        assertEquals(9, phi[0], 1e-12);
        assertEquals(Math.sqrt(2) * 15, phi[1], 1e-12);
        assertEquals(25, phi[2], 1e-12);
        assertEquals(35, Kernels.polynomial(4, 0).featureMap(4).orElseThrow().apply(new double[4]).length);
        assertEquals(70, Kernels.polynomial(4, 1).featureMap(4).orElseThrow().apply(new double[4]).length);
    }

    @Test
    void emptyPointSetsGiveEmptyMatrices() {
        Matrix none = Matrix.zeros(0, 3);
        Matrix some = uniform(4, 3, 61);
        for (Kernel k : zoo(3)) {
            assertEquals(0, k.gram(none).rows(), k.toString());
            Matrix c = k.cross(some, none);
            assertEquals(4, c.rows(), k.toString());
            assertEquals(0, c.cols(), k.toString());
            assertEquals(0, k.diag(none).length, k.toString());
        }
    }

    @Test
    void mismatchedDimensionsAreRejected() {
        for (Kernel k : List.of(Kernels.gaussian(1), Kernels.polynomial(2, 1), Kernels.anova(), Kernels.delta(),
                Kernels.linear(Matrix.identity(3)))) {
            assertThrows(IllegalArgumentException.class, () -> k.cross(uniform(3, 3, 1), uniform(3, 2, 2)),
                    k.toString());
            assertThrows(IllegalArgumentException.class, () -> k.eval(new double[3], new double[2]), k.toString());
        }
    }
}
