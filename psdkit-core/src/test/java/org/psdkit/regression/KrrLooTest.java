package org.psdkit.regression;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.psdkit.kernel.Kernel;
import org.psdkit.kernel.Kernels;
import org.psdkit.linalg.Linalg;
import org.psdkit.linalg.Matrix;
import org.psdkit.model.ParameterException;
import org.psdkit.regression.nystrom.NystromDirect;

/** The leave-one-out shortcut against n brute-force refits (n = 200). */
class KrrLooTest {
    private static final Kernel K = Kernels.parse("gaussian(sigma=0.8)");
    private static final double[] LAMBDAS = {1e-3, 0.03, 1.0};
    private static final Matrix X = KernelRidgeTest.points(200, 2, 41);
    private static final double[] Y = KernelRidgeTest.target(X, 42);

    private static int[] without(int n, int i) {
        return IntStream.range(0, n).filter(j -> j != i).toArray();
    }

    private static double[] drop(double[] y, int[] idx) {
        double[] out = new double[idx.length];
        for (int k = 0; k < idx.length; k++) {
            out[k] = y[idx[k]];
        }
        return out;
    }

    @Test
    void exactPathEqualsBruteForceRefits() {
        KrrLoo.Path p = KrrLoo.exact(K, X, Y, LAMBDAS);
        int n = X.rows();
        for (int l = 0; l < LAMBDAS.length; l++) {
            double mse = 0;
            for (int i = 0; i < n; i++) {
                int[] idx = without(n, i);
                KernelRidge m = KernelRidge.fit(K, X.selectRows(idx), drop(Y, idx),
                        KernelRidge.Options.standard(LAMBDAS[l]));
                double r = Y[i] - m.predictVector(X.selectRows(new int[] {i}))[0];
                assertEquals(r, p.residuals().get(i, l), 1e-9, "lambda " + LAMBDAS[l] + " row " + i);
                mse += r * r;
            }
            assertEquals(mse / n, p.looMse()[l], 1e-9);
        }
    }

    @Test
    void gcvIsTheTraceFormula() {
        double lam = 0.03;
        KrrLoo.Path p = KrrLoo.exact(K, X, Y, new double[] {lam});
        KernelRidge m = KernelRidge.fit(K, X, Y, KernelRidge.Options.standard(lam));
        double[] f = m.predictVector(X);
        Matrix g = K.gram(X);
        Matrix h = Linalg.solve(g.plus(Matrix.identity(200).scale(lam)), g); // (K + λI)⁻¹K = H (symmetric)
        double rss = 0;
        for (int i = 0; i < 200; i++) {
            rss += (Y[i] - f[i]) * (Y[i] - f[i]);
        }
        double den = 1 - h.trace() / 200;
        assertEquals(rss / 200 / (den * den), p.gcv()[0], 1e-9);
    }

    @Test
    void nystromPathEqualsBruteForceRefitsOnTheSameAnchors() {
        Matrix anchors = X.selectRows(new int[] {0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 120, 140, 160, 180});
        KrrLoo.Path p = KrrLoo.nystrom(K, X, anchors, Y, LAMBDAS);
        int n = X.rows();
        for (int l = 0; l < LAMBDAS.length; l++) {
            for (int i = 0; i < n; i++) {
                int[] idx = without(n, i);
                NystromDirect.Solution s = NystromDirect.solve(NystromDirect.normal(K, X.selectRows(idx), anchors,
                        Matrix.column(drop(Y, idx)), null, false), LAMBDAS[l]);
                double f = Linalg.gemv(K.cross(X.selectRows(new int[] {i}), anchors), false, s.alpha().col(0))[0];
                assertEquals(Y[i] - f, p.residuals().get(i, l), 1e-9, "lambda " + LAMBDAS[l] + " row " + i);
            }
        }
    }

    @Test
    void theBestLambdaIsTheSmallestError() {
        KrrLoo.Path p = KrrLoo.exact(K, X, Y, new double[] {1e-6, 0.03, 100});
        assertEquals(1, p.bestLoo());
        assertEquals(1, p.bestGcv());
        assertTrue(p.looMse()[2] > p.looMse()[1]);
        assertEquals("lambda", assertThrows(ParameterException.class,
                () -> KrrLoo.exact(K, X, Y, new double[] {0.1, 0})).parameter());
    }
}
