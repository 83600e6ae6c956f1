package org.psdkit.kernel;

import org.psdkit.linalg.Matrix;
import org.psdkit.linalg.SpdBuffer;

/**
 * Base of kernels k(x, t) = f(xᵀt): the Gram matrix is f applied elementwise to X Xᵀ, the cross matrix to X Zᵀ,
 * with the products from BLAS in column blocks ({@link InnerProductBlocks}) and the elementwise pass on
 * {@link ParallelColumns}.
 */
abstract class DotProductKernel implements Kernel {

    /** f(s) for the inner product s = xᵀt. */
    abstract double f(double s);

    /**
     * v[i] = f(v[i]) for from ≤ i &lt; to: the elementwise pass of the Gram and cross matrices and of kernel rows.
     * The exponential kernel overrides it with {@code linalg.internal.ArrayExp}; {@link #eval} keeps {@link #f}.
     */
    void fInPlace(double[] v, int from, int to) {
        for (int i = from; i < to; i++) {
            v[i] = f(v[i]);
        }
    }

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

    private Matrix compute(Matrix x, Matrix z, boolean lower) {
        int n = x.rows();
        Matrix g = Matrix.zeros(n, z.rows());
        double[] a = g.data();
        InnerProductBlocks.run(x, z, lower, 1, (prod, i0, rows, j0, j1) -> {
            for (int j = j0; j < j1; j++) {
                int off = j * n;
                int po = (j - j0) * rows - i0;
                int i0c = lower ? j : 0;
                System.arraycopy(prod, po + i0c, a, off + i0c, n - i0c);
                fInPlace(a, off + i0c, off + n);
            }
        });
        if (lower) {
            ParallelColumns.mirrorLower(a, n);
        }
        return g;
    }

    /**
     * The Gram matrix straight into native memory, no n×n Java array: the lower column blocks of X Xᵀ from the
     * same dgemm blocks as {@link #gram} ({@link InnerProductBlocks#run}, so the entries are {@link #gram}'s bit for
     * bit), f over each column, each block written into {@code out}.
     */
    @Override
    public void gramInto(Matrix x, SpdBuffer out) {
        int n = x.rows();
        if (out.size() != n) {
            throw new IllegalArgumentException(kind() + " kernel: " + n + " points for an " + out.size() + "x"
                    + out.size() + " buffer");
        }
        InnerProductBlocks.run(x, x, true, 1, (prod, i0, rows, j0, j1) -> {
            for (int j = j0; j < j1; j++) {
                int po = (j - j0) * rows - i0;
                fInPlace(prod, po + j, po + n);
            }
            out.write(i0, j0, j1, prod);
        });
    }

    @Override
    public Matrix gram(Matrix x) {
        return compute(x, x, true);
    }

    @Override
    public Matrix cross(Matrix x, Matrix z) {
        if (x.cols() != z.cols()) {
            throw new IllegalArgumentException(kind() + " kernel: points of dimension " + x.cols() + " and "
                    + z.cols());
        }
        return compute(x, z, false);
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
