package org.psdkit.density;

/**
 * Accelerated projected gradient (FISTA with backtracking and function-value restart) for min_{x ∈ C} F(x), F
 * smooth and convex on its domain (F = +∞ outside, which backtracking treats as a failed descent test). Used by the
 * NCM (simplex) and GLM (C = ℝʳ) baselines.
 */
final class ProjectedGradient {
    /** Backtracking factor on the Lipschitz estimate. */
    static final double INCREASE = 2.0;
    /** Mild decrease after each accepted step. */
    static final double DECREASE = 0.9;

    interface Objective {
        /** F(x); writes ∇F(x) into grad when F is finite. */
        double valueAndGradient(double[] x, double[] grad);
    }

    interface Projection {
        void project(double[] x);
    }

    /** Stationarity measure at x given its gradient (e.g. a Frank–Wolfe gap); the loop stops when ≤ tol. */
    interface Gap {
        double gap(double[] x, double fx, double[] grad);
    }

    record Result(double[] x, double value, double gap, int iterations, boolean converged, double seconds) {
    }

    private ProjectedGradient() {
    }

    static Result minimize(Objective f, Projection proj, Gap gapFn, double[] x0, double lip0, double tol,
                           int maxIter, double timeLimit) {
        long start = System.nanoTime();
        int n = x0.length;
        double[] x = x0.clone();
        proj.project(x);
        double[] y = x.clone();
        double[] gy = new double[n];
        double[] xn = new double[n];
        double[] gx = new double[n];
        double fx = f.valueAndGradient(x, gx);
        if (!Double.isFinite(fx)) {
            throw new IllegalStateException("projected gradient: objective is not finite at the start point");
        }
        double lip = lip0;
        double t = 1;
        double gap = gapFn.gap(x, fx, gx);
        int it = 0;
        while (it < maxIter && gap > tol) {
            it++;
            double fy = f.valueAndGradient(y, gy);
            if (!Double.isFinite(fy)) { // extrapolation left the domain: restart from x
                System.arraycopy(x, 0, y, 0, n);
                fy = f.valueAndGradient(y, gy);
                t = 1;
            }
            double fn;
            while (true) {
                for (int i = 0; i < n; i++) {
                    xn[i] = y[i] - gy[i] / lip;
                }
                proj.project(xn);
                fn = f.valueAndGradient(xn, gx);
                double lin = fy;
                double sq = 0;
                for (int i = 0; i < n; i++) {
                    double d = xn[i] - y[i];
                    lin += gy[i] * d;
                    sq += d * d;
                }
                if (Double.isFinite(fn) && (fn <= lin + 0.5 * lip * sq + 1e-12 * (Math.abs(lin) + 1) || sq == 0)) {
                    break;
                }
                lip *= INCREASE;
                if (!Double.isFinite(lip)) {
                    throw new IllegalStateException("projected gradient: step size underflow after " + it
                            + " iterations");
                }
            }
            double tNew;
            if (fn > fx) {
                tNew = 1;
                System.arraycopy(xn, 0, y, 0, n);
            } else {
                tNew = 0.5 * (1 + Math.sqrt(1 + 4 * t * t));
                double mom = (t - 1) / tNew;
                for (int i = 0; i < n; i++) {
                    y[i] = xn[i] + mom * (xn[i] - x[i]);
                }
            }
            t = tNew;
            System.arraycopy(xn, 0, x, 0, n);
            fx = fn;
            gap = gapFn.gap(x, fx, gx);
            lip *= DECREASE;
            if ((System.nanoTime() - start) * 1e-9 > timeLimit) {
                break;
            }
        }
        return new Result(x, fx, gap, it, gap <= tol, (System.nanoTime() - start) * 1e-9);
    }

    /** Euclidean projection onto the probability simplex {x ≥ 0, Σx = 1} (sort-based, O(n log n)). */
    static void projectSimplex(double[] v) {
        int n = v.length;
        double[] s = v.clone();
        java.util.Arrays.sort(s);
        double cum = 0;
        double theta = 0;
        for (int k = n - 1; k >= 0; k--) {
            cum += s[k];
            double th = (cum - 1) / (n - k);
            if (k == 0 || s[k - 1] <= th) {
                theta = th;
                break;
            }
        }
        for (int i = 0; i < n; i++) {
            v[i] = Math.max(v[i] - theta, 0);
        }
    }
}
