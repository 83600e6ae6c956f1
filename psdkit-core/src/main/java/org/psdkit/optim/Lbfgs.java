package org.psdkit.optim;

import java.util.ArrayDeque;
import java.util.Deque;
import org.psdkit.linalg.Linalg;

/**
 * Limited-memory BFGS (Liu &amp; Nocedal 1989; Nocedal &amp; Wright 2006, Alg. 7.4 and 7.5): the search direction
 * −H∇f from the last m curvature pairs (s_k, y_k) = (x_{k+1} − x_k, ∇f_{k+1} − ∇f_k) by the two-loop recursion
 * ({@link #direction}), and a minimiser ({@link #minimize}) that takes strong-Wolfe steps
 * ({@link WolfeLineSearch}) along it. A solver with its own outer loop (certificates, restarts, warm starts) calls
 * {@link #direction} and {@link WolfeLineSearch} directly.
 */
public final class Lbfgs {

    /** Curvature pairs kept by {@link #minimize} (Nocedal &amp; Wright 2006, Sec. 7.2: 3 to 20 work well). */
    public static final int DEFAULT_MEMORY = 10;

    private Lbfgs() {
    }

    /**
     * −H∇ by the two-loop recursion (Nocedal &amp; Wright 2006, Alg. 7.4), H₀ = γI with γ = sᵀy/yᵀy of the newest
     * pair; with no pairs, −∇. Each update of q is fused with the inner products of the next step into one pass over
     * the vectors (ρ_i = 1/s_iᵀy_i with the first loop's s_iᵀq): 2m passes over memory instead of 5m, which matters
     * when the vectors are large and stream from memory.
     *
     * @param grad the gradient ∇f (not modified)
     * @param s    the steps s_i, oldest first (each of grad's length, s_iᵀy_i &gt; 0)
     * @param y    the gradient changes y_i, oldest first
     * @return a new array, −H∇
     */
    public static double[] direction(double[] grad, double[][] s, double[][] y) {
        int len = grad.length;
        double[] qd = new double[len];
        for (int k = 0; k < len; k++) {
            qd[k] = grad[k] * -1;
        }
        int m = s.length;
        if (y.length != m) {
            throw new IllegalArgumentException("L-BFGS: " + m + " steps but " + y.length + " gradient changes");
        }
        if (m == 0) {
            return qd;
        }
        double[] alpha = new double[m];
        double[] rho = new double[m];
        double gamma = 1;
        int even = len & ~1;
        // first loop, i = m−1 … 0: q ← q − α_{i+1} y_{i+1} fused with s_iᵀy_i and s_iᵀq (and y_iᵀy_i for γ at m−1)
        for (int i = m - 1; i >= 0; i--) {
            double[] si = s[i];
            double[] yi = y[i];
            double[] yPrev = i < m - 1 ? y[i + 1] : null;
            double aPrev = i < m - 1 ? alpha[i + 1] : 0;
            double sy0 = 0, sy1 = 0, sq0 = 0, sq1 = 0, yy0 = 0, yy1 = 0;
            if (yPrev != null) {
                for (int k = 0; k < even; k += 2) {
                    double q0 = qd[k] - aPrev * yPrev[k];
                    double q1 = qd[k + 1] - aPrev * yPrev[k + 1];
                    qd[k] = q0;
                    qd[k + 1] = q1;
                    sy0 += si[k] * yi[k];
                    sy1 += si[k + 1] * yi[k + 1];
                    sq0 += si[k] * q0;
                    sq1 += si[k + 1] * q1;
                }
                for (int k = even; k < len; k++) {
                    qd[k] -= aPrev * yPrev[k];
                    sy0 += si[k] * yi[k];
                    sq0 += si[k] * qd[k];
                }
            } else {
                for (int k = 0; k < even; k += 2) {
                    sy0 += si[k] * yi[k];
                    sy1 += si[k + 1] * yi[k + 1];
                    sq0 += si[k] * qd[k];
                    sq1 += si[k + 1] * qd[k + 1];
                    yy0 += yi[k] * yi[k];
                    yy1 += yi[k + 1] * yi[k + 1];
                }
                for (int k = even; k < len; k++) {
                    sy0 += si[k] * yi[k];
                    sq0 += si[k] * qd[k];
                    yy0 += yi[k] * yi[k];
                }
                gamma = (sy0 + sy1) / (yy0 + yy1);
            }
            rho[i] = 1.0 / (sy0 + sy1);
            alpha[i] = rho[i] * (sq0 + sq1);
        }
        // second loop, i = 0 … m−1: r ← γ(q − α_0 y_0) at the start, then r ← r + (α_{i−1} − β_{i−1}) s_{i−1}, each
        // fused with y_iᵀr
        double[] y0 = y[0];
        double a0 = alpha[0];
        for (int k = 0; k < len; k++) {
            qd[k] = gamma * (qd[k] - a0 * y0[k]);
        }
        double coef = 0;
        for (int i = 0; i < m; i++) {
            double[] yi = y[i];
            double[] sPrev = i > 0 ? s[i - 1] : null;
            double yq0 = 0, yq1 = 0;
            if (sPrev != null) {
                for (int k = 0; k < even; k += 2) {
                    double q0 = qd[k] + coef * sPrev[k];
                    double q1 = qd[k + 1] + coef * sPrev[k + 1];
                    qd[k] = q0;
                    qd[k + 1] = q1;
                    yq0 += yi[k] * q0;
                    yq1 += yi[k + 1] * q1;
                }
                for (int k = even; k < len; k++) {
                    qd[k] += coef * sPrev[k];
                    yq0 += yi[k] * qd[k];
                }
            } else {
                for (int k = 0; k < even; k += 2) {
                    yq0 += yi[k] * qd[k];
                    yq1 += yi[k + 1] * qd[k + 1];
                }
                for (int k = even; k < len; k++) {
                    yq0 += yi[k] * qd[k];
                }
            }
            double beta = rho[i] * (yq0 + yq1);
            coef = alpha[i] - beta;
        }
        double[] sLast = s[m - 1];
        for (int k = 0; k < len; k++) {
            qd[k] += coef * sLast[k];
        }
        return qd;
    }

    /** A smooth objective: returns f(x) and writes ∇f(x) into {@code grad}; f = +∞ outside its domain. */
    @FunctionalInterface
    public interface Objective {
        double valueAndGradient(double[] x, double[] grad);
    }

    /**
     * Settings of {@link #minimize}.
     *
     * @param memory            curvature pairs kept, ≥ 1
     * @param gradientTolerance stop when ‖∇f‖ ≤ this · max(1, ‖x‖), &gt; 0
     * @param maxIterations     cap on iterations, ≥ 0
     * @param lineSearch        the step rule
     */
    public record Options(int memory, double gradientTolerance, int maxIterations, WolfeLineSearch lineSearch) {
        public Options {
            if (memory < 1) {
                throw new IllegalArgumentException("L-BFGS memory must be >= 1, got " + memory);
            }
            if (!(gradientTolerance > 0)) {
                throw new IllegalArgumentException("gradient tolerance must be > 0, got " + gradientTolerance);
            }
            if (maxIterations < 0) {
                throw new IllegalArgumentException("maxIterations must be >= 0, got " + maxIterations);
            }
            if (lineSearch == null) {
                lineSearch = WolfeLineSearch.defaults();
            }
        }

        /** {@link #DEFAULT_MEMORY} pairs, the default Wolfe search. */
        public static Options of(double gradientTolerance, int maxIterations) {
            return new Options(DEFAULT_MEMORY, gradientTolerance, maxIterations, WolfeLineSearch.defaults());
        }
    }

    /**
     * The outcome of {@link #minimize}.
     *
     * @param x           the last iterate
     * @param value       f(x)
     * @param iterations  iterations (line searches) taken
     * @param evaluations evaluations of f and ∇f
     * @param converged   whether the gradient rule was met
     */
    public record Result(double[] x, double value, int iterations, int evaluations, boolean converged) {
    }

    /** Minimises f from x0 (not modified) by L-BFGS with strong-Wolfe steps. */
    public static Result minimize(Objective f, double[] x0, Options o) {
        int n = x0.length;
        double[] x = x0.clone();
        double[] g = new double[n];
        int[] evals = {1};
        double v = f.valueAndGradient(x, g);
        if (!Double.isFinite(v)) {
            throw new IllegalArgumentException("L-BFGS: f(x0) = " + v);
        }
        Deque<double[][]> hist = new ArrayDeque<>();
        int it = 0;
        boolean converged = false;
        double[] trial = new double[n];
        double[] gt = new double[n];
        while (true) {
            double gn = Math.sqrt(Linalg.dot(g, g));
            if (gn <= o.gradientTolerance() * Math.max(1, Math.sqrt(Linalg.dot(x, x)))) {
                converged = true;
                break;
            }
            if (it >= o.maxIterations()) {
                break;
            }
            double[][] ss = new double[hist.size()][];
            double[][] ys = new double[hist.size()][];
            int k = 0;
            for (double[][] p : hist) {
                ss[k] = p[0];
                ys[k++] = p[1];
            }
            double[] d = direction(g, ss, ys);
            double slope0 = Linalg.dot(d, g);
            if (!(slope0 < 0)) {
                hist.clear();
                for (int j = 0; j < n; j++) {
                    d[j] = -g[j];
                }
                slope0 = -gn * gn;
            }
            double[] dir = d;
            double[] xc = x;
            WolfeLineSearch.Line line = t -> {
                for (int j = 0; j < n; j++) {
                    trial[j] = xc[j] + t * dir[j];
                }
                evals[0]++;
                double ft = f.valueAndGradient(trial, gt);
                return Double.isFinite(ft) ? new double[] {ft, Linalg.dot(gt, dir)}
                        : new double[] {Double.POSITIVE_INFINITY, Double.NaN};
            };
            double first = hist.isEmpty() ? Math.min(1.0, 1.0 / gn) : 1.0;
            double step = o.lineSearch().search(line, v, slope0, first);
            it++;
            if (!(step > 0)) {
                if (hist.isEmpty()) {
                    break; // no decrease along the steepest descent: rounding level
                }
                hist.clear();
                continue;
            }
            double[] xNew = new double[n];
            for (int j = 0; j < n; j++) {
                xNew[j] = x[j] + step * d[j];
            }
            double[] gNew = new double[n];
            evals[0]++;
            double vNew = f.valueAndGradient(xNew, gNew);
            double[] sk = new double[n];
            double[] yk = new double[n];
            for (int j = 0; j < n; j++) {
                sk[j] = xNew[j] - x[j];
                yk[j] = gNew[j] - g[j];
            }
            if (Linalg.dot(sk, yk) > 0) {
                hist.addLast(new double[][] {sk, yk});
                if (hist.size() > o.memory()) {
                    hist.removeFirst();
                }
            }
            x = xNew;
            g = gNew;
            v = vNew;
        }
        return new Result(x, v, it, evals[0], converged);
    }
}
