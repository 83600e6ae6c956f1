package org.psdkit.cone;

import java.util.List;
import org.psdkit.linalg.Linalg;
import org.psdkit.linalg.Matrix;
import org.psdkit.optim.Fista;
import org.psdkit.optim.FistaOptions;
import org.psdkit.optim.FistaResult;
import org.psdkit.optim.ProgressListener;
import org.psdkit.optim.ProxFunction;
import org.psdkit.optim.SmoothFunction;
import org.psdkit.optim.StopRule;

/**
 * Solves min over blocks of Σ_i ℓ_i(z_i) + Σ_b Ω_b, with outputs z_t(x) = Σ_b D_{t,b} f_b(x) (Marteau-Ferey, Bach and Rudi 2020, Eq. (14)
 * in the conic-hull form of Remark 1: every PSD block is a non-negative function times a fixed direction D_{·,b},
 * linear blocks are unconstrained), through its dual
 * <pre>  min_α F(α) = Σ_i ℓ_i^*(α_i) + Σ_b g_b(Σ_t D_{t,b} α_t),   α ∈ ℝ^{m×n},</pre>
 * by the shared {@link Fista} (gradient restart, fixed step 1/L with L from the blocks' bounds). ∇ of the smooth part is −z (minus the outputs at the primal point
 * the dual variables define), so the primal point is always available; it is always feasible for the blocks
 * (A_b ⪰ 0 by construction) and the duality gap P − (−F) bounds its sub-optimality. Stops when the gap is below
 * {@code gapTolerance·(1 + |P|)}.
 */
public final class ConeDualSolver {

    /** Solver settings. */
    public record Options(double gapTolerance, double feasibilityTolerance, int maxIterations, int checkEvery) {
        /**
         * Default relative duality gap 1e-4: the objective (an average loss of order 1 on standardised targets) is
         * then within 1e-4 of its optimum, two orders below the fold-to-fold spread of held-out losses at n ≤ 10⁴.
         */
        public static final double DEFAULT_GAP_TOLERANCE = 1e-4;
        /**
         * Largest violation of hard output constraints (PNM's ordering on training points) accepted at stop, in the
         * units of the (standardised) outputs: 1e-4 is below what a plot or a crossing count can show.
         */
        public static final double DEFAULT_FEASIBILITY_TOLERANCE = 1e-4;
        /** Iteration cap: above what the reproductions need (a few thousand) so only hard cases hit it. */
        public static final int DEFAULT_MAX_ITERATIONS = 20000;
        /** The gap needs one extra evaluation; checking every 10 iterations costs ~10 %. */
        public static final int DEFAULT_CHECK_EVERY = 10;

        public Options {
            if (!(gapTolerance > 0)) {
                throw new IllegalArgumentException("gapTolerance must be > 0, got " + gapTolerance);
            }
            if (!(feasibilityTolerance > 0)) {
                throw new IllegalArgumentException("feasibilityTolerance must be > 0, got " + feasibilityTolerance);
            }
            if (maxIterations < 1 || checkEvery < 1) {
                throw new IllegalArgumentException("maxIterations and checkEvery must be >= 1");
            }
        }

        public Options withGapTolerance(double tol) {
            return new Options(tol, feasibilityTolerance, maxIterations, checkEvery);
        }

        public Options withMaxIterations(int max) {
            return new Options(gapTolerance, feasibilityTolerance, max, checkEvery);
        }

        public static Options defaults() {
            return new Options(DEFAULT_GAP_TOLERANCE, DEFAULT_FEASIBILITY_TOLERANCE, DEFAULT_MAX_ITERATIONS, DEFAULT_CHECK_EVERY);
        }
    }

    /** Outcome: dual variables, the fitted block functions and the diagnostics. */
    public record Result(double[][] alpha, List<ScalarFunction> functions, double[][] directions, int iterations,
                         double primal, double dual, double gap, double infeasibility, boolean converged,
                         int restarts) {

        /** {@link ConeDualSolver#relativeGap}(primal, gap): what {@code converged} was decided on. */
        public double relativeGap() {
            return ConeDualSolver.relativeGap(primal, gap);
        }

        /** Outputs z_t(x) for every row of x: n×m. */
        public Matrix outputs(Matrix x) {
            return combine(functions, directions, x);
        }
    }

    private final List<Block> blocks;
    private final double[][] d; // m×B
    private final PointLoss loss;
    private final int n;
    private final int m;
    private final double lipschitz;

    public ConeDualSolver(List<Block> blocks, double[][] directions, PointLoss loss, int n) {
        this.blocks = List.copyOf(blocks);
        this.d = directions;
        this.loss = loss;
        this.n = n;
        this.m = directions.length;
        if (loss.outputs() != m) {
            throw new IllegalArgumentException("loss has " + loss.outputs() + " outputs, directions have " + m);
        }
        for (double[] row : directions) {
            if (row.length != blocks.size()) {
                throw new IllegalArgumentException("direction rows must have one entry per block");
            }
        }
        // ∇²g ⪯ Σ_b L_b D_b D_bᵀ ⊗ I_n
        Matrix h = Matrix.zeros(m, m);
        for (int b = 0; b < blocks.size(); b++) {
            double lb = blocks.get(b).lipschitz();
            for (int s = 0; s < m; s++) {
                for (int t = 0; t < m; t++) {
                    h.add(s, t, lb * d[s][b] * d[t][b]);
                }
            }
        }
        double[] ev = Linalg.eigvalsh(h);
        this.lipschitz = Math.max(ev[m - 1], Double.MIN_NORMAL);
    }

    public double lipschitz() {
        return lipschitz;
    }

    /** Evaluates g and the outputs z (m×n) at α; fills regularisers. */
    private double smooth(double[][] alpha, double[][] z, double[] regs) {
        double g = 0;
        double[] beta = new double[n];
        double[] f = new double[n];
        for (double[] zt : z) {
            java.util.Arrays.fill(zt, 0.0);
        }
        for (int b = 0; b < blocks.size(); b++) {
            java.util.Arrays.fill(beta, 0.0);
            for (int t = 0; t < m; t++) {
                double c = d[t][b];
                if (c != 0) {
                    for (int i = 0; i < n; i++) {
                        beta[i] += c * alpha[t][i];
                    }
                }
            }
            g += blocks.get(b).evaluate(beta, f);
            if (regs != null) {
                regs[b] = blocks.get(b).lastRegulariser();
            }
            for (int t = 0; t < m; t++) {
                double c = d[t][b];
                if (c != 0) {
                    for (int i = 0; i < n; i++) {
                        z[t][i] += c * f[i];
                    }
                }
            }
        }
        return g;
    }

    /** Task name of the progress events. */
    public static final String TASK = "cone";

    /**
     * Solves from {@code start} (the dual variables, null: the loss's own start). {@code listener} receives an
     * event at every gap check (every {@link Options#checkEvery()} iterations), task {@value #TASK}, measure
     * {@code "gap"} = (P − D)/(1 + |P|), the quantity the stopping rule compares with the tolerance.
     */
    public Result solve(Options options, double[][] start, ProgressListener listener) {
        long startNanos = System.nanoTime();
        ProgressListener lis = ProgressListener.orNone(listener);
        int dim = m * n;
        double[] x0 = new double[dim];
        double[] out = new double[m];
        if (start != null) {
            for (int t = 0; t < m; t++) {
                System.arraycopy(start[t], 0, x0, t * n, n);
            }
        } else {
            for (int i = 0; i < n; i++) {
                loss.dualStart(i, out);
                for (int t = 0; t < m; t++) {
                    x0[t * n + i] = out[t];
                }
            }
        }
        double[][] z = new double[m][n];
        double[][] a = new double[m][n];
        double[] regs = new double[blocks.size()];
        double[] lastProx = x0.clone();
        SmoothFunction h = new SmoothFunction() {
            @Override
            public int dimension() {
                return dim;
            }

            @Override
            public double valueAndGradient(double[] alpha, double[] gradient) {
                unflatten(alpha, a);
                double g = smooth(a, z, null);
                for (int t = 0; t < m; t++) {
                    for (int i = 0; i < n; i++) {
                        gradient[t * n + i] = -z[t][i];
                    }
                }
                return g;
            }
        };
        ProxFunction conj = new ProxFunction() {
            @Override
            public double value(double[] alpha) {
                double[] ai = new double[m];
                double s = 0;
                for (int i = 0; i < n; i++) {
                    for (int t = 0; t < m; t++) {
                        ai[t] = alpha[t * n + i];
                    }
                    s += loss.conjugate(i, ai);
                }
                return s;
            }

            @Override
            public void prox(double step, double[] v, double[] o) {
                double[] vi = new double[m];
                double[] oi = new double[m];
                for (int i = 0; i < n; i++) {
                    for (int t = 0; t < m; t++) {
                        vi[t] = v[t * n + i];
                    }
                    loss.proxConjugate(i, vi, step, oi);
                    for (int t = 0; t < m; t++) {
                        o[t * n + i] = oi[t];
                    }
                }
                System.arraycopy(o, 0, lastProx, 0, dim);
            }
        };
        double[] state = {Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY, Double.NaN};
        StopRule rule = (it, y, hy, grad) -> {
            if (it % options.checkEvery() != 0) {
                return false;
            }
            // gap at the current iterate x_k (the last prox output), not at the extrapolated y
            evaluate(lastProx, a, z, regs, conj, state);
            lis.onProgress(new ProgressListener.Event(TASK, it, 0, "gap", relativeGap(state[0], state[2]),
                    (System.nanoTime() - startNanos) * 1e-9));
            return converged(options, state[0], state[1], state[2], state[3]);
        };
        FistaResult fr = Fista.minimize(h, conj, x0, FistaOptions.withLipschitz(lipschitz, options.maxIterations()),
                rule, null);
        double[][] x = new double[m][n];
        unflatten(fr.x(), x);
        List<ScalarFunction> fns = new java.util.ArrayList<>();
        double[] beta = new double[n];
        for (int b = 0; b < blocks.size(); b++) {
            java.util.Arrays.fill(beta, 0.0);
            for (int t = 0; t < m; t++) {
                for (int i = 0; i < n; i++) {
                    beta[i] += d[t][b] * x[t][i];
                }
            }
            fns.add(blocks.get(b).function(beta.clone()));
        }
        if (fr.status() != FistaResult.Status.CONVERGED) {
            // the last check may be up to checkEvery − 1 iterations old: report the gap of the returned iterate
            evaluate(fr.x(), a, z, regs, conj, state);
        }
        boolean converged = converged(options, state[0], state[1], state[2], state[3]);
        return new Result(x, List.copyOf(fns), d, fr.iterations(), state[0], state[1], state[2], state[3], converged,
                fr.restarts());
    }

    /**
     * The relative duality gap of every cone fit, (P − D)/(1 + |P|): the one quantity that the stopping rule compares
     * with {@link Options#gapTolerance()}, that progress events carry and that {@link Diagnostics#relativeGap()} and
     * the fit reports' {@code relative_gap} show. The 1 + |P| (rather than |P|) keeps it meaningful when the optimum
     * is near 0 (a loss of order 1 on standardised targets otherwise).
     */
    public static double relativeGap(double primal, double gap) {
        return gap / (1 + Math.abs(primal));
    }

    /**
     * The convergence rule: primal and dual finite, {@link #relativeGap} at most the gap tolerance and the largest
     * hard-constraint violation at most the feasibility tolerance. A fit is reported {@code converged} exactly when
     * this holds at the returned iterate.
     */
    public static boolean converged(Options options, double primal, double dual, double gap, double infeasibility) {
        return Double.isFinite(primal) && Double.isFinite(dual)
                && relativeGap(primal, gap) <= options.gapTolerance()
                && infeasibility <= options.feasibilityTolerance();
    }

    /** Primal, dual, gap and largest violation at the dual point {@code flat} into {@code state[0..3]}. */
    private void evaluate(double[] flat, double[][] a, double[][] z, double[] regs, ProxFunction conj,
                          double[] state) {
        unflatten(flat, a);
        double g = smooth(a, z, regs);
        double conjValue = conj.value(flat);
        double lossValue = 0;
        double viol = 0;
        double[] zi = new double[m];
        for (int i = 0; i < n; i++) {
            for (int t = 0; t < m; t++) {
                zi[t] = z[t][i];
            }
            lossValue += loss.value(i, zi);
            viol = Math.max(viol, loss.infeasibility(i, zi));
        }
        double reg = 0;
        for (double r : regs) {
            reg += r;
        }
        double primal = lossValue + reg;
        double dual = -(conjValue + g);
        state[0] = primal;
        state[1] = dual;
        state[2] = primal - dual;
        state[3] = viol;
    }

    private void unflatten(double[] flat, double[][] into) {
        for (int t = 0; t < m; t++) {
            System.arraycopy(flat, t * n, into[t], 0, n);
        }
    }

    /** z_t(x) = Σ_b D_{t,b} f_b(x) for every row of x: an n×m matrix. */
    public static Matrix combine(List<ScalarFunction> functions, double[][] directions, Matrix x) {
        int m = directions.length;
        Matrix outm = Matrix.zeros(x.rows(), m);
        for (int b = 0; b < functions.size(); b++) {
            double[] f = null;
            for (int t = 0; t < m; t++) {
                double c = directions[t][b];
                if (c == 0) {
                    continue;
                }
                if (f == null) {
                    f = functions.get(b).eval(x);
                }
                for (int i = 0; i < f.length; i++) {
                    outm.add(i, t, c * f[i]);
                }
            }
        }
        return outm;
    }

}
