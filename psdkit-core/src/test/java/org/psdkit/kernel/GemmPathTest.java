package org.psdkit.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.psdkit.linalg.Matrix;
import org.psdkit.linalg.SpdBuffer;

/**
 * The radial and dot-product kernels' fast paths (Gram and cross matrices from matrix products plus the vectorised
 * exponential, {@code gramInto} after one dsyrk, {@link KernelValues} rows) against the exact path, k(x, t) by
 * {@link Kernel#eval} entry by entry with {@link Math#exp}: within 1e-12 relative on random data (away from the
 * origin, where the expanded ‖x‖² + ‖t‖² − 2xᵀt would lose digits without centring).
 */
class GemmPathTest {
    private static final double TOL = 1e-12;

    private static final List<Kernel> KERNELS = List.of(Kernels.parse("gaussian(sigma=0.7)"),
            Kernels.parse("gaussian(sigma=3)"), Kernels.parse("laplacian(sigma=1.3)"),
            Kernels.parse("exponential(a=0.2)"), Kernels.parse("linear"), Kernels.parse("polynomial(degree=3, offset=1)"),
            Kernels.parse("polynomial(degree=2)"));

    private static Matrix points(int n, int d, double shift, long seed) {
        Random rnd = new Random(seed);
        Matrix x = Matrix.zeros(n, d);
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < d; j++) {
                x.set(i, j, shift + rnd.nextGaussian());
            }
        }
        return x;
    }

    /**
     * Entrywise |a − exact| ≤ TOL · scale: for radial kernels the scale is the entry itself (values in (0, 1]);
     * for dot-product kernels, whose entries may cancel to 0, it is the largest |entry| of the matrix.
     */
    private static double maxRelative(Kernel k, Matrix got, double[][] px, double[][] pz) {
        boolean radial = k instanceof RadialKernel;
        double[][] exact = new double[px.length][pz.length];
        double big = 0;
        for (int i = 0; i < px.length; i++) {
            for (int j = 0; j < pz.length; j++) {
                exact[i][j] = k.eval(px[i], pz[j]);
                big = Math.max(big, Math.abs(exact[i][j]));
            }
        }
        double worst = 0;
        for (int i = 0; i < px.length; i++) {
            for (int j = 0; j < pz.length; j++) {
                double scale = radial ? Math.abs(exact[i][j]) : big;
                worst = Math.max(worst, Math.abs(got.get(i, j) - exact[i][j]) / scale);
            }
        }
        return worst;
    }

    @Test
    void gramCrossAndGramIntoAgreeWithEvalToOneInATrillion() {
        int before = ParallelColumns.swapOverride(2); // the threaded column loop as well (the suite runs on one thread)
        try {
            for (double shift : new double[] {0, 4}) {
                Matrix x = points(400, 6, shift, 11);
                Matrix z = points(250, 6, shift, 12);
                double[][] px = x.toRowArrays();
                double[][] pz = z.toRowArrays();
                for (Kernel k : KERNELS) {
                    String name = k + " shift " + shift;
                    double g = maxRelative(k, k.gram(x), px, px);
                    double c = maxRelative(k, k.cross(x, z), px, pz);
                    Matrix into;
                    try (SpdBuffer b = SpdBuffer.allocate(x.rows())) {
                        k.gramInto(x, b);
                        into = lowerToFull(b, x.rows());
                    }
                    double gi = maxRelative(k, into, px, px);
                    assertTrue(g <= TOL, name + " gram: " + g);
                    assertTrue(c <= TOL, name + " cross: " + c);
                    assertTrue(gi <= TOL, name + " gramInto: " + gi);
                }
            }
        } finally {
            ParallelColumns.swapOverride(before);
        }
    }

    /**
     * The dot-product kernels' gramInto holds {@link Kernel#gram}'s entries bit for bit (the same dgemm blocks):
     * KRR with a linear or polynomial kernel solves the same system as before it skipped the n×n Java array.
     */
    @Test
    void dotProductGramIntoIsGramBitForBit() {
        int before = ParallelColumns.swapOverride(2);
        try {
            Matrix x = points(700, 4, 0.5, 41);
            for (String spec : new String[] {"linear", "polynomial(degree=3, offset=1)", "exponential(a=0.3)"}) {
                Kernel k = Kernels.parse(spec);
                Matrix g = k.gram(x);
                Matrix into;
                try (SpdBuffer b = SpdBuffer.allocate(x.rows())) {
                    k.gramInto(x, b);
                    into = lowerToFull(b, x.rows());
                }
                for (int j = 0; j < x.rows(); j++) {
                    for (int i = j; i < x.rows(); i++) {
                        assertEquals(g.get(i, j), into.get(i, j), 0.0, spec + " entry " + i + "," + j);
                    }
                }
            }
        } finally {
            ParallelColumns.swapOverride(before);
        }
    }

    private static Matrix lowerToFull(SpdBuffer b, int n) {
        double[] col = new double[n];
        Matrix m = Matrix.zeros(n, n);
        for (int j = 0; j < n; j++) {
            b.read(j, j, j + 1, col);
            for (int i = j; i < n; i++) {
                m.set(i, j, col[i - j]);
                m.set(j, i, col[i - j]);
            }
        }
        return m;
    }

    /**
     * Kernel rows ({@link KernelValues}, SMO's cache) agree with eval to 1e-12, are symmetric bit for bit (the
     * solver relies on Q_ab = Q_ba), and a single {@link KernelValues#value} is the row's entry bit for bit.
     */
    @Test
    void kernelRowsAgreeWithEvalAndAreSymmetric() {
        Matrix x = points(300, 5, 1, 21);
        double[][] px = x.toRowArrays();
        int[] idx = new int[px.length];
        for (int b = 0; b < idx.length; b++) {
            idx[b] = (7 * b + 3) % idx.length;
        }
        for (Kernel k : KERNELS) {
            double[][] rows = new double[px.length][px.length];
            for (int a = 0; a < px.length; a++) {
                KernelValues.values(k, px[a], px, null, 0, px.length, rows[a]);
            }
            double big = 0;
            for (double[] r : rows) {
                for (double v : r) {
                    big = Math.max(big, Math.abs(v));
                }
            }
            for (int a = 0; a < px.length; a++) {
                for (int b = 0; b < px.length; b++) {
                    double e = k.eval(px[a], px[b]);
                    double scale = k instanceof RadialKernel ? e : big;
                    assertTrue(Math.abs(rows[a][b] - e) <= TOL * scale, k + " row " + a + "," + b);
                    assertEquals(rows[a][b], rows[b][a], 0.0, k + " symmetry " + a + "," + b);
                }
            }
            double[] perm = new double[px.length];
            KernelValues.values(k, px[4], px, idx, 10, 200, perm);
            for (int b = 10; b < 200; b++) {
                assertEquals(rows[4][idx[b]], perm[b], 0.0, k + " indexed row");
            }
            assertEquals(rows[2][9], KernelValues.value(k, px[2], px[9]), 0.0, k + " single value");
        }
    }

    /**
     * The vectorised passes themselves (on when {@link KernelValues#VECTOR_EXP} is set): within 1e-12 relative of
     * {@link Math#exp} entry by entry, at squared distances and inner products over the kernels' whole range.
     */
    @Test
    void vectorisedPassesAgreeWithMathExp() {
        Random rnd = new Random(51);
        double[] r2 = new double[5000];
        for (int i = 0; i < r2.length; i++) {
            r2[i] = i < 3 ? i : Math.exp(-10 + 17 * rnd.nextDouble()); // 0, 1, 2, then 4.5e-5 .. 1.1e3
        }
        GaussianKernel g = new GaussianKernel(0.8);
        LaplacianKernel l = new LaplacianKernel(1.7);
        ExponentialKernel e = new ExponentialKernel(0.3);
        double[] gv = r2.clone();
        double[] lv = r2.clone();
        double[] ev = r2.clone();
        g.gVector(gv, 0, gv.length);
        l.gVector(lv, 0, lv.length);
        e.fVector(ev, 7, ev.length);
        for (int i = 0; i < r2.length; i++) {
            assertTrue(Math.abs(gv[i] - g.g(r2[i])) <= TOL * g.g(r2[i]) || gv[i] == g.g(r2[i]), "gaussian " + r2[i]);
            assertTrue(Math.abs(lv[i] - l.g(r2[i])) <= TOL * l.g(r2[i]), "laplacian " + r2[i]);
            double want = i < 7 ? r2[i] : e.f(r2[i]);
            assertTrue(Math.abs(ev[i] - want) <= TOL * want, "exponential " + r2[i]);
        }
    }

    /** Other kernels keep {@link Kernel#eval}: their rows are eval's values bit for bit. */
    @Test
    void otherKernelsKeepEval() {
        Kernel k = Kernels.parse("gaussian(sigma=1) + 0.5*laplacian(sigma=2)");
        Matrix x = points(50, 3, 0, 31);
        double[][] px = x.toRowArrays();
        double[] row = new double[px.length];
        KernelValues.values(k, px[3], px, null, 0, px.length, row);
        for (int b = 0; b < px.length; b++) {
            assertEquals(k.eval(px[3], px[b]), row[b], 0.0);
        }
        assertTrue(KernelValues.vectorised(Kernels.parse("gaussian(sigma=1)")));
        assertTrue(!KernelValues.vectorised(k));
    }
}
