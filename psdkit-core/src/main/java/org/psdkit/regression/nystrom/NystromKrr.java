package org.psdkit.regression.nystrom;

import org.psdkit.kernel.Kernel;
import org.psdkit.linalg.Cholesky;
import org.psdkit.linalg.Linalg;
import org.psdkit.linalg.Matrix;
import org.psdkit.linalg.internal.OnThread;
import org.psdkit.linalg.SpdSolve;
import org.psdkit.optim.ConjugateGradient;
import org.psdkit.regression.KernelRidge;
import org.psdkit.regression.nystrom.internal.RoutePlanner;

/**
 * Nyström kernel ridge regression solved by preconditioned conjugate gradient (Falkon: Rudi, Carratino &amp;
 * Rosasco 2017, Alg. 1; Meanti, Carratino, Rosasco &amp; Rudi 2020).
 *
 * <h2>Objective and its scaling</h2>
 * Exact KRR ({@link KernelRidge.Form#STANDARD}) minimises ‖y − Kα‖² + λ αᵀKα over α ∈ ℝⁿ; its normal equations
 * K(K + λI)α = Ky are solved by (K + λI)α = y. Restricting f to the span of m anchors c_1..c_m,
 * f = Σ_j α_j k(·, c_j), the same objective reads ‖y − K_nm α‖² + λ αᵀK_mm α (K_nm = k(x_i, c_j),
 * K_mm = k(c_i, c_j)), with normal equations
 * <pre>  H α = b,   H = K_nmᵀK_nm + λ K_mm,   b = K_nmᵀ y.</pre>
 * With the anchors = all n points, K_nm = K_mm = K and H α = b is K(K + λI)α = Ky: today's KRR, λ unscaled (no
 * factor n; {@code NystromKrrTest} checks it). Falkon writes the objective with a 1/n in front of the loss, i.e. its
 * λ_F is our λ/n.
 *
 * <h2>Preconditioner</h2>
 * Falkon's B = n^{-1/2} T⁻¹A⁻¹ with K_mm = TᵀT and TTᵀ/m + λ_F I = AᵀA (Rudi et al. 2017, Sec. 3 and Alg. 1);
 * it rests on K_nmᵀK_nm ≈ (n/m) K_mm² for anchors drawn from the data, so that BᵀHB ≈ I. Here T = Lᵀ with
 * {@code L} the lower Cholesky factor of K_mm (jitter added if K_mm is numerically singular) and A = L_Aᵀ with L_A
 * the lower factor of LᵀL/m + (λ/n) I. CG runs on BᵀHB β = Bᵀb (the 1/n is kept inside both sides) and
 * α = Bβ. The operator uses H exactly (the λK_mm term is multiplied out rather than replaced by λ_F I), so the
 * jitter of K_mm only changes the preconditioner, never the solution.
 *
 * <h2>Data-sized products</h2>
 * K_nm is never stored whole in double precision: X is cut into row blocks, and each pass over them (one per CG
 * iteration, Krᵀ(Kr u + v) per block) runs on all cores through a parallel stream in a pool of one worker per
 * processor. The blocks of K_nm are either
 * recomputed each pass or, when n·m single-precision numbers fit in {@link RoutePlanner#FLOAT_CACHE_HEAP_FRACTION} of the
 * heap still free, kept as floats after the first pass ({@link Storage}). CG stops when the relative residual
 * ‖Bᵀb − BᵀHBβ‖/‖Bᵀb‖ falls below the tolerance; that residual is recomputed from scratch (one extra pass) before
 * it is reported, so the number reported is the true one, not CG's recursion.
 */
public final class NystromKrr {

    /** Default relative residual of CG: 1e-6, far below the statistical error of any regression fit. */
    public static final double DEFAULT_TOLERANCE = 1e-6;

    /** Default cap on CG iterations; Falkon needs ≈ 10–20 with its preconditioner (Rudi et al. 2017, Sec. 4). */
    public static final int DEFAULT_MAX_ITERATIONS = 200;

    /**
     * What one CG solve did.
     *
     * @param iterations CG iterations (passes over the data, not counting the right-hand side and the final check)
     * @param residual   the relative residual ‖Bᵀb − BᵀHBβ‖/‖Bᵀb‖ recomputed at the end
     * @param converged  whether it is at most the tolerance
     * @param storage    {@code recompute} or {@code float}
     * @param jitter     diagonal jitter added to K_mm for its Cholesky factor (0 if none)
     */
    public record Diagnostics(int iterations, double residual, boolean converged, String storage, double jitter) {
    }

    private NystromKrr() {
    }

    /**
     * Solves (K_nmᵀK_nm + λK_mm)α = b by Falkon-preconditioned CG (Rudi, Carratino &amp; Rosasco 2017, Alg. 1), the
     * data-sized products coming from {@code op}; every other step is m×m on this machine.
     *
     * @param kmm     K_mm of the anchors
     * @param kmmChol its Cholesky factor ({@link Linalg#cholesky}, jitter allowed)
     * @param b       K_nmᵀ(y − offset)
     * @param offset  recorded in the solution (subtracted from y when b was formed)
     */
    public static Solution solve(KnmOperator op, Matrix kmm, Cholesky kmmChol, double[] b, double offset,
                                 double lambda, double tolerance, int maxIterations) {
        return solve(op, kmm, kmmChol, b, offset, lambda, tolerance, maxIterations, null);
    }

    /**
     * {@link #solve(KnmOperator, Matrix, Cholesky, double[], double, double, double, int)} with, when
     * {@code gram} = K_nmᵀK_nm is given (as accumulated by {@link Storage#GRAM}), a second preconditioner inside
     * Falkon's: CG on BᵀHBβ = Bᵀb preconditioned by M = BᵀH̃B with H̃ = gram + λK_mm, i.e.
     * M⁻¹ = B⁻¹H̃⁻¹B⁻ᵀ = n L_AᵀLᵀ H̃⁻¹ L L_A (H̃ by Cholesky, with jitter if it is numerically singular; it is
     * factored directly rather than whitened by L⁻¹, whose amplification of rounding made L⁻¹H̃L⁻ᵀ indefinite on
     * ill-conditioned K_mm). M equals the operator up to rounding and jitter, so CG converges in one to three
     * iterations; the residual and the stopping rule are Falkon's, unchanged (run as the equivalent CG on Hα = b
     * preconditioned by H̃⁻¹, {@link #solveWithFactor}). Without {@code gram} M = I and this is the plain Falkon CG,
     * step for step.
     */
    public static Solution solve(KnmOperator op, Matrix kmm, Cholesky kmmChol, double[] b, double offset,
                                 double lambda, double tolerance, int maxIterations, Matrix gram) {
        return solve(op, kmm, kmmChol, b, offset, lambda, tolerance, maxIterations, gram, null, 0);
    }

    /**
     * The same, CG started from {@code alpha0} (null: from 0) after {@code iterationsBefore} iterations elsewhere
     * (counted in the diagnostics): its first step is the true residual of alpha0 (one product with op), and CG stops
     * at once if that is within the tolerance.
     */
    static Solution solve(KnmOperator op, Matrix kmm, Cholesky kmmChol, double[] b, double offset,
                          double lambda, double tolerance, int maxIterations, Matrix gram, double[] alpha0,
                          int iterationsBefore) {
        if (!(lambda >= 0) || Double.isInfinite(lambda)) {
            throw new IllegalArgumentException("lambda must be >= 0 and finite, got " + lambda);
        }
        return solve(op, kmm, kmmChol, b, offset, lambda, tolerance, maxIterations,
                FalkonPreconditioner.factors(kmm, kmmChol, gram, lambda, op.rows()), alpha0, iterationsBefore);
    }


    static Solution solve(KnmOperator op, Matrix kmm, Cholesky kmmChol, double[] b, double offset,
                                  double lambda, double tolerance, int maxIterations, FalkonPreconditioner.Factors f, double[] alpha0,
                                  int iterationsBefore) {
        int m = kmm.rows();
        double n = op.rows();
        if (b.length != m) {
            throw new IllegalArgumentException("nystrom krr: right-hand side has " + b.length + " entries, anchors "
                    + m);
        }
        if (!(lambda >= 0) || Double.isInfinite(lambda)) {
            throw new IllegalArgumentException("lambda must be >= 0 and finite, got " + lambda);
        }
        if (!(tolerance > 0) || tolerance >= 1) {
            throw new IllegalArgumentException("tolerance must be in (0, 1), got " + tolerance);
        }
        if (maxIterations < 1) {
            throw new IllegalArgumentException("maxIterations must be >= 1, got " + maxIterations);
        }
        if (f.sChol != null) {
            return solveWithFactor(op, kmm, kmmChol, b, offset, lambda, tolerance, maxIterations, f, alpha0,
                    iterationsBefore);
        }
        FalkonPreconditioner pc = f.pc;
        // CG on BᵀHBβ = Bᵀb (Falkon's preconditioner applied on both sides), stopping on ‖Bᵀb − BᵀHBβ‖ / ‖Bᵀb‖
        ConjugateGradient.Result r = ConjugateGradient.solve(beta -> pc.operator(op, kmm, beta, lambda, n),
                ConjugateGradient.Preconditioner.IDENTITY, ConjugateGradient.Norm.EUCLIDEAN, pc.leftApply(b, n),
                alpha0 == null ? null : pc.rightInverse(alpha0, n), tolerance, maxIterations);
        double[] alpha = pc.rightApply(r.x(), n);
        return solution(alpha, r.iterations() + iterationsBefore, r.residual(), tolerance, op, kmmChol, offset,
                lambda);
    }

    /**
     * The CG of {@link #solve} when H̃ = R Rᵀ is factored (Gram or sketch route), run on Hα = b with preconditioner
     * H̃⁻¹ instead of on BᵀHBβ = Bᵀb with M = BᵀH̃B: the same iterates in exact arithmetic (α = Bβ, the α-residual
     * is B⁻ᵀ times the β-one, z_α = H̃⁻¹r_α = B z_β, and rᵀz, pᵀHp are invariant), with five m×m products per
     * iteration instead of eleven: K_mm p, two triangular solves with R, and two with L and L_A for the stopping
     * rule, which stays Falkon's ‖Bᵀ(b − Hα)‖ / ‖Bᵀb‖.
     */
    private static Solution solveWithFactor(KnmOperator op, Matrix kmm, Cholesky kmmChol, double[] b, double offset,
                                            double lambda, double tolerance, int maxIterations, FalkonPreconditioner.Factors f,
                                            double[] alpha0, int iterationsBefore) {
        double n = op.rows();
        FalkonPreconditioner pc = f.pc;
        Matrix rf = f.sChol;
        ConjugateGradient.Result r = ConjugateGradient.solve(u -> applyH(op, kmm, u, lambda),
                v -> OnThread.solveLower(rf, true, OnThread.solveLower(rf, false, v)),
                v -> norm(pc.leftApply(v, n)), b, alpha0, tolerance, maxIterations);
        return solution(r.x(), r.iterations() + iterationsBefore, r.residual(), tolerance, op, kmmChol, offset,
                lambda);
    }

    /** The solution of a CG run, after checking that its coefficients are finite. */
    private static Solution solution(double[] alpha, int iterations, double res, double tolerance, KnmOperator op,
                                     Cholesky kmmChol, double offset, double lambda) {
        for (double v : alpha) {
            if (!Double.isFinite(v)) {
                throw new IllegalStateException("nystrom krr: non-finite coefficients after " + iterations
                        + " CG iterations (relative residual " + res + ", K_mm jitter " + kmmChol.jitter()
                        + "); try a larger lambda");
            }
        }
        return new Solution(alpha, offset, new Diagnostics(iterations, res, res <= tolerance, op.storage(),
                kmmChol.jitter()), lambda);
    }

    /** H u = K_nmᵀK_nm u + λ K_mm u. */
    static double[] applyH(KnmOperator op, Matrix kmm, double[] u, double lambda) {
        double[] w = op.applyKtK(u);
        double[] ku = OnThread.gemv(kmm, false, u);
        for (int j = 0; j < w.length; j++) {
            w[j] += lambda * ku[j];
        }
        return w;
    }

    /** The fitted krr model for coefficients on the anchors (points = anchors). */
    public static KernelRidge model(Kernel kernel, Matrix anchors, Solution s, boolean center) {
        return KernelRidge.of(kernel, anchors, s.alpha(), s.offset(),
                new KernelRidge.Options(s.lambda(), KernelRidge.Form.STANDARD, 0, center),
                new SpdSolve.Diagnostics("nystrom-cg", s.diagnostics().jitter(), anchors.rows(), 0));
    }

    /** Coefficients α on the anchors, the offset subtracted from y, and the CG diagnostics. */
    public record Solution(double[] alpha, double offset, Diagnostics diagnostics, double lambda) {
    }

    /** The λ-independent part for x and the anchors given (rows of x, or any points with x's columns). */
    public static KnmBlocks problem(Kernel kernel, Matrix x, Matrix anchors, Storage storage) {
        return problem(kernel, x, anchors, storage, null);
    }

    /**
     * {@link #problem(Kernel, Matrix, Matrix, Storage)} that also computes K_nmᵀ target in its first pass (the Gram
     * pass, or filling the single-precision store), so that {@link KnmBlocks#solve} for y and offset with
     * y − offset equal to {@code target} (compared entry by entry) needs no separate pass for its right-hand side.
     *
     * @param target y − offset of the solve to come (copied), or null
     */
    public static KnmBlocks problem(Kernel kernel, Matrix x, Matrix anchors, Storage storage, double[] target) {
        if (kernel == null) {
            throw new IllegalArgumentException("kernel must not be null");
        }
        if (x.rows() == 0) {
            throw new IllegalArgumentException("nystrom krr: no training points");
        }
        return new KnmBlocks(kernel, x, anchors, storage == null ? Storage.AUTO : storage, target);
    }

    private static double norm(double[] v) {
        return Math.sqrt(Linalg.dot(v, v));
    }
}
