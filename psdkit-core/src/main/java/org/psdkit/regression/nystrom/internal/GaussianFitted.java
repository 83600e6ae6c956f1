package org.psdkit.regression.nystrom.internal;

import java.util.concurrent.ForkJoinPool;
import java.util.stream.IntStream;
import org.psdkit.kernel.GaussianKernel;
import org.psdkit.linalg.Matrix;
import org.psdkit.linalg.Threads;
import org.psdkit.linalg.internal.ArrayExp;

/**
 * f(x_i) = Σ_j α_j exp(−γ‖x_i − c_j‖²) + offset for every row of x, in double precision, in row blocks on all cores:
 * the values a predict of those rows gives (the training predictions of a Nyström fit, without forming the n×m
 * cross-kernel matrix of a predict).
 *
 * <p>Each block of {@link #BLOCK_ROWS} rows runs anchor by anchor on a column of the block: the squared distances as
 * ‖x‖² + ‖c‖² − 2x·c (points and anchors centred on the anchors' mean first; the kernel is translation invariant
 * and centring shrinks the cancelling terms), with the direct sum of squares where the subtraction cancels (r² below
 * 1e-4 of ‖x‖² + ‖c‖², the guard of the kernels' own cross matrices), the exponential of the column by
 * {@link ArrayExp} (within 1 ulp of {@link Math#exp}) and α_j times the column added into the block's values. Each
 * row sums its anchors in their order, so the result does not depend on the number of threads. The only
 * differences from a predict are roundings: of the distances (the centring point, the order of the d products)
 * and of the sum over anchors (relative ≈ u·Σ|α_j k_ij| / |f|).
 */
public final class GaussianFitted {

    /** Rows of a block: a column of 1,024 doubles (8 KB) stays in the L1 cache across its three loops. */
    static final int BLOCK_ROWS = 1024;

    /** Largest d for which the d products of each entry run in these plain loops (a predict uses GEMM beyond). */
    public static final int MAX_FEATURES = 64;

    /** r² below this share of ‖x‖² + ‖c‖² is recomputed as a direct sum of squares (as the kernels' cross). */
    private static final double CANCELLATION_GUARD = 1e-4;

    private GaussianFitted() {
    }

    /**
     * The values f(x_i) for every row of x (n×d, column-major) with anchors (m×d) and coefficients α; null when
     * d &gt; {@link #MAX_FEATURES} (then a predict is the faster way).
     */
    public static double[] values(GaussianKernel kernel, Matrix anchors, double[] alpha, double offset, Matrix x) {
        int m = anchors.rows();
        int d = anchors.cols();
        if (x.cols() != d) {
            throw new IllegalArgumentException("fitted values: anchors have " + d + " features, points " + x.cols());
        }
        if (alpha.length != m) {
            throw new IllegalArgumentException("fitted values: " + alpha.length + " coefficients for " + m
                    + " anchors");
        }
        if (d > MAX_FEATURES) {
            return null;
        }
        int n = x.rows();
        double[] ca = anchors.data();
        double[] mean = new double[d];
        for (int t = 0; t < d; t++) {
            double s = 0;
            for (int j = 0; j < m; j++) {
                s += ca[t * m + j];
            }
            mean[t] = m == 0 ? 0 : s / m;
        }
        // anchors centred, row-major m×d, and their squared norms
        double[] c = new double[m * d];
        double[] nc = new double[m];
        for (int j = 0; j < m; j++) {
            double s = 0;
            for (int t = 0; t < d; t++) {
                double v = ca[t * m + j] - mean[t];
                c[j * d + t] = v;
                s += v * v;
            }
            nc[j] = s;
        }
        double gamma = kernel.gamma();
        double[] xa = x.data();
        double[] f = new double[n];
        int blocks = (n + BLOCK_ROWS - 1) / BLOCK_ROWS;
        POOL.submit(() -> IntStream.range(0, blocks).parallel().forEach(b -> {
            int i0 = b * BLOCK_ROWS;
            int rows = Math.min(n, i0 + BLOCK_ROWS) - i0;
            // the block's rows centred, one array per feature (every loop indexes its arrays alike from 0: JDK
            // 17's superword pass leaves a loop scalar when its arrays are indexed with different offsets)
            double[][] xc = new double[d][rows];
            double[] nx = new double[rows];
            for (int t = 0; t < d; t++) {
                double[] xt = xc[t];
                System.arraycopy(xa, t * n + i0, xt, 0, rows);
                double mt = mean[t];
                for (int i = 0; i < rows; i++) {
                    double v = xt[i] - mt;
                    xt[i] = v;
                    nx[i] += v * v;
                }
            }
            // the columns of ANCHOR_GROUP anchors side by side, so that one exponential call covers them all
            double[] cols = new double[ANCHOR_GROUP * rows];
            double[] col = new double[rows];
            double[] fb = new double[rows];
            for (int j0 = 0; j0 < m; j0 += ANCHOR_GROUP) {
                int g = Math.min(ANCHOR_GROUP, m - j0);
                for (int q = 0; q < g; q++) {
                    distances(xc, nx, c, nc, j0 + q, d, rows, col);
                    System.arraycopy(col, 0, cols, q * rows, rows);
                }
                ArrayExp.expScaledInPlace(cols, 0, g * rows, -gamma);
                for (int q = 0; q < g; q++) {
                    double aj = alpha[j0 + q];
                    System.arraycopy(cols, q * rows, col, 0, rows);
                    for (int i = 0; i < rows; i++) {
                        fb[i] += aj * col[i];
                    }
                }
            }
            for (int i = 0; i < rows; i++) {
                f[i0 + i] = fb[i] + offset;
            }
        })).join();
        return f;
    }

    /**
     * Anchors whose columns share one exponential call (8 KB each: the group stays in the L2 cache); the exponential
     * is elementwise, so grouping changes no value.
     */
    static final int ANCHOR_GROUP = 8;

    /**
     * The squared distances of the block's rows to anchor j into col[0, rows): ‖x‖² + ‖c‖² − 2x·c with the d
     * products added in feature order (four features per loop, the same additions in the same order as one loop per
     * feature), then the direct sum where the subtraction cancels.
     */
    private static void distances(double[][] xc, double[] nx, double[] c, double[] nc, int j, int d, int rows,
                                  double[] col) {
        int cj = j * d;
        double ncj = nc[j];
        for (int i = 0; i < rows; i++) {
            col[i] = nx[i] + ncj;
        }
        int t = 0;
        for (; t + 3 < d; t += 4) {
            double v0 = -2 * c[cj + t];
            double v1 = -2 * c[cj + t + 1];
            double v2 = -2 * c[cj + t + 2];
            double v3 = -2 * c[cj + t + 3];
            double[] x0 = xc[t];
            double[] x1 = xc[t + 1];
            double[] x2 = xc[t + 2];
            double[] x3 = xc[t + 3];
            for (int i = 0; i < rows; i++) {
                col[i] = (((col[i] + v0 * x0[i]) + v1 * x1[i]) + v2 * x2[i]) + v3 * x3[i];
            }
        }
        for (; t < d; t++) {
            double v = -2 * c[cj + t];
            double[] xt = xc[t];
            for (int i = 0; i < rows; i++) {
                col[i] += v * xt[i];
            }
        }
        for (int i = 0; i < rows; i++) {
            if (col[i] < CANCELLATION_GUARD * (nx[i] + ncj)) {
                col[i] = direct(xc, i, c, cj, d);
            }
        }
    }

    /** ‖x_i − c_j‖² summed directly (both centred). */
    private static double direct(double[][] xc, int i, double[] c, int cj, int d) {
        double s = 0;
        for (int t = 0; t < d; t++) {
            double v = xc[t][i] - c[cj + t];
            s += v * v;
        }
        return s;
    }

    private static final ForkJoinPool POOL = Threads.dataPool();
}
