package org.psdkit.regression.nystrom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.util.Random;
import org.junit.jupiter.api.Test;
import org.psdkit.regression.nystrom.internal.NystromBlocks;

/**
 * {@link NystromBlocks#addKtK(float[], int, double[], double[], int, double[])} gives, bit for bit, the row-by-row
 * sums w += K_iᵀ(K_i u + v_i) with a row's dot product in four partial sums and rows with t_i = 0 skipped.
 */
class NystromBlocksRowOrderTest {

    /** The row-by-row loop the grouped one must reproduce exactly. */
    private static void reference(float[] a, int rows, double[] u, double[] v, int from, double[] w) {
        int m = w.length;
        for (int i = 0; i < rows; i++) {
            int off = i * m;
            double t = v == null ? 0 : v[from + i];
            if (u != null) {
                t += NystromBlocks.rowDot(a, off, u, m);
            }
            if (t != 0) {
                for (int j = 0; j < m; j++) {
                    w[j] += a[off + j] * t;
                }
            }
        }
    }

    @Test
    void groupedRowsGiveTheRowByRowSumsBitForBit() {
        Random r = new Random(11);
        for (int[] shape : new int[][] {{1, 7}, {3, 5}, {4, 9}, {13, 31}, {50, 2}, {103, 64}}) {
            int rows = shape[0];
            int m = shape[1];
            float[] a = new float[rows * m + 5]; // longer than rows·m, as a reused scratch block is
            for (int k = 0; k < a.length; k++) {
                a[k] = (float) (r.nextDouble() * (r.nextInt(5) == 0 ? -1 : 1));
            }
            double[] u = new double[m];
            for (int j = 0; j < m; j++) {
                u[j] = r.nextGaussian() * 1e3;
            }
            int from = 3;
            double[] v = new double[from + rows];
            for (int i = 0; i < v.length; i++) {
                v[i] = r.nextInt(3) == 0 ? 0 : r.nextGaussian();
            }
            double[] zeroU = new double[m]; // every t_i = v_i, some 0: those rows are skipped
            for (double[][] uv : new double[][][] {{u, v}, {u, null}, {null, v}, {zeroU, v}}) {
                double[] w0 = new double[m];
                double[] w1 = new double[m];
                for (int j = 0; j < m; j++) {
                    w0[j] = j % 3 == 0 ? -0.0 : r.nextGaussian();
                    w1[j] = w0[j];
                }
                reference(a, rows, uv[0], uv[1], from, w0);
                NystromBlocks.addKtK(a, rows, uv[0], uv[1], from, w1);
                for (int j = 0; j < m; j++) {
                    assertArrayEquals(new long[] {Double.doubleToRawLongBits(w0[j])},
                            new long[] {Double.doubleToRawLongBits(w1[j])},
                            rows + "x" + m + " entry " + j + ": " + w0[j] + " vs " + w1[j]);
                }
            }
        }
    }
}
