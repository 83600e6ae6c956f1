package org.psdkit.cone;

/**
 * Accelerated projected gradient with backtracking and function-value restart for smooth primal objectives over a
 * flat parameter vector: used for the baselines whose regulariser has no cheap conjugate (NCM: coefficients ≥ 0) or
 * that are not convex (GLM: exp link). Steps that leave the objective's domain (value +∞) are rejected by the
 * backtracking. For a non-convex objective the result is a stationary point only; callers restart from seeds.
 */
public final class SmoothPrimalSolver {

    /** Objective with gradient; returns +∞ outside the domain (gradient then unspecified). */
    @FunctionalInterface
    public interface Objective {
        double valueAndGradient(double[] x, double[] grad);
    }

    /** In-place projection onto the feasible set. */
    @FunctionalInterface
    public interface Projection {
        void project(double[] x);
    }

    public record Result(double[] x, double value, int iterations, boolean converged) {
    }

    /** Backtracking multiplies the curvature estimate by this factor on failure (standard choice). */
    private static final double BACKTRACK_GROWTH = 2.0;
    /** After an accepted step the curvature estimate shrinks by this factor so that steps can grow again. */
    private static final double STEP_RELAX = 0.9;
    /** Relative rounding allowance in the sufficient-decrease test (a few ulps of the objective's magnitude). */
    private static final double DECREASE_ROUNDING = 1e-15;
    /** Objective checks for the stopping test are this many iterations apart. */
    private static final int WINDOW = 20;
    /** Curvature beyond which no descent step exists in double precision. */
    private static final double MAX_CURVATURE = 1e18;

    private SmoothPrimalSolver() {
    }

    /**
     * Minimises from {@code x0}; stops when the relative decrease of the objective over {@link #WINDOW} iterations is
     * below {@code tol} or after {@code maxIter} iterations.
     */
    public static Result minimise(Objective f, Projection proj, double[] x0, double tol, int maxIter) {
        int p = x0.length;
        double[] x = x0.clone();
        if (proj != null) {
            proj.project(x);
        }
        double[] y = x.clone();
        double[] g = new double[p];
        double[] xn = new double[p];
        double[] gTmp = new double[p];
        double fx = f.valueAndGradient(x, gTmp);
        if (!Double.isFinite(fx)) {
            throw new IllegalStateException("starting point outside the objective's domain");
        }
        double lip = 1.0;
        double tk = 1;
        double fOld = fx;
        int it = 0;
        boolean converged = false;
        while (it < maxIter) {
            it++;
            double fy = f.valueAndGradient(y, g);
            if (!Double.isFinite(fy)) { // momentum left the domain: restart from x
                System.arraycopy(x, 0, y, 0, p);
                tk = 1;
                fy = f.valueAndGradient(y, g);
            }
            double fn;
            while (true) {
                for (int i = 0; i < p; i++) {
                    xn[i] = y[i] - g[i] / lip;
                }
                if (proj != null) {
                    proj.project(xn);
                }
                fn = f.valueAndGradient(xn, gTmp);
                double lin = fy;
                double sq = 0;
                for (int i = 0; i < p; i++) {
                    double dlt = xn[i] - y[i];
                    lin += g[i] * dlt;
                    sq += dlt * dlt;
                }
                if (Double.isFinite(fn) && fn <= lin + 0.5 * lip * sq + DECREASE_ROUNDING * Math.abs(fy)) {
                    break;
                }
                lip *= BACKTRACK_GROWTH;
                if (lip > MAX_CURVATURE) {
                    break;
                }
            }
            if (!Double.isFinite(fn) || lip > MAX_CURVATURE) {
                break;
            }
            if (fn > fx) { // function restart: drop momentum
                tk = 1;
                System.arraycopy(x, 0, y, 0, p);
                if (fn > fx) {
                    lip *= STEP_RELAX; // y = x next time; nothing else changes
                    continue;
                }
            }
            double tn = 0.5 * (1 + Math.sqrt(1 + 4 * tk * tk));
            double mom = (tk - 1) / tn;
            for (int i = 0; i < p; i++) {
                y[i] = xn[i] + mom * (xn[i] - x[i]);
            }
            System.arraycopy(xn, 0, x, 0, p);
            fx = fn;
            tk = tn;
            lip *= STEP_RELAX;
            if (it % WINDOW == 0) {
                if (fOld - fx <= tol * (1 + Math.abs(fx))) {
                    converged = true;
                    break;
                }
                fOld = fx;
            }
        }
        return new Result(x, fx, it, converged);
    }
}
