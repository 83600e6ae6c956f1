package org.psdkit.kernel;

import org.psdkit.linalg.Matrix;
import org.psdkit.linalg.Threads;
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

    /** Columns per block of {@link #lowerInPlace}: 128 × n doubles, 5 MB per thread at n = 5000. */
    private static final int LOWER_BLOCK_COLUMNS = 128;

    /** Per-thread block of {@link #lowerInPlace}, reused across calls. */
    private static final ThreadLocal<double[][]> LOWER_BLOCK = ThreadLocal.withInitial(() -> new double[1][]);

    /**
     * Runs {@code body} over the lower triangle of an n×n native buffer in column blocks on {@link ParallelColumns}:
     * each block (rows j0.., columns j0..j1) is read into a per-thread Java array, handed to {@code body} as
     * {@code blk[(i − j0) + (j − j0)(n − j0)]} (i0 = j0; rows i ≥ j are meaningful) and written back. Used by the
     * kernels' {@code gramInto} after one dsyrk: no n×n Java array and no mirror of the upper triangle.
     */
    static void lowerInPlace(org.psdkit.linalg.SpdBuffer out, int n, Body body) {
        ParallelColumns.forColumns(n, (long) n * n / 2, (from, to) -> {
            double[][] holder = LOWER_BLOCK.get();
            for (int j0 = from; j0 < to; j0 += LOWER_BLOCK_COLUMNS) {
                int j1 = Math.min(to, j0 + LOWER_BLOCK_COLUMNS);
                int rows = n - j0;
                int len = rows * (j1 - j0);
                if (holder[0] == null || holder[0].length < len) {
                    holder[0] = new double[Math.max(len, n * Math.min(n, LOWER_BLOCK_COLUMNS))];
                }
                double[] blk = holder[0];
                out.read(j0, j0, j1, blk);
                body.apply(blk, j0, rows, j0, j1);
                out.write(j0, j0, j1, blk);
            }
        });
    }

    /**
     * Runs {@code body} over all column blocks of X Zᵀ ({@code lower}: X = Z and only rows i ≥ j are needed).
     * {@code workPerEntry} estimates the elementwise cost for the threading decision. When the blocks run on several
     * threads, OpenBLAS is capped at one thread meanwhile ({@link Threads#blasCapped}): each worker's dgemm of its
     * own block then uses one core, instead of every worker asking OpenBLAS for all of them and its threads spinning
     * at the barriers (docs/benchmarks/cold.md, "predict"). A dgemm's entries do not depend on its thread count (the
     * threads split the rows and columns of the product, never the sum over the d features), so the values are the
     * same bit for bit.
     */
    static void run(Matrix x, Matrix z, boolean lower, int workPerEntry, Body body) {
        int n = x.rows();
        int m = z.rows();
        if (n == 0 || m == 0) {
            return;
        }
        long work = (long) n * m * Math.max(1, workPerEntry) / (lower ? 2 : 1);
        if (ParallelColumns.parallel(m, work) && Threads.get() > 1) {
            Threads.blasCapped(1, () -> {
                blocks(x, z, lower, n, m, work, body);
                return null;
            });
        } else {
            blocks(x, z, lower, n, m, work, body);
        }
    }

    /** Consumes tile t of X Zᵀ, columns j0..j1 (j0 = t · TILE), all rows: {@code prod[i + (j − j0) · n]}. */
    @FunctionalInterface
    interface TileBody {
        void apply(double[] prod, int t, int j0, int j1);
    }

    /** Columns per tile of {@link #tiles}: one {@link ProductBlocks} block. */
    static final int TILE = ProductBlocks.BLOCK_COLUMNS;

    /**
     * Runs {@code body} over the column tiles [t · TILE, min(m, (t + 1) · TILE)) of X Zᵀ, all n rows, on
     * {@link ParallelColumns}: the tiles are fixed by m alone, so what a body computes per tile does not depend on
     * the number of threads. OpenBLAS runs each tile's dgemm on one thread, whether or not tiles run in parallel: a
     * tile is too small for OpenBLAS's threads to pay, and OpenBLAS splitting a product between its threads can
     * change the last bits of the rows at the split (see {@link #run}), so a tile's entries are the same at any
     * thread setting.
     */
    static void tiles(Matrix x, Matrix z, int workPerEntry, TileBody body) {
        int n = x.rows();
        int m = z.rows();
        if (n == 0 || m == 0) {
            return;
        }
        int count = (m + TILE - 1) / TILE;
        long work = (long) n * m * Math.max(1, workPerEntry);
        java.util.function.Supplier<Void> all = () -> {
            try (ProductBlocks pb = new ProductBlocks(x, z)) {
                ParallelColumns.forColumns(count, work, (from, to) -> {
                    double[][] holder = BUFFER.get();
                    for (int t = from; t < to; t++) {
                        int j0 = t * TILE;
                        int j1 = Math.min(m, j0 + TILE);
                        int len = n * (j1 - j0);
                        if (holder[0] == null || holder[0].length < len) {
                            holder[0] = new double[Math.max(len, n * Math.min(m, TILE))];
                        }
                        double[] prod = holder[0];
                        pb.compute(0, j0, j1, prod);
                        body.apply(prod, t, j0, j1);
                    }
                });
            }
            return null;
        };
        if (Threads.get() > 1) {
            Threads.blasCapped(1, all);
        } else {
            all.get();
        }
    }

    private static void blocks(Matrix x, Matrix z, boolean lower, int n, int m, long work, Body body) {
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
