package org.psdkit.linalg;

/**
 * A pivoted (rank-revealing) Cholesky factorisation of a symmetric positive semidefinite matrix,
 * Pᵀ A P = L Lᵀ (LAPACK dpstrf), stopped at the numerical rank r: L is n×r lower trapezoidal, P the permutation
 * with P e_k = e_{perm[k]}. Rank-deficient Gram matrices (duplicate points) are normal here, not an error.
 * {@link #factor()} gives G (n×r) with A ≈ G Gᵀ in the original order — a Nyström-style low-rank factor.
 *
 * @param lower the n×r factor L in pivoted order (row k belongs to original index perm[k])
 * @param perm  the pivot order, 0-based
 * @param rank  the numerical rank r detected with tolerance {@code tolerance}
 * @param tolerance the absolute tolerance on the remaining diagonal that stopped the factorisation
 */
public record PivotedCholesky(Matrix lower, int[] perm, int rank, double tolerance) {

    /** G = P L (n×r): A ≈ G Gᵀ with rows in the original order. */
    public Matrix factor() {
        int n = perm.length;
        Matrix g = Matrix.zeros(n, rank);
        for (int j = 0; j < rank; j++) {
            for (int k = 0; k < n; k++) {
                g.set(perm[k], j, lower.get(k, j));
            }
        }
        return g;
    }
}
