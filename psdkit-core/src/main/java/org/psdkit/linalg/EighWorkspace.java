package org.psdkit.linalg;

import org.bytedeco.javacpp.DoublePointer;
import org.bytedeco.javacpp.IntPointer;
import org.bytedeco.openblas.global.openblas;
import org.psdkit.linalg.internal.NativeCalls;

/**
 * Reusable native buffers for repeated symmetric eigen-decompositions of one size (solver loops that call eigh
 * every iteration), writing into caller-owned outputs so that nothing is allocated per call. Not thread-safe; close
 * it to free the native memory. Since {@link Linalg#eigh(Matrix)} itself reuses per-thread native buffers, the gain
 * is small and not consistent: {@code psdkit bench linalg} times both (rows "eigh-workspace"; figures on
 * docs/benchmarks/linalg.md).
 */
public final class EighWorkspace implements AutoCloseable {
    static {
        Threads.loadBlas(); // loads OpenBLAS with the thread setting before the first BLAS call
    }

    private static final int COL_MAJOR = 102;

    private final int n;
    private final DoublePointer a;
    private final DoublePointer w;
    private final DoublePointer work;
    private final IntPointer iwork;
    private final int lwork;
    private final int liwork;

    public EighWorkspace(int n) {
        if (n < 1) {
            throw new IllegalArgumentException("eigh workspace size must be >= 1, got " + n);
        }
        this.n = n;
        // dsyevd with eigenvectors: LWORK >= 1 + 6n + 2n², LIWORK >= 3 + 5n (LAPACK documentation of dsyevd).
        this.lwork = Math.toIntExact(1 + 6L * n + 2L * n * n);
        this.liwork = 3 + 5 * n;
        this.a = new DoublePointer((long) n * n);
        this.w = new DoublePointer(n);
        this.work = new DoublePointer(lwork);
        this.iwork = new IntPointer(liwork);
    }

    public int size() {
        return n;
    }

    /**
     * Decomposes symmetric A (lower triangle read) into caller-owned outputs: {@code values} (length n, ascending)
     * and {@code vectors} (n×n, orthonormal columns). A is not modified.
     */
    public void decompose(Matrix m, double[] values, Matrix vectors) {
        if (m.rows() != n || m.cols() != n || values.length != n || vectors.rows() != n || vectors.cols() != n) {
            throw new IllegalArgumentException("eigh workspace of size " + n + " given a " + m.rows() + "x" + m.cols()
                    + " matrix, " + values.length + " values, " + vectors.rows() + "x" + vectors.cols() + " vectors");
        }
        a.put(m.data(), 0, n * n);
        int info;
        try (NativeCalls.Call nc = NativeCalls.enter()) {
            info = openblas.LAPACKE_dsyevd_work(COL_MAJOR, (byte) 'V', (byte) 'L', n, a, n, w, work, lwork, iwork,
                    liwork);
        }
        if (info != 0) {
            throw new LinalgException("dsyevd failed to converge (info=" + info + ") on a " + n + "x" + n
                    + " matrix; max |a_ij| = " + m.maxAbs());
        }
        a.get(vectors.data(), 0, n * n);
        w.get(values, 0, n);
    }

    /** Decomposes A into a new {@link Eigen}. */
    public Eigen decompose(Matrix m) {
        double[] values = new double[n];
        Matrix vectors = Matrix.zeros(n, n);
        decompose(m, values, vectors);
        return new Eigen(values, vectors);
    }

    @Override
    public void close() {
        a.deallocate();
        w.deallocate();
        work.deallocate();
        iwork.deallocate();
    }
}
