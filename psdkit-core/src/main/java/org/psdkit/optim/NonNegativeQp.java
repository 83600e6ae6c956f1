package org.psdkit.optim;

import java.util.Arrays;
import org.psdkit.linalg.Linalg;
import org.psdkit.linalg.Matrix;

/**
 * min ½ αᵀHα − gᵀα subject to α ≥ 0, for symmetric positive definite H, by the active-set method of Lawson and
 * Hanson (Solving Least Squares Problems, 1974, ch. 23) written for the normal equations. Exact up to the linear
 * solves: the result satisfies the KKT conditions (α ≥ 0, w = g − Hα ≤ tol on the active set, w = 0 on the free set).
 */
public final class NonNegativeQp {

    /**
     * A variable enters the free set only if its multiplier w_j = (g − Hα)_j exceeds 1e-10 × max(1, max|g|): well
     * above the rounding of H α for the well-scaled problems here, so the method cannot cycle on round-off.
     */
    public static final double KKT_TOLERANCE = 1e-10;

    private NonNegativeQp() {
    }

    /**
     * Solves the problem for H = {@code h} (symmetric positive definite) and g = {@code g}.
     *
     * @return the minimiser α ≥ 0
     */
    public static double[] solve(Matrix h, double[] g) {
        int n = g.length;
        double gmax = 1;
        for (double v : g) {
            gmax = Math.max(gmax, Math.abs(v));
        }
        double tol = KKT_TOLERANCE * gmax;
        boolean[] free = new boolean[n];
        double[] a = new double[n];
        int maxOuter = 3 * n + 10; // Lawson–Hanson's usual cap; each outer step adds one variable
        for (int outer = 0; outer < maxOuter; outer++) {
            double[] w = residual(h, g, a);
            int best = -1;
            double bw = tol;
            for (int j = 0; j < n; j++) {
                if (!free[j] && w[j] > bw) {
                    bw = w[j];
                    best = j;
                }
            }
            if (best < 0) {
                return a;
            }
            free[best] = true;
            while (true) {
                double[] s = solveFree(h, g, free);
                boolean ok = true;
                for (int j = 0; j < n; j++) {
                    if (free[j] && s[j] <= 0) {
                        ok = false;
                        break;
                    }
                }
                if (ok) {
                    a = s;
                    break;
                }
                double step = 1;
                for (int j = 0; j < n; j++) {
                    if (free[j] && s[j] <= 0) {
                        step = Math.min(step, a[j] / (a[j] - s[j]));
                    }
                }
                for (int j = 0; j < n; j++) {
                    a[j] += step * (s[j] - a[j]);
                    if (free[j] && a[j] <= 0) {
                        free[j] = false;
                        a[j] = 0;
                    }
                }
            }
        }
        throw new IllegalStateException("non-negative QP: no convergence after " + maxOuter + " active-set steps");
    }

    private static double[] residual(Matrix h, double[] g, double[] a) {
        double[] ha = h.times(a);
        double[] w = new double[g.length];
        for (int i = 0; i < w.length; i++) {
            w[i] = g[i] - ha[i];
        }
        return w;
    }

    /** Solves H_FF s_F = g_F, s = 0 elsewhere. */
    private static double[] solveFree(Matrix h, double[] g, boolean[] free) {
        int n = g.length;
        int[] idx = new int[n];
        int k = 0;
        for (int j = 0; j < n; j++) {
            if (free[j]) {
                idx[k++] = j;
            }
        }
        idx = Arrays.copyOf(idx, k);
        Matrix hf = h.selectRows(idx).selectCols(idx);
        double[] gf = new double[k];
        for (int i = 0; i < k; i++) {
            gf[i] = g[idx[i]];
        }
        double[] sf = Linalg.solve(hf, Matrix.column(gf)).data();
        double[] s = new double[n];
        for (int i = 0; i < k; i++) {
            s[idx[i]] = sf[i];
        }
        return s;
    }
}
