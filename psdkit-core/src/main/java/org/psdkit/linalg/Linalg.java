package org.psdkit.linalg;

import org.bytedeco.javacpp.DoublePointer;
import org.bytedeco.openblas.global.openblas;
import org.bytedeco.openblas.global.openblas_nolapack;
import org.psdkit.linalg.internal.NativeCalls;
import org.psdkit.linalg.internal.SymmetricWorkspace;

/**
 * The one facade over dense linear algebra: native LAPACK/BLAS (OpenBLAS shipped inside the
 * {@code org.bytedeco:openblas} jar). Every other package goes through these methods, so the backend can be
 * swapped in one place.
 *
 * <p>All matrices are column-major ({@link Matrix}). No method here modifies its inputs unless its name ends in
 * {@code InPlace}. OpenBLAS uses {@link Threads#get()} threads (all cores by default; see {@link Threads} for why
 * a shared machine may want 1).
 *
 * <p>Which bindings: BLAS calls ({@code cblas_*}, here and in {@code linalg.internal}) go through the presets'
 * {@code openblas_nolapack} class, LAPACK calls ({@code LAPACKE_*}) through its {@code openblas} class. The two
 * classes load two copies of the same OpenBLAS build (libopenblas_nolapack.so.0 and libopenblas.so.0 in the
 * presets' Linux jar, about 32 MB of code each); the nolapack copy is the one {@link Threads} loads to give OpenBLAS
 * its thread count. So a command whose native calls are all BLAS (predict, an SVM fit) maps one copy, and the
 * second is loaded at the first LAPACK call (about 30 ms in a fresh JVM). OpenBLAS's exported symbols, its thread
 * setting included, resolve to the copy loaded first, so both classes' calls run the same code
 * ({@code perf} shows a dgemm called through {@code openblas} executing in libopenblas_nolapack.so.0).
 */
public final class Linalg {
    private static final int COL_MAJOR = 102; // LAPACK_COL_MAJOR == CblasColMajor
    private static final int NO_TRANS = 111;
    private static final int TRANS = 112;
    private static final int UPPER = 121;
    private static final int LOWER = 122;
    private static final int LEFT = 141;
    private static final int NON_UNIT = 131;

    /**
     * Relative jitter of the first retry in {@link #cholesky(Matrix)}: 1e-12 × mean diagonal, i.e. roughly
     * 1e4 machine epsilons, the smallest shift that routinely rescues Gram matrices that are PSD in exact
     * arithmetic but fail dpotrf in floating point.
     */
    public static final double CHOLESKY_FIRST_JITTER = 1e-12;
    /** Jitter grows tenfold per retry and gives up beyond this relative size (1e-2 × mean diagonal). */
    public static final double CHOLESKY_MAX_JITTER = 1e-2;

    static {
        Threads.loadBlas(); // loads OpenBLAS with the thread setting before the first BLAS call
    }

    private Linalg() {
    }

    /** Sets the library's thread count ({@link Threads#set(int)}: OpenBLAS and kernel matrices). */
    public static void setThreads(int n) {
        Threads.set(n);
    }

    /** The library's thread count ({@link Threads#get()}). */
    public static int threads() {
        return Threads.get();
    }

    /** Loads the native library (first use extracts it to ~/.javacpp/cache); call to pay that cost up front. */
    public static void warmUp() {
        eigh(Matrix.identity(2));
    }

    // ---------------------------------------------------------------- products

    /** alpha · op(A) · op(B), a new matrix. */
    public static Matrix gemm(double alpha, Matrix a, boolean transA, Matrix b, boolean transB) {
        int m = transA ? a.cols() : a.rows();
        int k = transA ? a.rows() : a.cols();
        int kb = transB ? b.cols() : b.rows();
        int n = transB ? b.rows() : b.cols();
        if (k != kb) {
            throw new IllegalArgumentException("inner dimensions differ: " + m + "x" + k + " times " + kb + "x" + n);
        }
        Matrix c = Matrix.zeros(m, n);
        gemmInPlace(alpha, a, transA, b, transB, 0.0, c);
        return c;
    }

    /** C ← alpha · op(A) · op(B) + beta · C. */
    public static void gemmInPlace(double alpha, Matrix a, boolean transA, Matrix b, boolean transB, double beta,
                                   Matrix c) {
        int m = transA ? a.cols() : a.rows();
        int k = transA ? a.rows() : a.cols();
        int n = transB ? b.rows() : b.cols();
        if (c.rows() != m || c.cols() != n || (transB ? b.cols() : b.rows()) != k) {
            throw new IllegalArgumentException("gemm shapes do not match");
        }
        if (m == 0 || n == 0) {
            return;
        }
        if (k == 0) {
            c.scaleInPlace(beta);
            return;
        }
        NativeScratch s = NativeScratch.get();
        DoublePointer pa = s.copyOf(NativeScratch.A, a.data());
        DoublePointer pb = b == a ? pa : s.copyOf(NativeScratch.B, b.data());
        DoublePointer pc = beta == 0 ? s.doubles(NativeScratch.C, c.data().length)
                : s.copyOf(NativeScratch.C, c.data());
        try (NativeCalls.Call nc = NativeCalls.enter()) {
            openblas_nolapack.cblas_dgemm(COL_MAJOR, transA ? TRANS : NO_TRANS, transB ? TRANS : NO_TRANS, m, n, k, alpha,
                    pa, Math.max(1, a.rows()), pb, Math.max(1, b.rows()), beta, pc, Math.max(1, m));
        }
        pc.get(c.data(), 0, c.data().length);
    }

    /** op(A) · x. */
    public static double[] gemv(Matrix a, boolean transA, double[] x) {
        int m = transA ? a.cols() : a.rows();
        int n = transA ? a.rows() : a.cols();
        if (x.length != n) {
            throw new IllegalArgumentException("vector of length " + x.length + " cannot multiply a matrix with "
                    + n + (transA ? " rows" : " columns"));
        }
        double[] y = new double[m];
        if (m == 0 || n == 0) {
            return y;
        }
        try (NativeCalls.Call nc = NativeCalls.enter()) {
            openblas_nolapack.cblas_dgemv(COL_MAJOR, transA ? TRANS : NO_TRANS, a.rows(), a.cols(), 1.0, a.data(),
                    Math.max(1, a.rows()), x, 1, 0.0, y, 1);
        }
        return y;
    }

    /**
     * The symmetric product AᵀA (if {@code transA}) or AAᵀ, through dsyrk, with both triangles filled.
     */
    public static Matrix syrk(Matrix a, boolean transA) {
        int n = transA ? a.cols() : a.rows();
        int k = transA ? a.rows() : a.cols();
        Matrix c = Matrix.zeros(n, n);
        if (n == 0 || k == 0) {
            return c;
        }
        NativeScratch s = NativeScratch.get();
        DoublePointer pa = s.copyOf(NativeScratch.A, a.data());
        DoublePointer pc = s.doubles(NativeScratch.C, (long) n * n);
        try (NativeCalls.Call nc = NativeCalls.enter()) {
            openblas_nolapack.cblas_dsyrk(COL_MAJOR, LOWER, transA ? TRANS : NO_TRANS, n, k, 1.0, pa,
                    Math.max(1, a.rows()), 0.0, pc, n);
        }
        pc.get(c.data(), 0, n * n);
        SymmetricWorkspace.fillUpperFromLower(c);
        return c;
    }


    // ---------------------------------------------------------------- eigen-decomposition

    /**
     * Symmetric eigen-decomposition A = V Λ Vᵀ by LAPACK dsyevd (divide and conquer), eigenvalues ascending.
     * Only the lower triangle of A is read.
     */
    public static Eigen eigh(Matrix a) {
        a.requireSquare();
        int n = a.rows();
        double[] v = new double[n * n];
        double[] w = new double[n];
        if (n > 0) {
            int info = syevd(a, true, v, w);
            if (info != 0) {
                throw new LinalgException("dsyevd failed to converge (info=" + info + ") on a " + n + "x" + n
                        + " matrix; max |a_ij| = " + a.maxAbs());
            }
        }
        return new Eigen(w, Matrix.wrap(n, n, v));
    }

    /**
     * Symmetric eigen-decomposition A = V Λ Vᵀ by LAPACK dsyevr (relatively robust representations, all eigenpairs),
     * eigenvalues ascending; only the lower triangle of A is read. The same decomposition as {@link #eigh} up to
     * rounding and the signs of the vectors, by another algorithm for the tridiagonal problem (LAPACK Users' Guide,
     * Sec. 2.4.4): the benchmarks compare the two; {@link #eigh} stays the library's route.
     */
    public static Eigen eighMrrr(Matrix a) {
        a.requireSquare();
        int n = a.rows();
        double[] z = new double[n * n];
        double[] w = new double[n];
        if (n > 0) {
            double[] copy = a.data().clone();
            int[] found = new int[1];
            int[] support = new int[2 * n];
            int info;
            try (NativeCalls.Call nc = NativeCalls.enter()) {
                info = openblas.LAPACKE_dsyevr(COL_MAJOR, (byte) 'V', (byte) 'A', (byte) 'L', n, copy, n, 0, 0, 0, 0,
                        0.0, found, w, z, n, support);
            }
            if (info != 0 || found[0] != n) {
                throw new LinalgException("dsyevr failed (info=" + info + ", " + found[0] + " of " + n
                        + " eigenpairs)");
            }
        }
        return new Eigen(w, Matrix.wrap(n, n, z));
    }

    /**
     * dsyevd through the per-thread native buffers (dsyevd_work with the queried optimal workspace, at least the
     * documented minimum LWORK = 1 + 6n + 2n², LIWORK = 3 + 5n with vectors; LWORK = 2n + 1, LIWORK = 1 without).
     */
    private static int syevd(Matrix a, boolean vectors, double[] vOut, double[] wOut) {
        int n = a.rows();
        NativeScratch s = NativeScratch.get();
        DoublePointer pa = s.copyOf(NativeScratch.A, a.data());
        DoublePointer pw = s.doubles(NativeScratch.W, n);
        byte jobz = (byte) (vectors ? 'V' : 'N');
        // Workspace query first (LWORK = LIWORK = -1), as LAPACKE_dsyevd does: the optimal size lets dsytrd use its
        // blocked code, so results are bit-for-bit those of LAPACKE_dsyevd; never below the documented minimum.
        DoublePointer query = s.doubles(NativeScratch.WORK, 1);
        int qinfo;
        try (NativeCalls.Call nc = NativeCalls.enter()) {
            qinfo = openblas.LAPACKE_dsyevd_work(COL_MAJOR, jobz, (byte) 'L', n, pa, n, pw, query, -1, s.ints(1), -1);
        }
        long minLwork = vectors ? 1 + 6L * n + 2L * n * n : 2L * n + 1;
        int minLiwork = vectors ? 3 + 5 * n : 1;
        long lwork = Math.max(minLwork, qinfo == 0 ? (long) query.get(0) : 0L);
        int liwork = Math.max(minLiwork, qinfo == 0 ? s.ints(1).get(0) : 0);
        DoublePointer work = s.doubles(NativeScratch.WORK, lwork);
        int info;
        try (NativeCalls.Call nc = NativeCalls.enter()) {
            info = openblas.LAPACKE_dsyevd_work(COL_MAJOR, jobz, (byte) 'L', n, pa, n, pw,
                    work, Math.toIntExact(lwork), s.ints(liwork), liwork);
        }
        if (info == 0) {
            if (vOut != null) {
                pa.get(vOut, 0, n * n);
            }
            pw.get(wOut, 0, n);
        }
        return info;
    }

    /** Eigenvalues only, ascending. */
    public static double[] eigvalsh(Matrix a) {
        a.requireSquare();
        int n = a.rows();
        double[] w = new double[n];
        if (n > 0) {
            int info = syevd(a, false, null, w);
            if (info != 0) {
                throw new LinalgException("dsyevd (values only) failed to converge (info=" + info + ")");
            }
        }
        return w;
    }

    /** [A]_+ = V max(Λ, 0) Vᵀ, the projection of a symmetric matrix onto the PSD cone. */
    public static Matrix positivePart(Matrix a) {
        return eigh(a).positivePart();
    }

    /** [A]_- = V min(Λ, 0) Vᵀ (a negative semidefinite matrix, A = [A]_+ + [A]_-). */
    public static Matrix negativePart(Matrix a) {
        return eigh(a).negativePart();
    }

    // ---------------------------------------------------------------- Cholesky and solves

    /**
     * Cholesky factor A = L Lᵀ of a symmetric matrix that should be positive definite. If dpotrf fails, a jitter
     * starting at {@link #CHOLESKY_FIRST_JITTER}·mean(diag A) and growing tenfold is added to the diagonal; the
     * jitter used is reported by {@link Cholesky#jitter()}. Throws {@link LinalgException} past
     * {@link #CHOLESKY_MAX_JITTER}.
     */
    public static Cholesky cholesky(Matrix a) {
        a.requireSquare();
        int n = a.rows();
        double scale = n == 0 ? 1.0 : Math.abs(a.trace()) / n;
        if (scale == 0 || !Double.isFinite(scale)) {
            scale = 1.0;
        }
        double jitter = 0;
        for (double rel = 0; ; rel = rel == 0 ? CHOLESKY_FIRST_JITTER : rel * 10) {
            if (rel > CHOLESKY_MAX_JITTER) {
                throw new LinalgException("matrix is not positive definite: Cholesky failed even with a diagonal "
                        + "jitter of " + (CHOLESKY_MAX_JITTER * scale) + " (n=" + n + ")");
            }
            jitter = rel * scale;
            double[] l = a.data().clone();
            if (jitter > 0) {
                for (int i = 0; i < n; i++) {
                    l[i + i * n] += jitter;
                }
            }
            int info = n == 0 ? 0 : potrf(l, n);
            if (info == 0) {
                for (int j = 0; j < n; j++) {
                    for (int i = 0; i < j; i++) {
                        l[i + j * n] = 0.0; // clear the strict upper triangle
                    }
                }
                return new Cholesky(Matrix.wrap(n, n, l), jitter);
            }
            if (info < 0) {
                throw new LinalgException("dpotrf: illegal argument " + (-info));
            }
        }
    }

    /** dpotrf (lower) of the n×n array {@code l} in place, through the per-thread native buffer. */
    private static int potrf(double[] l, int n) {
        DoublePointer p = NativeScratch.get().copyOf(NativeScratch.A, l);
        int info;
        try (NativeCalls.Call nc = NativeCalls.enter()) {
            info = openblas.LAPACKE_dpotrf(COL_MAJOR, (byte) 'L', n, p, n);
        }
        p.get(l, 0, l.length);
        return info;
    }

    /**
     * The inverse of a symmetric positive definite matrix by dpotrf and dpotri (LAPACK), both triangles filled; only
     * the lower triangle of A is read. Throws {@link LinalgException} when A is not numerically positive definite
     * (no jitter: a caller that needs the exact inverse of A, such as a leave-one-out formula, must not get that of
     * a shifted matrix).
     */
    public static Matrix inverseSpd(Matrix a) {
        a.requireSquare();
        int n = a.rows();
        double[] l = a.data().clone();
        if (n > 0) {
            DoublePointer p = NativeScratch.get().copyOf(NativeScratch.A, l);
            int info;
            try (NativeCalls.Call nc = NativeCalls.enter()) {
                info = openblas.LAPACKE_dpotrf(COL_MAJOR, (byte) 'L', n, p, n);
                if (info == 0) {
                    info = openblas.LAPACKE_dpotri(COL_MAJOR, (byte) 'L', n, p, n);
                }
            }
            if (info != 0) {
                throw new LinalgException("matrix is not positive definite (dpotrf/dpotri info " + info + ", n="
                        + n + ")");
            }
            p.get(l, 0, l.length);
        }
        Matrix inv = Matrix.wrap(n, n, l);
        SymmetricWorkspace.fillUpperFromLower(inv);
        return inv;
    }

    /**
     * Frees the native buffers the calling thread keeps for BLAS/LAPACK calls (they grow to the largest problem
     * the thread has solved; see {@code NativeScratch}). They are re-allocated on the next call.
     */
    public static void releaseBuffers() {
        NativeScratch.release();
    }

    /**
     * Cholesky without jitter: throws {@link LinalgException} naming the failing pivot if A is not numerically
     * positive definite.
     */
    public static Cholesky choleskyStrict(Matrix a) {
        a.requireSquare();
        int n = a.rows();
        double[] l = a.data().clone();
        int info = n == 0 ? 0 : potrf(l, n);
        if (info > 0) {
            throw new LinalgException("matrix is not positive definite (leading minor " + info + " of " + n
                    + " is not positive)");
        }
        for (int j = 0; j < n; j++) {
            for (int i = 0; i < j; i++) {
                l[i + j * n] = 0.0;
            }
        }
        return new Cholesky(Matrix.wrap(n, n, l), 0.0);
    }

    /**
     * Tolerance argument that asks dpstrf for its default stopping rule: remaining diagonal ≤ n · ε · max diag(A)
     * (LAPACK dpstrf documentation, "TOL &lt; 0").
     */
    public static final double PIVOTED_CHOLESKY_DEFAULT_TOLERANCE = -1.0;

    /** Pivoted Cholesky of a symmetric PSD matrix with LAPACK's default rank tolerance (see below). */
    public static PivotedCholesky pivotedCholesky(Matrix a) {
        return pivotedCholesky(a, PIVOTED_CHOLESKY_DEFAULT_TOLERANCE);
    }

    /**
     * Pivoted Cholesky Pᵀ A P = L Lᵀ of a symmetric positive semidefinite matrix by LAPACK dpstrf (only the lower
     * triangle is read), stopping when the largest remaining diagonal entry is ≤ {@code tolerance} (absolute; a
     * negative value selects {@link #PIVOTED_CHOLESKY_DEFAULT_TOLERANCE}). Returns the rank it found; a
     * rank-deficient matrix is a normal result. Throws {@link LinalgException} for an indefinite matrix whose
     * first pivot is negative (a negative or NaN diagonal).
     */
    public static PivotedCholesky pivotedCholesky(Matrix a, double tolerance) {
        a.requireSquare();
        int n = a.rows();
        double[] l = a.data().clone();
        int[] piv = new int[n];
        int[] rank = new int[1];
        if (n == 0) {
            return new PivotedCholesky(Matrix.zeros(0, 0), piv, 0, tolerance);
        }
        int info;
        try (NativeCalls.Call nc = NativeCalls.enter()) {
            info = openblas.LAPACKE_dpstrf(COL_MAJOR, (byte) 'L', n, l, n, piv, rank, tolerance);
        }
        if (info < 0) {
            throw new LinalgException("dpstrf: illegal argument " + (-info) + " (or a NaN in the matrix)");
        }
        int r = rank[0];
        if (r == 0 && n > 0) {
            double maxDiag = Double.NEGATIVE_INFINITY;
            for (int i = 0; i < n; i++) {
                maxDiag = Math.max(maxDiag, a.get(i, i));
            }
            if (!(maxDiag >= 0)) {
                throw new LinalgException("pivoted Cholesky: matrix is not positive semidefinite (largest diagonal "
                        + "entry " + maxDiag + ")");
            }
        }
        Matrix lower = Matrix.zeros(n, r);
        double[] ld = lower.data();
        for (int j = 0; j < r; j++) {
            for (int i = j; i < n; i++) {
                ld[i + j * n] = l[i + j * n];
            }
        }
        for (int k = 0; k < n; k++) {
            piv[k] -= 1; // LAPACK pivots are 1-based
        }
        double tolUsed = tolerance;
        if (tolerance < 0) {
            double maxDiag = 0;
            for (int i = 0; i < n; i++) {
                maxDiag = Math.max(maxDiag, a.get(i, i));
            }
            tolUsed = n * Math.ulp(1.0) / 2 * maxDiag;
        }
        return new PivotedCholesky(lower, piv, r, tolUsed);
    }

    /** Solves A x = b for symmetric positive definite A (Cholesky with jitter reporting). */
    public static double[] solveSpd(Matrix a, double[] b) {
        return cholesky(a).solve(b);
    }

    /**
     * Solves op(L) X = B in place for lower-triangular L (op = identity or transpose); B is overwritten.
     */
    public static void solveLowerInPlace(Matrix l, boolean transpose, Matrix b) {
        l.requireSquare();
        if (b.rows() != l.rows()) {
            throw new IllegalArgumentException("triangular solve: " + l.rows() + "x" + l.cols() + " vs "
                    + b.rows() + " right-hand-side rows");
        }
        if (b.rows() == 0 || b.cols() == 0) {
            return;
        }
        NativeScratch s = NativeScratch.get();
        DoublePointer pl = s.copyOf(NativeScratch.A, l.data());
        DoublePointer pb = s.copyOf(NativeScratch.B, b.data());
        try (NativeCalls.Call nc = NativeCalls.enter()) {
            openblas_nolapack.cblas_dtrsm(COL_MAJOR, LEFT, LOWER, transpose ? TRANS : NO_TRANS, NON_UNIT, b.rows(), b.cols(),
                    1.0, pl, l.rows(), pb, b.rows());
        }
        pb.get(b.data(), 0, b.data().length);
    }

    /** Solves op(L) x = b for lower-triangular L, returning a new vector. */
    public static double[] solveLower(Matrix l, boolean transpose, double[] b) {
        double[] x = b.clone();
        solveLowerInPlace(l, transpose, Matrix.wrap(x.length, 1, x));
        return x;
    }

    /** Solves the general square system A X = B by LU with partial pivoting (dgesv). */
    public static Matrix solve(Matrix a, Matrix b) {
        a.requireSquare();
        int n = a.rows();
        if (b.rows() != n) {
            throw new IllegalArgumentException("solve: " + n + "x" + n + " system with " + b.rows() + " rows in B");
        }
        double[] lu = a.data().clone();
        double[] x = b.data().clone();
        int[] piv = new int[n];
        if (n > 0 && b.cols() > 0) {
            int info;
            try (NativeCalls.Call nc = NativeCalls.enter()) {
                info = openblas.LAPACKE_dgesv(COL_MAJOR, n, b.cols(), lu, n, piv, x, n);
            }
            if (info > 0) {
                throw new LinalgException("singular matrix in solve (U(" + info + "," + info + ") = 0)");
            }
        }
        return Matrix.wrap(n, b.cols(), x);
    }

    /** Dot product. */
    public static double dot(double[] a, double[] b) {
        if (a.length != b.length) {
            throw new IllegalArgumentException("dot: lengths " + a.length + " and " + b.length);
        }
        double s = 0;
        for (int i = 0; i < a.length; i++) {
            s += a[i] * b[i];
        }
        return s;
    }
}
