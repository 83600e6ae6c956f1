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
 *
 * <p>Every family's prediction that is a kernel expansion goes through this class, with one block rule: kernel ridge
 * regression (one or several targets), the SVM's and SVR's decision values, the one-vs-one SVM's pairs
 * ({@link #crossBlocks}), the densities' Σ_i α_i k(x, x_i) ({@link #transposedTimes}) and the PSD regression and cone
 * families' kernel expansions.
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
        double[] p = new double[x.rows()];
        boolean matrix = (long) x.rows() * z.rows() <= DGEMV_ENTRIES;
        rowBlocks(x, z.rows(), (xb, r0) -> {
            double[] pb = matrix ? Linalg.gemv(kernel.cross(xb, z), false, c) : kernel.crossTimes(xb, z, c);
            System.arraycopy(pb, 0, p, r0, pb.length);
        });
        return p;
    }

    /**
     * K(z, x)ᵀ c = K(x, z) c for a caller whose recorded values come from the transposed cross matrix (the densities'
     * f(x) = Σ_i α_i k(x, x_i) as {@code gemv(cross(points, x), transposed)}): up to {@link #DGEMV_ENTRIES} entries
     * that expression, bit for bit; beyond, {@link #times}. A radial kernel centres the points on the first
     * argument's column means, so K(z, x)ᵀ and K(x, z) differ in the last bits of their entries: beyond the threshold
     * the values agree with the transposed expression to rounding (1e-12 of Σ_j |k(x_i, z_j) c_j|,
     * {@code ExpansionPredictionsTest}).
     */
    public static double[] transposedTimes(Kernel kernel, Matrix z, Matrix x, double[] c) {
        if ((long) x.rows() * z.rows() <= DGEMV_ENTRIES) {
            return Linalg.gemv(kernel.cross(z, x), true, c);
        }
        return times(kernel, x, z, c);
    }

    /**
     * K(x, z) C for several coefficient columns at once (a multi-target kernel ridge regression's K(x, X) A): x's rows
     * in the blocks of {@link #times}, each block's cross matrix multiplied by BLAS dgemm. The kernel values are
     * computed once for all columns; no matrix larger than one block is held. A single block (up to
     * {@link #BLOCK_ENTRIES} entries in a heap of 512 MB or more) is {@code gemm(cross(x, z), C)} bit for bit.
     */
    public static Matrix times(Kernel kernel, Matrix x, Matrix z, Matrix c) {
        if (c.rows() != z.rows()) {
            throw new IllegalArgumentException("a " + c.rows() + "x" + c.cols() + " coefficient matrix for " + z.rows()
                    + " points");
        }
        Matrix p = Matrix.zeros(x.rows(), c.cols());
        double[] pa = p.data();
        int m = x.rows();
        crossBlocks(kernel, x, z, (r0, kb) -> {
            Matrix pb = Linalg.gemm(1.0, kb, false, c, false);
            double[] b = pb.data();
            int rows = pb.rows();
            for (int col = 0; col < pb.cols(); col++) {
                System.arraycopy(b, col * rows, pa, col * m + r0, rows);
            }
        });
        return p;
    }

    /** One row block of the cross matrix, for {@link #crossBlocks}. */
    @FunctionalInterface
    public interface CrossBlock {
        /** {@code cross} = K(x's rows r0 … r0 + cross.rows() − 1, z). */
        void accept(int r0, Matrix cross);
    }

    /**
     * Hands K(x, z) to {@code f} in the row blocks of {@link #times}, first row first, for a prediction that is no
     * single product with the cross matrix (a one-vs-one SVM's pairs sum over two classes' support vectors each). A
     * point set within one block is passed whole, so its cross matrix is {@code kernel.cross(x, z)} bit for bit.
     */
    public static void crossBlocks(Kernel kernel, Matrix x, Matrix z, CrossBlock f) {
        rowBlocks(x, z.rows(), (xb, r0) -> f.accept(r0, kernel.cross(xb, z)));
    }

    /**
     * x's rows in blocks of {@link #blockRows} against n points, first row first: {@code f} gets each block's rows
     * as a matrix (x itself when one block holds them all) and the index of its first row.
     */
    private static void rowBlocks(Matrix x, int n, java.util.function.ObjIntConsumer<Matrix> f) {
        int m = x.rows();
        int block = blockRows(m, n);
        for (int r0 = 0; r0 < m; r0 += block) {
            int r1 = Math.min(m, r0 + block);
            f.accept(r0 == 0 && r1 == m ? x : x.selectRows(IntStream.range(r0, r1).toArray()), r0);
        }
    }

    /** Rows per block for m rows against n points: {@link #BLOCK_ENTRIES} entries, less in a small heap. */
    static int blockRows(int m, int n) {
        long entries = Math.max(1024, Math.min(BLOCK_ENTRIES, Runtime.getRuntime().maxMemory() / HEAP_SHARE));
        return (int) Math.max(1, Math.min(m, entries / Math.max(1, n)));
    }
}
