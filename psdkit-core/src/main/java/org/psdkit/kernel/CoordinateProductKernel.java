package org.psdkit.kernel;

import org.psdkit.linalg.Matrix;

/**
 * Base of kernels that are products over coordinates, k(x, t) = Π_k h(x_k, t_k) (ANOVA, min). Gram and cross
 * matrices are built coordinate by coordinate over contiguous columns (O(n m d), no calls to eval), in parallel
 * over blocks of columns of the result.
 */
abstract class CoordinateProductKernel implements Kernel {

    abstract double h(double x, double t);

    /** Validates the inputs (e.g. the min kernel's domain); {@code what} names the argument in messages. */
    void checkInput(Matrix x, String what) {
    }

    void checkPoint(double[] x, String what) {
    }

    @Override
    public double eval(double[] x, double[] t) {
        if (x.length != t.length) {
            throw new IllegalArgumentException("points of dimension " + x.length + " and " + t.length);
        }
        checkPoint(x, "first point");
        checkPoint(t, "second point");
        double p = 1;
        for (int k = 0; k < x.length; k++) {
            p *= h(x[k], t[k]);
        }
        return p;
    }

    private Matrix compute(Matrix x, Matrix z, boolean lowerOnly) {
        int n = x.rows();
        int m = z.rows();
        int d = x.cols();
        Matrix out = Matrix.zeros(n, m);
        double[] a = out.data();
        java.util.Arrays.fill(a, 1.0);
        double[] xa = x.data();
        double[] za = z.data();
        ParallelColumns.forColumns(m, (long) n * m * Math.max(1, d) / (lowerOnly ? 2 : 1), (from, to) -> {
            for (int j = from; j < to; j++) {
                int off = j * n;
                int start = lowerOnly ? j : 0;
                for (int k = 0; k < d; k++) {
                    double zjk = za[j + k * m];
                    int xo = k * n;
                    for (int i = start; i < n; i++) {
                        a[off + i] *= h(xa[xo + i], zjk);
                    }
                }
            }
        });
        return out;
    }

    @Override
    public Matrix gram(Matrix x) {
        checkInput(x, "points");
        Matrix g = compute(x, x, true);
        ParallelColumns.mirrorLower(g.data(), x.rows());
        return g;
    }

    @Override
    public Matrix cross(Matrix x, Matrix z) {
        if (x.cols() != z.cols()) {
            throw new IllegalArgumentException(kind() + " kernel: points of dimension " + x.cols() + " and "
                    + z.cols());
        }
        checkInput(x, "first point set");
        checkInput(z, "second point set");
        return compute(x, z, false);
    }

    @Override
    public double[] diag(Matrix x) {
        checkInput(x, "points");
        double[] out = new double[x.rows()];
        for (int i = 0; i < out.length; i++) {
            double p = 1;
            for (int k = 0; k < x.cols(); k++) {
                double v = x.get(i, k);
                p *= h(v, v);
            }
            out[i] = p;
        }
        return out;
    }

    @Override
    public String toString() {
        return spec();
    }
}
