package org.psdkit.linalg.internal;

import org.psdkit.linalg.Matrix;

/**
 * Level-2 products of small dense matrices (order a few thousand at most) in plain Java on the calling thread:
 * triangular solves and matrix–vector products, the same operations as {@link org.psdkit.linalg.Linalg#solveLower} and
 * {@link org.psdkit.linalg.Linalg#gemv} without the native call. For loops that do many O(m²) products in a row (the
 * iterations of a conjugate-gradient solve): through OpenBLAS each call copies the matrix into native memory and splits
 * the work among the library's threads, which wait for each other at every call on a loaded machine (docs/design.md;
 * the profile of {@code bench krr-scale} in docs/benchmarks/krr-scale.md). The inner products run two accumulators (a
 * fixed summation order, so the results do not depend on the thread count).
 */
public final class OnThread {

    private OnThread() {
    }

    /** Solves L x = v (or Lᵀx = v if {@code transpose}) for column-major lower-triangular L; a new vector. */
    public static double[] solveLower(Matrix l, boolean transpose, double[] v) {
        int m = l.rows();
        if (l.cols() != m || v.length != m) {
            throw new IllegalArgumentException("triangular solve: " + l.rows() + "x" + l.cols() + " with a vector of "
                    + v.length);
        }
        double[] a = l.data();
        double[] x = v.clone();
        if (!transpose) {
            for (int j = 0; j < m; j++) {
                int c = j * m;
                double xj = x[j] / a[c + j];
                x[j] = xj;
                if (xj != 0) {
                    for (int i = j + 1; i < m; i++) {
                        x[i] -= a[c + i] * xj;
                    }
                }
            }
        } else {
            for (int j = m - 1; j >= 0; j--) {
                int c = j * m;
                double s0 = 0;
                double s1 = 0;
                int i = j + 1;
                for (; i + 1 < m; i += 2) {
                    s0 += a[c + i] * x[i];
                    s1 += a[c + i + 1] * x[i + 1];
                }
                if (i < m) {
                    s0 += a[c + i] * x[i];
                }
                x[j] = (x[j] - (s0 + s1)) / a[c + j];
            }
        }
        return x;
    }

    /** A v (or Aᵀv if {@code transpose}) for a column-major A; a new vector. */
    public static double[] gemv(Matrix a, boolean transpose, double[] v) {
        int r = a.rows();
        int c = a.cols();
        if (v.length != (transpose ? r : c)) {
            throw new IllegalArgumentException("vector of length " + v.length + " cannot multiply a matrix with "
                    + (transpose ? r + " rows" : c + " columns"));
        }
        double[] d = a.data();
        if (!transpose) {
            double[] y = new double[r];
            for (int j = 0; j < c; j++) {
                double vj = v[j];
                if (vj != 0) {
                    int off = j * r;
                    for (int i = 0; i < r; i++) {
                        y[i] += d[off + i] * vj;
                    }
                }
            }
            return y;
        }
        double[] y = new double[c];
        for (int j = 0; j < c; j++) {
            int off = j * r;
            double s0 = 0;
            double s1 = 0;
            int i = 0;
            for (; i + 1 < r; i += 2) {
                s0 += d[off + i] * v[i];
                s1 += d[off + i + 1] * v[i + 1];
            }
            if (i < r) {
                s0 += d[off + i] * v[i];
            }
            y[j] = s0 + s1;
        }
        return y;
    }
}
