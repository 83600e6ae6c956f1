package org.psdkit.kernel;

import java.util.ArrayList;
import java.util.List;

/** Multi-indices and weighted monomial feature maps x ↦ (w_α x^α)_α for the polynomial-type kernels. */
final class Monomials {

    /**
     * Largest number of monomial features an explicit map may have: C(d + r, r) grows fast, and beyond a few
     * million features the map costs more memory than any Gram matrix it could replace.
     */
    static final int MAX_FEATURES = 5_000_000;

    private Monomials() {
    }

    /** All α ∈ ℕ^d with minOrder ≤ |α| ≤ maxOrder, in graded order. */
    static List<int[]> exponents(int d, int minOrder, int maxOrder) {
        List<int[]> out = new ArrayList<>();
        for (int order = minOrder; order <= maxOrder; order++) {
            fill(new int[d], 0, order, out);
            if (out.size() > MAX_FEATURES) {
                throw new IllegalArgumentException("explicit feature map would have more than " + MAX_FEATURES
                        + " monomials (dimension " + d + ", degree " + maxOrder + "); use the kernel instead");
            }
        }
        return out;
    }

    private static void fill(int[] a, int pos, int remaining, List<int[]> out) {
        if (pos == a.length - 1 || a.length == 0) {
            if (a.length == 0) {
                if (remaining == 0) {
                    out.add(a.clone());
                }
                return;
            }
            a[pos] = remaining;
            out.add(a.clone());
            a[pos] = 0;
            return;
        }
        for (int e = remaining; e >= 0; e--) {
            a[pos] = e;
            fill(a, pos + 1, remaining - e, out);
        }
        a[pos] = 0;
    }

    static int order(int[] a) {
        int s = 0;
        for (int e : a) {
            s += e;
        }
        return s;
    }

    static double logFactorial(int k) {
        double s = 0;
        for (int i = 2; i <= k; i++) {
            s += Math.log(i);
        }
        return s;
    }

    /** log α! = Σ log α_i!. */
    static double logMultiFactorial(int[] a) {
        double s = 0;
        for (int e : a) {
            s += logFactorial(e);
        }
        return s;
    }

    /** The map x ↦ (weight_k · x^{α_k})_k for inputs of dimension d. */
    static FeatureMap map(int d, List<int[]> alphas, double[] weight) {
        int[][] a = alphas.toArray(new int[0][]);
        return x -> {
            if (x.length != d) {
                throw new IllegalArgumentException("feature map for dimension " + d + " applied to a point of "
                        + "dimension " + x.length);
            }
            double[] out = new double[a.length];
            for (int k = 0; k < a.length; k++) {
                double v = weight[k];
                for (int i = 0; i < d; i++) {
                    v *= PolynomialKernel.powInt(x[i], a[k][i]);
                }
                out[k] = v;
            }
            return out;
        };
    }
}
