package org.psdkit.density;

import org.psdkit.kernel.Kernel;
import org.psdkit.linalg.Linalg;
import org.psdkit.linalg.Matrix;
import org.psdkit.psd.EmpiricalFeatureMap;

/**
 * Empirical feature map of Marteau-Ferey, Bach and Rudi 2020 eq. (8) in the rank-revealing form of App. B.4: K = U S Uᵀ, keep the r
 * eigenvalues above {@link #RELATIVE_RANK_THRESHOLD}·λ_max, then V = S^{1/2}Uᵀ (r×n, VᵀV ≈ K, Φ(x_i) = V e_i) and
 * Φ(x) = Tᵀ v(x) with T = U S^{-1/2} (n×r). Duplicate points and wide kernels simply lower r. The decomposition is
 * {@link EmpiricalFeatureMap}'s, with the density's stricter threshold; this class adds T and the Nyström variant.
 */
final class FeatureBasis {
    /**
     * Eigenvalues of K below this fraction of λ_max are dropped. dsyevd's absolute eigenvalue error is about
     * n·ε·λ_max (4.4e-13 at n = 2000), but the density needs more margin: W = Tᵀ M T and the coefficient factor
     * R = T G divide by √λ, and with a cut at 1e-10 the evaluated density of a 1-D fit (n = 50, σ = 1, λ = 1e-3)
     * integrated by quadrature to 1 + 7.6e-9 while the closed form said 1; at 1e-8 both agree to 1e-9.
     */
    static final double RELATIVE_RANK_THRESHOLD = org.psdkit.psd.PsdOptions.DEFAULT_RANK_THRESHOLD;

    final Kernel kernel;
    final Matrix points; // n×d
    final Matrix v;      // r×n
    final Matrix t;      // n×r
    final double threshold;
    private final EmpiricalFeatureMap map;

    private FeatureBasis(Kernel kernel, Matrix points, Matrix v, Matrix t, double threshold,
                         EmpiricalFeatureMap map) {
        this.map = map;
        this.kernel = kernel;
        this.points = points;
        this.v = v;
        this.t = t;
        this.threshold = threshold;
    }

    static FeatureBasis of(Kernel kernel, Matrix x) {
        return of(kernel, x, null);
    }

    static FeatureBasis of(Kernel kernel, Matrix x, Matrix data) {
        return of(kernel, x, data, RELATIVE_RANK_THRESHOLD);
    }

    /**
     * Features built on the anchor points {@code x} (T from their Gram matrix); when {@code data} is not null, V holds
     * the features of the data points instead (Nyström: V = Tᵀ K(anchors, data), r×n_data). Eigenvalues of the
     * anchors' Gram matrix at or below {@code relativeThreshold}·λ_max are dropped.
     */
    static FeatureBasis of(Kernel kernel, Matrix x, Matrix data, double relativeThreshold) {
        EmpiricalFeatureMap map = EmpiricalFeatureMap.of(kernel, x, relativeThreshold);
        Matrix t = map.coefficientFactor(Matrix.identity(map.rank())); // U S^{-1/2}
        // Nyström: Tᵀ K(anchors, data) = Σ^{-1/2}Uᵀ K(anchors, data), streamed in row blocks (O(nr), never n×n)
        Matrix v = data == null ? map.trainingFeatures() : map.features(data);
        return new FeatureBasis(kernel, x, v, t, relativeThreshold, map);
    }

    int rank() {
        return v.rows();
    }

    /** Number of data columns of V. */
    int size() {
        return v.cols();
    }

    /** Tᵀ S T for a symmetric n×n S (r×r). */
    Matrix congruence(Matrix s) {
        Matrix st = Linalg.gemm(1.0, s, false, t, false);
        Matrix out = Linalg.gemm(1.0, t, true, st, false);
        out.symmetrizeInPlace();
        return out;
    }

    /**
     * Φ(data) as feature columns: the double r×n matrix of {@link #features} when it fits beside {@code otherBytes},
     * else single precision ({@link org.psdkit.linalg.FeatureColumns}).
     */
    org.psdkit.linalg.FeatureColumns dataColumns(Matrix data, long otherBytes) {
        return map.featureColumns(data, otherBytes);
    }

    /** Φ(z) for the rows of z (r×m), streamed in row blocks of z. */
    Matrix features(Matrix z) {
        return map.features(z);
    }
}
