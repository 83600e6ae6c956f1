package org.psdkit.linalg;

/**
 * A symmetric eigen-decomposition A = V diag(values) Vᵀ with eigenvalues in ascending order and orthonormal
 * eigenvectors as the columns of {@code vectors}.
 */
public record Eigen(double[] values, Matrix vectors) {

    public int size() {
        return values.length;
    }

    /** Smallest eigenvalue (NaN for an empty matrix). */
    public double min() {
        return values.length == 0 ? Double.NaN : values[0];
    }

    /** Largest eigenvalue (NaN for an empty matrix). */
    public double max() {
        return values.length == 0 ? Double.NaN : values[values.length - 1];
    }

    /** V f(Λ) Vᵀ keeping only eigenvalues with {@code keep}, mapped through {@code f}. */
    public Matrix reconstruct(java.util.function.DoublePredicate keep, java.util.function.DoubleUnaryOperator f) {
        int n = values.length;
        int count = 0;
        for (double v : values) {
            if (keep.test(v)) {
                count++;
            }
        }
        if (count == 0) {
            return Matrix.zeros(n, n);
        }
        // W = V_S diag(f(λ_S)), result = W V_Sᵀ; split sign so that syrk could be used when all f >= 0.
        Matrix w = Matrix.zeros(n, count);
        Matrix vs = Matrix.zeros(n, count);
        double[] vd = vectors.data();
        int c = 0;
        for (int j = 0; j < n; j++) {
            if (!keep.test(values[j])) {
                continue;
            }
            double fj = f.applyAsDouble(values[j]);
            System.arraycopy(vd, j * n, vs.data(), c * n, n);
            for (int i = 0; i < n; i++) {
                w.data()[i + c * n] = vd[i + j * n] * fj;
            }
            c++;
        }
        Matrix out = Linalg.gemm(1.0, w, false, vs, true);
        out.symmetrizeInPlace();
        return out;
    }

    /** [A]_+ = V max(Λ,0) Vᵀ. */
    public Matrix positivePart() {
        return reconstruct(v -> v > 0, v -> v);
    }

    /** [A]_- = V min(Λ,0) Vᵀ. */
    public Matrix negativePart() {
        return reconstruct(v -> v < 0, v -> v);
    }

    /** Number of eigenvalues above {@code tol}. */
    public int rankAbove(double tol) {
        int r = 0;
        for (double v : values) {
            if (v > tol) {
                r++;
            }
        }
        return r;
    }
}
