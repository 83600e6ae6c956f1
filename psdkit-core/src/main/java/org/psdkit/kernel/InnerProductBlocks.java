package org.psdkit.kernel;

import org.psdkit.linalg.Matrix;
import org.psdkit.linalg.internal.ProductBlocks;

/**
 * Drives the elementwise pass of a kernel matrix over column blocks of the inner products X Zᵀ: the blocks come
 * from BLAS ({@link ProductBlocks}, reusable native buffers) and are handed, one thread per block range, to a body
 * that turns inner products into kernel values. For a Gram matrix only the lower triangle is produced.
 */
final class InnerProductBlocks {

    /** Java-side copy of a block, per thread, reused across calls. */
    private static final ThreadLocal<double[][]> BUFFER = ThreadLocal.withInitial(() -> new double[1][]);

    /** Consumes block rows i0.. and columns j0..j1 of X Zᵀ: {@code prod[(i − i0) + (j − j0) · rows]}. */
    @FunctionalInterface
    interface Body {
        void apply(double[] prod, int i0, int rows, int j0, int j1);
    }

    private InnerProductBlocks() {
    }

    /**
     * Runs {@code body} over all column blocks of X Zᵀ ({@code lower}: X = Z and only rows i ≥ j are needed).
     * {@code workPerEntry} estimates the elementwise cost for the threading decision.
     */
    static void run(Matrix x, Matrix z, boolean lower, int workPerEntry, Body body) {
        int n = x.rows();
        int m = z.rows();
        if (n == 0 || m == 0) {
            return;
        }
        long work = (long) n * m * Math.max(1, workPerEntry) / (lower ? 2 : 1);
        try (ProductBlocks pb = new ProductBlocks(x, lower ? x : z)) {
            ParallelColumns.forColumns(m, work, (from, to) -> {
                double[][] holder = BUFFER.get();
                for (int j0 = from; j0 < to; j0 += ProductBlocks.BLOCK_COLUMNS) {
                    int j1 = Math.min(to, j0 + ProductBlocks.BLOCK_COLUMNS);
                    int i0 = lower ? j0 : 0;
                    int rows = n - i0;
                    int len = rows * (j1 - j0);
                    if (holder[0] == null || holder[0].length < len) {
                        holder[0] = new double[Math.max(len, n * Math.min(m, ProductBlocks.BLOCK_COLUMNS))];
                    }
                    double[] prod = holder[0];
                    pb.compute(i0, j0, j1, prod);
                    body.apply(prod, i0, rows, j0, j1);
                }
            });
        }
    }
}
