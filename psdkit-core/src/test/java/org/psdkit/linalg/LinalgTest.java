package org.psdkit.linalg;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;

class LinalgTest {

    static Matrix randomSymmetric(int n, long seed) {
        Random r = new Random(seed);
        Matrix a = Matrix.zeros(n, n);
        for (int j = 0; j < n; j++) {
            for (int i = 0; i <= j; i++) {
                double v = r.nextGaussian();
                a.set(i, j, v);
                a.set(j, i, v);
            }
        }
        return a;
    }

    static Matrix randomSpd(int n, long seed) {
        Random r = new Random(seed);
        Matrix g = Matrix.zeros(n, n);
        for (int k = 0; k < n * n; k++) {
            g.data()[k] = r.nextGaussian();
        }
        Matrix a = Linalg.syrk(g, true);
        a.addToDiagonal(n);
        return a;
    }

    @Test
    void eighSatisfiesDefinition() {
        Matrix a = randomSymmetric(40, 1);
        Eigen e = Linalg.eigh(a);
        Matrix av = a.times(e.vectors());
        Matrix vl = e.vectors().times(Matrix.diag(e.values()));
        assertTrue(av.minus(vl).maxAbs() < 1e-10, "A V = V Λ");
        Matrix vtv = Linalg.gemm(1, e.vectors(), true, e.vectors(), false);
        assertTrue(vtv.minus(Matrix.identity(40)).maxAbs() < 1e-12, "VᵀV = I");
        for (int i = 1; i < 40; i++) {
            assertTrue(e.values()[i - 1] <= e.values()[i], "ascending");
        }
        assertArrayEquals(e.values(), Linalg.eigvalsh(a), 1e-10);
    }

    /** dsyevr gives the eigenpairs dsyevd gives: A V = V Λ, VᵀV = I, the same values, ascending. */
    @Test
    void eighMrrrSatisfiesDefinitionAndAgreesWithDsyevd() {
        Matrix a = randomSymmetric(40, 3);
        Eigen e = Linalg.eighMrrr(a);
        Matrix av = a.times(e.vectors());
        Matrix vl = e.vectors().times(Matrix.diag(e.values()));
        assertTrue(av.minus(vl).maxAbs() < 1e-10, "A V = V Λ");
        Matrix vtv = Linalg.gemm(1, e.vectors(), true, e.vectors(), false);
        assertTrue(vtv.minus(Matrix.identity(40)).maxAbs() < 1e-12, "VᵀV = I");
        assertArrayEquals(Linalg.eigh(a).values(), e.values(), 1e-10);
        assertEquals(0, Linalg.eighMrrr(Matrix.zeros(0, 0)).values().length);
    }

    @Test
    void spectralPartsSplitTheMatrix() {
        Matrix a = randomSymmetric(30, 2);
        Matrix p = Linalg.positivePart(a);
        Matrix m = Linalg.negativePart(a);
        assertTrue(p.plus(m).minus(a).maxAbs() < 1e-10);
        assertTrue(Linalg.eigvalsh(p)[0] > -1e-10);
        assertTrue(Linalg.eigvalsh(m)[29] < 1e-10);
        assertTrue(Math.abs(Linalg.gemm(1, p, false, m, false).maxAbs()) < 1e-10, "orthogonal parts");
    }

    @Test
    void choleskyReconstructsAndSolves() {
        Matrix a = randomSpd(25, 3);
        Cholesky c = Linalg.cholesky(a);
        assertEquals(0.0, c.jitter());
        Matrix llt = Linalg.gemm(1, c.lower(), false, c.lower(), true);
        assertTrue(llt.minus(a).maxAbs() < 1e-10 * a.maxAbs());
        double[] b = new Random(4).doubles(25).toArray();
        double[] x = c.solve(b);
        assertArrayEquals(b, a.times(x), 1e-9);
    }

    @Test
    void choleskyReportsJitterOnSingularMatrix() {
        Matrix v = Matrix.of(new double[][] {{1, 2, 3}});
        Matrix a = Linalg.syrk(v, true); // rank one
        Cholesky c = Linalg.cholesky(a);
        assertTrue(c.jitter() > 0);
        assertThrows(LinalgException.class, () -> Linalg.choleskyStrict(a));
        assertThrows(LinalgException.class, () -> Linalg.cholesky(Matrix.diag(new double[] {1, -1})));
    }

    @Test
    void gemmAndSyrkAgreeWithLoops() {
        Matrix a = Matrix.of(new double[][] {{1, 2, 3}, {4, 5, 6}});
        Matrix b = Matrix.of(new double[][] {{1, 0}, {0, 1}, {1, 1}});
        Matrix c = a.times(b);
        assertArrayEquals(new double[] {4, 5}, c.row(0), 0);
        assertArrayEquals(new double[] {10, 11}, c.row(1), 0);
        Matrix ata = Linalg.syrk(a, true);
        assertTrue(ata.minus(a.transpose().times(a)).maxAbs() < 1e-14);
        assertArrayEquals(new double[] {14, 32}, a.times(new double[] {1, 2, 3}), 0);
        Matrix x = Linalg.solve(randomSpd(5, 9), Matrix.identity(5));
        assertTrue(randomSpd(5, 9).times(x).minus(Matrix.identity(5)).maxAbs() < 1e-12);
    }

    /** dpotrf + dpotri: A·A⁻¹ = I with both triangles filled; a matrix that is not positive definite is refused. */
    @Test
    void inverseSpdInvertsAndRefusesAnIndefiniteMatrix() {
        Matrix a = randomSpd(7, 3);
        Matrix inv = Linalg.inverseSpd(a);
        assertTrue(a.times(inv).minus(Matrix.identity(7)).maxAbs() < 1e-10);
        assertEquals(inv.get(1, 5), inv.get(5, 1), 0.0);
        assertThrows(LinalgException.class, () -> Linalg.inverseSpd(Matrix.of(new double[][] {{1, 2}, {2, 1}})));
    }
}
