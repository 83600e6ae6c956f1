package org.psdkit.optim.sdp;

import org.psdkit.linalg.Linalg;
import org.psdkit.linalg.Matrix;

/**
 * One block of one constraint matrix A_i (or of C): either a sparse symmetric matrix given by its upper triangle, or
 * a low-rank symmetric matrix U D Uᵀ (U n×r, D r×r symmetric). In a diagonal (LP) block only diagonal entries occur
 * and the block is stored as a sparse vector.
 *
 * <p>Immutable once built. Indices are 0-based.
 */
public abstract sealed class Coefficient permits Coefficient.Sparse, Coefficient.LowRank {

    /** Block size n. */
    public abstract int size();

    /** ⟨this, S⟩ = trace(this·S) for a dense symmetric n×n S (column-major, both triangles filled). */
    abstract double dotDense(double[] s);

    /** S += scale·this, S dense n×n column-major (both triangles). */
    abstract void addToDense(double[] s, double scale);

    /** Frobenius norm. */
    public abstract double normF();

    /** The dense n×n matrix (both triangles). */
    public Matrix toDense() {
        int n = size();
        double[] s = new double[n * n];
        addToDense(s, 1.0);
        return Matrix.wrap(n, n, s);
    }

    /** A sparse symmetric block from upper-triangle entries (i ≤ j); duplicates must have been merged. */
    public static Sparse sparse(int n, int[] rows, int[] cols, double[] values) {
        return new Sparse(n, rows, cols, values);
    }

    /** The low-rank block U·D·Uᵀ; D is r×r symmetric (only its values are read, it is symmetrised). */
    public static LowRank lowRank(Matrix u, Matrix d) {
        return new LowRank(u, d);
    }

    /** Sparse symmetric matrix stored by its upper triangle. */
    public static final class Sparse extends Coefficient {
        final int n;
        final int[] r;
        final int[] c;
        final double[] v;
        /** Expanded (both triangles) entries: p, q, a with A(p,q) = a. */
        final int[] ep;
        final int[] eq;
        final double[] ea;
        /** Distinct column indices of the expanded entries, ascending. */
        final int[] support;
        /**
         * The Frobenius norm, summed once here in the order of {@link #ea}. Computing it on demand inlined a sum-of-
         * squares loop into the loops over all terms (SdpSolver's starting scales), whose on-stack-replacement
         * compilation crashed the HotSpot 17.0.15 C2 compiler (SuperWord, TypeVect::xmeet) in repeated small solves
         * in one JVM (docs/benchmarks/sdp.md).
         */
        private final double normF;

        Sparse(int n, int[] rows, int[] cols, double[] values) {
            if (rows.length != cols.length || rows.length != values.length) {
                throw new IllegalArgumentException("sparse coefficient: index and value arrays differ in length");
            }
            this.n = n;
            this.r = rows.clone();
            this.c = cols.clone();
            this.v = values.clone();
            int count = 0;
            for (int k = 0; k < r.length; k++) {
                if (r[k] < 0 || c[k] < 0 || r[k] >= n || c[k] >= n) {
                    throw new IllegalArgumentException("sparse coefficient: entry (" + (r[k] + 1) + "," + (c[k] + 1)
                            + ") outside a block of size " + n);
                }
                if (r[k] > c[k]) {
                    int t = r[k];
                    r[k] = c[k];
                    c[k] = t;
                }
                count += r[k] == c[k] ? 1 : 2;
            }
            ep = new int[count];
            eq = new int[count];
            ea = new double[count];
            int e = 0;
            double sumSquares = 0;
            boolean[] seen = new boolean[n];
            for (int k = 0; k < r.length; k++) {
                ep[e] = r[k];
                eq[e] = c[k];
                ea[e++] = v[k];
                sumSquares += v[k] * v[k];
                if (r[k] != c[k]) {
                    ep[e] = c[k];
                    eq[e] = r[k];
                    ea[e++] = v[k];
                    sumSquares += v[k] * v[k];
                }
                seen[r[k]] = true;
                seen[c[k]] = true;
            }
            normF = Math.sqrt(sumSquares);
            int s = 0;
            for (boolean b : seen) {
                s += b ? 1 : 0;
            }
            support = new int[s];
            s = 0;
            for (int i = 0; i < n; i++) {
                if (seen[i]) {
                    support[s++] = i;
                }
            }
        }

        @Override
        public int size() {
            return n;
        }

        /** Number of stored (upper-triangle) entries. */
        public int entries() {
            return r.length;
        }

        /** Number of non-zeros of the full symmetric matrix. */
        int expandedCount() {
            return ea.length;
        }

        public int row(int k) {
            return r[k];
        }

        public int col(int k) {
            return c[k];
        }

        public double value(int k) {
            return v[k];
        }

        @Override
        double dotDense(double[] s) {
            double sum = 0;
            for (int k = 0; k < r.length; k++) {
                int i = r[k];
                int j = c[k];
                sum += i == j ? v[k] * s[i + i * n] : v[k] * (s[i + j * n] + s[j + i * n]);
            }
            return sum;
        }

        /** Diagonal-block version: ⟨this, diag(x)⟩. */
        double dotDiag(double[] x) {
            double sum = 0;
            for (int k = 0; k < r.length; k++) {
                sum += v[k] * x[r[k]];
            }
            return sum;
        }

        void addToDiag(double[] x, double scale) {
            for (int k = 0; k < r.length; k++) {
                x[r[k]] += scale * v[k];
            }
        }

        @Override
        void addToDense(double[] s, double scale) {
            for (int k = 0; k < ep.length; k++) {
                s[ep[k] + eq[k] * n] += scale * ea[k];
            }
        }

        @Override
        public double normF() {
            return normF;
        }

        boolean isDiagonalOnly() {
            for (int k = 0; k < r.length; k++) {
                if (r[k] != c[k]) {
                    return false;
                }
            }
            return true;
        }
    }

    /** U D Uᵀ with a thin U. */
    public static final class LowRank extends Coefficient {
        final Matrix u;
        final double[] d; // r×r column-major, symmetric

        LowRank(Matrix u, Matrix d) {
            if (d.rows() != u.cols() || d.cols() != u.cols()) {
                throw new IllegalArgumentException("low-rank coefficient: D is " + d.rows() + "x" + d.cols()
                        + " but U has " + u.cols() + " columns");
            }
            this.u = u.copy();
            Matrix ds = d.copy();
            ds.symmetrizeInPlace();
            this.d = ds.data();
        }

        @Override
        public int size() {
            return u.rows();
        }

        public int rank() {
            return u.cols();
        }

        @Override
        double dotDense(double[] s) {
            int n = u.rows();
            int k = u.cols();
            Matrix su = Linalg.gemm(1.0, Matrix.wrap(n, n, s), false, u, false);
            double sum = 0;
            for (int a = 0; a < k; a++) {
                for (int b = 0; b < k; b++) {
                    double dab = d[a + b * k];
                    if (dab == 0) {
                        continue;
                    }
                    // (Uᵀ S U)(b, a)
                    double w = 0;
                    for (int i = 0; i < n; i++) {
                        w += u.data()[i + b * n] * su.data()[i + a * n];
                    }
                    sum += dab * w;
                }
            }
            return sum;
        }

        @Override
        void addToDense(double[] s, double scale) {
            int n = u.rows();
            int k = u.cols();
            Matrix ud = Linalg.gemm(scale, u, false, Matrix.wrap(k, k, d), false);
            Matrix out = Matrix.wrap(n, n, s);
            Linalg.gemmInPlace(1.0, ud, false, u, true, 1.0, out);
        }

        @Override
        public double normF() {
            int k = u.cols();
            Matrix utu = Linalg.gemm(1.0, u, true, u, false);
            Matrix dm = Matrix.wrap(k, k, d);
            Matrix p = utu.times(dm);
            Matrix pp = p.times(p);
            return Math.sqrt(Math.max(0, pp.trace()));
        }
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "[n=" + size() + "]";
    }
}
