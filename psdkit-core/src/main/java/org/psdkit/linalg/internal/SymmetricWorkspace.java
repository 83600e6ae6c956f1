package org.psdkit.linalg.internal;

import org.bytedeco.javacpp.DoublePointer;
import org.bytedeco.javacpp.IntPointer;
import org.bytedeco.openblas.global.openblas;
import org.bytedeco.openblas.global.openblas_nolapack;
import org.psdkit.linalg.LinalgException;
import org.psdkit.linalg.Matrix;
import org.psdkit.linalg.Threads;

/**
 * Reusable native buffers for iterative algorithms that decompose one r×r symmetric matrix per iteration
 * (the dual solver of PSD models): S is built by rank-k updates, decomposed in place by LAPACK {@code dsyevd},
 * and a contiguous block of its eigenvectors is multiplied by a fixed r×m "right" matrix, all without
 * allocating or copying Java arrays into fresh native memory on every call (the bytedeco {@code double[]}
 * overloads copy each array in and out on every call).
 *
 * <p>Only the lower triangle of S is ever formed. Not thread-safe; close it (or let it be collected) to free the
 * native memory.
 */
public final class SymmetricWorkspace implements AutoCloseable {
    static {
        Threads.loadBlas(); // loads OpenBLAS with the thread setting before the first BLAS call
    }

    private static final int COL_MAJOR = 102;
    private static final int NO_TRANS = 111;
    private static final int TRANS = 112;
    private static final int LOWER = 122;

    private final int r;
    private final int maxCols;
    private final DoublePointer s;      // r×r, S then its eigenvectors
    private final DoublePointer w;      // r eigenvalues
    private final DoublePointer work;
    private final IntPointer iwork;
    private final int lwork;
    private final int liwork;
    private final DoublePointer scratch; // r×maxCols, rank-update factors
    private final DoublePointer aux;     // r×r, addScaled operand
    private DoublePointer right;         // r×m
    private int rightCols;
    private DoublePointer product;       // maxCols... product buffer of eigenvectorsTransposeTimesRight
    private DoublePointer blockProduct;  // r×maxCols, product buffer of eigenvectorsTransposeTimes
    private boolean decomposed;

    /**
     * @param r       size of the symmetric matrix
     * @param maxCols largest number of columns of a rank-update factor passed to {@link #rankUpdate}
     */
    public SymmetricWorkspace(int r, int maxCols) {
        if (r < 1 || maxCols < 0) {
            throw new IllegalArgumentException("workspace size must be >= 1, got r=" + r + ", maxCols=" + maxCols);
        }
        this.r = r;
        this.maxCols = maxCols;
        this.s = new DoublePointer((long) r * r);
        this.w = new DoublePointer(r);
        this.scratch = new DoublePointer(Math.max(1L, (long) r * maxCols));
        this.aux = new DoublePointer((long) r * r);
        // workspace query
        DoublePointer wq = new DoublePointer(1);
        IntPointer iq = new IntPointer(1);
        int info;
        try (NativeCalls.Call nc = NativeCalls.enter()) {
            info = openblas.LAPACKE_dsyevd_work(COL_MAJOR, (byte) 'V', (byte) 'L', r, s, r, w, wq, -1, iq, -1);
        }
        if (info != 0) {
            throw new LinalgException("dsyevd workspace query failed (info=" + info + ")");
        }
        this.lwork = (int) Math.ceil(wq.get(0));
        this.liwork = iq.get(0);
        wq.close();
        iq.close();
        this.work = new DoublePointer(Math.max(1, lwork));
        this.iwork = new IntPointer(Math.max(1, liwork));
    }

    public int size() {
        return r;
    }

    /**
     * S ← alphaFirst · G₁G₁ᵀ + alphaSecond · G₂G₂ᵀ + beta · S (lower triangle), where G₁ is made of the first
     * {@code k1} columns and G₂ of the next {@code k2} columns of the r×(k1+k2) column-major array {@code g}.
     */
    public void rankUpdate(double[] g, int k1, double alphaFirst, int k2, double alphaSecond, double beta) {
        if (k1 < 0 || k2 < 0 || k1 + k2 > maxCols || g.length < (long) r * (k1 + k2)) {
            throw new IllegalArgumentException("rank update with " + k1 + "+" + k2 + " columns exceeds the workspace ("
                    + maxCols + " columns of length " + r + ")");
        }
        decomposed = false;
        if (k1 + k2 > 0) {
            scratch.position(0).put(g, 0, r * (k1 + k2));
        }
        if (k1 > 0) {
            try (NativeCalls.Call nc = NativeCalls.enter()) {
                openblas_nolapack.cblas_dsyrk(COL_MAJOR, LOWER, NO_TRANS, r, k1, alphaFirst, scratch.position(0), r, beta,
                        s.position(0), r);
            }
        } else if (beta != 1.0) {
            scaleLower(beta);
        }
        if (k2 > 0) {
            try (NativeCalls.Call nc = NativeCalls.enter()) {
                openblas_nolapack.cblas_dsyrk(COL_MAJOR, LOWER, NO_TRANS, r, k2, alphaSecond,
                        scratch.position((long) r * k1), r, 1.0, s.position(0), r);
            }
        }
        scratch.position(0);
    }

    private void scaleLower(double beta) {
        for (int j = 0; j < r; j++) {
            for (int i = j; i < r; i++) {
                long k = i + (long) j * r;
                s.put(k, beta == 0 ? 0.0 : beta * s.get(k));
            }
        }
    }

    /** S ← S + a·C for a symmetric r×r matrix C (lower triangles). */
    public void addScaled(double a, Matrix c) {
        if (c.rows() != r || c.cols() != r) {
            throw new IllegalArgumentException("addScaled: expected " + r + "x" + r + ", got " + c.rows() + "x" + c.cols());
        }
        decomposed = false;
        aux.position(0).put(c.data(), 0, r * r);
        try (NativeCalls.Call nc = NativeCalls.enter()) {
            openblas_nolapack.cblas_daxpy(r * r, a, aux, 1, s.position(0), 1);
        }
    }

    /** S ← S + a·I. */
    public void addToDiagonal(double a) {
        decomposed = false;
        for (int i = 0; i < r; i++) {
            long k = i + (long) i * r;
            s.put(k, s.get(k) + a);
        }
    }

    /** Copies the current S (before {@link #eigh}) out as a full symmetric matrix. */
    public Matrix copyMatrix() {
        double[] out = new double[r * r];
        s.position(0).get(out, 0, r * r);
        Matrix m = Matrix.wrap(r, r, out);
        fillUpperFromLower(m);
        return m;
    }

    /**
     * Decomposes S in place (dsyevd): the eigenvalues (ascending) are written to {@code values} (length r) and the
     * eigenvectors stay in the workspace for {@link #eigenvectorsTransposeTimesRight} and {@link #eigenvectors}.
     */
    public void eigh(double[] values) {
        if (values.length < r) {
            throw new IllegalArgumentException("eigenvalue array of length " + values.length + " < " + r);
        }
        int info;
        try (NativeCalls.Call nc = NativeCalls.enter()) {
            info = openblas.LAPACKE_dsyevd_work(COL_MAJOR, (byte) 'V', (byte) 'L', r, s.position(0), r, w, work,
                    lwork, iwork, liwork);
        }
        if (info != 0) {
            throw new LinalgException("dsyevd failed to converge (info=" + info + ") on a " + r + "x" + r + " matrix");
        }
        w.position(0).get(values, 0, r);
        decomposed = true;
    }

    /** Sets the fixed r×m right operand B used by {@link #eigenvectorsTransposeTimesRight}. */
    public void setRight(Matrix b) {
        if (b.rows() != r) {
            throw new IllegalArgumentException("right operand has " + b.rows() + " rows, expected " + r);
        }
        if (right != null) {
            right.close();
            product.close();
        }
        rightCols = b.cols();
        right = new DoublePointer(Math.max(1L, (long) r * rightCols));
        right.put(b.data(), 0, r * rightCols);
        product = new DoublePointer(Math.max(1L, (long) r * rightCols));
    }

    /**
     * out ← U[:, from .. from+m)ᵀ · B, an m×(columns of B) column-major block, where U are the eigenvectors of the
     * last {@link #eigh} and B the matrix of {@link #setRight}. Costs 2·m·r·cols flops.
     */
    public void eigenvectorsTransposeTimesRight(int from, int m, double[] out) {
        requireDecomposed();
        if (right == null) {
            throw new IllegalStateException("setRight was not called");
        }
        if (from < 0 || m < 0 || from + m > r || out.length < (long) m * rightCols) {
            throw new IllegalArgumentException("eigenvector block [" + from + ", " + (from + m) + ") of " + r);
        }
        if (m == 0 || rightCols == 0) {
            return;
        }
        try (NativeCalls.Call nc = NativeCalls.enter()) {
            openblas_nolapack.cblas_dgemm(COL_MAJOR, TRANS, NO_TRANS, m, rightCols, r, 1.0, s.position((long) from * r), r,
                    right.position(0), r, 0.0, product.position(0), m);
        }
        s.position(0);
        product.position(0).get(out, 0, m * rightCols);
    }

    /**
     * out ← U[:, from .. from+m)ᵀ · B for an r×cols column-major block B given here (cols ≤ the workspace's
     * maxCols), an m×cols column-major result: the blocked form of {@link #eigenvectorsTransposeTimesRight} for a
     * right operand too large to hold at once. Uses the rank-update buffer for B.
     */
    public void eigenvectorsTransposeTimes(int from, int m, double[] b, int cols, double[] out) {
        requireDecomposed();
        if (from < 0 || m < 0 || from + m > r || cols < 0 || cols > maxCols || b.length < (long) r * cols
                || out.length < (long) m * cols) {
            throw new IllegalArgumentException("eigenvector block [" + from + ", " + (from + m) + ") of " + r
                    + " times " + cols + " columns (workspace of " + maxCols + ")");
        }
        if (m == 0 || cols == 0) {
            return;
        }
        if (blockProduct == null) {
            blockProduct = new DoublePointer(Math.max(1L, (long) r * maxCols));
        }
        scratch.position(0).put(b, 0, r * cols);
        try (NativeCalls.Call nc = NativeCalls.enter()) {
            openblas_nolapack.cblas_dgemm(COL_MAJOR, TRANS, NO_TRANS, m, cols, r, 1.0, s.position((long) from * r), r,
                    scratch.position(0), r, 0.0, blockProduct.position(0), m);
        }
        s.position(0);
        blockProduct.position(0).get(out, 0, m * cols);
    }

    /** A copy of the eigenvector columns [from, from+m) of the last {@link #eigh} (r×m). */
    public Matrix eigenvectors(int from, int m) {
        requireDecomposed();
        if (from < 0 || m < 0 || from + m > r) {
            throw new IllegalArgumentException("eigenvector block [" + from + ", " + (from + m) + ") of " + r);
        }
        double[] out = new double[r * m];
        s.position((long) from * r).get(out, 0, r * m);
        s.position(0);
        return Matrix.wrap(r, m, out);
    }

    private void requireDecomposed() {
        if (!decomposed) {
            throw new IllegalStateException("eigh was not called since the matrix last changed");
        }
    }

    @Override
    public void close() {
        s.close();
        w.close();
        work.close();
        iwork.close();
        scratch.close();
        aux.close();
        if (right != null) {
            right.close();
            product.close();
        }
        if (blockProduct != null) {
            blockProduct.close();
        }
    }

    /** Copies the lower triangle of the square matrix c onto its upper triangle (column-major). */
    public static void fillUpperFromLower(Matrix c) {
        int n = c.rows();
        double[] d = c.data();
        for (int j = 0; j < n; j++) {
            for (int i = j + 1; i < n; i++) {
                d[j + i * n] = d[i + j * n];
            }
        }
    }
}
