package org.psdkit.density;

import org.psdkit.kernel.Kernel;
import org.psdkit.linalg.Eigen;
import org.psdkit.linalg.Linalg;
import org.psdkit.linalg.Matrix;

/**
 * Empirical feature map of seed 002 eq. (8) in the rank-revealing form of App. B.4: K = U S Uᵀ, keep the r
 * eigenvalues above {@link #RELATIVE_RANK_THRESHOLD}·λ_max, then V = S^{1/2}Uᵀ (r×n, VᵀV ≈ K, Φ(x_i) = V e_i) and
 * Φ(x) = Tᵀ v(x) with T = U S^{-1/2} (n×r). Duplicate points and wide kernels simply lower r.
 */
final class FeatureBasis {
    /**
     * Eigenvalues of K below this fraction of λ_max are dropped. dsyevd's absolute eigenvalue error is about
     * n·ε·λ_max (4.4e-13 at n = 2000); a cut at 1e-10 keeps a ≥ 200× margin above that noise, which matters here
     * because W = Tᵀ M T divides by √λ twice and would amplify the rounding of M in noise directions.
     */
    static final double RELATIVE_RANK_THRESHOLD = 1e-10;

    final Kernel kernel;
    final Matrix points; // n×d
    final Matrix v;      // r×n
    final Matrix t;      // n×r

    private FeatureBasis(Kernel kernel, Matrix points, Matrix v, Matrix t) {
        this.kernel = kernel;
        this.points = points;
        this.v = v;
        this.t = t;
    }

    static FeatureBasis of(Kernel kernel, Matrix x) {
        Matrix k = kernel.gram(x);
        Eigen e = Linalg.eigh(k);
        int n = k.rows();
        double cut = RELATIVE_RANK_THRESHOLD * e.max();
        int first = 0;
        while (first < n && !(e.values()[first] > cut)) {
            first++;
        }
        int r = n - first;
        if (r == 0) {
            throw new IllegalArgumentException("kernel matrix of the " + n + " training points is zero");
        }
        Matrix v = Matrix.zeros(r, n);
        Matrix t = Matrix.zeros(n, r);
        for (int c = 0; c < r; c++) {
            double s = e.values()[first + c];
            double sq = Math.sqrt(s);
            for (int i = 0; i < n; i++) {
                double u = e.vectors().get(i, first + c);
                v.set(c, i, sq * u);
                t.set(i, c, u / sq);
            }
        }
        return new FeatureBasis(kernel, x, v, t);
    }

    int rank() {
        return v.rows();
    }

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

    /** Φ(z) for the rows of z (r×m). */
    Matrix features(Matrix z) {
        return Linalg.gemm(1.0, t, true, kernel.cross(points, z), false);
    }
}
