package org.psdkit.psd;

import org.psdkit.kernel.Kernel;
import org.psdkit.linalg.Eigen;
import org.psdkit.linalg.Linalg;
import org.psdkit.linalg.Matrix;

/**
 * The empirical feature map of n training points, Φ(x) = Σ^{-1/2} Uᵀ v(x) ∈ ℝʳ with v(x) = (k(x, x_i))_i and
 * K ≈ U Σ Uᵀ the economy eigen-decomposition of the Gram matrix restricted to the r eigenvalues above
 * {@code relativeThreshold · λ_max(K)} (Marteau-Ferey, Bach and Rudi 2020, App. B.4 Remark 5). Then V = Σ^{1/2}Uᵀ
 * (r×n) satisfies VᵀV = K̃ ≈ K, Φ(x_i) = V e_i, and the r×r matrices of the finite-dimensional problem (9) act on
 * these features. Rank-deficient K (duplicate points, tiny bandwidths) is the normal case, not an error.
 *
 * <p>Immutable.
 */
public final class EmpiricalFeatureMap {

    /**
     * Default relative eigenvalue threshold. dsyevd computes the eigenvalues of K with absolute errors of about
     * n·ε·λ_max (ε = 2.2e-16), i.e. 4.4e-13·λ_max at n = 2000; eigenvalues below 1e-11·λ_max are therefore
     * dominated by rounding for the problem sizes psdkit targets and are dropped (a 20× margin at n = 2000).
     */
    public static final double DEFAULT_RELATIVE_THRESHOLD = 1e-11;

    private final Kernel kernel;
    private final Matrix points;
    private final Matrix u;        // n×r
    private final double[] sigma;  // r eigenvalues kept (ascending)
    private final Matrix v;        // r×n; null when the features are held as single-precision columns
    private final org.psdkit.linalg.FeatureColumns columns; // those columns, else null
    private final double threshold;

    private EmpiricalFeatureMap(Kernel kernel, Matrix points, Matrix u, double[] sigma, double threshold) {
        this(kernel, points, u, sigma, threshold, (Matrix) null);
    }

    /** With {@code data} null the features of the points themselves (V = Σ^{1/2}Uᵀ); else Φ(data) (Nyström). */
    private EmpiricalFeatureMap(Kernel kernel, Matrix points, Matrix u, double[] sigma, double threshold,
                                Matrix data) {
        this.kernel = kernel;
        this.points = points;
        this.u = u;
        this.sigma = sigma;
        this.threshold = threshold;
        this.columns = null;
        if (data != null) {
            this.v = features(data);
            return;
        }
        int n = u.rows();
        int r = sigma.length;
        Matrix vv = Matrix.zeros(r, n);
        for (int k = 0; k < r; k++) {
            double s = Math.sqrt(sigma[k]);
            for (int i = 0; i < n; i++) {
                vv.set(k, i, s * u.get(i, k));
            }
        }
        this.v = vv;
    }

    /** Builds the map for the rows of {@code x} with the default threshold. */
    public static EmpiricalFeatureMap of(Kernel kernel, Matrix x) {
        return of(kernel, x, DEFAULT_RELATIVE_THRESHOLD);
    }

    /**
     * The Nyström map (Marteau-Ferey, Bach &amp; Rudi 2020 App. B.5): the feature space of the {@code anchors}
     * (eigen-decomposition of their m×m Gram matrix, cut at {@code relativeThreshold}), with the training features
     * {@link #trainingFeatures()} those of the {@code data} rows, Φ(x_i) = Σ^{-1/2}Uᵀ k(anchors, x_i) (r×n, computed
     * in row blocks on every core by {@link #features}: O(nr + m·b) memory, never n×n). {@link #size()} is the number of data rows; models built on
     * the map expand on the anchors. With every data row as anchor it equals {@link #of(Kernel, Matrix, double)}
     * up to rounding.
     */
    public static EmpiricalFeatureMap nystrom(Kernel kernel, Matrix anchors, Matrix data, double relativeThreshold) {
        if (anchors.cols() != data.cols()) {
            throw new IllegalArgumentException("anchors have " + anchors.cols() + " columns, data " + data.cols());
        }
        EmpiricalFeatureMap a = of(kernel, anchors, relativeThreshold);
        return new EmpiricalFeatureMap(kernel, a.points, a.u, a.sigma, relativeThreshold, data);
    }

    /**
     * {@link #nystrom} with the training features held as single-precision column blocks
     * ({@link org.psdkit.linalg.FeatureColumns#single}, r×n floats: half the double matrix) and no double r×n copy:
     * {@link #trainingColumns()} hands them out, {@link #trainingFeatures()} widens them on request. Each column is
     * the double Φ(x_i) of {@link #features} rounded once to float.
     */
    public static EmpiricalFeatureMap nystromSingle(Kernel kernel, Matrix anchors, Matrix data,
                                                    double relativeThreshold) {
        if (anchors.cols() != data.cols()) {
            throw new IllegalArgumentException("anchors have " + anchors.cols() + " columns, data " + data.cols());
        }
        EmpiricalFeatureMap a = of(kernel, anchors, relativeThreshold);
        org.psdkit.linalg.FeatureColumns c = org.psdkit.linalg.FeatureColumns.single(a.sigma.length, data.rows(),
                (from, to) -> streamedFeatures(kernel, a.points, a.u, a.sigma, 0.0, data.rowRange(from, to)));
        return new EmpiricalFeatureMap(kernel, a.points, a.u, a.sigma, relativeThreshold, c);
    }

    private EmpiricalFeatureMap(Kernel kernel, Matrix points, Matrix u, double[] sigma, double threshold,
                                org.psdkit.linalg.FeatureColumns columns) {
        this.kernel = kernel;
        this.points = points;
        this.u = u;
        this.sigma = sigma;
        this.threshold = threshold;
        this.v = null;
        this.columns = columns;
    }

    public static EmpiricalFeatureMap of(Kernel kernel, Matrix x, double relativeThreshold) {
        if (x.rows() < 1) {
            throw new IllegalArgumentException("empirical feature map: no training points");
        }
        if (!(relativeThreshold > 0 && relativeThreshold < 1)) {
            throw new IllegalArgumentException("relative eigenvalue threshold must be in (0, 1), got "
                    + relativeThreshold);
        }
        Matrix k = kernel.gram(x);
        Eigen e = Linalg.eigh(k);
        int n = k.rows();
        double max = e.max();
        if (!(max > 0)) {
            throw new IllegalArgumentException("kernel matrix of the " + n + " training points is zero");
        }
        double cut = relativeThreshold * max;
        int first = 0;
        while (first < n && !(e.values()[first] > cut)) {
            first++;
        }
        int r = n - first;
        double[] s = new double[r];
        System.arraycopy(e.values(), first, s, 0, r);
        Matrix uu = Matrix.zeros(n, r);
        System.arraycopy(e.vectors().data(), first * n, uu.data(), 0, n * r);
        return new EmpiricalFeatureMap(kernel, x.copy(), uu, s, relativeThreshold);
    }

    public Kernel kernel() {
        return kernel;
    }

    /** The training points (a copy). */
    public Matrix points() {
        return points.copy();
    }

    Matrix pointsView() {
        return points;
    }

    /** Number of training points n (the data rows of a Nyström map). */
    public int size() {
        return v != null ? v.cols() : columns.cols();
    }

    /** Number of expansion points (the anchors of a Nyström map, else n). */
    public int expansionPoints() {
        return u.rows();
    }

    /** Dimension r of the features (rank of K̃). */
    public int rank() {
        return sigma.length;
    }

    public double relativeThreshold() {
        return threshold;
    }

    /** V (r×n), the features of the training points as columns (a copy; widened when held in single precision). */
    public Matrix trainingFeatures() {
        return v != null ? v.copy() : columns.columns(0, columns.cols());
    }

    /** Whether the training features are held as single-precision columns ({@link #nystromSingle}). */
    public boolean singleColumns() {
        return columns != null;
    }

    /** The training features as {@link org.psdkit.linalg.FeatureColumns}: the held columns, or a double copy. */
    public org.psdkit.linalg.FeatureColumns trainingColumns() {
        return columns != null ? columns : org.psdkit.linalg.FeatureColumns.dense(v.copy());
    }

    /** U (m×r), the kept eigenvectors of the expansion points' Gram matrix (a copy). */
    public Matrix eigenvectors() {
        return u.copy();
    }

    /** Σ, the r kept eigenvalues of the expansion points' Gram matrix, ascending (a copy). */
    public double[] eigenvalues() {
        return sigma.clone();
    }

    /**
     * Φ(x) for each row of {@code x}: an r×q matrix, one column per point, computed in row blocks of x
     * ({@link #blockRows}) so that beyond the r×q result only one m×b cross block is held (m expansion points): memory
     * O(q·r + m·b), never the m×q cross matrix at once nor anything q×q. Each block's kernel evaluations run on every
     * core ({@code ParallelColumns}) and its product with Uᵀ in multi-threaded BLAS.
     */
    public Matrix features(Matrix x) {
        return streamedFeatures(kernel, points, u, sigma, 0.0, x);
    }

    /**
     * Φ(x) for the rows of {@code x} as {@link org.psdkit.linalg.FeatureColumns}: the double r×q matrix of
     * {@link #features} when it fits beside {@code otherBytes} ({@link org.psdkit.linalg.FeatureColumns#keepDouble}),
     * else its single-precision column blocks, each computed as {@link #features} of its rows.
     */
    public org.psdkit.linalg.FeatureColumns featureColumns(Matrix x, long otherBytes) {
        return org.psdkit.linalg.FeatureColumns.of(rank(), x.rows(), otherBytes, () -> features(x),
                (from, to) -> features(x.rowRange(from, to)));
    }

    /**
     * {@link #streamedFeatures} as {@link org.psdkit.linalg.FeatureColumns}: double when it fits beside
     * {@code otherBytes}, else single-precision column blocks.
     */
    public static org.psdkit.linalg.FeatureColumns streamedFeatureColumns(Kernel kernel, Matrix expansion, Matrix u,
            double[] sigma, double offset, Matrix data, long otherBytes) {
        return org.psdkit.linalg.FeatureColumns.of(sigma.length, data.rows(), otherBytes,
                () -> streamedFeatures(kernel, expansion, u, sigma, offset, data),
                (from, to) -> streamedFeatures(kernel, expansion, u, sigma, offset, data.rowRange(from, to)));
    }

    /**
     * Entries (m × rows) of one cross block of the streamed feature computation: 2¹⁹ doubles = 4 MiB, well inside the
     * L3-plus-memory working set at which the blocked gemm runs at full speed, and large enough (b ≥ 512 rows at
     * m ≤ 1000) that the per-block overhead of handing the kernel loop to the thread pool is negligible.
     */
    static final int BLOCK_ENTRIES = 1 << 19;
    /** Fewest rows per block (so that small m does not make blocks of a few rows). */
    static final int MIN_BLOCK_ROWS = 256;

    /** Rows of data per block when the expansion has {@code m} points. */
    public static int blockRows(int m) {
        return Math.max(MIN_BLOCK_ROWS, BLOCK_ENTRIES / Math.max(1, m));
    }

    /**
     * Σ^{-1/2}Uᵀ(K(expansion, data) + offset): the r×q features of the rows of {@code data} in the eigenbasis
     * (U m×r, Σ the r kept eigenvalues) of an expansion's Gram matrix, streamed in row blocks of {@link #blockRows}
     * (see {@link #features}). Shared by every Nyström map (PSD blocks, density feature bases, the cone families'
     * linear block with offset 1).
     */
    public static Matrix streamedFeatures(Kernel kernel, Matrix expansion, Matrix u, double[] sigma, double offset,
                                          Matrix data) {
        int q = data.rows();
        int m = expansion.rows();
        int r = sigma.length;
        double[] inv = new double[r];
        for (int k = 0; k < r; k++) {
            inv[k] = 1.0 / Math.sqrt(sigma[k]);
        }
        Matrix out = Matrix.zeros(r, q);
        double[] od = out.data();
        int b = blockRows(m);
        for (int from = 0; from < q; from += b) {
            int to = Math.min(q, from + b);
            int[] idx = new int[to - from];
            for (int i = 0; i < idx.length; i++) {
                idx[i] = from + i;
            }
            Matrix block = idx.length == q ? data : data.selectRows(idx);
            Matrix cross = kernel.cross(expansion, block); // m×b
            if (offset != 0) {
                double[] cd = cross.data();
                for (int i = 0; i < cd.length; i++) {
                    cd[i] += offset;
                }
            }
            Matrix f = Linalg.gemm(1.0, u, true, cross, false); // r×b, column-major
            double[] fd = f.data();
            for (int j = 0; j < idx.length; j++) {
                int src = j * r;
                int dst = (from + j) * r;
                for (int k = 0; k < r; k++) {
                    od[dst + k] = fd[src + k] * inv[k];
                }
            }
        }
        return out;
    }

    /**
     * Maps an r×q factor F of the feature space to the n×q coefficient factor R = U Σ^{-1/2} F, so that
     * Φ(x)ᵀ F = v(x)ᵀ R: a PSD model with A = F Fᵀ has B = R Rᵀ (eq. 11 in the rank-deficient form of Thm 8).
     */
    public Matrix coefficientFactor(Matrix f) {
        if (f.rows() != sigma.length) {
            throw new IllegalArgumentException("factor has " + f.rows() + " rows, expected rank " + sigma.length);
        }
        Matrix g = f.copy();
        for (int j = 0; j < g.cols(); j++) {
            for (int k = 0; k < sigma.length; k++) {
                g.set(k, j, g.get(k, j) / Math.sqrt(sigma[k]));
            }
        }
        return Linalg.gemm(1.0, u, false, g, false);
    }
}
