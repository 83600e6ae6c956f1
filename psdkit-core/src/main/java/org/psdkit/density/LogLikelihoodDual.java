package org.psdkit.density;

import org.psdkit.optim.ProgressListener;

/**
 * FISTA on the dual of a maximum-likelihood problem with one normalisation constraint (Marteau-Ferey, Bach and Rudi 2020 eq. 12 with the
 * equality constraint dualised; App. D eq. 37 for PNM):
 *
 * <pre>
 *   primal:  min_θ  −(1/n) Σ_i log f_θ(x_i) + Ω(θ)   s.t.  ∫ f_θ dν = 1
 *   dual:    min_{β &gt; 0, μ ∈ ℝ}  −(1/n) Σ_i (1 + log(n β_i)) + g(β, μ),   g(β, μ) = −μ + Ω*(μ w + Σ β_i φ_i)
 * </pre>
 *
 * where β_i = −α_i are the negated data multipliers (the conjugate of −(1/n) log z is finite only for α &lt; 0) and
 * μ is the multiplier of the integral constraint. At the optimum ∂g/∂β_i = f(x_i) = 1/(n β_i) and
 * ∂g/∂μ = ∫ f dν − 1 = 0. The non-smooth part has the closed-form prox β ↦ (v + √(v² + 4t/n))/2.
 *
 * <p>Stopping is on the duality gap: from each iterate the smooth part returns a primal candidate; it is made
 * feasible by scaling with c = 1/∫f dν (scaling keeps it non-negative, and ∫f dν = ∂g/∂μ + 1), and the gap
 * P(c·θ) − D(β, μ) ≥ 0 is compared, relative to max(1, |P|), with the tolerance. Backtracking on the Lipschitz
 * constant (with a mild decrease every step) and function-value restart.
 *
 * <p>Weighted likelihood ({@link #solveFixedMetric} with weights p_i &gt; 0, Σ p_i = 1): the loss
 * −Σ p_i log f(x_i) replaces −(1/n) Σ log f(x_i); its conjugate gives h(β) = −Σ p_i (1 + log(β_i / p_i)), the prox
 * β ↦ (v + √(v² + 4t p_i))/2 and f(x_i) = p_i / β_i at the optimum (the same derivation with 1/n → p_i).
 */
final class LogLikelihoodDual {
    /** Backtracking grows the Lipschitz estimate by this factor when the descent-lemma test fails. */
    static final double LIPSCHITZ_INCREASE = 2.0;
    /** Every accepted step lets the Lipschitz estimate shrink by this factor (adapts to the local curvature). */
    static final double LIPSCHITZ_DECREASE = 0.9;
    /** Relative slack in the descent-lemma test, to absorb rounding in g (a few hundred ulps of |g|). */
    static final double DESCENT_SLACK = 1e-12;

    /** Result of evaluating the smooth part at (β, μ). */
    record Eval(double value, double[] gradBeta, double gradMu, double regLinear, double regQuadratic,
                Object state) {
    }

    /** The smooth part g(β, μ) of a concrete model. */
    interface Smooth {
        Eval evaluate(double[] beta, double mu);
    }

    /** Task name of the progress events; their measure is {@code "gap"}, the relative duality gap. */
    static final String TASK = "density";

    record Result(double[] beta, double mu, Eval eval, double primal, double dual, double relativeGap,
                  int iterations, int evaluations, double seconds, boolean converged) {
    }

    private LogLikelihoodDual() {
    }

    private static void report(ProgressListener listener, int iteration, double relativeGap, long start) {
        if (listener != null) {
            listener.onProgress(new ProgressListener.Event(TASK, iteration, 0, "gap", relativeGap,
                    (System.nanoTime() - start) * 1e-9));
        }
    }

    static Result solve(Smooth g, double[] beta0, double mu0, double lipschitz0, double tol, int maxIter,
                        double timeLimitSeconds, ProgressListener listener) {
        long start = System.nanoTime();
        int n = beta0.length;
        double invN = 1.0 / n;
        double[] x = beta0.clone();
        double xm = mu0;
        for (int i = 0; i < n; i++) {
            if (!(x[i] > 0)) {
                throw new IllegalArgumentException("dual start must have β > 0");
            }
        }
        double[] y = x.clone();
        double ym = xm;
        double lip = lipschitz0;
        double tk = 1.0;
        double fx = g.evaluate(x, xm).value() + hValue(x, invN);
        int evals = 1;
        double[] xn = new double[n];
        Result best = null;
        int it = 0;
        while (it < maxIter) {
            it++;
            Eval ey = g.evaluate(y, ym);
            evals++;
            Eval en;
            double xnm;
            while (true) {
                double step = 1.0 / lip;
                double c = 4 * step * invN;
                for (int i = 0; i < n; i++) {
                    double v = y[i] - step * ey.gradBeta()[i];
                    xn[i] = 0.5 * (v + Math.sqrt(v * v + c));
                }
                xnm = ym - step * ey.gradMu();
                en = g.evaluate(xn, xnm);
                evals++;
                double lin = ey.value();
                double sq = 0;
                for (int i = 0; i < n; i++) {
                    double d = xn[i] - y[i];
                    lin += ey.gradBeta()[i] * d;
                    sq += d * d;
                }
                double dm = xnm - ym;
                lin += ey.gradMu() * dm;
                sq += dm * dm;
                if (en.value() <= lin + 0.5 * lip * sq + DESCENT_SLACK * (Math.abs(lin) + 1) || sq == 0) {
                    break;
                }
                lip *= LIPSCHITZ_INCREASE;
                if (!Double.isFinite(lip)) {
                    throw new IllegalStateException("dual FISTA: Lipschitz estimate overflowed after " + it
                            + " iterations");
                }
            }
            double fn = en.value() + hValue(xn, invN);
            double dual = -fn;
            double primal = primalValue(en, invN);
            double rel = (primal - dual) / Math.max(1.0, Math.abs(primal));
            report(listener, it, rel, start);
            if (best == null || rel < best.relativeGap() || (Double.isNaN(best.relativeGap()) && !Double.isNaN(rel))) {
                best = new Result(xn.clone(), xnm, en, primal, dual, rel, it, evals, 0, false);
            }
            boolean done = rel <= tol;
            double elapsed = (System.nanoTime() - start) * 1e-9;
            // restart when the objective goes up; otherwise Nesterov momentum
            double tNew;
            if (fn > fx) {
                tNew = 1.0;
                System.arraycopy(xn, 0, y, 0, n);
                ym = xnm;
            } else {
                tNew = 0.5 * (1 + Math.sqrt(1 + 4 * tk * tk));
                double mom = (tk - 1) / tNew;
                for (int i = 0; i < n; i++) {
                    // g is smooth on all of ℝⁿ⁺¹, so y may leave β > 0; only prox outputs need β > 0
                    y[i] = xn[i] + mom * (xn[i] - x[i]);
                }
                ym = xnm + mom * (xnm - xm);
            }
            tk = tNew;
            System.arraycopy(xn, 0, x, 0, n);
            xm = xnm;
            fx = fn;
            lip *= LIPSCHITZ_DECREASE;
            if (done || elapsed > timeLimitSeconds) {
                break;
            }
        }
        double secs = (System.nanoTime() - start) * 1e-9;
        return new Result(best.beta(), best.mu(), best.eval(), best.primal(), best.dual(), best.relativeGap(), it,
                evals, secs, best.relativeGap() <= tol);
    }

    /**
     * FISTA with a fixed, valid diagonal metric instead of backtracking: one evaluation of g (one
     * eigen-decomposition for the PSD model) per iteration. {@code lipBeta[i]} and {@code lipMu} must satisfy
     * ∇²g ⪯ diag(lipBeta, lipMu) (the caller derives them from the Gram matrix of the linear map inside g, see
     * {@link PsdDensityEstimator}); the step is then 1/lipBeta[i] per data multiplier and 1/lipMu for the integral
     * multiplier, which preconditions the two blocks separately. The metric starts scaled down by
     * {@link #OPTIMISTIC_METRIC_SCALE} (longer steps) and moves back towards the valid bound whenever the dual
     * objective increases (see {@link #METRIC_SAFEGUARD_INCREASE}): no backtracking, hence no second evaluation.
     *
     * <p>The duality gap is computed from the same evaluation at the extrapolated point y: its candidate, scaled onto
     * ∫ f dν = 1, is primal feasible, and −(g + h)(y) is a valid dual value whenever y has β &gt; 0 (prox outputs
     * always do; extrapolation may leave the domain, then only the primal side is updated). The gap compares the
     * best primal and best dual values seen so far, both of which bound the optimum. Restart is gradient based
     * (O'Donoghue–Candès), which needs no extra evaluation.
     */
    /**
     * Initial scale θ of the metric: steps θ⁻¹ times the valid bound's. The bound covers the whole Gram matrix of the
     * map inside g, while [·]_+ only passes curvature on the positive eigenspace, so it is loose. 0.1: the best of a
     * sweep on the d = 10 benchmark (docs/benchmarks/psd-scale.md, "Tuning constants of the density solvers"); much
     * smaller scales are worse, since the safeguard then spends its restarts climbing back.
     */
    static final double OPTIMISTIC_METRIC_SCALE = 0.1;
    /**
     * Safeguard: when the dual objective at the (feasible) extrapolated point goes up, θ is multiplied by this
     * factor (capped at 1, the valid bound, where FISTA's guarantee holds) and the momentum is dropped.
     */
    static final double METRIC_SAFEGUARD_INCREASE = 2.0;

    static Result solveFixedMetric(Smooth g, double[] beta0, double mu0, double[] lipBeta, double lipMu, double tol,
                                   int maxIter, double timeLimitSeconds, ProgressListener listener) {
        return solveFixedMetric(g, beta0, mu0, lipBeta, lipMu, tol, maxIter, timeLimitSeconds, listener, null);
    }

    /**
     * {@link #solveFixedMetric(Smooth, double[], double, double[], double, double, int, double, ProgressListener)}
     * for the weighted likelihood with weights {@code p} (each &gt; 0, summing to 1; null: 1/n each, the same
     * arithmetic as without).
     */
    static Result solveFixedMetric(Smooth g, double[] beta0, double mu0, double[] lipBeta, double lipMu, double tol,
                                   int maxIter, double timeLimitSeconds, ProgressListener listener, double[] p) {
        long start = System.nanoTime();
        int n = beta0.length;
        double invN = 1.0 / n;
        for (int i = 0; i < n; i++) {
            if (!(beta0[i] > 0)) {
                throw new IllegalArgumentException("dual start must have β > 0");
            }
            if (!(lipBeta[i] > 0) || !Double.isFinite(lipBeta[i])) {
                throw new IllegalArgumentException("metric entry " + i + " must be positive and finite");
            }
        }
        if (!(lipMu > 0) || !Double.isFinite(lipMu)) {
            throw new IllegalArgumentException("metric entry of μ must be positive and finite");
        }
        double[] x = beta0.clone();
        double xm = mu0;
        double[] y = x.clone();
        double ym = xm;
        double[] xn = new double[n];
        double tk = 1.0;
        Eval bestPrimalEval = null;
        double bestPrimal = Double.POSITIVE_INFINITY;
        double bestDual = Double.NEGATIVE_INFINITY;
        double[] bestDualBeta = x.clone();
        double bestDualMu = xm;
        double rel = Double.POSITIVE_INFINITY;
        double lastF = Double.POSITIVE_INFINITY;
        double theta = OPTIMISTIC_METRIC_SCALE;
        int it = 0;
        while (it < maxIter) {
            it++;
            Eval ey = g.evaluate(y, ym);
            double primal = p == null ? primalValue(ey, invN) : primalValue(ey, p);
            if (bestPrimalEval == null || primal < bestPrimal) {
                bestPrimal = primal;
                bestPrimalEval = ey;
            }
            boolean feasible = true;
            for (int i = 0; i < n && feasible; i++) {
                feasible = y[i] > 0;
            }
            boolean increased = false;
            if (feasible) {
                double dual = -(ey.value() + (p == null ? hValue(y, invN) : hValue(y, p)));
                increased = -dual > lastF;
                lastF = -dual;
                if (dual > bestDual) {
                    bestDual = dual;
                    System.arraycopy(y, 0, bestDualBeta, 0, n);
                    bestDualMu = ym;
                }
            }
            rel = (bestPrimal - bestDual) / Math.max(1.0, Math.abs(bestPrimal));
            report(listener, it, rel, start);
            double elapsed = (System.nanoTime() - start) * 1e-9;
            if (rel <= tol || elapsed > timeLimitSeconds) {
                break;
            }
            if (increased && theta < 1) {
                // the optimistic metric overshot: move towards the valid bound and drop the momentum
                theta = Math.min(1.0, theta * METRIC_SAFEGUARD_INCREASE);
                tk = 1.0;
                System.arraycopy(x, 0, y, 0, n);
                ym = xm;
                continue;
            }
            // proximal step in the metric θ·diag(lipBeta, lipMu)
            double[] gb = ey.gradBeta();
            for (int i = 0; i < n; i++) {
                double step = 1.0 / (theta * lipBeta[i]);
                double v = y[i] - step * gb[i];
                xn[i] = 0.5 * (v + Math.sqrt(v * v + 4 * step * (p == null ? invN : p[i])));
            }
            double xnm = ym - ey.gradMu() / (theta * lipMu);
            // gradient restart: the step y → xn points against the momentum direction xn − x
            double dotR = (ym - xnm) * (xnm - xm);
            for (int i = 0; i < n; i++) {
                dotR += (y[i] - xn[i]) * (xn[i] - x[i]);
            }
            double tNew;
            if (dotR > 0) {
                tNew = 1.0;
                System.arraycopy(xn, 0, y, 0, n);
                ym = xnm;
            } else {
                tNew = 0.5 * (1 + Math.sqrt(1 + 4 * tk * tk));
                double mom = (tk - 1) / tNew;
                for (int i = 0; i < n; i++) {
                    y[i] = xn[i] + mom * (xn[i] - x[i]);
                }
                ym = xnm + mom * (xnm - xm);
            }
            tk = tNew;
            System.arraycopy(xn, 0, x, 0, n);
            xm = xnm;
        }
        double secs = (System.nanoTime() - start) * 1e-9;
        return new Result(bestDualBeta, bestDualMu, bestPrimalEval, bestPrimal, bestDual, rel, it, it, secs,
                rel <= tol);
    }

    /** h(β) = −(1/n) Σ (1 + log(n β_i)). */
    static double hValue(double[] beta, double invN) {
        double s = 0;
        double n = 1.0 / invN;
        for (double b : beta) {
            s += 1 + Math.log(n * b);
        }
        return -s * invN;
    }

    /** h(β) = −Σ p_i (1 + log(β_i / p_i)), the weighted likelihood's term. */
    static double hValue(double[] beta, double[] p) {
        double s = 0;
        for (int i = 0; i < beta.length; i++) {
            s += p[i] * (1 + Math.log(beta[i] / p[i]));
        }
        return -s;
    }

    /** {@link #primalValue(Eval, double)} of the weighted likelihood −Σ p_i log(c f_i) + regularisation. */
    static double primalValue(Eval e, double[] p) {
        double integral = e.gradMu() + 1;
        if (!(integral > 0)) {
            return Double.POSITIVE_INFINITY;
        }
        double c = 1.0 / integral;
        double s = 0;
        double[] f = e.gradBeta();
        for (int i = 0; i < f.length; i++) {
            if (!(f[i] > 0)) {
                return Double.POSITIVE_INFINITY;
            }
            s += p[i] * Math.log(c * f[i]);
        }
        return -s + c * e.regLinear() + c * c * e.regQuadratic();
    }

    /** Primal objective of the candidate in e after scaling it onto ∫ f dν = 1 (+∞ if that is impossible). */
    static double primalValue(Eval e, double invN) {
        double integral = e.gradMu() + 1;
        if (!(integral > 0)) {
            return Double.POSITIVE_INFINITY;
        }
        double c = 1.0 / integral;
        double s = 0;
        for (double f : e.gradBeta()) {
            if (!(f > 0)) {
                return Double.POSITIVE_INFINITY;
            }
            s += Math.log(c * f);
        }
        return -s * invN + c * e.regLinear() + c * c * e.regQuadratic();
    }
}
