package org.psdkit.kernel;

import java.util.stream.IntStream;
import org.psdkit.linalg.Linalg;
import org.psdkit.linalg.Matrix;

/**
 * K(X, Z) c for a kernel expansion's predictions (kernel ridge regression's K(x, X) α, an SVM's decision values
 * K(x, SV)(α ∘ y)), in row blocks so that no large cross matrix is held: up to {@link #DGEMV_ENTRIES} entries the
 * cross matrix is formed and multiplied by BLAS dgemv (the values recorded before {@link Kernel#crossTimes} existed,
 * bit for bit); beyond it each row block goes through {@code crossTimes}, whose radial kernels sum the kernel values
 * tile by tile (another order of the same sum: the two agree to its rounding, {@code CrossTimesTest}).
 */
public final class KernelProducts {

    /**
     * Entries of the cross matrix K(x, Z) per row block: 2²² doubles = 32 MB, large enough that the per-block
     * overhead vanishes, small enough to stay far below the heap.
     */
    public static final long BLOCK_ENTRIES = 1L << 22;

    /**
     * In a heap below 512 MB a block holds at most 1/{@value} of the maximum heap in entries instead (the kernel's
     * intermediate matrices of a block are a few times its size); at 512 MB and above the blocks are
     * {@link #BLOCK_ENTRIES}.
     */
    public static final long HEAP_SHARE = 128;

    /** Up to this many entries of K(x, Z) (2¹⁷ doubles, 1 MB) the cross matrix is formed and dgemv multiplies it. */
    public static final long DGEMV_ENTRIES = 1L << 17;

    private KernelProducts() {
    }

    /** K(x, z) c, n = x's rows values; z's rows are c's length and x and z have the same columns (checked by the caller). */
    public static double[] times(Kernel kernel, Matrix x, Matrix z, double[] c) {
        int m = x.rows();
        int n = z.rows();
        double[] p = new double[m];
        long entries = Math.max(1024, Math.min(BLOCK_ENTRIES, Runtime.getRuntime().maxMemory() / HEAP_SHARE));
        int block = (int) Math.max(1, Math.min(m, entries / Math.max(1, n)));
        boolean matrix = (long) m * n <= DGEMV_ENTRIES;
        for (int r0 = 0; r0 < m; r0 += block) {
            int r1 = Math.min(m, r0 + block);
            Matrix xb = r0 == 0 && r1 == m ? x : x.selectRows(IntStream.range(r0, r1).toArray());
            double[] pb = matrix ? Linalg.gemv(kernel.cross(xb, z), false, c) : kernel.crossTimes(xb, z, c);
            System.arraycopy(pb, 0, p, r0, pb.length);
        }
        return p;
    }
}
