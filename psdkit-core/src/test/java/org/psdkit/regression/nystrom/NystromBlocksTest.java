package org.psdkit.regression.nystrom;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;
import org.psdkit.kernel.GaussianKernel;
import org.psdkit.kernel.Kernel;
import org.psdkit.kernel.LaplacianKernel;
import org.psdkit.linalg.Cholesky;
import org.psdkit.linalg.internal.FloatBlas;
import org.psdkit.linalg.Linalg;
import org.psdkit.linalg.Matrix;
import org.psdkit.regression.nystrom.internal.NystromBlocks;

/** The per-block sums of {@link NystromBlocks}, added over uneven blocks, give the single-machine Gram-route fit. */
class NystromBlocksTest {

    private static double maxRelDiff(double[] a, double[] b) {
        double scale = 0;
        double diff = 0;
        for (int i = 0; i < a.length; i++) {
            scale = Math.max(scale, Math.abs(b[i]));
            diff = Math.max(diff, Math.abs(a[i] - b[i]));
        }
        return diff / scale;
    }

    private static void check(Kernel k) {
        Random r = new Random(3);
        int n = 700;
        int d = 3;
        int m = 30;
        double[][] xs = new double[n][d];
        double[] y = new double[n];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < d; j++) {
                xs[i][j] = 2 * r.nextDouble() - 1;
                y[i] += Math.sin(2 * xs[i][j]);
            }
            y[i] += 0.1 * r.nextGaussian() + 0.5;
        }
        Matrix x = Matrix.of(xs);
        Matrix anchors = x.selectRows(java.util.stream.IntStream.range(0, m).map(i -> 7 * i).toArray());
        double offset = 0.4;
        int[] cuts = {0, 13, 250, 251, 600, n}; // uneven blocks, one of a single row
        double norm2 = 0;
        for (int b = 0; b + 1 < cuts.length; b++) {
            norm2 = Math.max(norm2, NystromBlocks.maxCentredNorm2(k, anchors, x.rowRange(cuts[b],
                    cuts[b + 1])));
        }
        NystromBlocks nb = NystromBlocks.of(k, anchors, norm2);
        double[] lower = new double[m * m];
        double[] rhs = new double[m];
        try (FloatBlas.GramAccumulator acc = new FloatBlas.GramAccumulator(m)) {
            for (int b = 0; b + 1 < cuts.length; b++) {
                nb.addGram(x.rowRange(cuts[b], cuts[b + 1]),
                        java.util.Arrays.copyOfRange(y, cuts[b], cuts[b + 1]), offset, acc, rhs);
            }
            acc.addLowerInto(lower);
        }
        Matrix gram = NystromBlocks.symmetricFromLower(lower, m);
        KnmOperator op = new KnmOperator() {
            @Override
            public long rows() {
                return n;
            }

            @Override
            public double[] applyKtK(double[] u) {
                double[] w = new double[m];
                for (int b = 0; b + 1 < cuts.length; b++) {
                    nb.addKtK(x.rowRange(cuts[b], cuts[b + 1]), u, w);
                }
                return w;
            }

            @Override
            public String storage() {
                return "blocks";
            }
        };
        Matrix kmm = k.gram(anchors);
        Cholesky ch = Linalg.cholesky(kmm);
        NystromKrr.Solution s = NystromBlocks.solve(op, kmm, ch, rhs, offset, 0.5, 1e-11, 200, gram);
        KnmBlocks p = NystromKrr.problem(k, x, anchors, Storage.GRAM);
        NystromKrr.Solution ref = p.solve(y, offset, 0.5, 1e-11, 200);
        assertTrue(s.diagnostics().converged() && s.diagnostics().iterations() <= 3, s.diagnostics().toString());
        double dif = maxRelDiff(s.alpha(), ref.alpha());
        assertTrue(dif < 1e-9, k.spec() + ": coefficients differ by " + dif);
        // the block sums are the problem's own products
        double[] u = new double[m];
        for (int j = 0; j < m; j++) {
            u[j] = Math.cos(j);
        }
        double dk = maxRelDiff(op.applyKtK(u), p.applyKtK(u));
        assertTrue(dk < 1e-12, k.spec() + ": K_nmᵀK_nm u differs by " + dk);
    }

    @Test
    void blockSumsGiveTheGramRouteFitOfTheProblem() {
        check(new GaussianKernel(1.0)); // the fast single-precision Gaussian block
        check(new LaplacianKernel(1.0)); // Kernel.cross rounded to float
    }
}
