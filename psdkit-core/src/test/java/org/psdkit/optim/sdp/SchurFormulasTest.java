package org.psdkit.optim.sdp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;
import org.psdkit.linalg.Linalg;
import org.psdkit.linalg.Matrix;

/**
 * The three Schur-complement formulas of Fujisawa, Kojima & Nakata (1997) — F1 (dense), F2 (sparse), F3 (very
 * sparse) — and the automatic choice among them give M_ij = Σ_blocks tr(A_i X A_j Z⁻¹) as the plain formula does.
 */
class SchurFormulasTest {

    @Test
    void everyFormulaGivesThePlainSchurComplement() {
        for (long seed = 1; seed <= 4; seed++) {
            Random rnd = new Random(seed);
            int m = 12;
            int n0 = 9 + (int) seed;
            int n1 = 6;
            int n2 = 4;
            SdpProblem.Builder b = SdpProblem.builder(m);
            int b0 = b.addBlock(n0);
            int b1 = b.addBlock(n1);
            int b2 = b.addDiagonalBlock(n2);
            for (int i = 0; i < m; i++) {
                // dense (a full upper triangle), sparse (a few entries) and very sparse (one entry) constraints
                int kind = i % 3;
                if (kind == 0) {
                    for (int q = 0; q < n0; q++) {
                        for (int p = 0; p <= q; p++) {
                            b.addA(i, b0, p, q, rnd.nextGaussian());
                        }
                    }
                } else {
                    int nnz = kind == 1 ? 2 + rnd.nextInt(2 * n0) : 1;
                    for (int e = 0; e < nnz; e++) {
                        b.addA(i, b0, rnd.nextInt(n0), rnd.nextInt(n0), rnd.nextGaussian());
                    }
                }
                if (rnd.nextBoolean()) {
                    b.addA(i, b1, rnd.nextInt(n1), rnd.nextInt(n1), rnd.nextGaussian());
                }
                b.addA(i, b2, i % n2, i % n2, rnd.nextGaussian());
            }
            SdpProblem p = b.build();
            Matrix x0 = SdpSolverTest.spd(n0, 10 * seed + 1);
            Matrix x1 = SdpSolverTest.spd(n1, 10 * seed + 2);
            Matrix zi0 = inverse(SdpSolverTest.spd(n0, 10 * seed + 3));
            Matrix zi1 = inverse(SdpSolverTest.spd(n1, 10 * seed + 4));
            double[] x2 = new double[n2];
            double[] zi2 = new double[n2];
            for (int k = 0; k < n2; k++) {
                x2[k] = 0.5 + rnd.nextDouble();
                zi2[k] = 0.5 + rnd.nextDouble();
            }
            double[][] xs = {x0.data(), x1.data(), x2};
            double[][] zis = {zi0.data(), zi1.data(), zi2};
            Matrix[] xb = {x0, x1};
            Matrix[] zb = {zi0, zi1};
            double[][] ref = new double[m][m];
            for (int i = 0; i < m; i++) {
                for (int j = 0; j < m; j++) {
                    for (int blk = 0; blk < 2; blk++) {
                        Coefficient ai = p.a(i, blk);
                        Coefficient aj = p.a(j, blk);
                        if (ai != null && aj != null) {
                            ref[i][j] += ai.toDense().times(xb[blk]).times(aj.toDense()).times(zb[blk]).trace();
                        }
                    }
                    Coefficient ai = p.a(i, b2);
                    Coefficient aj = p.a(j, b2);
                    if (ai != null && aj != null) {
                        for (int k = 0; k < n2; k++) {
                            ref[i][j] += ai.toDense().get(k, k) * x2[k] * aj.toDense().get(k, k) * zi2[k];
                        }
                    }
                }
            }
            double scale = 0;
            for (double[] row : ref) {
                for (double v : row) {
                    scale = Math.max(scale, Math.abs(v));
                }
            }
            for (int formula = 0; formula <= 3; formula++) {
                Matrix mm = SdpSolver.schurMatrix(p, xs, zis, formula);
                for (int i = 0; i < m; i++) {
                    for (int j = 0; j < m; j++) {
                        double err = Math.abs(mm.get(i, j) - ref[i][j]);
                        assertTrue(err <= 1e-12 * scale, "seed " + seed + ", formula " + formula + ": M(" + i
                                + "," + j + ") = " + mm.get(i, j) + " vs " + ref[i][j]);
                    }
                }
            }
        }
    }

    @Test
    void denseRankOneConstraintsGiveThePlainSchurComplement() {
        int n0 = 24;
        int n1 = 6;
        int m = n0 + 4;
        Random rnd = new Random(7);
        SdpProblem.Builder b = SdpProblem.builder(m);
        int b0 = b.addBlock(n0);
        int b1 = b.addBlock(n1);
        double[] a = new double[n0];
        for (int k = 4; k < n0; k++) {
            a[k] = rnd.nextGaussian();
        }
        double[] v = new double[n0];
        double[] w = new double[n0];
        for (int k = 0; k < n0; k++) {
            v[k] = rnd.nextGaussian();
            w[k] = rnd.nextGaussian();
        }
        for (int q = 0; q < n0; q++) {
            for (int p = 0; p <= q; p++) {
                b.addA(0, b0, p, q, 1.0); // gpp's all-ones matrix: rank one
                if (a[p] != 0 && a[q] != 0) {
                    b.addA(1, b0, p, q, -2.5 * a[p] * a[q]); // rank one on 20 of the 24 indices
                }
                b.addA(2, b0, p, q, v[p] * v[q] + w[p] * w[q]); // rank two: not rank one
            }
        }
        for (int q = 0; q < n1; q++) {
            for (int p = 0; p <= q; p++) {
                b.addA(3, b1, p, q, 1.0); // rank one, but below RANK_ONE_MIN_SUPPORT
            }
        }
        for (int k = 0; k < n0; k++) {
            b.addA(4 + k, b0, k, k, 1.0);
            b.addA(4 + k, b1, k % n1, (k + 1) % n1, 0.5);
        }
        SdpProblem p = b.build();
        assertEquals(2, SdpSolver.rankOneTerms(p));
        Matrix x0 = SdpSolverTest.spd(n0, 71);
        Matrix x1 = SdpSolverTest.spd(n1, 72);
        Matrix zi0 = inverse(SdpSolverTest.spd(n0, 73));
        Matrix zi1 = inverse(SdpSolverTest.spd(n1, 74));
        double[][] xs = {x0.data(), x1.data()};
        double[][] zis = {zi0.data(), zi1.data()};
        Matrix ref = SdpSolver.schurMatrix(p, xs, zis, 1);
        Matrix mm = SdpSolver.schurMatrixRankOne(p, xs, zis);
        double scale = 0;
        for (int i = 0; i < m; i++) {
            for (int j = 0; j < m; j++) {
                scale = Math.max(scale, Math.abs(ref.get(i, j)));
            }
        }
        for (int i = 0; i < m; i++) {
            for (int j = 0; j < m; j++) {
                assertTrue(Math.abs(mm.get(i, j) - ref.get(i, j)) <= 1e-12 * scale, "M(" + i + "," + j + ") = "
                        + mm.get(i, j) + " vs " + ref.get(i, j));
            }
        }
    }

    private static Matrix inverse(Matrix a) {
        Matrix inv = Linalg.solve(a, Matrix.identity(a.rows()));
        inv.symmetrizeInPlace();
        return inv;
    }
}
