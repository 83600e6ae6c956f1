package org.psdkit.kernel;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.psdkit.linalg.Matrix;

/**
 * Kronecker delta kernel k(x, t) = 1 if x = t exactly (every coordinate equal), else 0.
 *
 * <p>This is the "nugget" of Bagnell and Farahmand 2015, κ = Gaussian + 0.01 δ: on a set of distinct points its Gram matrix is the
 * identity, so {@code c*delta} adds c·I to the Gram matrix (a ridge on the diagonal); points that occur twice get a
 * 2×2 block of ones. It is PSD (the Gram matrix is a sum of all-ones blocks, one per group of equal points) but
 * not continuous: between distinct points, even very close ones, it is 0, so it regularises the training Gram
 * matrix without smoothing predictions. Equality is exact IEEE comparison ({@code 0.0 == -0.0}).
 */
public final class DeltaKernel implements Kernel {

    static final DeltaKernel INSTANCE = new DeltaKernel();

    private DeltaKernel() {
    }

    @Override
    public double eval(double[] x, double[] t) {
        if (x.length != t.length) {
            throw new IllegalArgumentException("points of dimension " + x.length + " and " + t.length);
        }
        for (int i = 0; i < x.length; i++) {
            if (x[i] != t[i]) {
                return 0.0;
            }
        }
        return 1.0;
    }

    /** Key for exact row equality; adding 0.0 maps −0.0 to 0.0 so that the key agrees with {@code ==}. */
    private record RowKey(double[] v) {
        static RowKey of(double[] row) {
            double[] c = row.clone();
            for (int i = 0; i < c.length; i++) {
                c[i] += 0.0;
            }
            return new RowKey(c);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof RowKey k && Arrays.equals(v, k.v);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(v);
        }
    }

    @Override
    public Matrix gram(Matrix x) {
        int n = x.rows();
        Map<RowKey, List<Integer>> groups = new HashMap<>();
        for (int i = 0; i < n; i++) {
            groups.computeIfAbsent(RowKey.of(x.row(i)), k -> new ArrayList<>()).add(i);
        }
        Matrix k = Matrix.zeros(n, n);
        for (List<Integer> g : groups.values()) {
            for (int i : g) {
                for (int j : g) {
                    k.set(i, j, 1.0);
                }
            }
        }
        return k;
    }

    @Override
    public Matrix cross(Matrix x, Matrix z) {
        if (x.cols() != z.cols()) {
            throw new IllegalArgumentException("delta kernel: points of dimension " + x.cols() + " and " + z.cols());
        }
        Map<RowKey, List<Integer>> groups = new HashMap<>();
        for (int i = 0; i < x.rows(); i++) {
            groups.computeIfAbsent(RowKey.of(x.row(i)), k -> new ArrayList<>()).add(i);
        }
        Matrix k = Matrix.zeros(x.rows(), z.rows());
        for (int j = 0; j < z.rows(); j++) {
            List<Integer> g = groups.get(RowKey.of(z.row(j)));
            if (g != null) {
                for (int i : g) {
                    k.set(i, j, 1.0);
                }
            }
        }
        return k;
    }

    @Override
    public double[] diag(Matrix x) {
        double[] d = new double[x.rows()];
        Arrays.fill(d, 1.0);
        return d;
    }

    @Override
    public String kind() {
        return "delta";
    }

    @Override
    public String spec() {
        return "delta";
    }

    @Override
    public String toString() {
        return spec();
    }
}
