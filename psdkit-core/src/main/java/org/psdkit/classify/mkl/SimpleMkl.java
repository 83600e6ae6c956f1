package org.psdkit.classify.mkl;

import java.util.Arrays;
import org.psdkit.kernel.Kernel;
import org.psdkit.linalg.Matrix;
import org.psdkit.optim.ProgressListener;
import org.psdkit.optim.smo.KernelRows;
import org.psdkit.optim.smo.Smo;

/**
 * SimpleMKL (Rakotomamonjy, Bach, Canu, Grandvalet, JMLR 9, 2008): minimise J(μ) = max_α Σα − ½ Σ_k μ_k αᵀYK_kYα
 * over the simplex {μ ≥ 0, Σμ = 1} by reduced-gradient descent, J and ∂J/∂μ_k = −½ βᵀK_kβ coming from SVM solves
 * (Danskin). The descent direction is the reduced gradient with respect to the largest weight μ_u (components at
 * zero with a positive reduced gradient stay at zero). The step along it is chosen on [0, γ_max] (γ_max drives one
 * weight to zero) by a safeguarded secant search on J'(γ), each evaluation a warm-started SMO solve. This replaces
 * the original's inner "descend until a weight vanishes, then Armijo" loop by one line search per iteration; the
 * fixed points (KKT points of the convex problem) are the same. Stopping: SimpleMKL's own criterion, the duality
 * gap J(μ) − Σα + ½ max_k βᵀK_kβ ≤ tol·J(μ) ({@link LearningGap}), with J(μ) the SVM primal objective at the
 * returned SVM solution; converged only then. With the SVM solved exactly J(μ) is its dual value and the gap is
 * ½(max_k βᵀK_kβ − βᵀK(μ)β); with SMO's KKT tolerance the SVM's own gap is added, and when the library part is
 * within the tolerance but the whole gap is not, the SVM is solved again with a ten times smaller tolerance (down to
 * {@link TkLearner#SMO_TOLERANCE_FLOOR}). A computed gap below zero (rounding) is reported by its magnitude and ends
 * the descent ({@link LearningStop#STALLED}), as does an SVM tolerance at its floor with the gap above the tolerance;
 * otherwise the descent ends at the iteration cap ({@link LearningStop#MAX_ITERATIONS}).
 *
 * <p>Progress: one event per gap evaluation (before the first step and after every iteration), task
 * {@value #TASK}, step the iterations done, measure {@code "gap"} = the relative gap compared with the tolerance.
 */
public final class SimpleMkl {

    /** Default relative duality gap (SimpleMKL's default {@code seuildiffsigma}/gap criterion is 0.01). */
    public static final double DEFAULT_GAP_TOLERANCE = 1e-2;
    /** Default iteration cap. */
    public static final int DEFAULT_MAX_ITERATIONS = 40;
    /** Weights below this fraction of the largest are set to zero (SimpleMKL zeroes weights below 1e-8·max). */
    static final double WEIGHT_ZERO = 1e-8;
    /**
     * K(μ) is rebuilt from the weights when βᵀK(μ)β and Σ μ_k βᵀK_kβ differ by more than this fraction: the
     * libraries are single precision (relative rounding ~1e-7 per entry), so agreement to 1e-5 is expected.
     */
    static final double RESYNC_TOLERANCE = 1e-5;
    /** At most this many rebuilds per fit (each costs a dense combination and an SVM solve). */
    static final int MAX_RESYNCS = 10;
    /** Secant steps of the line search. */
    static final int LINE_SEARCH_STEPS = 4;
    /** Line search stops when |J'(γ)| is below this fraction of |J'(0)|. */
    static final double LINE_SEARCH_TOLERANCE = 0.1;
    /** Secant safeguard (fraction of the bracket kept from its ends). */
    static final double SECANT_SAFEGUARD = 0.05;

    /** Task name of the progress events. */
    public static final String TASK = "simplemkl";

    private SimpleMkl() {
    }

    /**
     * Options.
     *
     * @param c             SVM penalty C
     * @param gapTolerance  relative duality gap to stop at
     * @param maxIterations iteration cap
     * @param smoTolerance  SMO KKT tolerance
     */
    public record Options(double c, double gapTolerance, int maxIterations, double smoTolerance) {
        public Options {
            if (!(c > 0) || Double.isInfinite(c)) {
                throw new IllegalArgumentException("C must be positive and finite, got " + c);
            }
            if (!(gapTolerance > 0)) {
                throw new IllegalArgumentException("gap tolerance must be positive, got " + gapTolerance);
            }
            if (maxIterations < 0) {
                throw new IllegalArgumentException("max iterations must be >= 0, got " + maxIterations);
            }
        }

        public static Options of(double c) {
            return new Options(c, DEFAULT_GAP_TOLERANCE, DEFAULT_MAX_ITERATIONS, Smo.DEFAULT_TOLERANCE);
        }
    }

    /**
     * Outcome.
     *
     * @param mu            kernel weights (simplex)
     * @param kernel        Σ μ_k k_k as a kernel function
     * @param svm           SVM solution on K(μ)
     * @param iterations    reduced-gradient iterations
     * @param gap           final duality gap ({@link LearningGap}: absolute, ≥ 0: a computed value below zero,
     *                      rounding, is reported by its magnitude)
     * @param relativeGap   gap / |J(μ)|, the number compared with the tolerance
     * @param objective     the SVM dual value at μ
     * @param stop          why the descent stopped
     * @param smoIterations total SMO iterations
     * @param seconds       wall time
     */
    public record Result(double[] mu, Kernel kernel, Smo.Result svm, int iterations, double gap, double relativeGap,
                         double objective, LearningStop stop, long smoIterations, double seconds) {

        /** Whether the relative gap reached the tolerance. */
        public boolean converged() {
            return stop == LearningStop.CONVERGED;
        }

        /** Number of non-zero weights. */
        public int active() {
            int c = 0;
            for (double v : mu) {
                if (v > 0) {
                    c++;
                }
            }
            return c;
        }
    }

    static Result fit(KernelLibrary lib, double[] y, Options o) {
        return fit(lib, y, o, null, null);
    }

    /** As {@link #fit(KernelLibrary, double[], Options)}, reporting to {@code listener} (null: none). */
    static Result fit(KernelLibrary lib, double[] y, Options o, ProgressListener listener) {
        return fit(lib, y, o, null, null, null, null, listener);
    }

    /**
     * SimpleMKL started from the weights {@code muStart} (non-negative, rescaled to the simplex; {@code null}: the
     * uniform weights) and the SVM dual {@code alphaStart} (clipped into the box; {@code null}: zero). Used to
     * warm-start along a grid of C: the problem and its stopping rule are those of a cold start.
     */
    static Result fit(KernelLibrary lib, double[] y, Options o, double[] muStart, double[] alphaStart) {
        return fit(lib, y, o, muStart, alphaStart, null, null);
    }

    /**
     * As {@link #fit(KernelLibrary, double[], Options, double[], double[])}, with the combination Σ μ_k K_k of the
     * start weights given ({@code gramStart}, m×m column-major; taken over and modified) instead of summed again,
     * and the final combination handed back in {@code gramOut[0]} (for the next warm start along a C grid).
     */
    static Result fit(KernelLibrary lib, double[] y, Options o, double[] muStart, double[] alphaStart,
                      double[] gramStart, double[][] gramOut) {
        return fit(lib, y, o, muStart, alphaStart, gramStart, gramOut, null);
    }

    static Result fit(KernelLibrary lib, double[] y, Options o, double[] muStart, double[] alphaStart,
                      double[] gramStart, double[][] gramOut, ProgressListener listener) {
        long t0 = System.nanoTime();
        ProgressListener lis = ProgressListener.orNone(listener);
        int m = lib.points();
        int nk = lib.size();
        if (y.length != m) {
            throw new IllegalArgumentException("labels length " + y.length + " differs from " + m);
        }
        double[] mu = new double[nk];
        Arrays.fill(mu, 1.0 / nk);
        if (muStart != null) {
            if (muStart.length != nk) {
                throw new IllegalArgumentException("start weights of length " + muStart.length + ", expected " + nk);
            }
            double sum = 0;
            for (double v : muStart) {
                if (!(v >= 0) || Double.isInfinite(v)) {
                    throw new IllegalArgumentException("start weights must be finite and >= 0, got " + v);
                }
                sum += v;
            }
            if (sum > 0) {
                for (int t = 0; t < nk; t++) {
                    mu[t] = muStart[t] / sum;
                }
            }
        }
        double[] kd;
        if (gramStart != null && muStart != null) {
            if (gramStart.length != m * m) {
                throw new IllegalArgumentException("start Gram matrix of length " + gramStart.length + ", expected "
                        + m * m);
            }
            kd = gramStart;
        } else {
            kd = new double[m * m];
            lib.addCombination(mu, kd);
        }
        Matrix k = Matrix.wrap(m, m, kd);
        Smo.Result sv = Smo.solve(KernelRows.dense(k), y, o.c(), o.smoTolerance(), alphaStart);
        long smoIters = sv.iterations();
        double gap = Double.POSITIVE_INFINITY;
        double relative = Double.POSITIVE_INFINITY;
        double smoTol = o.smoTolerance();
        LearningStop stop;
        int it = 0;
        int resyncs = 0;
        double[] beta = new double[m];
        while (true) {
            for (int i = 0; i < m; i++) {
                beta[i] = sv.alpha()[i] * y[i];
            }
            double[] qf = lib.quadForms(beta);
            double bkb = TkLearner.quad(k, beta);
            double viaWeights = 0;
            for (int t = 0; t < nk; t++) {
                viaWeights += mu[t] * qf[t];
            }
            if (!(Math.abs(bkb - viaWeights) <= RESYNC_TOLERANCE * Math.abs(bkb)) && resyncs < MAX_RESYNCS) {
                // the incrementally updated K(μ) drifted from Σ μ_k K_k (βᵀKβ must equal Σ μ_k βᵀK_kβ):
                // rebuild it from the weights and re-solve before taking the gradient
                resyncs++;
                kd = new double[m * m];
                lib.addCombination(mu, kd);
                k = Matrix.wrap(m, m, kd);
                sv = Smo.solve(KernelRows.dense(k), y, o.c(), smoTol, sv.alpha());
                smoIters += sv.iterations();
                continue;
            }
            double max = Double.NEGATIVE_INFINITY;
            for (double v : qf) {
                max = Math.max(max, v);
            }
            LearningGap lg = LearningGap.of(k, y, o.c(), sv.alpha(), sv.bias(), bkb, max);
            // max_k βᵀK_kβ ≥ Σ μ_k βᵀK_kβ = βᵀK(μ)β and J(μ) ≥ the SVM dual value, so the gap is ≥ 0 in exact
            // arithmetic: a value below zero is rounding, the gap is known only to within its magnitude, and no step
            // can be measured
            boolean rounding = lg.total() < 0;
            gap = Math.abs(lg.total());
            double scale = Math.abs(lg.primal());
            relative = gap / scale;
            lis.onProgress(new ProgressListener.Event(TASK, it, 0, "gap", relative,
                    (System.nanoTime() - t0) * 1e-9));
            if (gap <= o.gapTolerance() * scale) {
                stop = LearningStop.CONVERGED;
                break;
            }
            boolean libraryDone = lg.kernelGap() <= o.gapTolerance() * scale;
            if (libraryDone && smoTol > TkLearner.SMO_TOLERANCE_FLOOR) {
                // the library part is within the tolerance, the SVM's own gap is not: solve the SVM closer
                smoTol = Math.max(TkLearner.SMO_TOLERANCE_FLOOR, smoTol / 10);
                sv = Smo.solve(KernelRows.dense(k), y, o.c(), smoTol, sv.alpha());
                smoIters += sv.iterations();
                continue;
            }
            if (rounding || libraryDone) {
                stop = LearningStop.STALLED;
                break;
            }
            if (it >= o.maxIterations()) {
                stop = LearningStop.MAX_ITERATIONS;
                break;
            }
            it++;
            int u = 0;
            for (int t = 1; t < nk; t++) {
                if (mu[t] > mu[u]) {
                    u = t;
                }
            }
            double[] dir = new double[nk];
            double sum = 0;
            for (int t = 0; t < nk; t++) {
                if (t == u) {
                    continue;
                }
                double g = -0.5 * qf[t] + 0.5 * qf[u]; // ∂J/∂μ_t − ∂J/∂μ_u
                if (mu[t] <= 0 && g > 0) {
                    dir[t] = 0;
                } else {
                    dir[t] = -g;
                }
                sum += dir[t];
            }
            dir[u] = -sum;
            double[] kdir = new double[m * m];
            lib.addCombination(dir, kdir);
            Matrix kD = Matrix.wrap(m, m, kdir);
            // SimpleMKL's inner loop: while the cost at the point where a weight vanishes is lower, move there,
            // drop that kernel from the direction and continue
            double gmax;
            while (true) {
                gmax = Double.POSITIVE_INFINITY;
                int nu = -1;
                for (int t = 0; t < nk; t++) {
                    if (dir[t] < 0 && -mu[t] / dir[t] < gmax) {
                        gmax = -mu[t] / dir[t];
                        nu = t;
                    }
                }
                if (nu < 0 || nu == u || !(gmax > 0)) {
                    break;
                }
                Smo.Result r = Smo.solve(along(k, kD, gmax), y, o.c(), smoTol, sv.alpha());
                smoIters += r.iterations();
                if (!(r.dual() < sv.dual())) {
                    break;
                }
                addScaled(k, kD, gmax); // K ← K + γ_max K_D in place (no m×m allocation per inner step)
                for (int t = 0; t < nk; t++) {
                    mu[t] = Math.max(0, mu[t] + gmax * dir[t]);
                }
                mu[nu] = 0;
                sv = r;
                double[] fix = new double[nk];
                fix[nu] = -dir[nu];
                fix[u] = dir[nu];
                dir[u] += dir[nu];
                dir[nu] = 0;
                lib.addCombination(fix, kD.data());
            }
            for (int i = 0; i < m; i++) {
                beta[i] = sv.alpha()[i] * y[i];
            }
            boolean anyOther = false;
            for (int t = 0; t < nk; t++) {
                anyOther |= t != u && dir[t] != 0;
            }
            if (!anyOther || !(gmax > 0) || Double.isInfinite(gmax)) {
                // the inner loop used up the direction (every other kernel dropped: what is left of d_u is
                // rounding, whose γ_max would be meaningless) or it came from a stale gradient: recompute it
                kd = k.data();
                continue;
            }
            // J'(γ) = −½ β_γᵀ K_D β_γ; J'(0) < 0 for a descent direction
            double d0 = -0.5 * TkLearner.quad(kD, beta);
            if (d0 >= 0) {
                kd = k.data();
                continue;
            }
            Step step = lineSearch(k, kD, gmax, d0, y, o.c(), smoTol, sv);
            double gamma = step.gamma();
            sv = step.result();
            smoIters += step.iterations();
            double mx = 0;
            for (int t = 0; t < nk; t++) {
                mu[t] = mu[t] + gamma * dir[t];
                mx = Math.max(mx, mu[t]);
            }
            // K(μ) is updated from the line search's K + γ K_D (a dense library combination per iteration
            // saved): weights clipped or zeroed are removed by a sparse correction, then μ and K are rescaled
            double[] drop = new double[nk];
            boolean dropped = false;
            double s = 0;
            for (int t = 0; t < nk; t++) {
                if (mu[t] < WEIGHT_ZERO * mx) {
                    if (mu[t] != 0) {
                        drop[t] = -mu[t];
                        dropped = true;
                    }
                    mu[t] = 0;
                }
                s += mu[t];
            }
            addScaled(k, kD, gamma);
            kd = k.data();
            if (dropped) {
                lib.addCombination(drop, kd);
            }
            for (int t = 0; t < nk; t++) {
                mu[t] /= s;
            }
            if (s != 1) {
                double inv = 1.0 / s;
                for (int i = 0; i < kd.length; i++) {
                    kd[i] *= inv;
                }
            }
            if (gamma == gmax) {
                // a weight was clipped to zero: the kernel differs slightly from the one of the line search
                sv = Smo.solve(KernelRows.dense(k), y, o.c(), smoTol, sv.alpha());
                smoIters += sv.iterations();
            }
        }
        if (gramOut != null) {
            gramOut[0] = k.data();
        }
        Kernel kernel = lib.combined(mu);
        return new Result(mu, kernel, sv, it, gap, relative, sv.dual(), stop, smoIters, (System.nanoTime() - t0) * 1e-9);
    }

    private record Step(double gamma, Smo.Result result, long iterations) {
    }

    /** k ← k + g·d. */
    static void addScaled(Matrix k, Matrix d, double g) {
        double[] a = k.data();
        double[] b = d.data();
        for (int i = 0; i < a.length; i++) {
            a[i] += g * b[i];
        }
    }

    private static Step lineSearch(Matrix k, Matrix kD, double gmax, double d0, double[] y, double c,
                                   double smoTol, Smo.Result start) {
        long iters = 0;
        Smo.Result atMax = Smo.solve(along(k, kD, gmax), y, c, smoTol, start.alpha());
        iters += atMax.iterations();
        double dMax = derivative(kD, y, atMax.alpha());
        if (dMax <= 0) {
            return new Step(gmax, atMax, iters);
        }
        double lo = 0;
        double dLo = d0;
        double hi = gmax;
        double dHi = dMax;
        Smo.Result best = atMax;
        double bestGamma = gmax;
        Smo.Result warm = start;
        for (int s = 0; s < LINE_SEARCH_STEPS; s++) {
            double g = lo - dLo * (hi - lo) / (dHi - dLo);
            double margin = SECANT_SAFEGUARD * (hi - lo);
            g = Math.min(hi - margin, Math.max(lo + margin, g));
            Smo.Result r = Smo.solve(along(k, kD, g), y, c, smoTol, warm.alpha());
            iters += r.iterations();
            if (r.dual() < best.dual()) {
                best = r;
                bestGamma = g;
            }
            warm = r;
            double d = derivative(kD, y, r.alpha());
            if (Math.abs(d) <= LINE_SEARCH_TOLERANCE * Math.abs(d0)) {
                break;
            }
            if (d < 0) {
                lo = g;
                dLo = d;
            } else {
                hi = g;
                dHi = d;
            }
        }
        return new Step(bestGamma, best, iters);
    }

    /**
     * Rows of K + γ D computed when the solver asks for them (a warm-started solve reads the support vectors' rows
     * and the few it updates, not all m).
     */
    static KernelRows along(Matrix k, Matrix d, double g) {
        int m = k.rows();
        double[] a = k.data();
        double[] b = d.data();
        double[] diagonal = new double[m];
        for (int i = 0; i < m; i++) {
            diagonal[i] = a[i + i * m] + g * b[i + i * m];
        }
        return KernelRows.lazy(diagonal, i -> {
            double[] r = new double[m];
            int base = i * m; // column i = row i by symmetry
            for (int t = 0; t < m; t++) {
                r[t] = a[base + t] + g * b[base + t];
            }
            return r;
        });
    }

    private static double derivative(Matrix kD, double[] y, double[] alpha) {
        double[] beta = new double[y.length];
        for (int i = 0; i < y.length; i++) {
            beta[i] = alpha[i] * y[i];
        }
        return -0.5 * TkLearner.quad(kD, beta);
    }
}
