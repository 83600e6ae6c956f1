package org.psdkit.regression.nystrom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Random;
import org.junit.jupiter.api.Test;
import org.psdkit.kernel.GaussianKernel;
import org.psdkit.linalg.Matrix;
import org.psdkit.regression.KernelRidge;
import org.psdkit.regression.nystrom.internal.GaussianFitted;

/** The anchor-by-anchor Gaussian values of {@link GaussianFitted} against {@link KernelRidge#predict}. */
class GaussianFittedTest {

    private static Matrix points(Random r, int n, int d, double shift) {
        Matrix x = Matrix.zeros(n, d);
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < d; j++) {
                x.set(i, j, shift + r.nextGaussian() * (1 + j));
            }
        }
        return x;
    }

    /**
     * Equal to a predict up to roundings, relative to Σ_j |α_j k_ij| (the scale of the sum's rounding): rows spread
     * over several blocks (2,500 rows, a partial last block), rows equal to anchors (r² = 0: the direct sum of the
     * cancellation guard), points far from the origin, and a σ small enough that many entries underflow.
     */
    @Test
    void valuesEqualAPredictToRounding() {
        Random r = new Random(7);
        for (double[] c : new double[][] {{1.5, 0}, {0.3, 0}, {2, 40}}) {
            int d = 5;
            int m = 60;
            Matrix x = points(r, 2500, d, c[1]);
            Matrix anchors = points(r, m, d, c[1]);
            for (int j = 0; j < d; j++) {
                x.set(17, j, anchors.get(3, j));
                x.set(2400, j, anchors.get(59, j));
            }
            double[] alpha = new double[m];
            for (int j = 0; j < m; j++) {
                alpha[j] = 100 * r.nextGaussian();
            }
            GaussianKernel k = new GaussianKernel(c[0]);
            KernelRidge model = KernelRidge.of(k, anchors, alpha, 0.25, KernelRidge.Options.standard(1),
                    new org.psdkit.linalg.SpdSolve.Diagnostics("nystrom-cg", 0, m, 0));
            double[] p = model.predictVector(x);
            double[] f = GaussianFitted.values(k, anchors, alpha, 0.25, x);
            for (int i = 0; i < x.rows(); i++) {
                double scale = 0.25;
                for (int j = 0; j < m; j++) {
                    scale += Math.abs(alpha[j]) * k.eval(x.row(i), anchors.row(j));
                }
                assertEquals(p[i], f[i], 1e-13 * scale, "row " + i + " sigma " + c[0]);
            }
        }
    }

    /**
     * The values of the reference loop, one anchor at a time with one loop per feature and one exponential call per
     * anchor column: the grouped loops (four features per loop, eight anchors per exponential call) make the same
     * operations in the same order, so the values are the same bit for bit, for d and m that are not multiples of
     * the groups and a partial last block.
     */
    @Test
    void groupedLoopsGiveTheOneAnchorAtATimeValuesBitForBit() {
        Random r = new Random(5);
        for (int d : new int[] {1, 3, 4, 5, 8, 9}) {
            int m = 61;
            Matrix x = points(r, 2100, d, 0.5);
            Matrix anchors = points(r, m, d, 0.5);
            for (int j = 0; j < d; j++) {
                x.set(40, j, anchors.get(7, j)); // r² = 0: the direct sum of the cancellation guard
            }
            double[] alpha = new double[m];
            for (int j = 0; j < m; j++) {
                alpha[j] = 10 * r.nextGaussian();
            }
            GaussianKernel k = new GaussianKernel(1.3);
            double[] f = GaussianFitted.values(k, anchors, alpha, -0.5, x);
            double[] ref = reference(k.gamma(), anchors, alpha, -0.5, x);
            for (int i = 0; i < f.length; i++) {
                assertEquals(Double.doubleToRawLongBits(ref[i]), Double.doubleToRawLongBits(f[i]),
                        "d " + d + " row " + i + ": " + ref[i] + " vs " + f[i]);
            }
        }
    }

    /** GaussianFitted's rule written one anchor and one feature at a time, in one block of 1,024 rows after another. */
    private static double[] reference(double gamma, Matrix anchors, double[] alpha, double offset, Matrix x) {
        int m = anchors.rows();
        int d = anchors.cols();
        int n = x.rows();
        double[] mean = new double[d];
        for (int t = 0; t < d; t++) {
            double s = 0;
            for (int j = 0; j < m; j++) {
                s += anchors.get(j, t);
            }
            mean[t] = s / m;
        }
        double[] c = new double[m * d];
        double[] nc = new double[m];
        for (int j = 0; j < m; j++) {
            double s = 0;
            for (int t = 0; t < d; t++) {
                double v = anchors.get(j, t) - mean[t];
                c[j * d + t] = v;
                s += v * v;
            }
            nc[j] = s;
        }
        double[] f = new double[n];
        for (int i0 = 0; i0 < n; i0 += 1024) {
            int rows = Math.min(n, i0 + 1024) - i0;
            double[][] xc = new double[d][rows];
            double[] nx = new double[rows];
            for (int t = 0; t < d; t++) {
                for (int i = 0; i < rows; i++) {
                    double v = x.get(i0 + i, t) - mean[t];
                    xc[t][i] = v;
                    nx[i] += v * v;
                }
            }
            double[] fb = new double[rows];
            double[] col = new double[rows];
            for (int j = 0; j < m; j++) {
                for (int i = 0; i < rows; i++) {
                    col[i] = nx[i] + nc[j];
                }
                for (int t = 0; t < d; t++) {
                    double v = -2 * c[j * d + t];
                    for (int i = 0; i < rows; i++) {
                        col[i] += v * xc[t][i];
                    }
                }
                for (int i = 0; i < rows; i++) {
                    if (col[i] < 1e-4 * (nx[i] + nc[j])) {
                        double s = 0;
                        for (int t = 0; t < d; t++) {
                            double v = xc[t][i] - c[j * d + t];
                            s += v * v;
                        }
                        col[i] = s;
                    }
                }
                org.psdkit.linalg.internal.ArrayExp.expScaledInPlace(col, 0, rows, -gamma);
                for (int i = 0; i < rows; i++) {
                    fb[i] += alpha[j] * col[i];
                }
            }
            for (int i = 0; i < rows; i++) {
                f[i0 + i] = fb[i] + offset;
            }
        }
        return f;
    }

    @Test
    void wideDataAndMismatchedShapes() {
        Random r = new Random(1);
        GaussianKernel k = new GaussianKernel(1);
        Matrix wide = points(r, 10, GaussianFitted.MAX_FEATURES + 1, 0);
        assertNull(GaussianFitted.values(k, wide, new double[10], 0, wide), "beyond MAX_FEATURES: predict instead");
        Matrix a = points(r, 4, 3, 0);
        assertThrows(IllegalArgumentException.class, () -> GaussianFitted.values(k, a, new double[4], 0,
                points(r, 5, 2, 0)));
        assertThrows(IllegalArgumentException.class, () -> GaussianFitted.values(k, a, new double[3], 0,
                points(r, 5, 3, 0)));
    }
}
