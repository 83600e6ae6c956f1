package org.psdkit.kernel;

import org.psdkit.linalg.Linalg;
import org.psdkit.linalg.Matrix;

/** Pairwise squared Euclidean distances through one GEMM: ‖x‖² + ‖z‖² − 2 xᵀz, clamped at 0. */
public final class SquaredDistances {
    private SquaredDistances() {
    }

    /** D with D_ij = ‖x_i − z_j‖² (n×m), for point sets with one point per row. */
    public static Matrix cross(Matrix x, Matrix z) {
        if (x.cols() != z.cols()) {
            throw new IllegalArgumentException("points of dimension " + x.cols() + " and " + z.cols()
                    + " cannot be compared");
        }
        int n = x.rows();
        int m = z.rows();
        double[] nx = rowNorms2(x);
        double[] nz = rowNorms2(z);
        Matrix d = Matrix.zeros(n, m);
        if (x.cols() > 0 && n > 0 && m > 0) {
            Linalg.gemmInPlace(-2.0, x, false, z, true, 0.0, d);
        }
        double[] a = d.data();
        for (int j = 0; j < m; j++) {
            int off = j * n;
            for (int i = 0; i < n; i++) {
                double v = a[off + i] + nx[i] + nz[j];
                a[off + i] = v > 0 ? v : 0.0;
            }
        }
        return d;
    }

    /** ‖x_i‖² for each row. */
    public static double[] rowNorms2(Matrix x) {
        int n = x.rows();
        double[] out = new double[n];
        double[] a = x.data();
        for (int j = 0; j < x.cols(); j++) {
            int off = j * n;
            for (int i = 0; i < n; i++) {
                out[i] += a[off + i] * a[off + i];
            }
        }
        return out;
    }
}
