package org.psdkit.linalg;

import java.util.stream.IntStream;
import org.psdkit.linalg.internal.FloatBlas;

/**
 * An r×n matrix whose columns are the features (or kernel values) of n data points, the operand of the data-sized
 * products of the Nyström baselines and the cone families' linear block: V x, Vᵀ y and V Vᵀ.
 *
 * <p>Kept in double ({@link #dense}, the products are {@link Linalg#gemv} and {@link Linalg#gemm} on it) when that fits
 * in the heap beside the rest of the fit ({@link #keepDouble}), else in single precision ({@link #single}): column
 * blocks of at most {@link #BLOCK_FLOATS} floats (half of the smallest G1 heap region, so that no block is a humongous
 * object), each column rounded once to float; every product multiplies the stored floats in double and sums in
 * double, so its only error beyond the double path's is the storage rounding (relative 2⁻²⁴ per entry). The blocks'
 * partial sums of V x are added in a fixed grouping, so the result does not depend on the number of cores.
 */
public final class FeatureColumns {

    /** Floats per block: 2¹⁷ less the array header, 512 KiB, half of G1's smallest region (1 MiB). */
    static final int BLOCK_FLOATS = (1 << 17) - 4;
    /** Blocks whose partial V x one task sums before the partial sums are added in order. */
    static final int GROUP_BLOCKS = 64;
    /**
     * Share of the maximum heap the double matrix and the rest of the fit may take for the double path to be kept: the
     * remainder is room for the collector and the per-block temporaries.
     */
    static final double DOUBLE_HEAP_SHARE = 0.75;

    /** Computes the r×(to − from) double columns of the data points from..to−1. */
    @FunctionalInterface
    public interface Source {
        Matrix columns(int from, int to);
    }

    private final int rows;
    private final int cols;
    private final Matrix dense;
    private final float[][] blocks;
    private final int width;

    private FeatureColumns(int rows, int cols, Matrix dense, float[][] blocks, int width) {
        this.rows = rows;
        this.cols = cols;
        this.dense = dense;
        this.blocks = blocks;
        this.width = width;
    }

    /** The double matrix itself (no copy). */
    public static FeatureColumns dense(Matrix v) {
        return new FeatureColumns(v.rows(), v.cols(), v, null, 0);
    }

    /**
     * Whether the double r×n matrix, beside {@code otherBytes} of the rest of the fit, stays within
     * {@link #DOUBLE_HEAP_SHARE} of the maximum heap.
     */
    public static boolean keepDouble(long rows, long cols, long otherBytes) {
        long bytes = MemoryBudget.plus(MemoryBudget.matrixBytes(rows, cols), otherBytes);
        return rows * cols <= MemoryBudget.MAX_ARRAY_LENGTH
                && bytes <= DOUBLE_HEAP_SHARE * Runtime.getRuntime().maxMemory();
    }

    /** Bytes of the r×n matrix as {@link #keepDouble} would store it beside {@code otherBytes}. */
    public static long bytes(long rows, long cols, long otherBytes) {
        return keepDouble(rows, cols, otherBytes) ? MemoryBudget.matrixBytes(rows, cols)
                : MemoryBudget.times(MemoryBudget.times(rows, cols), Float.BYTES);
    }

    /**
     * Fails with {@link MemoryBudget.InsufficientMemoryException} when the heap cannot hold the r×n matrix as
     * {@link #of} would store it (double, else single precision) beside {@code otherBytes}: the message reads
     * "WHAT needs ~X GB, …" with the total.
     */
    public static void check(String what, long rows, long cols, long otherBytes) {
        MemoryBudget.check(what, MemoryBudget.plus(bytes(rows, cols, otherBytes), otherBytes));
    }

    /** Bytes of {@code count} doubles (saturating). */
    public static long doubleBytes(long count) {
        return MemoryBudget.times(count, MemoryBudget.DOUBLE_BYTES);
    }

    /** Columns per single-precision block for r rows. */
    static int width(int rows) {
        return Math.max(1, BLOCK_FLOATS / Math.max(1, rows));
    }

    /** The r×n matrix in single precision, its column blocks computed one at a time by {@code source}. */
    public static FeatureColumns single(int rows, int cols, Source source) {
        int w = width(rows);
        int nb = (cols + w - 1) / w;
        float[][] blocks = new float[nb][];
        for (int b = 0; b < nb; b++) {
            int from = b * w;
            int to = Math.min(cols, from + w);
            Matrix c = source.columns(from, to);
            if (c.rows() != rows || c.cols() != to - from) {
                throw new IllegalStateException("feature block " + c.rows() + "x" + c.cols() + ", expected " + rows
                        + "x" + (to - from));
            }
            double[] d = c.data();
            float[] f = new float[d.length];
            for (int i = 0; i < d.length; i++) {
                f[i] = (float) d[i];
            }
            blocks[b] = f;
        }
        return new FeatureColumns(rows, cols, null, blocks, w);
    }

    /**
     * The double matrix when {@link #keepDouble}({@code rows, cols, otherBytes}), computed by {@code whole}; else the
     * single-precision blocks of {@code source}.
     */
    public static FeatureColumns of(int rows, int cols, long otherBytes, java.util.function.Supplier<Matrix> whole,
                                    Source source) {
        return keepDouble(rows, cols, otherBytes) ? dense(whole.get()) : single(rows, cols, source);
    }

    public int rows() {
        return rows;
    }

    public int cols() {
        return cols;
    }

    /** Whether the columns are stored in single precision. */
    public boolean isSingle() {
        return dense == null;
    }

    /** The double matrix, or null when single. */
    public Matrix denseOrNull() {
        return dense;
    }

    /** V x (length rows) for x of length cols. */
    public double[] times(double[] x) {
        if (dense != null) {
            return Linalg.gemv(dense, false, x);
        }
        if (x.length != cols) {
            throw new IllegalArgumentException("times: vector of length " + x.length + ", expected " + cols);
        }
        int groups = (blocks.length + GROUP_BLOCKS - 1) / GROUP_BLOCKS;
        double[][] partial = new double[groups][];
        Runnable body = () -> IntStream.range(0, groups).parallel().forEach(g -> {
            double[] acc = new double[rows];
            int end = Math.min(blocks.length, (g + 1) * GROUP_BLOCKS);
            for (int b = g * GROUP_BLOCKS; b < end; b++) {
                float[] f = blocks[b];
                int from = b * width;
                int w = f.length / rows;
                for (int j = 0; j < w; j++) {
                    double t = x[from + j];
                    if (t != 0) {
                        int off = j * rows;
                        for (int k = 0; k < rows; k++) {
                            acc[k] += f[off + k] * t;
                        }
                    }
                }
            }
            partial[g] = acc;
        });
        inPool(body);
        double[] out = new double[rows];
        for (double[] p : partial) {
            for (int k = 0; k < rows; k++) {
                out[k] += p[k];
            }
        }
        return out;
    }

    /** Vᵀ y (length cols) for y of length rows. */
    public double[] transposeTimes(double[] y) {
        if (dense != null) {
            return Linalg.gemv(dense, true, y);
        }
        if (y.length != rows) {
            throw new IllegalArgumentException("transposeTimes: vector of length " + y.length + ", expected " + rows);
        }
        double[] out = new double[cols];
        inPool(() -> IntStream.range(0, blocks.length).parallel().forEach(b -> {
            float[] f = blocks[b];
            int from = b * width;
            int w = f.length / rows;
            for (int j = 0; j < w; j++) {
                int off = j * rows;
                double s = 0;
                for (int k = 0; k < rows; k++) {
                    s += f[off + k] * y[k];
                }
                out[from + j] = s;
            }
        }));
        return out;
    }

    /** V Vᵀ (rows×rows). */
    public Matrix gram() {
        if (dense != null) {
            return Linalg.gemm(1.0, dense, false, dense, true);
        }
        double[] lower = new double[rows * rows];
        // a column-major r×b block is the row-major b×r matrix whose AᵀA is the block's V_b V_bᵀ
        try (FloatBlas.GramAccumulator acc = new FloatBlas.GramAccumulator(rows)) {
            for (float[] f : blocks) {
                acc.add(f.length / rows, f);
            }
            acc.addLowerInto(lower);
        }
        Matrix g = Matrix.zeros(rows, rows);
        for (int i = 0; i < rows; i++) {
            for (int j = 0; j <= i; j++) {
                g.set(i, j, lower[i * rows + j]);
                g.set(j, i, lower[i * rows + j]);
            }
        }
        return g;
    }

    /** Writes {@code scale} times column j (widened to double) into {@code dst} from {@code offset}. */
    public void columnInto(int j, double scale, double[] dst, int offset) {
        if (dense != null) {
            double[] d = dense.data();
            int src = j * rows;
            for (int k = 0; k < rows; k++) {
                dst[offset + k] = d[src + k] * scale;
            }
            return;
        }
        float[] f = blocks[j / width];
        int src = (j % width) * rows;
        for (int k = 0; k < rows; k++) {
            dst[offset + k] = f[src + k] * scale;
        }
    }

    /** The squared norms of the n columns, ‖v_j‖² (summed in double). */
    public double[] columnNorms2() {
        double[] out = new double[cols];
        Runnable body = () -> IntStream.range(0, cols).parallel().forEach(j -> {
            double s = 0;
            if (dense != null) {
                double[] d = dense.data();
                int src = j * rows;
                for (int k = 0; k < rows; k++) {
                    s += d[src + k] * d[src + k];
                }
            } else {
                float[] f = blocks[j / width];
                int src = (j % width) * rows;
                for (int k = 0; k < rows; k++) {
                    double q = f[src + k];
                    s += q * q;
                }
            }
            out[j] = s;
        });
        inPool(body);
        return out;
    }

    /** The r×(to − from) double columns from..to−1 (widened from single precision, or copied). */
    public Matrix columns(int from, int to) {
        Matrix out = Matrix.zeros(rows, to - from);
        double[] od = out.data();
        if (dense != null) {
            System.arraycopy(dense.data(), from * rows, od, 0, (to - from) * rows);
            return out;
        }
        for (int j = from; j < to; j++) {
            float[] f = blocks[j / width];
            int off = (j % width) * rows;
            int dst = (j - from) * rows;
            for (int k = 0; k < rows; k++) {
                od[dst + k] = f[off + k];
            }
        }
        return out;
    }

    private static void inPool(Runnable body) {
        try {
            Threads.dataPool().submit(body).get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } catch (java.util.concurrent.ExecutionException e) {
            Throwable c = e.getCause();
            if (c instanceof RuntimeException re) {
                throw re;
            }
            if (c instanceof Error err) {
                throw err;
            }
            throw new IllegalStateException(c);
        }
    }
}
