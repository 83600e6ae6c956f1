package org.psdkit.model.cone;

import org.psdkit.kernel.Kernel;
import org.psdkit.linalg.Eigen;
import org.psdkit.linalg.Linalg;
import org.psdkit.linalg.Matrix;

/**
 * The empirical feature map of seed 002 Eq. (8) with the rank-deficient construction of its App. B.4: with
 * K = U S Uᵀ (eigenvalues above a relative threshold kept, rank r), the training points get the features
 * V = S^{1/2} Uᵀ (r×n, so that K ≈ VᵀV) and a new point x gets Φ(x) = S^{-1/2} Uᵀ v(x), v(x) = (k(x, x_i))_i.
 * At a training point Φ(x_i) is the i-th column of V.
 */
public final class EmpiricalFeatures implements Features {

    /**
     * Eigenvalues of K below this fraction of the largest are dropped. 1e-11 keeps Φ(x) = S^{-1/2}Uᵀv(x) within a
     * factor ~3e5 of ‖v(x)‖ while the dropped part of K is below the ~1e-13 relative rounding of a double-precision
     * Gram matrix times n.
     */
    public static final double RELATIVE_RANK_TOLERANCE = 1e-11;

    private final Kernel kernel;
    private final Matrix points;   // n×d training points
    private final Matrix basis;    // n×r : U S^{-1/2}
    private final Matrix v;        // r×n : S^{1/2} Uᵀ

    private EmpiricalFeatures(Kernel kernel, Matrix points, Matrix basis, Matrix v) {
        this.kernel = kernel;
        this.points = points;
        this.basis = basis;
        this.v = v;
    }

    /** Builds the feature map of {@code kernel} on the rows of {@code x}. */
    public static EmpiricalFeatures of(Kernel kernel, Matrix x) {
        Matrix k = kernel.gram(x);
        Eigen e = Linalg.eigh(k);
        int n = k.rows();
        double max = Math.max(e.max(), 0.0);
        double tol = RELATIVE_RANK_TOLERANCE * max;
        int r = e.rankAbove(tol);
        if (r == 0) {
            throw new IllegalArgumentException("kernel matrix is zero on the training points: no features");
        }
        Matrix basis = Matrix.zeros(n, r);
        Matrix v = Matrix.zeros(r, n);
        int c = 0;
        for (int j = n - 1; j >= n - r; j--, c++) {
            double s = e.values()[j];
            double sq = Math.sqrt(s);
            for (int i = 0; i < n; i++) {
                double u = e.vectors().get(i, j);
                basis.set(i, c, u / sq);
                v.set(c, i, u * sq);
            }
        }
        return new EmpiricalFeatures(kernel, x.copy(), basis, v);
    }

    /** Rebuilds a feature map from stored parts (model files). */
    public static EmpiricalFeatures restore(Kernel kernel, Matrix points, Matrix basis) {
        if (basis.rows() != points.rows()) {
            throw new IllegalArgumentException("feature basis has " + basis.rows() + " rows but there are "
                    + points.rows() + " training points");
        }
        Matrix v = Linalg.gemm(1.0, basis, true, kernel.gram(points), false);
        return new EmpiricalFeatures(kernel, points.copy(), basis, v);
    }

    public Kernel kernel() {
        return kernel;
    }

    public Matrix points() {
        return points;
    }

    /** U S^{-1/2} (n×r). */
    public Matrix basis() {
        return basis;
    }

    /** Rank r of the feature map. */
    public int rank() {
        return v.rows();
    }

    public int n() {
        return points.rows();
    }

    /** Training features V (r×n, column i = Φ(x_i)). Do not modify. */
    @Override
    public Matrix trainingFeatures() {
        return v;
    }

    /** Φ for every row of {@code x}: an r×m matrix. */
    @Override
    public Matrix map(Matrix x) {
        Matrix kx = kernel.cross(points, x); // n×m
        return Linalg.gemm(1.0, basis, true, kx, false);
    }
}
