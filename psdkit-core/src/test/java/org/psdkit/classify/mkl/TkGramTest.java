package org.psdkit.classify.mkl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.psdkit.kernel.TessellatedKernel;
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
            double rhs = TkLearner.quad(ks, beta);
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
}
