package org.psdkit.kernel;

import org.psdkit.linalg.Linalg;
import org.psdkit.linalg.Matrix;

/**
 * Base of kernels k(x, t) = f(xᵀt): the Gram matrix is f applied elementwise to X Xᵀ (one dsyrk), the cross
 * matrix to X Zᵀ (one dgemm); the elementwise pass runs on {@link ParallelColumns}.
 */
abstract class DotProductKernel implements Kernel {

    /** f(s) for the inner product s = xᵀt. */
    abstract double f(double s);

    static double dot(double[] x, double[] t) {
        if (x.length != t.length) {
            throw new IllegalArgumentException("points of dimension " + x.length + " and " + t.length);
        }
        double s = 0;
        for (int i = 0; i < x.length; i++) {
            s += x[i] * t[i];
        }
        return s;
    }

    @Override
    public double eval(double[] x, double[] t) {
        return f(dot(x, t));
    }

    /** Applies f in place to entries [i, j] of an n-row column-major array, lower triangle only if asked. */
    void applyColumns(double[] a, int rows, int from, int to, boolean lowerOnly) {
        for (int j = from; j < to; j++) {
            int off = j * rows;
            for (int i = lowerOnly ? j : 0; i < rows; i++) {
                a[off + i] = f(a[off + i]);
            }
        }
    }

    @Override
    public Matrix gram(Matrix x) {
        int n = x.rows();
        Matrix g = Linalg.syrk(x, false);
        double[] a = g.data();
        ParallelColumns.forColumns(n, (long) n * n / 2, (from, to) -> applyColumns(a, n, from, to, true));
        ParallelColumns.mirrorLower(a, n);
        return g;
    }

    @Override
    public Matrix cross(Matrix x, Matrix z) {
        if (x.cols() != z.cols()) {
            throw new IllegalArgumentException(kind() + " kernel: points of dimension " + x.cols() + " and "
                    + z.cols());
        }
        int n = x.rows();
        Matrix g = Matrix.zeros(n, z.rows());
        if (x.cols() > 0 && n > 0 && z.rows() > 0) {
            Linalg.gemmInPlace(1.0, x, false, z, true, 0.0, g);
        }
        double[] a = g.data();
        ParallelColumns.forColumns(z.rows(), (long) n * z.rows(), (from, to) -> applyColumns(a, n, from, to, false));
        return g;
    }

    @Override
    public double[] diag(Matrix x) {
        double[] d = SquaredDistances.rowNorms2(x);
        for (int i = 0; i < d.length; i++) {
            d[i] = f(d[i]);
        }
        return d;
    }

    @Override
    public String toString() {
        return spec();
    }
}
