package org.psdkit.linalg;

/**
 * A Cholesky factorisation (A + jitter·I) = L Lᵀ; factor once, solve many right-hand sides.
 *
 * @param lower  the lower-triangular factor L (strict upper triangle zero)
 * @param jitter the diagonal shift that was needed (0 when A itself was numerically positive definite)
 */
public record Cholesky(Matrix lower, double jitter) {

    public int size() {
        return lower.rows();
    }

    /** Solves (A + jitter·I) x = b. */
    public double[] solve(double[] b) {
        double[] x = b.clone();
        solveInPlace(Matrix.wrap(x.length, 1, x));
        return x;
    }

    /** Solves (A + jitter·I) X = B, returning a new matrix. */
    public Matrix solve(Matrix b) {
        Matrix x = b.copy();
        solveInPlace(x);
        return x;
    }

    /** Overwrites B with (A + jitter·I)⁻¹ B. */
    public void solveInPlace(Matrix b) {
        Linalg.solveLowerInPlace(lower, false, b);
        Linalg.solveLowerInPlace(lower, true, b);
    }

    /** log det(A + jitter·I). */
    public double logDet() {
        double s = 0;
        int n = lower.rows();
        for (int i = 0; i < n; i++) {
            s += Math.log(lower.get(i, i));
        }
        return 2 * s;
    }
}
