package org.psdkit.svm;

/**
 * Row access to an m×m kernel matrix K for the SMO solver. Implementations: a dense precomputed Gram matrix
 * ({@link #dense}) or rows computed on demand from a kernel with a cache ({@link CachedKernelRows}).
 */
public interface KernelRows {

    /** Number of points m. */
    int size();

    /** Row i of K (length m). The returned array must not be modified by the caller; it may be reused. */
    double[] row(int i);

    /** K_ii. */
    double diag(int i);

    /**
     * A dense symmetric Gram matrix stored column-major (m×m); row i is the i-th column by symmetry. The matrix
     * must not change while the rows are in use.
     */
    static KernelRows dense(org.psdkit.linalg.Matrix k) {
        int m = k.rows();
        if (k.cols() != m) {
            throw new IllegalArgumentException("Gram matrix must be square, got " + m + "x" + k.cols());
        }
        double[] d = k.data();
        double[][] rows = new double[m][]; // copied on first use: warm-started solves touch few rows
        double[] diagonal = new double[m]; // contiguous: the solver reads every K_tt in each pair selection
        for (int i = 0; i < m; i++) {
            diagonal[i] = d[i + i * m];
        }
        return new KernelRows() {
            @Override
            public int size() {
                return m;
            }

            @Override
            public double[] row(int i) {
                double[] r = rows[i];
                if (r == null) {
                    r = java.util.Arrays.copyOfRange(d, i * m, (i + 1) * m);
                    rows[i] = r;
                }
                return r;
            }

            @Override
            public double diag(int i) {
                return diagonal[i];
            }
        };
    }
}
