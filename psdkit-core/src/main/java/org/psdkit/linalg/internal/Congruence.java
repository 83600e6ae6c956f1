package org.psdkit.linalg.internal;

/** The congruence L⁻¹ D L⁻ᵀ applied to a vector, for Lanczos on the step length of interior-point methods. */
public final class Congruence {

    private Congruence() {
    }

    /**
     * w = L⁻¹ D L⁻ᵀ v for a lower-triangular L and a symmetric D (n×n, column-major, both triangles of D), by two
     * triangular solves and one product with D; the matrix is never formed. {@code u} is scratch of length n. The
     * operator of the Lanczos step lengths of the SDP solvers (Toh 2002, §4): λ_min(L⁻¹ dX L⁻ᵀ) with X = L Lᵀ.
     */
    public static void apply(double[] l, double[] d, int n, double[] v, double[] u, double[] w) {
        // u = L⁻ᵀ v: back substitution with Lᵀ, whose row i is column i of L
        for (int i = n - 1; i >= 0; i--) {
            double s = v[i];
            int col = i * n;
            for (int j = i + 1; j < n; j++) {
                s -= l[j + col] * u[j];
            }
            u[i] = s / l[i + col];
        }
        // w = D u
        java.util.Arrays.fill(w, 0);
        for (int j = 0; j < n; j++) {
            double uj = u[j];
            if (uj == 0) {
                continue;
            }
            int col = j * n;
            for (int i = 0; i < n; i++) {
                w[i] += d[i + col] * uj;
            }
        }
        // w = L⁻¹ w: forward substitution by columns
        for (int j = 0; j < n; j++) {
            int col = j * n;
            double tj = w[j] / l[j + col];
            w[j] = tj;
            for (int i = j + 1; i < n; i++) {
                w[i] -= l[i + col] * tj;
            }
        }
    }
}
