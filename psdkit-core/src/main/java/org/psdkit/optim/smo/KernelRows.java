package org.psdkit.optim.smo;

/**
 * Row access to an m×m kernel matrix K for the SMO solver. Implementations: a dense precomputed Gram matrix
 * ({@link #dense}) or rows computed on demand from a kernel with a cache ({@link CachedKernelRows}).
 */
public interface KernelRows {

    /**
     * The former fixed number of points up to which SVM and SVR formed the dense Gram matrix (8000² doubles = 512
     * MB); they now decide by their memory budget ({@link Smo#denseFits}).
     */
    int DENSE_LIMIT = 8000;

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
        return new DenseRows(k.data(), m);
    }

    /**
     * A dense symmetric Gram matrix (column-major m×m array): {@link #row} copies a column out; {@link Smo} reads
     * the array in place.
     */
    record DenseRows(double[] data, int size) implements KernelRows {
        @Override
        public double[] row(int i) {
            return java.util.Arrays.copyOfRange(data, i * size, (i + 1) * size);
        }

        @Override
        public double diag(int i) {
            return data[i + i * size];
        }
    }

    /**
     * Rows made by {@code makeRow} on first use and kept (a warm-started solve touches few rows), with the diagonal
     * given up front (contiguous: the solver reads every K_tt in each pair selection).
     */
    static KernelRows lazy(double[] diagonal, java.util.function.IntFunction<double[]> makeRow) {
        int m = diagonal.length;
        double[][] rows = new double[m][];
        return new KernelRows() {
            @Override
            public int size() {
                return m;
            }

            @Override
            public double[] row(int i) {
                double[] r = rows[i];
                if (r == null) {
                    r = makeRow.apply(i);
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
