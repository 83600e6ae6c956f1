package org.psdkit.linalg.internal;

import java.util.ArrayList;
import java.util.List;
import org.bytedeco.javacpp.DoublePointer;
import org.bytedeco.openblas.global.openblas;
import org.bytedeco.openblas.global.openblas_nolapack;
import org.psdkit.linalg.Matrix;
import org.psdkit.linalg.Threads;

/**
 * Column blocks of the product X Zᵀ (X n×d, Z m×d, one point per row), computed by BLAS dgemm into reusable
 * per-thread native buffers and copied into a caller's {@code double[]}.
 *
 * <p>Why: JavaCPP copies every {@code double[]} argument to freshly allocated native memory and back on each
 * call. For a kernel matrix of n = 5000 points that is a 200 MB output per call whose fresh pages must be faulted in
 * and copied twice, which costs many times the dgemm itself (docs/benchmarks/linalg.md). Computing the product in column blocks of at most
 * {@link #BLOCK_COLUMNS} columns keeps the native buffers small (n × 128 doubles per thread), reused across calls,
 * and lets several threads run blocks at once. X and Z are copied to native memory once per instance.
 *
 * <p>Thread-safe: {@link #compute} may run concurrently on different threads. Close the instance to free the
 * native copies of X and Z (the per-thread scratch buffers stay allocated for reuse).
 */
public final class ProductBlocks implements AutoCloseable {
    private static final int COL_MAJOR = 102;
    private static final int NO_TRANS = 111;
    private static final int TRANS = 112;

    /** Widest block {@link #compute} accepts: 128 columns × n rows, 5 MB per thread at n = 5000. */
    public static final int BLOCK_COLUMNS = 128;

    /** Per-thread native scratch, grown on demand and kept for reuse. */
    private static final ThreadLocal<DoublePointer[]> SCRATCH = ThreadLocal.withInitial(() -> new DoublePointer[1]);

    static {
        Threads.loadBlas(); // loads OpenBLAS with the thread setting before the first BLAS call
    }

    private final int n;
    private final int m;
    private final int d;
    private final DoublePointer x;
    private final DoublePointer z;
    private final boolean same;
    private final List<DoublePointer> owned = new ArrayList<>();

    /** Prepares X Zᵀ; pass the same matrix twice for a Gram matrix X Xᵀ (copied once). */
    public ProductBlocks(Matrix x, Matrix z) {
        if (x.cols() != z.cols()) {
            throw new IllegalArgumentException("points of dimension " + x.cols() + " and " + z.cols());
        }
        this.n = x.rows();
        this.m = z.rows();
        this.d = x.cols();
        this.same = x == z;
        this.x = new DoublePointer(Math.max(1L, (long) n * d));
        if (n * d > 0) {
            this.x.put(x.data(), 0, n * d);
        }
        owned.add(this.x);
        if (same) {
            this.z = this.x;
        } else {
            this.z = new DoublePointer(Math.max(1L, (long) m * d));
            if (m * d > 0) {
                this.z.put(z.data(), 0, m * d);
            }
            owned.add(this.z);
        }
    }

    /**
     * Writes rows i0 ≤ i &lt; n and columns j0 ≤ j &lt; j1 of X Zᵀ into {@code dst}, column-major with leading
     * dimension n − i0: {@code dst[(i − i0) + (j − j0)(n − i0)] = x_iᵀ z_j}. At most {@link #BLOCK_COLUMNS}
     * columns per call.
     */
    public void compute(int i0, int j0, int j1, double[] dst) {
        int rows = n - i0;
        int cols = j1 - j0;
        if (i0 < 0 || rows < 0 || j0 < 0 || cols < 0 || j1 > m || cols > BLOCK_COLUMNS) {
            throw new IllegalArgumentException("block rows " + i0 + ".. of " + n + ", columns " + j0 + ".." + j1
                    + " of " + m + " (at most " + BLOCK_COLUMNS + " columns)");
        }
        int len = rows * cols;
        if (dst.length < len) {
            throw new IllegalArgumentException("destination of length " + dst.length + " for a " + rows + "x" + cols
                    + " block");
        }
        if (len == 0) {
            return;
        }
        if (d == 0) {
            java.util.Arrays.fill(dst, 0, len, 0.0);
            return;
        }
        DoublePointer[] holder = SCRATCH.get();
        DoublePointer buf = holder[0];
        if (buf == null || buf.capacity() < len) {
            if (buf != null) {
                buf.deallocate();
            }
            buf = new DoublePointer(Math.max(len, 1L * n * Math.min(BLOCK_COLUMNS, m)));
            holder[0] = buf;
        }
        DoublePointer xv = new DoublePointer(x).position(i0);
        DoublePointer zv = new DoublePointer(z).position(j0);
        try (NativeCalls.Call nc = NativeCalls.enter()) {
            openblas_nolapack.cblas_dgemm(COL_MAJOR, NO_TRANS, TRANS, rows, cols, d, 1.0, xv, n, zv, m, 0.0, buf.position(0),
                    rows);
        }
        buf.position(0).get(dst, 0, len);
    }

    public int rows() {
        return n;
    }

    public int cols() {
        return m;
    }

    @Override
    public void close() {
        for (DoublePointer p : owned) {
            p.deallocate();
        }
        owned.clear();
    }
}
