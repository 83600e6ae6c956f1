package org.psdkit.classify.mkl;

import org.psdkit.kernel.TessellatedKernel.Orthant;
import org.psdkit.kernel.TessellatedKernel;
import org.psdkit.kernel.TkGram;
import org.psdkit.linalg.Eigen;
import org.psdkit.linalg.Linalg;
import org.psdkit.linalg.Matrix;
import org.psdkit.optim.ProgressListener;
import org.psdkit.optim.smo.KernelRows;
import org.psdkit.optim.smo.Smo;

/**
 * Direct tessellated-kernel learning: minimise over the spectrahedron {P ⪰ 0, tr P = τ} the optimal soft-margin
 * SVM dual value
 * <pre>  f(P) = max_α Σα − ½ αᵀ Y K(P) Y α   (0 ≤ α ≤ C, yᵀα = 0),</pre>
 * problem (3) of Colbert &amp; Peet with 𝒦 the tessellated kernels. f is convex in P (a maximum of affine functions)
 * and ∇f(P) = −½ H(β), β = α*∘y, with H the PSD matrix of {@link TkGram#gradient}. The trace equality loses
 * nothing against tr P ≤ τ: f is non-increasing along P ↦ cP for c ≥ 1.
 *
 * <p>Frank–Wolfe: the linear minimisation oracle over the spectrahedron is the rank-one vertex τ s sᵀ with s the
 * top eigenvector of H; K(s sᵀ) costs O(m² n). The step size is found by a safeguarded secant search on
 * φ'(γ) = −½ β_γᵀ(K_S − K_P)β_γ (Danskin), each evaluation a warm-started SMO solve.
 *
 * <p>Stopping ({@link LearningGap}): the duality gap J(P) − (Σα − ½ τ λ_max(H)), with J(P) the SVM primal objective
 * at the current kernel, bounds J(P) − f* from above whatever the SMO tolerance (weak duality: for any feasible α,
 * min_P max_α ≥ Σα − ½ max_{P'} βᵀK(P')β = Σα − ½ τ λ_max(H)). It is the Frank–Wolfe gap ½(τ λ_max(H) − βᵀK(P)β)
 * plus the SVM's own gap. The method is converged when gap ≤ {@code gapTolerance · |J(P)|}, and only then. When the
 * Frank–Wolfe part is within the tolerance and the SVM's part is not, the SVM is solved again with a tolerance ten
 * times smaller (down to {@link #SMO_TOLERANCE_FLOOR}). The gap is ≥ 0 in exact arithmetic; a computed value below
 * zero is rounding (the difference of numbers of the size of J), so its magnitude is reported and the method stops
 * there as {@link LearningStop#STALLED} unless within the tolerance; so it does when the SVM's tolerance is at its
 * floor with the gap still above the tolerance. Otherwise it stops at the iteration cap
 * ({@link LearningStop#MAX_ITERATIONS}).
 *
 * <p>Progress: one event per gap evaluation (before the first step and after every Frank–Wolfe step), task
 * {@value #TASK}, step the steps done, measure {@code "gap"} = the relative gap compared with the tolerance.
 */
public final class TkLearner {

    /** Default relative Frank–Wolfe gap at which learning stops (1 %: test accuracy no longer changes, see notes). */
    public static final double DEFAULT_GAP_TOLERANCE = 1e-2;
    /** Default cap on Frank–Wolfe iterations. */
    public static final int DEFAULT_MAX_ITERATIONS = 60;
    /** Line-search evaluations per Frank–Wolfe step (each one warm-started SMO solve). */
    static final int LINE_SEARCH_STEPS = 4;
    /** The line search stops when |φ'(γ)| ≤ this fraction of the gap |φ'(0)|. */
    static final double LINE_SEARCH_TOLERANCE = 0.1;
    /** Secant steps keep at least this fraction of the bracket away from its ends. */
    static final double SECANT_SAFEGUARD = 0.05;

    /**
     * The smallest SMO tolerance the stopping rule tightens the SVM solves to when the SVM's own duality gap keeps the
     * whole gap above the tolerance (LIBSVM's KKT tolerance {@code -e}, default 1e-3, divided by ten each time).
     */
    public static final double SMO_TOLERANCE_FLOOR = 1e-8;

    /** Task name of the progress events. */
    public static final String TASK = "frank-wolfe";

    private TkLearner() {
    }

    /**
     * Floating-point operations of one Frank–Wolfe iteration on m rows of n features, a planning estimate of the
     * loops this class runs (measured within a factor of about two): the gradient H(β) ({@link TkGram#gradient}:
     * for d = 1 every pair of rows adds n×n products to the accumulators of two or three orthant terms, ≈ 6 m² n²,
     * plus ≈ 6 m² n for the boxes; d = 0 only the boxes; d = 2 the generic form, ≈ 20 q⁴ m²), the eigenvectors of the
     * 2q×2q matrix H (≈ 9 (2q)³, q = {@link TessellatedKernel#monomialCount}) and the rank-one Gram matrix
     * K(s sᵀ) (≈ 10 m² n). The warm-started SMO solves of the line search are not counted.
     */
    public static double iterationFlops(int m, int n, int degree) {
        double mm = (double) m * m;
        double q = TessellatedKernel.monomialCount(n, degree);
        double gradient = degree >= 2 ? 20 * q * q * q * q * mm : 6 * mm * n + (degree == 1 ? 6 * mm * n * n : 0);
        double eigen = 9 * Math.pow(2 * q, 3);
        return gradient + eigen + 10 * mm * n;
    }

    /**
     * Options.
     *
     * @param degree         monomial degree d (0, 1, 2)
     * @param epsilon        box margin ε: X = [−ε, 1+ε]ⁿ (data scaled to [0,1])
     * @param orthant        orthant construction
     * @param c              SVM penalty C
     * @param traceBound     τ in tr P = τ
     * @param gapTolerance   relative Frank–Wolfe gap to stop at
     * @param maxIterations  Frank–Wolfe iteration cap
     * @param smoTolerance   SMO KKT tolerance
     */
    public record Options(int degree, double epsilon, Orthant orthant, double c, double traceBound,
                          double gapTolerance, int maxIterations, double smoTolerance) {
        public Options {
            if (!(epsilon >= 0) || Double.isInfinite(epsilon)) {
                throw new IllegalArgumentException("epsilon must be >= 0 and finite, got " + epsilon);
            }
            if (!(c > 0) || Double.isInfinite(c)) {
                throw new IllegalArgumentException("C must be positive and finite, got " + c);
            }
            if (!(traceBound > 0)) {
                throw new IllegalArgumentException("trace bound must be positive, got " + traceBound);
            }
            if (!(gapTolerance > 0)) {
                throw new IllegalArgumentException("gap tolerance must be positive, got " + gapTolerance);
            }
            if (maxIterations < 0) {
                throw new IllegalArgumentException("max iterations must be >= 0, got " + maxIterations);
            }
            if (orthant == null) {
                orthant = Orthant.LOWER;
            }
        }

        public static Options of(int degree, double epsilon, double c) {
            return new Options(degree, epsilon, Orthant.LOWER, c, 1.0, DEFAULT_GAP_TOLERANCE, DEFAULT_MAX_ITERATIONS,
                    Smo.DEFAULT_TOLERANCE);
        }

        public Options withC(double newC) {
            return new Options(degree, epsilon, orthant, newC, traceBound, gapTolerance, maxIterations, smoTolerance);
        }

        public Options withGap(double gap, int iters) {
            return new Options(degree, epsilon, orthant, c, traceBound, gap, iters, smoTolerance);
        }
    }

    /**
     * Outcome.
     *
     * @param kernel        the learned kernel (P inside)
     * @param svm           the SVM solution on K(P)
     * @param iterations    Frank–Wolfe iterations
     * @param gap           final duality gap ({@link LearningGap}: absolute, ≥ 0: a computed value below zero,
     *                      rounding, is reported by its magnitude)
     * @param relativeGap   gap / |J(P)|, the number compared with the tolerance
     * @param objective     f(P), the SVM dual value at the learned kernel
     * @param stop          why the method stopped
     * @param smoIterations total SMO iterations
     * @param seconds       wall time
     */
    public record Result(TessellatedKernel kernel, Smo.Result svm, int iterations, double gap, double relativeGap,
                         double objective, LearningStop stop, long smoIterations, double seconds) {

        /** Whether the relative gap reached the tolerance. */
        public boolean converged() {
            return stop == LearningStop.CONVERGED;
        }
    }

    /** Learns P and trains the SVM on data already scaled to [0, 1] (labels ±1). */
    static Result fit(Matrix x, double[] y, Options o) {
        return fit(x, y, o, null);
    }

    /** As {@link #fit(Matrix, double[], Options)}, reporting to {@code listener} (null: none). */
    static Result fit(Matrix x, double[] y, Options o, ProgressListener listener) {
        long t0 = System.nanoTime();
        ProgressListener lis = ProgressListener.orNone(listener);
        TkGram eng = new TkGram(x, o.degree(), -o.epsilon(), 1 + o.epsilon(), o.orthant());
        eng.requireUsable("tk-svm");
        int m = x.rows();
        int q = eng.q();
        int dim = 2 * q;
        double tau = o.traceBound();
        // start at the vertex s0 = (e_1 + e_{q+1})/√2: the constant monomial in both blocks (a d = 0 kernel)
        double[] s0 = new double[dim];
        s0[0] = Math.sqrt(0.5);
        s0[q] = Math.sqrt(0.5);
        Matrix p = outer(s0, tau);
        Matrix k = eng.rankOne(s0);
        k.scaleInPlace(tau);
        Smo.Result sv = Smo.solve(KernelRows.dense(k), y, o.c(), o.smoTolerance(), null);
        long smoIters = sv.iterations();
        int it = 0;
        double gap = Double.POSITIVE_INFINITY;
        double relative = Double.POSITIVE_INFINITY;
        double smoTol = o.smoTolerance();
        LearningStop stop;
        double[] beta = new double[m];
        while (true) {
            for (int i = 0; i < m; i++) {
                beta[i] = sv.alpha()[i] * y[i];
            }
            Matrix h = eng.gradient(beta);
            Eigen e = Linalg.eigh(h);
            double lam = e.max();
            double[] s = e.vectors().col(dim - 1);
            double bkb = quad(k, beta);
            LearningGap lg = LearningGap.of(k, y, o.c(), sv.alpha(), sv.bias(), bkb, tau * lam);
            // τ λ_max(H) ≥ ⟨H, P⟩ = βᵀK(P)β on the spectrahedron and J(P) ≥ the SVM dual value, so the gap is ≥ 0 in
            // exact arithmetic: a value below zero is rounding, the gap is known only to within its magnitude, and
            // no step can be measured
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
            boolean kernelDone = lg.kernelGap() <= o.gapTolerance() * scale;
            if (kernelDone && smoTol > SMO_TOLERANCE_FLOOR) {
                // the Frank–Wolfe part is within the tolerance, the SVM's own gap is not: solve the SVM closer
                smoTol = Math.max(SMO_TOLERANCE_FLOOR, smoTol / 10);
                sv = Smo.solve(KernelRows.dense(k), y, o.c(), smoTol, sv.alpha());
                smoIters += sv.iterations();
                continue;
            }
            if (rounding || kernelDone) {
                stop = LearningStop.STALLED;
                break;
            }
            if (it >= o.maxIterations()) {
                stop = LearningStop.MAX_ITERATIONS;
                break;
            }
            it++;
            Matrix ks = eng.rankOne(s);
            ks.scaleInPlace(tau);
            Step st = lineSearch(k, ks, y, o.c(), smoTol, sv, lg.kernelGap());
            smoIters += st.smoIterations;
            double g = st.gamma;
            p.scaleInPlace(1 - g);
            p = p.plus(outer(s, tau * g));
            k = blend(k, ks, g);
            sv = st.result;
        }
        p.symmetrizeInPlace();
        TessellatedKernel kernel = eng.kernel(p);
        return new Result(kernel, sv, it, gap, relative, sv.dual(), stop, smoIters, (System.nanoTime() - t0) * 1e-9);
    }

    private record Step(double gamma, Smo.Result result, long smoIterations) {
    }

    private static Step lineSearch(Matrix k, Matrix ks, double[] y, double c, double smoTol, Smo.Result start,
                                   double gap) {
        long iters = 0;
        double lo = 0;
        double dLo = -gap;
        double hi = 1;
        Smo.Result atHi = Smo.solve(KernelRows.dense(ks), y, c, smoTol, start.alpha());
        iters += atHi.iterations();
        double dHi = derivative(k, ks, y, atHi.alpha());
        if (dHi <= 0) {
            return new Step(1.0, atHi, iters);
        }
        Smo.Result best = null;
        double bestGamma = 0;
        Smo.Result warm = start;
        for (int step = 0; step < LINE_SEARCH_STEPS; step++) {
            double g = lo - dLo * (hi - lo) / (dHi - dLo);
            double margin = SECANT_SAFEGUARD * (hi - lo);
            g = Math.min(hi - margin, Math.max(lo + margin, g));
            Smo.Result r = Smo.solve(KernelRows.dense(blend(k, ks, g)), y, c, smoTol, warm.alpha());
            iters += r.iterations();
            if (best == null || r.dual() < best.dual()) {
                best = r;
                bestGamma = g;
            }
            warm = r;
            double d = derivative(k, ks, y, r.alpha());
            if (Math.abs(d) <= LINE_SEARCH_TOLERANCE * gap) {
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

    /** φ'(γ) = −½ βᵀ(K_S − K)β at α. */
    private static double derivative(Matrix k, Matrix ks, double[] y, double[] alpha) {
        int m = y.length;
        double[] beta = new double[m];
        for (int i = 0; i < m; i++) {
            beta[i] = alpha[i] * y[i];
        }
        return -0.5 * (quad(ks, beta) - quad(k, beta));
    }

    static Matrix blend(Matrix k, Matrix ks, double g) {
        double[] a = k.data();
        double[] b = ks.data();
        double[] out = new double[a.length];
        for (int i = 0; i < a.length; i++) {
            out[i] = (1 - g) * a[i] + g * b[i];
        }
        return Matrix.wrap(k.rows(), k.cols(), out);
    }

    static double quad(Matrix k, double[] v) {
        int m = v.length;
        double[] d = k.data();
        double s = 0;
        for (int j = 0; j < m; j++) {
            if (v[j] == 0) {
                continue;
            }
            double r = 0;
            int base = j * m;
            for (int i = 0; i < m; i++) {
                r += d[base + i] * v[i];
            }
            s += r * v[j];
        }
        return s;
    }

    static Matrix outer(double[] s, double c) {
        int d = s.length;
        Matrix p = Matrix.zeros(d, d);
        for (int j = 0; j < d; j++) {
            for (int i = 0; i < d; i++) {
                p.set(i, j, c * s[i] * s[j]);
            }
        }
        return p;
    }
}
