package org.psdkit.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.psdkit.kernel.TessellatedKernel.Orthant;
import org.psdkit.linalg.Linalg;
import org.psdkit.linalg.Matrix;

class TkGramTest {

    static Matrix randomPsd(int dim, Random rnd) {
        Matrix g = Matrix.zeros(dim, dim);
        for (int i = 0; i < dim * dim; i++) {
            g.data()[i] = rnd.nextGaussian();
        }
        Matrix p = Linalg.gemm(1.0, g, false, g, true);
        p.symmetrizeInPlace();
        return p;
    }

    @ParameterizedTest
    @CsvSource({"0,LOWER", "1,LOWER", "1,COMPLEMENT", "0,COMPLEMENT", "2,LOWER"})
    void gramAndGradientMatchTheKernelAndItsDefinition(int degree, Orthant orthant) {
        Random rnd = new Random(21 + degree);
        int m = degree >= 2 ? 6 : 15;
        int n = degree >= 2 ? 1 : 2; // the degree-2 gradient is the slow generic fallback
        Matrix x = Matrix.zeros(m, n);
        for (int i = 0; i < m * n; i++) {
            x.data()[i] = rnd.nextDouble();
        }
        TkGram eng = new TkGram(x, degree, -0.1, 1.1, orthant);
        int dim = 2 * eng.q();
        Matrix p = randomPsd(dim, rnd);
        Matrix ref = new TessellatedKernel(n, degree, -0.1, 1.1, p, orthant).gram(x);
        Matrix fast = eng.gram(p);
        assertEquals(0, fast.minus(ref).maxAbs(), 1e-10 * ref.maxAbs());
        // gradient: ⟨H(β), P⟩ = βᵀ K(P) β for any symmetric P (checks the adjoint entry by entry via random P)
        double[] beta = new double[m];
        for (int i = 0; i < m; i++) {
            beta[i] = rnd.nextGaussian();
        }
        Matrix h = eng.gradient(beta);
        for (int rep = 0; rep < 3; rep++) {
            Matrix s = Matrix.zeros(dim, dim);
            for (int i = 0; i < dim * dim; i++) {
                s.data()[i] = rnd.nextGaussian();
            }
            s.symmetrizeInPlace();
            Matrix ks = new TessellatedKernel(n, degree, -0.1, 1.1, s, orthant).gram(x);
            double lhs = 0;
            for (int i = 0; i < dim * dim; i++) {
                lhs += h.data()[i] * s.data()[i];
            }
            double rhs = quad(ks, beta);
            assertEquals(rhs, lhs, 1e-9 * (Math.abs(rhs) + ks.maxAbs()));
        }
        double[] ev = Linalg.eigvalsh(h);
        assertTrue(ev[0] >= -1e-9 * ev[ev.length - 1]);
    }

    /**
     * The bound of {@code requireFinite} is the kernel with P = I on the diagonal, and bounds the kernel of every
     * trace-one P ⪰ 0 entry by entry.
     */
    @ParameterizedTest
    @CsvSource({"0,LOWER", "1,LOWER", "1,COMPLEMENT", "0,COMPLEMENT", "2,LOWER", "2,COMPLEMENT"})
    void traceBoundsAreTheIdentityKernelAndBoundEveryTraceOneKernel(int degree, Orthant orthant) {
        Random rnd = new Random(5 + degree);
        int m = 6;
        int n = degree >= 2 ? 1 : 3;
        Matrix x = Matrix.zeros(m, n);
        for (int i = 0; i < m * n; i++) {
            x.data()[i] = rnd.nextDouble();
        }
        x.set(0, 0, 0.0); // on the box's inner faces
        x.set(1, 0, 1.0);
        TkGram eng = new TkGram(x, degree, -0.7, 1.7, orthant);
        int dim = 2 * eng.q();
        double[] bound = eng.traceBounds();
        TessellatedKernel id = new TessellatedKernel(n, degree, -0.7, 1.7, Matrix.identity(dim), orthant);
        Matrix p = randomPsd(dim, rnd);
        p.scaleInPlace(1.0 / p.trace());
        Matrix k = eng.gram(p);
        for (int i = 0; i < m; i++) {
            double[] xi = x.row(i);
            assertEquals(id.eval(xi, xi), bound[i], 1e-12 * bound[i], "point " + i);
            for (int j = 0; j < m; j++) {
                assertTrue(Math.abs(k.get(i, j)) <= Math.sqrt(bound[i] * bound[j]) * (1 + 1e-12), i + "," + j);
            }
        }
    }

    @ParameterizedTest
    @CsvSource({"0,LOWER", "1,LOWER", "1,COMPLEMENT", "0,COMPLEMENT", "2,LOWER"})
    void anEpsilonWhoseKernelsOverflowIsRefusedNamingTheBox(int degree, Orthant orthant) {
        Matrix x = Matrix.of(new double[][] {{0.0, 0.5}, {1.0, 0.25}, {0.5, 1.0}});
        new TkGram(x, degree, -1e30, 1 + 1e30, orthant).requireFinite("tk-svm"); // 1e90 at most: fine
        double eps = degree == 0 ? 1e200 : 1e120;
        IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> new TkGram(x, degree, -eps, 1 + eps, orthant).requireFinite("tk-svm"));
        assertTrue(e.getMessage().startsWith("tk-svm: the tessellated kernels on the box [-" + eps), e.getMessage());
        assertTrue(e.getMessage().contains("(epsilon = " + eps + "), degree " + degree + ", overflow double "
                + "precision at training point 1"), e.getMessage());
    }

    /**
     * The data-loss bound of {@code requireUsable}, checked by brute force: the Gram matrix of the starting kernel
     * P₀ (the constant monomial in both blocks, k = ½ Σ_t vol_t) computed in double against its exact value in
     * BigDecimal, compared after centring (J K J, exactly, which is all the SVM dual sees). Below the limit the
     * centred error is of the order 2^-52 (1 + ε); from the limit on it is 100 %: the double Gram matrix no longer
     * holds the data, and the box is refused. Before, such an epsilon was fitted into a one-class model (exit 0).
     */
    @ParameterizedTest
    @CsvSource({"0", "1"})
    void anEpsilonWhoseGramLosesTheDataIsRefusedAtTheBoundOfBruteForce(int degree) {
        Random rnd = new Random(1);
        int m = 8;
        int n = 2;
        double[][] pts = new double[m][n];
        for (double[] row : pts) {
            for (int c = 0; c < n; c++) {
                row[c] = rnd.nextDouble();
            }
        }
        pts[0][0] = 0; // the faces of [0, 1]^2, as min-max scaled data touch them
        pts[1][1] = 1;
        Matrix x = Matrix.of(pts);
        for (int k = 20; k <= 56; k += 4) {
            double eps = Math.scalb(1.0, k);
            double err = centredError(x, pts, degree, eps);
            double scale = 0x1p-52 * (1 + eps);
            if (1 + eps < TkGram.EDGE_RESOLUTION_LIMIT) {
                assertTrue(err <= 4 * scale, "epsilon = 2^" + k + ": centred error " + err);
                new TkGram(x, degree, -eps, 1 + eps, Orthant.LOWER).requireUsable("tk-svm");
            } else {
                assertTrue(err >= 0.9, "epsilon = 2^" + k + ": centred error " + err);
                double e = eps;
                TkGram.TooLarge ex = assertThrows(TkGram.TooLarge.class,
                        () -> new TkGram(x, degree, -e, 1 + e, Orthant.LOWER).requireUsable("tk-svm"));
                String msg = ex.getMessage();
                assertTrue(msg.startsWith("tk-svm: the tessellated kernels on the box [-"), msg);
                assertTrue(msg.contains("lose the data in double precision")
                        && msg.contains("choose an epsilon below 4.5e15"), msg);
            }
        }
        // the limit itself: 1 + epsilon = 2^52 is refused, the double below it is not
        double limit = TkGram.EDGE_RESOLUTION_LIMIT - 1;
        assertThrows(TkGram.TooLarge.class,
                () -> new TkGram(x, degree, -limit, 1 + limit, Orthant.LOWER).requireUsable("tk-svm"));
        double below = Math.nextDown(limit);
        new TkGram(x, degree, -below, 1 + below, Orthant.LOWER).requireUsable("tk-svm");
    }

    /** ‖J(K_double − K_exact)J‖_F / ‖J K_exact J‖_F for the starting kernel P₀, lower orthant, box [−ε, 1 + ε]. */
    private static double centredError(Matrix x, double[][] pts, int degree, double eps) {
        int m = pts.length;
        MathContext mc = new MathContext(120);
        TkGram eng = new TkGram(x, degree, -eps, 1 + eps, Orthant.LOWER);
        int q = eng.q();
        double[] s0 = new double[2 * q];
        s0[0] = Math.sqrt(0.5);
        s0[q] = Math.sqrt(0.5);
        Matrix kd = eng.rankOne(s0);
        BigDecimal e = new BigDecimal(eps);
        BigDecimal one = BigDecimal.ONE;
        BigDecimal[][] exact = new BigDecimal[m][m];
        BigDecimal[][] dbl = new BigDecimal[m][m];
        for (int i = 0; i < m; i++) {
            for (int j = 0; j < m; j++) {
                // k = ½ (vol[max, 1+ε]ⁿ + vol[−ε, min]ⁿ + vol[x, y]ⁿ + vol[y, x]ⁿ), a mixed box empty unless ordered
                BigDecimal up = one;
                BigDecimal low = one;
                BigDecimal xy = one;
                BigDecimal yx = one;
                for (int c = 0; c < pts[i].length; c++) {
                    BigDecimal a = new BigDecimal(pts[i][c]);
                    BigDecimal b = new BigDecimal(pts[j][c]);
                    up = up.multiply(one.add(e).subtract(a.max(b)), mc);
                    low = low.multiply(e.add(a.min(b)), mc);
                    BigDecimal d = b.subtract(a);
                    xy = d.signum() > 0 ? xy.multiply(d, mc) : BigDecimal.ZERO;
                    yx = d.signum() < 0 ? yx.multiply(d.negate(), mc) : BigDecimal.ZERO;
                }
                exact[i][j] = up.add(low).add(xy).add(yx).multiply(new BigDecimal("0.5"));
                dbl[i][j] = new BigDecimal(kd.get(i, j));
            }
        }
        BigDecimal[][] ce = centred(exact, mc);
        BigDecimal[][] cd = centred(dbl, mc);
        BigDecimal num = BigDecimal.ZERO;
        BigDecimal den = BigDecimal.ZERO;
        for (int i = 0; i < m; i++) {
            for (int j = 0; j < m; j++) {
                BigDecimal d = cd[i][j].subtract(ce[i][j]);
                num = num.add(d.multiply(d));
                den = den.add(ce[i][j].multiply(ce[i][j]));
            }
        }
        return Math.sqrt(num.divide(den, mc).doubleValue());
    }

    /** J K J, J = I − 11ᵀ/m, exactly. */
    private static BigDecimal[][] centred(BigDecimal[][] k, MathContext mc) {
        int m = k.length;
        BigDecimal size = BigDecimal.valueOf(m);
        BigDecimal[] rows = new BigDecimal[m];
        BigDecimal all = BigDecimal.ZERO;
        for (int i = 0; i < m; i++) {
            BigDecimal r = BigDecimal.ZERO;
            for (int j = 0; j < m; j++) {
                r = r.add(k[i][j]);
            }
            all = all.add(r);
            rows[i] = r.divide(size, mc);
        }
        all = all.divide(size.multiply(size), mc);
        BigDecimal[][] out = new BigDecimal[m][m];
        for (int i = 0; i < m; i++) {
            for (int j = 0; j < m; j++) {
                // K is symmetric: its column means are its row means
                out[i][j] = k[i][j].subtract(rows[i]).subtract(rows[j]).add(all);
            }
        }
        return out;
    }

    /** βᵀKβ. */
    private static double quad(Matrix k, double[] v) {
        return Linalg.dot(v, k.times(v));
    }
}
