package org.psdkit.linalg.reference;

import org.psdkit.linalg.Eigen;
import org.psdkit.linalg.LinalgException;
import org.psdkit.linalg.Matrix;

/**
 * Plain-Java dense linear algebra, independent of the native backend: the baselines of {@code psdkit bench linalg}
 * and an independent oracle for tests. Straightforward algorithms on column-major arrays with loop orders that
 * walk memory contiguously — a fair "good plain Java" baseline, not a deliberately naive one — but no blocking for
 * caches and no SIMD beyond what the JIT does on its own.
 */
public final class ReferenceLinalg {

    /**
     * QL iterations allowed per eigenvalue before giving up; implicit-shift QL needs 1–2 on average
     * (Golub &amp; Van Loan §8.3), 50 leaves a wide margin.
     */
    public static final int MAX_QL_ITERATIONS = 50;

    private ReferenceLinalg() {
    }

    /** C = A B by the column-major j-k-i loop (an axpy of a column of A per entry of B). */
    public static Matrix gemm(Matrix a, Matrix b) {
        int m = a.rows();
        int k = a.cols();
        int n = b.cols();
        if (b.rows() != k) {
            throw new IllegalArgumentException("inner dimensions differ: " + m + "x" + k + " times " + b.rows()
                    + "x" + n);
        }
        double[] ad = a.data();
        double[] bd = b.data();
        double[] c = new double[m * n];
        for (int j = 0; j < n; j++) {
            int cj = j * m;
            for (int p = 0; p < k; p++) {
                double bpj = bd[p + j * k];
                if (bpj == 0) {
                    continue;
                }
                int ap = p * m;
                for (int i = 0; i < m; i++) {
                    c[cj + i] += ad[ap + i] * bpj;
                }
            }
        }
        return Matrix.wrap(m, n, c);
    }

    /**
     * Lower Cholesky factor L with A = L Lᵀ by the left-looking (column) algorithm; throws
     * {@link LinalgException} if a pivot is not positive. Only the lower triangle of A is read.
     */
    public static Matrix cholesky(Matrix a) {
        int n = a.rows();
        if (a.cols() != n) {
            throw new IllegalArgumentException("expected a square matrix, got " + n + "x" + a.cols());
        }
        double[] l = new double[n * n];
        double[] ad = a.data();
        for (int j = 0; j < n; j++) {
            int cj = j * n;
            for (int i = j; i < n; i++) {
                l[cj + i] = ad[cj + i];
            }
            // column j -= Σ_{p<j} L(j,p) · L(j:n, p)
            for (int p = 0; p < j; p++) {
                int cp = p * n;
                double ljp = l[cp + j];
                if (ljp == 0) {
                    continue;
                }
                for (int i = j; i < n; i++) {
                    l[cj + i] -= ljp * l[cp + i];
                }
            }
            double pivot = l[cj + j];
            if (!(pivot > 0)) {
                throw new LinalgException("matrix is not positive definite (pivot " + j + " is " + pivot + ")");
            }
            double s = Math.sqrt(pivot);
            l[cj + j] = s;
            double inv = 1.0 / s;
            for (int i = j + 1; i < n; i++) {
                l[cj + i] *= inv;
            }
        }
        return Matrix.wrap(n, n, l);
    }

    /**
     * Symmetric eigen-decomposition, eigenvalues ascending: Householder reduction to tridiagonal form with the
     * orthogonal factor accumulated, then the implicit-shift QL iteration with eigenvector updates. Only the lower
     * triangle of A is read.
     */
    public static Eigen eigh(Matrix a) {
        int n = a.rows();
        if (a.cols() != n) {
            throw new IllegalArgumentException("expected a square matrix, got " + n + "x" + a.cols());
        }
        double[] w = a.data().clone();
        for (int j = 0; j < n; j++) { // make the working copy symmetric from the lower triangle
            for (int i = j + 1; i < n; i++) {
                w[j + i * n] = w[i + j * n];
            }
        }
        double[] d = new double[n];
        double[] e = new double[n];
        double[] q = new double[n * n];
        tridiagonalize(w, n, d, e, q);
        implicitQl(d, e, q, n);
        // sort ascending (selection sort: n swaps of columns at most)
        for (int i = 0; i < n - 1; i++) {
            int k = i;
            for (int j = i + 1; j < n; j++) {
                if (d[j] < d[k]) {
                    k = j;
                }
            }
            if (k != i) {
                double t = d[i];
                d[i] = d[k];
                d[k] = t;
                for (int r = 0; r < n; r++) {
                    double v = q[r + i * n];
                    q[r + i * n] = q[r + k * n];
                    q[r + k * n] = v;
                }
            }
        }
        return new Eigen(d, Matrix.wrap(n, n, q));
    }

    /**
     * Householder reduction A = Q T Qᵀ of the symmetric n×n array {@code w} (destroyed). On return d holds the
     * diagonal of T, e[i] = T(i+1, i) (e[n−1] = 0) and q the orthogonal Q, column-major.
     */
    static void tridiagonalize(double[] w, int n, double[] d, double[] e, double[] q) {
        double[][] vs = new double[Math.max(0, n - 2)][];
        double[] betas = new double[Math.max(0, n - 2)];
        double[] p = new double[n];
        for (int k = 0; k + 2 < n; k++) {
            int m = n - k - 1; // length of the vector below the diagonal
            int ck = k * n;
            double norm = 0;
            for (int i = k + 1; i < n; i++) {
                norm += w[ck + i] * w[ck + i];
            }
            norm = Math.sqrt(norm);
            double x0 = w[ck + k + 1];
            if (norm == 0) {
                vs[k] = null;
                continue;
            }
            double alpha = x0 >= 0 ? -norm : norm; // T(k+1,k) = alpha; v = x − alpha e1 avoids cancellation
            double[] v = new double[m];
            for (int i = 0; i < m; i++) {
                v[i] = w[ck + k + 1 + i];
            }
            v[0] -= alpha;
            double vtv = 0;
            for (double x : v) {
                vtv += x * x;
            }
            double beta = 2.0 / vtv;
            vs[k] = v;
            betas[k] = beta;
            // p = beta · A22 v, A22 = w[k+1:, k+1:]
            for (int i = 0; i < m; i++) {
                p[i] = 0;
            }
            for (int j = 0; j < m; j++) {
                int cj = (k + 1 + j) * n + k + 1;
                double vj = v[j];
                for (int i = 0; i < m; i++) {
                    p[i] += w[cj + i] * vj;
                }
            }
            double vtp = 0;
            for (int i = 0; i < m; i++) {
                p[i] *= beta;
                vtp += v[i] * p[i];
            }
            double half = 0.5 * beta * vtp;
            for (int i = 0; i < m; i++) {
                p[i] -= half * v[i]; // p now holds the symmetric update vector
            }
            // A22 -= v pᵀ + p vᵀ
            for (int j = 0; j < m; j++) {
                int cj = (k + 1 + j) * n + k + 1;
                double vj = v[j];
                double pj = p[j];
                for (int i = 0; i < m; i++) {
                    w[cj + i] -= v[i] * pj + p[i] * vj;
                }
            }
            w[ck + k + 1] = alpha;
            for (int i = k + 2; i < n; i++) {
                w[ck + i] = 0;
            }
        }
        for (int i = 0; i < n; i++) {
            d[i] = w[i + i * n];
            e[i] = i + 1 < n ? w[i + 1 + i * n] : 0.0;
        }
        // Q = H_0 H_1 … H_{n−3}: start from I and apply the reflectors from the last to the first.
        for (int i = 0; i < n; i++) {
            q[i + i * n] = 1.0;
        }
        for (int k = n - 3; k >= 0; k--) {
            double[] v = vs[k];
            if (v == null) {
                continue;
            }
            int m = n - k - 1;
            double beta = betas[k];
            for (int j = k + 1; j < n; j++) {
                int cj = j * n + k + 1;
                double s = 0;
                for (int i = 0; i < m; i++) {
                    s += v[i] * q[cj + i];
                }
                s *= beta;
                if (s == 0) {
                    continue;
                }
                for (int i = 0; i < m; i++) {
                    q[cj + i] -= s * v[i];
                }
            }
        }
    }

    /**
     * Implicit-shift QL on the symmetric tridiagonal (d, e), e[i] coupling i and i+1, rotating the columns of z
     * (n×n column-major) along; d ends up holding the eigenvalues (unsorted).
     */
    static void implicitQl(double[] d, double[] e, double[] z, int n) {
        double eps = Math.ulp(1.0);
        for (int l = 0; l < n; l++) {
            int iter = 0;
            while (true) {
                int m = l;
                while (m < n - 1) {
                    double dd = Math.abs(d[m]) + Math.abs(d[m + 1]);
                    if (Math.abs(e[m]) <= eps * dd) {
                        break;
                    }
                    m++;
                }
                if (m == l) {
                    break;
                }
                if (++iter > MAX_QL_ITERATIONS) {
                    throw new LinalgException("QL iteration did not converge for eigenvalue " + l);
                }
                // Wilkinson-type shift from the leading 2×2 block
                double g = (d[l + 1] - d[l]) / (2.0 * e[l]);
                double r = Math.hypot(g, 1.0);
                g = d[m] - d[l] + e[l] / (g + (g >= 0 ? r : -r));
                double s = 1.0;
                double c = 1.0;
                double p = 0.0;
                int i;
                boolean deflated = false;
                for (i = m - 1; i >= l; i--) {
                    double f = s * e[i];
                    double b = c * e[i];
                    r = Math.hypot(f, g);
                    e[i + 1] = r;
                    if (r == 0.0) {
                        d[i + 1] -= p;
                        e[m] = 0.0;
                        deflated = true;
                        break;
                    }
                    s = f / r;
                    c = g / r;
                    g = d[i + 1] - p;
                    r = (d[i] - g) * s + 2.0 * c * b;
                    p = s * r;
                    d[i + 1] = g + p;
                    g = c * r - b;
                    int ci = i * n;
                    int ci1 = (i + 1) * n;
                    for (int k = 0; k < n; k++) {
                        double zk1 = z[ci1 + k];
                        double zk = z[ci + k];
                        z[ci1 + k] = s * zk + c * zk1;
                        z[ci + k] = c * zk - s * zk1;
                    }
                }
                if (deflated) {
                    continue;
                }
                d[l] -= p;
                e[l] = g;
                e[m] = 0.0;
            }
        }
    }
}
