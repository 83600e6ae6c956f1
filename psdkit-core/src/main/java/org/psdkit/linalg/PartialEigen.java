package org.psdkit.linalg;

import org.bytedeco.javacpp.DoublePointer;
import org.bytedeco.javacpp.IntPointer;
import org.bytedeco.openblas.global.openblas;
import org.psdkit.linalg.internal.NativeCalls;

/**
 * Selected eigenpairs of a symmetric matrix by LAPACK dsyevr (Dhillon &amp; Parlett 2004, multiple relatively robust
 * representations): after the tridiagonal reduction, only the wanted eigenvalues and their eigenvectors are computed
 * and back-transformed, so k of n eigenpairs cost about (4/3)n³ + O(n²k) flops against the full decomposition's
 * additional O(n³) for all the vectors. The result is an {@link Eigen} whose {@code vectors} are n×k (k selected
 * eigenpairs, eigenvalues ascending). Only the lower triangle of A is read; A is not modified.
 */
public final class PartialEigen {
    static {
        Threads.loadBlas(); // loads OpenBLAS with the thread setting before the first BLAS call
    }

    private static final int COL_MAJOR = 102;

    private PartialEigen() {
    }

    /** The eigenpairs with eigenvalue in (lower, ∞), ascending (none: an empty decomposition with n×0 vectors). */
    public static Eigen above(Matrix a, double lower) {
        a.requireSquare();
        int n = a.rows();
        // every eigenvalue is at most ‖A‖_F; dsyevr needs a finite upper end VU > VL of the half-open range (VL, VU]
        double[] d = a.data();
        double fro = 0;
        for (double x : d) {
            fro += x * x;
        }
        fro = Math.sqrt(fro);
        double upper = Math.max(fro, Math.abs(lower)) * 2 + 1;
        if (!(lower < upper) || !Double.isFinite(upper)) {
            throw new LinalgException("dsyevr: the range (" + lower + ", " + upper + "] of a " + n + "x" + n
                    + " matrix is empty or not finite; max |a_ij| = " + a.maxAbs());
        }
        return run(a, (byte) 'V', lower, upper, 0, 0, n);
    }

    /** The k largest eigenpairs (0 ≤ k ≤ n), ascending. */
    public static Eigen top(Matrix a, int k) {
        a.requireSquare();
        int n = a.rows();
        if (k < 0 || k > n) {
            throw new IllegalArgumentException("top eigenpairs: k = " + k + " outside [0, " + n + "]");
        }
        if (k == 0) {
            return new Eigen(new double[0], Matrix.zeros(n, 0));
        }
        return run(a, (byte) 'I', 0, 0, n - k + 1, n, k);
    }

    private static Eigen run(Matrix a, byte range, double vl, double vu, int il, int iu, int maxCount) {
        int n = a.rows();
        if (n == 0) {
            return new Eigen(new double[0], Matrix.zeros(0, 0));
        }
        NativeScratch s = NativeScratch.get();
        DoublePointer pa = s.copyOf(NativeScratch.A, a.data());
        DoublePointer pw = s.doubles(NativeScratch.W, n);
        // Z gets up to n columns for RANGE = 'V' (the count is known only afterwards)
        DoublePointer pz = s.doubles(NativeScratch.B, (long) n * Math.max(1, maxCount));
        int lwork;
        int liwork;
        int info;
        try (IntPointer isuppz = new IntPointer(2L * Math.max(1, maxCount)); IntPointer m = new IntPointer(1L);
             IntPointer iq = new IntPointer(1L)) {
            DoublePointer query = s.doubles(NativeScratch.WORK, 1);
            int qinfo;
            try (NativeCalls.Call nc = NativeCalls.enter()) {
                qinfo = openblas.LAPACKE_dsyevr_work(COL_MAJOR, (byte) 'V', range, (byte) 'L', n, pa, n, vl, vu, il,
                        iu, 0.0, m, pw, pz, n, isuppz, query, -1, iq, -1);
            }
            // documented minima: LWORK ≥ 26n, LIWORK ≥ 10n (LAPACK documentation of dsyevr)
            lwork = Math.max(26 * n, qinfo == 0 ? (int) query.get(0) : 0);
            liwork = Math.max(10 * n, qinfo == 0 ? iq.get(0) : 0);
            DoublePointer work = s.doubles(NativeScratch.WORK, lwork);
            try (IntPointer iwork = new IntPointer(liwork)) {
                try (NativeCalls.Call nc = NativeCalls.enter()) {
                    info = openblas.LAPACKE_dsyevr_work(COL_MAJOR, (byte) 'V', range, (byte) 'L', n, pa, n, vl, vu,
                            il, iu, 0.0, m, pw, pz, n, isuppz, work, lwork, iwork, liwork);
                }
            }
            if (info != 0) {
                throw new LinalgException("dsyevr failed (info=" + info + ") on a " + n + "x" + n
                        + " matrix; max |a_ij| = " + a.maxAbs());
            }
            int count = m.get(0);
            double[] values = new double[count];
            double[] vectors = new double[n * count];
            pw.get(values, 0, count);
            pz.get(vectors, 0, n * count);
            return new Eigen(values, Matrix.wrap(n, count, vectors));
        }
    }
}
