package org.psdkit.linalg.internal;

import java.util.function.Function;
import org.psdkit.linalg.Matrix;

/**
 * Evaluates a per-row function of a point set in blocks of rows, so that a model with m expansion points evaluated at
 * n rows forms an m × b cross matrix at a time instead of m × n (10⁶ rows against 1,000 anchors would be 8 GB): the
 * PSD densities, the GLM density's normalising integrals and the cone families' sums of squares. Predictions that are
 * kernel expansions K(x, Z) c go through {@code kernel.KernelProducts} instead.
 */
public final class RowBlocks {
    /**
     * Entries of the cross matrix formed at a time: 2²² doubles = 32 MB, the block of
     * {@code KernelRidge.predictVector}: large enough that the per-block overhead vanishes, small enough to stay far
     * below the heap.
     */
    static final long BLOCK_ENTRIES = 1L << 22;

    /**
     * In a heap smaller than 4 GB the block is 1/{@value} of the maximum heap instead (the kernel's intermediate
     * matrices of a block are a few times its size): 64 MB of heap evaluate in blocks of 0.5 MB.
     */
    static final long HEAP_SHARE = 128;

    /** Entries of one block's cross matrix in this JVM: {@link #BLOCK_ENTRIES}, less in small heaps. */
    static long blockEntries() {
        long share = Runtime.getRuntime().maxMemory() / HEAP_SHARE / Double.BYTES;
        return Math.max(1024, Math.min(BLOCK_ENTRIES, share));
    }

    private RowBlocks() {
    }

    /**
     * {@code f} applied to row blocks of {@code x} and concatenated; {@code width} is the number of expansion points
     * (columns of the cross matrix per row). A point set within one block is passed whole, as it was before blocking.
     */
    public static double[] apply(Matrix x, int width, Function<Matrix, double[]> f) {
        int n = x.rows();
        int block = (int) Math.max(1, Math.min(n, blockEntries() / Math.max(1, width)));
        if (block >= n) {
            return f.apply(x);
        }
        double[] out = new double[n];
        for (int r0 = 0; r0 < n; r0 += block) {
            int r1 = Math.min(n, r0 + block);
            double[] part = f.apply(x.selectRows(java.util.stream.IntStream.range(r0, r1).toArray()));
            System.arraycopy(part, 0, out, r0, r1 - r0);
        }
        return out;
    }
}
