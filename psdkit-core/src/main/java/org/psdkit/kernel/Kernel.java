package org.psdkit.kernel;

import org.psdkit.linalg.Matrix;

/**
 * A positive semidefinite kernel k(x, t) on ℝ^d.
 *
 * <p>Point sets are {@link Matrix} objects with one point per row (n×d). Implementations override
 * {@link #gram(Matrix)} and {@link #cross(Matrix, Matrix)} when a faster formulation than a double loop over
 * {@link #eval(double[], double[])} exists; the defaults are correct but slow.
 *
 * <p>{@link #spec()} returns the kernel string (e.g. {@code gaussian(sigma=0.5) + 0.01*delta}) that
 * {@code Kernels.parse} turns back into an equal kernel: the same string names a kernel in the library, the CLI and
 * model files.
 */
public interface Kernel {

    /** k(x, t). */
    double eval(double[] x, double[] t);

    /** The kernel string of this kernel, parseable back into an equal kernel. */
    String spec();

    /** The Gram matrix K(X, X) (n×n, symmetric). */
    default Matrix gram(Matrix x) {
        int n = x.rows();
        double[][] pts = x.toRowArrays();
        Matrix k = Matrix.zeros(n, n);
        for (int j = 0; j < n; j++) {
            for (int i = j; i < n; i++) {
                double v = eval(pts[i], pts[j]);
                k.set(i, j, v);
                k.set(j, i, v);
            }
        }
        return k;
    }

    /** The cross matrix K(X, Z) with entries k(x_i, z_j) (n×m). */
    default Matrix cross(Matrix x, Matrix z) {
        if (x.cols() != z.cols()) {
            throw new IllegalArgumentException("points of dimension " + x.cols() + " and " + z.cols());
        }
        double[][] px = x.toRowArrays();
        double[][] pz = z.toRowArrays();
        Matrix k = Matrix.zeros(px.length, pz.length);
        for (int j = 0; j < pz.length; j++) {
            for (int i = 0; i < px.length; i++) {
                k.set(i, j, eval(px[i], pz[j]));
            }
        }
        return k;
    }

    /** The diagonal k(x_i, x_i). */
    default double[] diag(Matrix x) {
        double[][] px = x.toRowArrays();
        double[] d = new double[px.length];
        for (int i = 0; i < px.length; i++) {
            d[i] = eval(px[i], px[i]);
        }
        return d;
    }
}
