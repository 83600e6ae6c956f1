package org.psdkit.optim.smo;

import java.util.Arrays;
import org.psdkit.optim.ProgressListener;

/**
 * Sequential minimal optimisation for the 1-norm soft-margin SVM dual
 * <pre>  max_α Σα_i − ½ Σ α_i α_j y_i y_j K_ij   s.t.  Σ α_i y_i = 0,  0 ≤ α_i ≤ C,</pre>
 * solved as the equivalent minimisation of ½αᵀQα − eᵀα with Q_ij = y_i y_j K_ij.
 *
 * <p>Working pairs are chosen by the second-order rule of Fan, Chen and Lin (JMLR 6, 2005), the rule LIBSVM uses:
 * i maximises −y_t ∇_t over the "up" set, j minimises −b²/a over the "low" set. The solver stops when the maximal
 * KKT violation m(α) − M(α) drops below the tolerance. The bias is the average of y_j − Σ α_i y_i K_ij over the free
 * support vectors (0 &lt; α_j &lt; C), or the middle of the feasible interval when there is none.
 *
 * <p>Warm start: pass an initial α (it is clipped into the box and made to satisfy Σ α_i y_i = 0 first).
 * Shrinking is not implemented: every iteration scans all m points (O(m) per iteration besides two kernel rows).
 *
 * <p>Progress: one event per pair update, task {@value #TASK}, measure {@code "violation"} = m(α) − M(α) after
 * that update (the quantity compared with the tolerance). Millions of updates are common: a listener that does
 * real work should be {@linkplain ProgressListener#throttled throttled}.
 */
public final class Smo {

    /** Default stopping tolerance on the KKT violation; LIBSVM's default {@code -e 0.001}. */
    public static final double DEFAULT_TOLERANCE = 1e-3;
    /** Curvature floor for non-positive a_ij (LIBSVM's TAU). */
    static final double TAU = 1e-12;
    /** Iteration cap per point; LIBSVM caps at max(10⁷, 100·m). */
    static final int MIN_MAX_ITERATIONS = 10_000_000;
    static final int ITERATIONS_PER_POINT = 100;

    /** Task name of the progress events. */
    public static final String TASK = "smo";

    private Smo() {
    }

    /**
     * Solver outcome.
     *
     * @param alpha      dual variables
     * @param bias       b in f(x) = Σ α_i y_i k(x_i, x) + b
     * @param dual       dual objective value Σα − ½ αᵀQα
     * @param iterations number of pair updates
     * @param violation  final maximal KKT violation m(α) − M(α)
     * @param converged  whether the violation reached the tolerance
     * @param seconds    wall time
     */
    public record Result(double[] alpha, double bias, double dual, int iterations, double violation,
                         boolean converged, double seconds) {
    }

    /** Solves with the default tolerance and no warm start. */
    public static Result solve(KernelRows k, double[] y, double c) {
        return solve(k, y, c, DEFAULT_TOLERANCE, null);
    }

    /**
     * Solves the dual.
     *
     * @param k         kernel rows (m×m)
     * @param y         labels ±1
     * @param c         box bound C &gt; 0
     * @param tolerance stopping tolerance on the KKT violation (&gt; 0)
     * @param alphaInit warm start, or {@code null} for α = 0
     */
    public static Result solve(KernelRows k, double[] y, double c, double tolerance, double[] alphaInit) {
        return solve(k, y, null, c, tolerance, alphaInit);
    }

    /** As {@link #solve(KernelRows, double[], double, double, double[])}, reporting to {@code listener}. */
    public static Result solve(KernelRows k, double[] y, double c, double tolerance, double[] alphaInit,
                               ProgressListener listener) {
        return solve(k, y, null, c, tolerance, alphaInit, listener);
    }

    /**
     * Solves min ½αᵀQα + pᵀα s.t. yᵀα = 0, 0 ≤ α ≤ C with Q_ij = y_i y_j K_ij and a general linear term p (the
     * classification dual has p = −e; ε-insensitive regression uses it on a doubled problem, see {@link Svr}).
     * {@link Result#dual()} is −(½αᵀQα + pᵀα).
     *
     * @param p linear term (length m), or {@code null} for −e
     */
    public static Result solve(KernelRows k, double[] y, double[] p, double c, double tolerance,
                               double[] alphaInit) {
        return solve(k, y, p, c, tolerance, alphaInit, ProgressListener.NONE);
    }

    /**
     * As {@link #solve(KernelRows, double[], double[], double, double, double[])}, reporting to {@code listener}
     * (null: none); a listener that throws stops the solve.
     */
    public static Result solve(KernelRows k, double[] y, double[] p, double c, double tolerance,
                               double[] alphaInit, ProgressListener listener) {
        long t0 = System.nanoTime();
        ProgressListener lis = ProgressListener.orNone(listener);
        boolean report = lis != ProgressListener.NONE;
        int m = k.size();
        if (y.length != m) {
            throw new IllegalArgumentException("labels length " + y.length + " differs from kernel size " + m);
        }
        if (p != null && p.length != m) {
            throw new IllegalArgumentException("linear term length " + p.length + " differs from kernel size " + m);
        }
        if (!(c > 0) || Double.isInfinite(c)) {
            throw new IllegalArgumentException("C must be positive and finite, got " + c);
        }
        if (!(tolerance > 0)) {
            throw new IllegalArgumentException("tolerance must be positive, got " + tolerance);
        }
        boolean hasPos = false;
        boolean hasNeg = false;
        for (double v : y) {
            if (v == 1) {
                hasPos = true;
            } else if (v == -1) {
                hasNeg = true;
            } else {
                throw new IllegalArgumentException("SVM labels must be -1 or +1, got " + v);
            }
        }
        if (!hasPos || !hasNeg) {
            throw new IllegalArgumentException("SVM training data must contain both classes");
        }
        double[] a = alphaInit == null ? new double[m] : feasible(alphaInit, y, c);
        double[] lin = p;
        if (lin == null) {
            lin = new double[m];
            Arrays.fill(lin, -1.0);
        }
        double[] g = lin.clone();
        for (int i = 0; i < m; i++) {
            if (a[i] != 0) {
                double[] ki = k.row(i);
                double s = a[i] * y[i];
                for (int t = 0; t < m; t++) {
                    g[t] += y[t] * ki[t] * s;
                }
            }
        }
        int maxIter = Math.max(MIN_MAX_ITERATIONS, ITERATIONS_PER_POINT * m);
        int iter = 0;
        double violation = Double.POSITIVE_INFINITY;
        boolean converged = false;
        while (iter < maxIter) {
            double gmax = Double.NEGATIVE_INFINITY;
            int i = -1;
            for (int t = 0; t < m; t++) {
                boolean up = y[t] > 0 ? a[t] < c : a[t] > 0;
                if (up) {
                    double v = -y[t] * g[t];
                    if (v >= gmax) {
                        gmax = v;
                        i = t;
                    }
                }
            }
            if (i < 0) {
                violation = 0;
                converged = true;
                break;
            }
            double[] ki = k.row(i);
            double kii = ki[i];
            double gmin = Double.POSITIVE_INFINITY;
            int j = -1;
            double best = Double.POSITIVE_INFINITY;
            for (int t = 0; t < m; t++) {
                boolean low = y[t] > 0 ? a[t] > 0 : a[t] < c;
                if (!low) {
                    continue;
                }
                double v = -y[t] * g[t];
                if (v < gmin) {
                    gmin = v;
                }
                double b = gmax - v;
                if (b > 0) {
                    double curv = kii + k.diag(t) - 2 * ki[t];
                    if (curv <= 0) {
                        curv = TAU;
                    }
                    double obj = -b * b / curv;
                    if (obj <= best) {
                        best = obj;
                        j = t;
                    }
                }
            }
            // the KKT conditions hold iff m(alpha) <= M(alpha) (Fan, Chen & Lin 2005, eq. 9), so the violation is
            // max(0, m - M); an empty lower set (gmin = +inf) means no pair can improve the dual: violation 0
            violation = gmin == Double.POSITIVE_INFINITY ? 0 : Math.max(0, gmax - gmin);
            if (report && iter > 0) {
                lis.onProgress(new ProgressListener.Event(TASK, iter, 0, "violation", violation,
                        (System.nanoTime() - t0) * 1e-9));
            }
            if (violation < tolerance || j < 0) {
                converged = true;
                break;
            }
            iter++;
            double[] kj = k.row(j);
            ki = k.row(i); // a cache may have evicted row i while fetching row j
            double curv = kii + kj[j] - 2 * ki[j];
            if (curv <= 0) {
                curv = TAU;
            }
            double oldAi = a[i];
            double oldAj = a[j];
            if (y[i] != y[j]) {
                double delta = (-g[i] - g[j]) / curv;
                double diff = a[i] - a[j];
                a[i] += delta;
                a[j] += delta;
                if (diff > 0) {
                    if (a[j] < 0) {
                        a[j] = 0;
                        a[i] = diff;
                    }
                } else if (a[i] < 0) {
                    a[i] = 0;
                    a[j] = -diff;
                }
                if (diff > 0) {
                    if (a[i] > c) {
                        a[i] = c;
                        a[j] = c - diff;
                    }
                } else if (a[j] > c) {
                    a[j] = c;
                    a[i] = c + diff;
                }
            } else {
                double delta = (g[i] - g[j]) / curv;
                double sum = a[i] + a[j];
                a[i] -= delta;
                a[j] += delta;
                if (sum > c) {
                    if (a[i] > c) {
                        a[i] = c;
                        a[j] = sum - c;
                    }
                } else if (a[j] < 0) {
                    a[j] = 0;
                    a[i] = sum;
                }
                if (sum > c) {
                    if (a[j] > c) {
                        a[j] = c;
                        a[i] = sum - c;
                    }
                } else if (a[i] < 0) {
                    a[i] = 0;
                    a[j] = sum;
                }
            }
            double di = (a[i] - oldAi) * y[i];
            double dj = (a[j] - oldAj) * y[j];
            for (int t = 0; t < m; t++) {
                g[t] += y[t] * (ki[t] * di + kj[t] * dj);
            }
        }
        double bias = bias(a, g, y, c);
        double dual = 0;
        for (int t = 0; t < m; t++) {
            dual -= 0.5 * a[t] * (g[t] + lin[t]);
        }
        return new Result(a, bias, dual, iter, violation, converged, (System.nanoTime() - t0) * 1e-9);
    }

    private static double bias(double[] a, double[] g, double[] y, double c) {
        double ub = Double.POSITIVE_INFINITY;
        double lb = Double.NEGATIVE_INFINITY;
        double sum = 0;
        int free = 0;
        for (int t = 0; t < a.length; t++) {
            double yg = y[t] * g[t];
            if (a[t] >= c) {
                if (y[t] < 0) {
                    ub = Math.min(ub, yg);
                } else {
                    lb = Math.max(lb, yg);
                }
            } else if (a[t] <= 0) {
                if (y[t] > 0) {
                    ub = Math.min(ub, yg);
                } else {
                    lb = Math.max(lb, yg);
                }
            } else {
                free++;
                sum += yg;
            }
        }
        double rho = free > 0 ? sum / free : 0.5 * (ub + lb);
        return -rho;
    }

    /** Clips α into [0, C] and rescales one class so that Σ α_i y_i = 0 (keeps the box). */
    static double[] feasible(double[] init, double[] y, double c) {
        if (init.length != y.length) {
            throw new IllegalArgumentException("warm start length " + init.length + " differs from " + y.length);
        }
        double[] a = new double[init.length];
        double pos = 0;
        double neg = 0;
        for (int t = 0; t < a.length; t++) {
            double v = init[t];
            if (!Double.isFinite(v)) {
                throw new IllegalArgumentException("warm start has a non-finite value at " + t);
            }
            a[t] = Math.min(c, Math.max(0, v));
            if (y[t] > 0) {
                pos += a[t];
            } else {
                neg += a[t];
            }
        }
        if (pos > neg) {
            double f = pos == 0 ? 0 : neg / pos;
            for (int t = 0; t < a.length; t++) {
                if (y[t] > 0) {
                    a[t] *= f;
                }
            }
        } else if (neg > pos) {
            double f = neg == 0 ? 0 : pos / neg;
            for (int t = 0; t < a.length; t++) {
                if (y[t] < 0) {
                    a[t] *= f;
                }
            }
        }
        return a;
    }
}
