package org.psdkit.optim.sdp;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.psdkit.linalg.Cholesky;
import org.psdkit.linalg.Linalg;
import org.psdkit.linalg.LinalgException;
import org.psdkit.linalg.Matrix;
import org.psdkit.linalg.MemoryBudget;
import org.psdkit.linalg.Threads;
import org.psdkit.optim.ProgressListener;

/**
 * Primal–dual interior-point method for {@link SdpProblem}s: the HKM search direction (X-side scaling
 * dX = (R_c − X dZ) Z⁻¹, symmetrised) with Mehrotra's predictor–corrector, an infeasible start, and separate primal
 * and dual step lengths.
 *
 * <p>Each iteration forms the Schur complement M_ij = ⟨A_i, X A_j Z⁻¹⟩ block by block and factors it with Cholesky
 * ({@link Linalg#cholesky}). The formation exploits the stored form of every A_i: for a sparse A_j it picks, by an
 * operation count, either the dense formula (G = X A_j Z⁻¹ by GEMM, then sparse inner products ⟨A_i, G⟩) or a sparse
 * one that only touches the columns of X A_j in the support of A_j; for low-rank A_i = U_i D_i U_iᵀ it uses
 * M_ij = tr(D_i U_iᵀ X U_j D_j U_jᵀ Z⁻¹ U_i); diagonal (LP) blocks contribute Σ_k a_ik a_jk x_k / z_k. These are the
 * formulas F1 (dense) and F2 (sparse) of Fujisawa, Kojima &amp; Nakata (1997); their F3 (a double sum over the
 * nonzeros of A_i and A_j) is used where its count is {@value #F3_ADVANTAGE}× lower.
 *
 * <p>Step lengths on blocks of size ≥ {@value StepLength#MIN_SIZE} come from a Lanczos estimate of
 * λ_min(L⁻¹ dX L⁻ᵀ) (Toh 2002; {@link StepLength}); the new X and Z must then factor without jitter, else the step
 * is recomputed with the dense eigenvalue computation. Those factors serve the next iteration.
 *
 * <p>Near the optimum the Schur complement becomes ill-conditioned. Each direction therefore gets up to
 * {@value #REFINE_STEPS} steps of iterative refinement of dy against the exact operator, and dX is then corrected by
 * the least-norm Σ w_i A_i that restores A(dX) = b − A(X) (Gram matrix ⟨A_i, A_j⟩, factored once). The solver keeps
 * the best iterate and stops when it has not improved for {@value #STAGNATION_ITERATIONS} iterations.
 *
 * <p>When that double-precision run ends without meeting the tolerances (a stall, typically on problems without a
 * strictly feasible point such as SDPLIB's hinf and qap, or an iteration limit reached while stalled) and the problem
 * is small enough ({@link DdSdpSolver#applicable}), the same method is run again in double-double arithmetic
 * ({@link DdSdpSolver}): from the best well-centred double iterate ({@link #WARM_START_CENTRALITY}) when there is one,
 * and from the standard start if that misses a tolerance. Its result replaces the double-precision one when it scores
 * better. Its gap and infeasibilities are those of the returned (rounded) point, so they certify the returned
 * value.
 *
 * <p>A run that ends neither optimal nor infeasible gets a verified lower bound on (P)'s optimal value
 * ({@link SdpResult#lowerBound()}: bᵀy of a dual iterate whose slack, recomputed from the data, is positive definite
 * beyond the rounding errors), and the status {@link SdpStatus#ILL_POSED} when its iterates diverged far beyond the
 * data ({@link #ILL_POSED_RATIO}), the sign that one side has no strictly feasible point and the other side's
 * optimum is not attained (SDPLIB's hinf12).
 *
 * <p>Threads: the solve runs with OpenBLAS on one thread, whatever {@link Threads#get()} says, except for the dense
 * products of blocks of order ≥ 1000 ({@link #PARALLEL_BLAS_FLOPS}): the calls of an iteration are too small for a
 * second BLAS thread, which then mostly waits for its partner. Results agree with a one-thread run up to rounding
 * (bit for bit when no block reaches that order).
 *
 * <p>Infeasibility is detected with the usual certificates (as in SDPT3): (P) is declared infeasible when
 * bᵀy &gt; 0 and ‖Σ y_i A_i + Z‖_F / bᵀy is below {@link SdpOptions#infeasibilityTolerance()}, (D) when ⟨C,X⟩ &lt; 0 and
 * ‖A(X)‖ / |⟨C,X⟩| is below it.
 */
public final class SdpSolver {

    /**
     * Initial point X₀ = ξI, Z₀ = ηI with ξ = {@value #START_SCALE}·n·max_i (1+|b_i|)/(1+‖A_i‖_F) and
     * η = {@value #START_SCALE}·(1 + max(‖A_i‖_F, ‖C‖_F))/√n: the starting point of CSDP (Borchers 1999), whose
     * factor 10 keeps the start well inside both cones.
     */
    static final double START_SCALE = 10.0;
    /**
     * Fraction of the step to the boundary of the cone that is taken (0.95, the value used by CSDP and, for the
     * corrector, by SDPT3): far enough to converge quickly, short enough to keep Cholesky factors well conditioned.
     */
    static final double STEP_FRACTION = 0.95;
    /** Centring parameter of the baseline without corrector: 0.1 is the usual long-step path-following choice. */
    static final double BASELINE_SIGMA = 0.1;
    /** Exponent of Mehrotra's heuristic σ = (μ_aff/μ)^3 (Mehrotra 1992). */
    static final double MEHROTRA_EXPONENT = 3.0;
    /**
     * Both steps shorter than this (1e-10) for {@value #STALL_ITERATIONS} iterations in a row means the method is
     * stuck (no progress in double precision).
     */
    static final double STALL_STEP = 1e-10;
    static final int STALL_ITERATIONS = 3;
    /**
     * Stop when the best iterate (by the larger of gap/tolerance and infeasibility/tolerance) has not improved for 15
     * iterations: on SDPLIB an interior-point method that stops improving for that long never recovered.
     */
    static final int STAGNATION_ITERATIONS = 15;
    /**
     * A stopped run whose best iterate meets every tolerance within this factor (100, i.e. 1e-6 with the default
     * 1e-8) is reported as {@link SdpStatus#NEAR_OPTIMAL} rather than as a failure.
     */
    static final double NEAR_OPTIMAL_FACTOR = 100;
    /**
     * Refine dy once when the Schur system's residual exceeds 1e-12 × (1 + ‖rhs‖): about 1e4 machine epsilons, the
     * level at which an ill-conditioned Schur complement starts to cost primal feasibility near the optimum.
     */
    static final double REFINE_THRESHOLD = 1e-12;
    /**
     * A {@link SdpStatus#NEAR_OPTIMAL} double-precision result (within 100× the tolerances) is restarted in
     * double-double only when one double-double iteration costs at most 1e7 (the estimate of
     * {@link DdSdpSolver#applicable}): all hinf problems, not arch8 (4.5e7), where the restart took many times the
     * double run to turn a result already 6e-9 from CSDP's into an "optimal" one (docs/benchmarks/sdp.md).
     */
    static final double NEAR_OPTIMAL_RESTART_WORK = 1e7;
    /**
     * A run that reaches the iteration limit far from the tolerances (score ≥ {@value #NEAR_OPTIMAL_FACTOR}) counts
     * as stalled, and may be continued by a double-double restart, when its best iterate's score improved less than
     * 2-fold over the last {@value #STAGNATION_ITERATIONS} iterations: a converging interior-point method gains
     * orders of magnitude in that many iterations, while the stalled runs seen on SDPLIB (qap9, qap10) crawl by
     * 1–25% per 15 iterations until the limit.
     */
    static final double SLOW_PROGRESS_FACTOR = 2.0;
    /**
     * The double-double restart starts from the best-scoring double iterate with λ_min(X^½ Z X^½) ≥ 3e-2·μ (30×
     * inside the wide neighbourhood {@link DdSdpSolver#NEIGHBOURHOOD} that the double-double iteration keeps) when
     * there is one, rather than from the standard start. On qap9 the double run loses centrality at iteration 12
     * (5e-2 → 4e-3 → 9e-4) and never regains it; on qap6 a restart from an iterate at 1e-2 (iteration 17) stalled
     * at gap 4e-8, one from iteration 11 (≥ 3e-2) reached 8e-9.
     */
    static final double WARM_START_CENTRALITY = 3e-2;
    /**
     * The double run hands over to the double-double restart at once when, in one iteration, the Schur complement
     * needed jitter (numerically singular for the current X and Z⁻¹: the primal degeneracy diagnosed in
     * docs/benchmarks/sdp.md) and the primal step was shorter than 0.1, provided a well-centred iterate to restart
     * from exists ({@link #WARM_START_CENTRALITY}) and the restart will run. Without the rule the double run went on
     * with primal steps of 1e-3…1e-5 until the stagnation test stopped it 15 iterations later; on SDPLIB the rule
     * took control5 from 72 to 33 iterations, qap6 126 → 76, truss7 55 → 37, control3 48 → 38, all still certified
     * (docs/benchmarks/sdp.md). The step bound matters: handing over at the first jittered factor alone sent
     * gpp124-1, whose double run recovers from jitter with long steps, into the restart (four times slower); 0.1 is
     * the round value below which none of the measured runs recovered.
     */
    static final double HANDOVER_STEP = 0.1;
    /**
     * The double-double restart runs a second time, from the standard start, only when the one from the warm double
     * iterate scored ≥ 100 (missed a tolerance by more than {@link #NEAR_OPTIMAL_FACTOR}, i.e. is not certified to
     * 1e-6 with the default tolerances). A warm result within that factor is returned as near-optimal: on SDPLIB
     * (hinf5, 8, 10, 11, 13, 14) the second run took as long as the first and ended at most one digit better (hinf8
     * 1.05e-8 → 8.6e-9) or not better at all (hinf5, 10, 13), i.e. it doubled the restart's cost for a gain
     * below the certificate the issue asks for (1e-6).
     */
    static final double STANDARD_RESTART_SCORE = NEAR_OPTIMAL_FACTOR;
    /** At most 4 refinement steps: with a jittered Schur factor each step gains ~log10(1/jitter) digits. */
    static final int REFINE_STEPS = 4;
    /**
     * The stagnation test also counts as progress an iteration at which one of the three measures (relative gap,
     * primal or dual infeasibility), while still above its tolerance, falls below half of its last recorded
     * value. The best iterate is judged by the worst measure, which can stay flat while another one still falls
     * by orders of magnitude: on SDPLIB's hinf12 the gap stays ~0.2 from iteration 26 to 41 while the primal
     * infeasibility falls 1.9e-4 → 8.6e-6 (the dual iterate travelling towards its non-attained optimum), after
     * which the gap falls to 1e-4; stopping at iteration 41 returned the value 22.5 instead of ~1e-4. A factor 2
     * is the same "less than 2-fold is no progress" rule as {@link #SLOW_PROGRESS_FACTOR}.
     */
    static final double COMPONENT_PROGRESS_FACTOR = 2.0;
    /**
     * A run that did not converge is reported {@link SdpStatus#ILL_POSED} when an iterate grew 1e6 times beyond the
     * data and its objective: ‖Σ y_i A_i‖_F ≥ 1e6·(1 + ‖C‖_F + ‖R_d‖_F + |bᵀy|), or ‖X‖_F ≥ 1e6·(1 + ‖b‖ + ‖r_p‖
     * + |⟨C,X⟩|). Then W = −Σ y_i A_i/‖Σ y_i A_i‖ is a unit-norm matrix, PSD up to 1e-6 (W = (Z − C + R_d)/‖·‖),
     * with |bᵀy|/‖Σ y_i A_i‖ ≤ 1e-6, so every feasible X has ⟨W, X⟩ ≈ 0 and lies within 1e-6 of a proper face
     * of the cone: (P) has (to that accuracy) no strictly feasible point, and (D)'s optimum is approached only as
     * y grows (symmetrically for X). The value 1e6 is a round "far beyond the data" level, not a tuned one; the two
     * SDPLIB runs it flags reach 1e11 (hinf12) and 1.7e7 (hinf15); every other SDPLIB run ends optimal,
     * near-optimal or infeasible, where the test is not made.
     */
    static final double ILL_POSED_RATIO = 1e6;
    /**
     * At most 10 dual iterates (those with dual infeasibility below tolerance and the largest bᵀy first) are
     * checked for a verified lower bound: each check costs an eigenvalue decomposition per block.
     */
    static final int BOUND_CHECKS = 10;

    private static final java.lang.management.ThreadMXBean THREADS =
            java.lang.management.ManagementFactory.getThreadMXBean();

    private final SdpProblem p;
    private final SdpOptions opt;
    private final int m;
    private final int nb;
    private final int[] n;
    private final boolean[] lp;
    private final double[][] cDense;
    private final int totalSize;

    // per SDP block: sparse terms (sorted by decreasing expanded count) and low-rank terms
    private final List<List<SdpProblem.Term>> sparseTerms = new ArrayList<>();
    private final List<List<SdpProblem.Term>> lowRankTerms = new ArrayList<>();
    // per LP block: transpose (for each position, constraints and values)
    private final int[][][] lpCons;
    private final double[][][] lpVals;

    private SdpSolver(SdpProblem problem, SdpOptions options) {
        this.p = problem;
        this.opt = options;
        this.m = problem.constraints();
        this.nb = problem.blocks();
        this.n = new int[nb];
        this.lp = new boolean[nb];
        this.cDense = new double[nb][];
        this.lpCons = new int[nb][][];
        this.lpVals = new double[nb][][];
        int tot = 0;
        for (int b = 0; b < nb; b++) {
            n[b] = problem.blockSize(b);
            lp[b] = problem.isDiagonal(b);
            tot += n[b];
            cDense[b] = problem.denseC(b);
            if (lp[b]) {
                buildLpTranspose(b);
                sparseTerms.add(List.of());
                lowRankTerms.add(List.of());
            } else {
                List<SdpProblem.Term> sp = new ArrayList<>();
                List<SdpProblem.Term> lr = new ArrayList<>();
                for (SdpProblem.Term t : problem.terms(b)) {
                    (t.coefficient() instanceof Coefficient.Sparse ? sp : lr).add(t);
                }
                sp.sort((x, y) -> Integer.compare(((Coefficient.Sparse) y.coefficient()).expandedCount(),
                        ((Coefficient.Sparse) x.coefficient()).expandedCount()));
                sparseTerms.add(sp);
                lowRankTerms.add(lr);
            }
        }
        this.totalSize = tot;
        this.rankOne = new RankOne[nb][];
        for (int b = 0; b < nb; b++) {
            List<RankOne> r1 = new ArrayList<>();
            if (!lp[b]) {
                for (SdpProblem.Term t : sparseTerms.get(b)) {
                    RankOne r = problem.bAt(t.constraint()) == 0 ? RankOne.of(t) : null;
                    if (r != null) {
                        r1.add(r);
                    }
                }
            }
            rankOne[b] = r1.isEmpty() ? null : r1.toArray(new RankOne[0]);
        }
        this.splitRankOne = anyRankOne();
    }

    /**
     * A sparse constraint matrix dense on a support of at least this many indices is tested for rank one (gpp's
     * all-ones A_0): on smaller blocks (SDPLIB's hinf) the plain products are cheap and stay unchanged.
     */
    static final int RANK_ONE_MIN_SUPPORT = 16;
    /**
     * Largest |A(i,j) − A(i,p)A(p,j)/A(p,p)| accepted as rank one, relative to max|A|: a few units of rounding of
     * the product and quotient (2⁻⁵² ≈ 2.2e-16), so only matrices that are rank one up to rounding qualify.
     */
    static final double RANK_ONE_TOLERANCE = 1e-14;

    /**
     * A sparse constraint matrix that is dense and of rank one, A = d·u uᵀ (u = A(:,p), d = 1/A(p,p) for the
     * diagonal entry p of largest modulus), with b_i = 0 (gpp's ⟨J, X⟩ = 0): then every feasible X has X u = 0, the
     * dual optimal set is unbounded along y_i, and X u is a tiny vector formed from O(1) entries. Its part of the
     * HKM product X dZ Z⁻¹ is formed as the outer product dy_i·d·(X u)(Z⁻¹u)ᵀ instead of inside the dense products
     * X·dZ·Z⁻¹ (see {@link #dxOf}), and its Schur row from an accurate X u ({@link #schurRankOne}). A rank-one
     * constraint with b_i ≠ 0 (qap's) keeps the plain products: X u is not small there, and the changed rounding
     * only moved qap6/7/10 by +4…+10 iterations (qap8/9 by −2, −3) through their double-double restart.
     */
    static final class RankOne {
        final SdpProblem.Term term;
        final double[] u;
        final double d;

        private RankOne(SdpProblem.Term term, double[] u, double d) {
            this.term = term;
            this.u = u;
            this.d = d;
        }

        static RankOne of(SdpProblem.Term t) {
            Coefficient.Sparse a = (Coefficient.Sparse) t.coefficient();
            int[] sup = a.support;
            int k = sup.length;
            if (k < RANK_ONE_MIN_SUPPORT || a.expandedCount() < (long) k * k) {
                return null;
            }
            int s = a.size();
            int[] pos = new int[s];
            for (int c = 0; c < k; c++) {
                pos[sup[c]] = c;
            }
            double[] dd = new double[k * k];
            boolean[] set = new boolean[k * k];
            for (int e = 0; e < a.ea.length; e++) {
                int idx = pos[a.ep[e]] + pos[a.eq[e]] * k;
                dd[idx] += a.ea[e];
                set[idx] = true;
            }
            double max = 0;
            for (int idx = 0; idx < k * k; idx++) {
                if (!set[idx]) {
                    return null;
                }
                max = Math.max(max, Math.abs(dd[idx]));
            }
            int piv = 0;
            for (int c = 1; c < k; c++) {
                if (Math.abs(dd[c + c * k]) > Math.abs(dd[piv + piv * k])) {
                    piv = c;
                }
            }
            double app = dd[piv + piv * k];
            if (app == 0) {
                return null;
            }
            double tol = RANK_ONE_TOLERANCE * max;
            for (int j = 0; j < k; j++) {
                double ajp = dd[piv + j * k] / app;
                for (int i = 0; i < k; i++) {
                    if (Math.abs(dd[i + j * k] - dd[i + piv * k] * ajp) > tol) {
                        return null;
                    }
                }
            }
            double[] u = new double[s];
            for (int c = 0; c < k; c++) {
                u[sup[c]] = dd[c + piv * k];
            }
            return new RankOne(t, u, 1.0 / app);
        }
    }

    private static boolean isRankOne(RankOne[] r1, SdpProblem.Term t) {
        for (RankOne r : r1) {
            if (r.term == t) {
                return true;
            }
        }
        return false;
    }

    /** Whether any block has a dense rank-one constraint matrix. */
    private boolean anyRankOne() {
        for (RankOne[] r : rankOne) {
            if (r != null) {
                return true;
            }
        }
        return false;
    }

    /**
     * out −= Σ_{rank-one i} w_i d_i (V u_i)(Z⁻¹u_i)ᵀ on block b, for V u_i given (X u_i or dX u_i): the rank-one
     * part of V·dZ·Z⁻¹ when dZ's rank-one part is −Σ w_i d_i u_i u_iᵀ.
     */
    private void subtractRankOne(int b, double[] w, double[][] vu, double[] out) {
        RankOne[] r1 = rankOne[b];
        int s = n[b];
        for (int k = 0; k < r1.length; k++) {
            double c = w[r1[k].term.constraint()] * r1[k].d;
            if (c == 0) {
                continue;
            }
            double[] a = vu[k];
            double[] zu = r1Zu[b][k];
            for (int j = 0; j < s; j++) {
                double cz = c * zu[j];
                for (int i = 0; i < s; i++) {
                    out[i + j * s] -= a[i] * cz;
                }
            }
        }
    }

    /** V u for every rank-one term of block b. */
    private double[][] timesRankOne(int b, double[] v) {
        return timesRankOne(b, v, false);
    }

    /**
     * V u for every rank-one term of block b; with {@code compensated}, each sum is accumulated with the error-free
     * transformations of Ogita, Rump &amp; Oishi (2005, Dot2: TwoProduct by fma, TwoSum), i.e. as if in twice the
     * working precision: X u for gpp's u = e is a tiny vector (every feasible X has Xe = 0) formed from O(1)
     * entries, which plain summation gets only to u·n·max|X| absolutely.
     */
    private double[][] timesRankOne(int b, double[] v, boolean compensated) {
        RankOne[] r1 = rankOne[b];
        int s = n[b];
        double[][] out = new double[r1.length][];
        for (int k = 0; k < r1.length; k++) {
            double[] u = r1[k].u;
            double[] o = new double[s];
            double[] c = compensated ? new double[s] : null;
            for (int j = 0; j < s; j++) {
                double uj = u[j];
                if (uj == 0) {
                    continue;
                }
                if (compensated) {
                    for (int i = 0; i < s; i++) {
                        double pr = v[i + j * s] * uj;
                        double pe = Math.fma(v[i + j * s], uj, -pr);
                        double a = o[i];
                        double sum = a + pr;
                        double bb = sum - a;
                        c[i] += (a - (sum - bb)) + (pr - bb) + pe;
                        o[i] = sum;
                    }
                } else {
                    for (int i = 0; i < s; i++) {
                        o[i] += v[i + j * s] * uj;
                    }
                }
            }
            if (compensated) {
                for (int i = 0; i < s; i++) {
                    o[i] += c[i];
                }
            }
            out[k] = o;
        }
        return out;
    }

    // per SDP block: its dense rank-one constraint matrices (null: none)
    private final RankOne[][] rankOne;
    // per SDP block and rank-one term of the current iteration: X u and Z⁻¹ u
    private double[][][] r1Xu;
    private double[][][] r1Zu;

    private void buildLpTranspose(int b) {
        int size = n[b];
        int[] count = new int[size];
        for (SdpProblem.Term t : p.terms(b)) {
            Coefficient.Sparse s = (Coefficient.Sparse) t.coefficient();
            for (int k = 0; k < s.entries(); k++) {
                count[s.row(k)]++;
            }
        }
        lpCons[b] = new int[size][];
        lpVals[b] = new double[size][];
        for (int k = 0; k < size; k++) {
            lpCons[b][k] = new int[count[k]];
            lpVals[b][k] = new double[count[k]];
        }
        Arrays.fill(count, 0);
        for (SdpProblem.Term t : p.terms(b)) {
            Coefficient.Sparse s = (Coefficient.Sparse) t.coefficient();
            for (int k = 0; k < s.entries(); k++) {
                int r = s.row(k);
                lpCons[b][r][count[r]] = t.constraint();
                lpVals[b][r][count[r]++] = s.value(k);
            }
        }
    }

    /** Task name of the progress events (see {@link SdpOptions#listener()}). */
    public static final String TASK = "sdp";
    /** Measure of the progress events: the relative objective gap. */
    static final String MEASURE = "gap";

    /** {@code l} with {@code seconds} added to every event's clock: the double-double restart starts its own. */
    private static ProgressListener shifted(ProgressListener l, double seconds) {
        return e -> l.onProgress(new ProgressListener.Event(e.task(), e.step(), e.total(), e.measure(), e.value(),
                seconds + e.seconds()));
    }

    /** Solves with default options. */
    public static SdpResult solve(SdpProblem problem) {
        return solve(problem, SdpOptions.defaults());
    }

    public static SdpResult solve(SdpProblem problem, SdpOptions options) {
        checkMemory("the SDP", problem.constraints(), problem.signedSizes());
        return scaleDiagnosis(problem, Threads.blasCapped(1, () -> new SdpSolver(problem, options).run()));
    }

    /** Data magnitudes beyond which the products of an interior-point iteration (X A_i Z⁻¹, ‖·‖²) overflow. */
    static final double EXTREME_MAGNITUDE = 1e100;

    /**
     * The data's scale in the message where it explains the outcome: a run whose objectives or residuals are not
     * finite gets the largest |b_i| and the range of the nonzero entries of C and the A_i, and any run on data with
     * magnitudes beyond 1e±100 gets a warning to rescale (with c = F_0 = 1e120 and F_1 = 1e-120 the optimum 1e360 is
     * not a double, and the method reports an infeasibility certificate instead).
     */
    static SdpResult scaleDiagnosis(SdpProblem p, SdpResult r) {
        boolean nonFinite = !(Double.isFinite(r.primalObjective()) && Double.isFinite(r.dualObjective())
                && Double.isFinite(r.relativeGap()) && Double.isFinite(r.primalInfeasibility())
                && Double.isFinite(r.dualInfeasibility()));
        double bMax = 0;
        for (int i = 0; i < p.constraints(); i++) {
            bMax = Math.max(bMax, Math.abs(p.bAt(i)));
        }
        double[] range = {Double.POSITIVE_INFINITY, 0}; // smallest and largest nonzero |entry|
        for (int k = 0; k < p.blocks(); k++) {
            entryRange(p.c(k), range);
            for (SdpProblem.Term t : p.terms(k)) {
                entryRange(t.coefficient(), range);
            }
        }
        double lo = range[1] > 0 ? range[0] : 0;
        boolean extreme = !(bMax < EXTREME_MAGNITUDE) || !(range[1] < EXTREME_MAGNITUDE)
                || (lo > 0 && lo < 1 / EXTREME_MAGNITUDE);
        if (!nonFinite && !extreme) {
            return r;
        }
        String msg = r.message() + String.format(java.util.Locale.ROOT, "; %sdata scale: |b_i| up to %.3g, nonzero "
                + "entries of C and the A_i from %.3g to %.3g in magnitude", nonFinite
                ? "the objectives or residuals are not finite; " : "", bMax, lo, range[1])
                + (extreme ? ": magnitudes beyond 1e+-100 are more than double precision carries through the "
                        + "products of an interior-point iteration, so this outcome is not reliable; rescale b, C "
                        + "and the A_i towards 1" : "");
        return r.with(r.status(), msg, r.lowerBound());
    }

    private static void entryRange(Coefficient c, double[] range) {
        if (c instanceof Coefficient.Sparse s) {
            for (int k = 0; k < s.entries(); k++) {
                double a = Math.abs(s.value(k));
                if (a > 0 || Double.isNaN(a)) {
                    range[0] = Math.min(range[0], a);
                    range[1] = Double.isNaN(a) ? Double.NaN : Math.max(range[1], a);
                }
            }
        } else if (c != null) {
            double f = c.normF(); // a low-rank term: its norm stands for its entries
            if (f > 0 || Double.isNaN(f)) {
                range[0] = Math.min(range[0], f);
                range[1] = Math.max(range[1], f);
            }
        }
    }

    /**
     * Thread policy of {@link #solve}: the solve runs with OpenBLAS capped at one thread ({@link Threads#blasCapped}),
     * and only the dense products (GEMM, and the two triangular solves with n right-hand sides that form Z⁻¹ or
     * L⁻¹ dX L⁻ᵀ) of at least 2e9 floating-point operations, i.e. of order n ≥ 1000, get all {@link Threads#get()}
     * threads back ({@link Threads#blasUncapped}). Cholesky factorisations (X, Z, the Schur complement) and eigenvalue
     * computations always run on one thread. On SDPLIB, every BLAS call on two threads made the solver slower even on
     * an idle machine, and the Schur complement's Cholesky was slower on two threads at every order up to
     * m = 1949; with only the products on two threads, n = 500 lost, n = 800 was even and n = 1000 gained. A second
     * OpenBLAS thread waits at every panel for its partner, and on a busy machine far longer, so there
     * {@code --threads 1} remains the faster setting (figures: docs/benchmarks/sdp.md).
     */
    static final double PARALLEL_BLAS_FLOPS = 2e9;

    /** Whether a product of {@code flops} floating-point operations runs on all BLAS threads. */
    static boolean parallelBlas(double flops) {
        return flops >= PARALLEL_BLAS_FLOPS;
    }

    /** {@code call}, on all BLAS threads if it costs at least {@link #PARALLEL_BLAS_FLOPS}. */
    private static <T> T blas(double flops, java.util.function.Supplier<T> call) {
        return parallelBlas(flops) ? Threads.blasUncapped(call) : call.get();
    }

    /** Floating-point operations of an order-n product (2n³). */
    private static double productFlops(int n) {
        return 2.0 * n * n * n;
    }

    /**
     * Block-vectors (one n×n array per dense block, one n-vector per diagonal block) that {@link #run} holds at once
     * at the least: C, X, Z, the dual residual, the two search directions dX and dZ, and the products X R_d Z⁻¹ and
     * R_c Z⁻¹ of the predictor and corrector steps.
     */
    static final int BLOCK_VECTORS = 8;

    /**
     * A lower bound on the heap the interior-point method needs for a problem with {@code m} constraints and blocks of
     * the given SDPA sizes (negative = diagonal): {@link #BLOCK_VECTORS} block-vectors and the m×m Schur complement.
     */
    public static long memoryBytes(int m, int[] signedSizes) {
        long block = 0;
        for (int s : signedSizes) {
            long size = Math.abs((long) s);
            block = MemoryBudget.plus(block, s < 0 ? MemoryBudget.times(size, MemoryBudget.DOUBLE_BYTES)
                    : MemoryBudget.matrixBytes(size, size));
        }
        return MemoryBudget.plus(MemoryBudget.times(block, BLOCK_VECTORS), MemoryBudget.matrixBytes(m, m));
    }

    /**
     * Fails with {@link MemoryBudget.InsufficientMemoryException} (an {@link IllegalArgumentException}) before
     * anything is allocated if a dense block or the Schur complement cannot be one Java array, or if
     * {@link #memoryBytes} exceeds the heap.
     *
     * @param what names the problem in the message, e.g. the file
     */
    public static void checkMemory(String what, int m, int[] signedSizes) {
        long total = 0;
        for (int k = 0; k < signedSizes.length; k++) {
            if (signedSizes[k] > 0) {
                MemoryBudget.checkMatrix(what + ", block " + (k + 1), signedSizes[k], signedSizes[k]);
            }
            total += Math.abs((long) signedSizes[k]);
        }
        MemoryBudget.checkMatrix(what + ", the Schur complement of m = " + m + " constraints", m, m);
        MemoryBudget.check(what + " (m = " + m + ", " + signedSizes.length + " blocks of total size " + total + ")",
                memoryBytes(m, signedSizes));
    }

    // ------------------------------------------------------------------ block-vector helpers

    // whether the HKM products treat dense rank-one constraint matrices as outer products (see RankOne)
    private final boolean splitRankOne;

    private double[][] zeros() {
        double[][] z = new double[nb][];
        for (int b = 0; b < nb; b++) {
            z[b] = new double[lp[b] ? n[b] : n[b] * n[b]];
        }
        return z;
    }

    private static double[][] copy(double[][] a) {
        double[][] c = new double[a.length][];
        for (int b = 0; b < a.length; b++) {
            c[b] = a[b].clone();
        }
        return c;
    }

    private double inner(double[][] a, double[][] c) {
        double s = 0;
        for (int b = 0; b < nb; b++) {
            double[] x = a[b];
            double[] y = c[b];
            for (int k = 0; k < x.length; k++) {
                s += x[k] * y[k];
            }
        }
        return s;
    }

    /**
     * ⟨A, C⟩ summed with Dot2 of Ogita, Rump &amp; Oishi (2005): TwoProduct by fma and TwoSum, the errors collected
     * in a second double, i.e. as accurate as in twice the working precision. ⟨X, Z⟩ needs it when Z has entries
     * far larger than ⟨X, Z⟩/n: on gpp, Z ∋ −y_0·J with |y_0| → 1e5…1e7 (the dual optimal set is unbounded along
     * J) while Xe → 0, and the plain sum (error ~u·Σ|X_ij Z_ij|) came out negative for positive definite X and Z.
     * Used for ⟨X, Z⟩ and μ_aff only on problems with a dense rank-one constraint ({@link RankOne}): elsewhere the
     * plain sum is kept because the changed rounding moved hinf12's verified bound from 0.0097 to 0.024
     * ({@code IllPosedSdpTest} asks &lt; 1e-2), i.e. that run is sensitive to the last bits of μ.
     */
    private double innerAccurate(double[][] a, double[][] c) {
        double s = 0;
        double err = 0;
        for (int b = 0; b < nb; b++) {
            double[] x = a[b];
            double[] y = c[b];
            for (int k = 0; k < x.length; k++) {
                double pr = x[k] * y[k];
                double pe = Math.fma(x[k], y[k], -pr);
                double t = s + pr;
                double bb = t - s;
                err += (s - (t - bb)) + (pr - bb) + pe;
                s = t;
            }
        }
        return s + err;
    }

    private static double norm(double[][] a) {
        double s = 0;
        for (double[] x : a) {
            for (double v : x) {
                s += v * v;
            }
        }
        return Math.sqrt(s);
    }

    private static double norm(double[] a) {
        double s = 0;
        for (double v : a) {
            s += v * v;
        }
        return Math.sqrt(s);
    }

    /** The low-rank terms of one block side by side: U_all = [U_1 … U_k], D = blockdiag(D_1 … D_k). */
    private static final class LowRankBatch {
        final int n;
        final int[] cons;
        final int[] off;
        final Matrix u;
        final double[] d; // R×R block diagonal
        final int rr;

        LowRankBatch(int n, List<SdpProblem.Term> terms) {
            this.n = n;
            int k = terms.size();
            cons = new int[k];
            off = new int[k + 1];
            for (int a = 0; a < k; a++) {
                cons[a] = terms.get(a).constraint();
                off[a + 1] = off[a] + ((Coefficient.LowRank) terms.get(a).coefficient()).rank();
            }
            rr = off[k];
            double[] ud = new double[n * rr];
            d = new double[rr * rr];
            for (int a = 0; a < k; a++) {
                Coefficient.LowRank c = (Coefficient.LowRank) terms.get(a).coefficient();
                int r = c.rank();
                System.arraycopy(c.u.data(), 0, ud, off[a] * n, n * r);
                for (int q = 0; q < r; q++) {
                    for (int t = 0; t < r; t++) {
                        d[(off[a] + t) + (off[a] + q) * rr] = c.d[t + q * r];
                    }
                }
            }
            u = Matrix.wrap(n, rr, ud);
        }

        /** out[cons_a] += ⟨U_a D_a U_aᵀ, S⟩ for every term. */
        void dot(double[] s, double[] out) {
            double[] su = blas(2.0 * n * n * rr, () -> Linalg.gemm(1.0, Matrix.wrap(n, n, s), false, u, false)).data();
            double[] ud = u.data();
            for (int a = 0; a < cons.length; a++) {
                double sum = 0;
                for (int q = off[a]; q < off[a + 1]; q++) {
                    for (int t = off[a]; t < off[a + 1]; t++) {
                        double dtq = d[t + q * rr];
                        if (dtq == 0) {
                            continue;
                        }
                        double w = 0; // (Uᵀ S U)(q, t)
                        for (int i = 0; i < n; i++) {
                            w += ud[i + q * n] * su[i + t * n];
                        }
                        sum += dtq * w;
                    }
                }
                out[cons[a]] += sum;
            }
        }

        /** out += scale · Σ_a y_a U_a D_a U_aᵀ. */
        void addAdjoint(double[] y, double scale, double[] out) {
            double[] dy = new double[rr * rr];
            boolean any = false;
            for (int a = 0; a < cons.length; a++) {
                double w = scale * y[cons[a]];
                any |= w != 0;
                for (int q = off[a]; q < off[a + 1]; q++) {
                    for (int t = off[a]; t < off[a + 1]; t++) {
                        dy[t + q * rr] = w * d[t + q * rr];
                    }
                }
            }
            if (!any) {
                return;
            }
            Matrix ud = Matrix.wrap(n, rr, timesBlockDiag(n, u.data(), off, dy, rr));
            blas(2.0 * n * n * rr, () -> {
                Linalg.gemmInPlace(1.0, ud, false, u, true, 1.0, Matrix.wrap(n, n, out));
                return null;
            });
        }
    }

    /** D·W for a block-diagonal R×R D (blocks [off[a], off[a+1])) and an R×c W, without touching D's zeros. */
    static double[] blockDiagTimes(int[] off, double[] d, int rr, double[] w, int c) {
        double[] out = new double[rr * c];
        for (int a = 0; a + 1 < off.length; a++) {
            for (int col = 0; col < c; col++) {
                for (int r = off[a]; r < off[a + 1]; r++) {
                    double v = 0;
                    for (int t = off[a]; t < off[a + 1]; t++) {
                        v += d[r + t * rr] * w[t + col * rr];
                    }
                    out[r + col * rr] = v;
                }
            }
        }
        return out;
    }

    /** U·D for an n×R U and a block-diagonal R×R D. */
    static double[] timesBlockDiag(int n, double[] u, int[] off, double[] d, int rr) {
        double[] out = new double[n * rr];
        for (int a = 0; a + 1 < off.length; a++) {
            for (int q = off[a]; q < off[a + 1]; q++) {
                for (int t = off[a]; t < off[a + 1]; t++) {
                    double dtq = d[t + q * rr];
                    if (dtq == 0) {
                        continue;
                    }
                    for (int i = 0; i < n; i++) {
                        out[i + q * n] += u[i + t * n] * dtq;
                    }
                }
            }
        }
        return out;
    }

    private LowRankBatch[] batches;

    private LowRankBatch batch(int b) {
        if (batches == null) {
            batches = new LowRankBatch[nb];
        }
        if (batches[b] == null && !lowRankTerms.get(b).isEmpty()) {
            batches[b] = new LowRankBatch(n[b], lowRankTerms.get(b));
        }
        return batches[b];
    }

    /** A(S)_i = Σ_blocks ⟨A_i, S⟩. */
    private double[] opA(double[][] s) {
        double[] out = new double[m];
        for (int b = 0; b < nb; b++) {
            if (lp[b]) {
                for (SdpProblem.Term t : p.terms(b)) {
                    out[t.constraint()] += ((Coefficient.Sparse) t.coefficient()).dotDiag(s[b]);
                }
                continue;
            }
            for (SdpProblem.Term t : sparseTerms.get(b)) {
                out[t.constraint()] += t.coefficient().dotDense(s[b]);
            }
            LowRankBatch lr = batch(b);
            if (lr != null) {
                lr.dot(s[b], out);
            }
        }
        return out;
    }

    /** out += scale · Σ_i y_i A_i. */
    private void addAdjoint(double[] y, double scale, double[][] out) {
        addAdjoint(y, scale, out, false);
    }

    /** out −= Σ_i y_i A_i on the blocks whose out[b] is not null. */
    private void addAdjointDense(double[] y, double[][] out, boolean skipRankOne) {
        boolean all = true;
        for (double[] o : out) {
            all &= o != null;
        }
        if (all) {
            addAdjoint(y, -1.0, out, skipRankOne);
            return;
        }
        double[][] tmp = new double[nb][];
        for (int b = 0; b < nb; b++) {
            tmp[b] = out[b] != null ? out[b] : new double[0];
        }
        // blocks left out get a zero-length scratch array: addAdjoint then skips them via blockSkip
        blockSkip = new boolean[nb];
        for (int b = 0; b < nb; b++) {
            blockSkip[b] = out[b] == null;
        }
        try {
            addAdjoint(y, -1.0, tmp, skipRankOne);
        } finally {
            blockSkip = null;
        }
    }

    private boolean[] blockSkip;

    /** out += scale · Σ_i y_i A_i, without the dense rank-one terms ({@link RankOne}) if {@code skipRankOne}. */
    private void addAdjoint(double[] y, double scale, double[][] out, boolean skipRankOne) {
        for (int b = 0; b < nb; b++) {
            if (blockSkip != null && blockSkip[b]) {
                continue;
            }
            List<SdpProblem.Term> terms = lp[b] ? p.terms(b) : sparseTerms.get(b);
            RankOne[] r1 = skipRankOne ? rankOne[b] : null;
            for (SdpProblem.Term t : terms) {
                double w = scale * y[t.constraint()];
                if (w == 0 || r1 != null && isRankOne(r1, t)) {
                    continue;
                }
                Coefficient c = t.coefficient();
                if (lp[b]) {
                    ((Coefficient.Sparse) c).addToDiag(out[b], w);
                } else {
                    c.addToDense(out[b], w);
                }
            }
            LowRankBatch lr = lp[b] ? null : batch(b);
            if (lr != null) {
                lr.addAdjoint(y, scale, out[b]);
            }
        }
    }

    private static double[] gemm(int n, double[] a, double[] b) {
        Matrix c = blas(productFlops(n), () -> Linalg.gemm(1.0, Matrix.wrap(n, n, a), false, Matrix.wrap(n, n, b),
                false));
        return c.data();
    }

    private static void symmetrize(int n, double[] a) {
        for (int j = 0; j < n; j++) {
            for (int i = j + 1; i < n; i++) {
                double v = 0.5 * (a[i + j * n] + a[j + i * n]);
                a[i + j * n] = v;
                a[j + i * n] = v;
            }
        }
    }

    // ------------------------------------------------------------------ main loop

    private SdpResult run() {
        long start = System.nanoTime();
        long startCpu = opt.cpuTime() ? THREADS.getCurrentThreadCpuTime() : 0;
        double[][] x = zeros();
        double[][] z = zeros();
        double[] y = new double[m];
        initialPoint(x, z);
        double normB = norm(p.b());
        double normC = norm(cDense);
        double[] bv = p.b();
        int stalls = 0;
        double bestScore = Double.POSITIVE_INFINITY;
        int bestIter = 0;
        double[][][] best = null;
        double[] bestStats = null;
        String message = "";
        SdpStatus status = null;
        int iter = 0;
        // a double-double restart may follow: track the progress and the best well-centred iterate to start it from
        // (the same with the restart switched off, so that its double run and its answer are the default run's double
        // phase: the point it would hand over)
        boolean ddCandidate = DdSdpSolver.applicableWarm(p);
        boolean handover = false; // see HANDOVER_STEP
        double[] bestHistory = new double[STAGNATION_ITERATIONS + 1]; // ring: best score of the last iterations
        double warmScore = Double.POSITIVE_INFINITY;
        double[][][] warm = null;
        int warmIter = 0;
        double pobj = 0;
        double dobj = 0;
        double gap = 0;
        double pinf = 0;
        double dinf = 0;
        // per measure (gap, primal, dual infeasibility): the value at its last halving, and the last iteration at
        // which a measure above its tolerance halved (see COMPONENT_PROGRESS_FACTOR)
        double[] measureRef = {Double.POSITIVE_INFINITY, Double.POSITIVE_INFINITY, Double.POSITIVE_INFINITY};
        int lastMeasureProgress = 0;
        // the largest divergence ratios seen (see ILL_POSED_RATIO), and dual iterates that may give a lower bound
        double divergenceY = 0;
        double divergenceX = 0;
        List<double[]> boundCandidates = new ArrayList<>();
        double boundCandidateObj = Double.NEGATIVE_INFINITY;
        while (true) {
            double[][] rd = copy(cDense);
            for (int b = 0; b < nb; b++) {
                for (int k = 0; k < rd[b].length; k++) {
                    rd[b][k] -= z[b][k];
                }
            }
            addAdjoint(y, -1.0, rd);
            double[] ax = opA(x);
            double[] rp = new double[m];
            for (int i = 0; i < m; i++) {
                rp[i] = bv[i] - ax[i];
            }
            pobj = inner(cDense, x);
            dobj = Linalg.dot(bv, y);
            gap = Math.abs(pobj - dobj) / (1 + Math.abs(pobj) + Math.abs(dobj));
            pinf = norm(rp) / (1 + normB);
            dinf = norm(rd) / (1 + normC);
            double xz = splitRankOne ? innerAccurate(x, z) : inner(x, z);
            double mu = xz / totalSize;
            if (iter > 0 && opt.listener() != null) {
                opt.listener().onProgress(new ProgressListener.Event(TASK, iter, 0, MEASURE, gap,
                        (System.nanoTime() - start) * 1e-9));
            }
            if (!(Double.isFinite(pobj) && Double.isFinite(dobj) && Double.isFinite(mu))) {
                status = SdpStatus.NUMERICAL_PROBLEMS;
                message = "non-finite iterate";
                break;
            }
            // the gap test accepts either the objective gap or the complementarity ⟨X,Z⟩ (SDPT3's measure): they
            // agree up to the infeasibilities, which are tested separately
            double gapXz = Math.abs(xz) / (1 + Math.abs(pobj) + Math.abs(dobj));
            double score = Math.max(Math.min(gap, gapXz) / opt.gapTolerance(),
                    Math.max(pinf, dinf) / opt.feasibilityTolerance());
            if (iter > 0 && score < bestScore) {
                bestScore = score;
                bestIter = iter;
                best = new double[][][] {copy(x), copy(z), {y.clone()}};
                bestStats = new double[] {pobj, dobj, gap, pinf, dinf, iter};
            }
            if (iter > 0) {
                double[] measures = {Math.min(gap, gapXz), pinf, dinf};
                double[] tols = {opt.gapTolerance(), opt.feasibilityTolerance(), opt.feasibilityTolerance()};
                for (int k = 0; k < 3; k++) {
                    if (measures[k] < measureRef[k] / COMPONENT_PROGRESS_FACTOR) {
                        if (measureRef[k] > tols[k] && Double.isFinite(measureRef[k])) {
                            lastMeasureProgress = iter;
                        }
                        measureRef[k] = measures[k];
                    }
                }
                double normRd = norm(rd);
                // ‖Σ y_i A_i‖ = ‖C − Z − R_d‖, summed in place (no block-sized copy per iteration)
                double aty2 = 0;
                for (int b = 0; b < nb; b++) {
                    for (int k = 0; k < cDense[b].length; k++) {
                        double v = cDense[b][k] - (z[b][k] + rd[b][k]);
                        aty2 += v * v;
                    }
                }
                divergenceY = Math.max(divergenceY, Math.sqrt(aty2) / (1 + normC + normRd + Math.abs(dobj)));
                divergenceX = Math.max(divergenceX, norm(x) / (1 + normB + norm(rp) + Math.abs(pobj)));
                if (dinf <= opt.feasibilityTolerance() && dobj > boundCandidateObj) {
                    boundCandidateObj = dobj;
                    boundCandidates.add(y.clone());
                }
            }
            if (Math.min(gap, gapXz) < opt.gapTolerance() && pinf < opt.feasibilityTolerance()
                    && dinf < opt.feasibilityTolerance()) {
                status = SdpStatus.OPTIMAL;
                message = "relative gap and infeasibilities below tolerance";
                break;
            }
            // infeasibility certificates
            if (dobj > 0) {
                double[][] aty = copy(cDense); // Σ y_i A_i + Z = C − R_d
                for (int b = 0; b < nb; b++) {
                    for (int k = 0; k < aty[b].length; k++) {
                        aty[b][k] -= rd[b][k];
                    }
                }
                if (norm(aty) / dobj < opt.infeasibilityTolerance()) {
                    status = SdpStatus.PRIMAL_INFEASIBLE;
                    message = "certificate y: b'y = " + dobj + " > 0 with ||A'y + Z|| / b'y = " + norm(aty) / dobj;
                    break;
                }
            }
            if (pobj < 0) {
                double r = norm(ax) / -pobj;
                if (r < opt.infeasibilityTolerance()) {
                    status = SdpStatus.DUAL_INFEASIBLE;
                    message = "certificate X: <C,X> = " + pobj + " < 0 with ||A(X)|| / |<C,X>| = " + r;
                    break;
                }
            }
            if (splitRankOne && iter > 0 && !(xz > 0) && bestIter > 0) {
                // ⟨X, Z⟩ of positive definite X and Z is positive; summed accurately (innerAccurate) it is not, so
                // the rounding of the stored iterates has lost the cone (Z's smallest eigenvalues, ~μ/λ_max(X),
                // below u·‖Z‖ when ‖Z‖ grows, as on gpp with |y_0| ~ 1e4): no later iterate can be trusted
                status = SdpStatus.NUMERICAL_PROBLEMS;
                message = "<X,Z> = " + xz + " <= 0 at iteration " + iter + ": the iterates left the cones by rounding";
                break;
            }
            if (handover && (bestScore >= NEAR_OPTIMAL_FACTOR || DdSdpSolver.work(p) <= NEAR_OPTIMAL_RESTART_WORK)) {
                status = SdpStatus.NUMERICAL_PROBLEMS;
                message = "Schur complement singular (jitter) with a primal step below " + HANDOVER_STEP
                        + " at iteration " + iter;
                break;
            }
            if (iter - Math.max(bestIter, lastMeasureProgress) >= STAGNATION_ITERATIONS && bestIter > 0) {
                status = SdpStatus.NUMERICAL_PROBLEMS;
                message = "no improvement for " + STAGNATION_ITERATIONS + " iterations";
                break;
            }
            bestHistory[iter % bestHistory.length] = bestScore;
            if (iter >= opt.maxIterations()) {
                status = SdpStatus.ITERATION_LIMIT;
                message = "iteration limit " + opt.maxIterations() + " reached";
                break;
            }
            double elapsed = opt.cpuTime() ? (THREADS.getCurrentThreadCpuTime() - startCpu) * 1e-9
                    : (System.nanoTime() - start) * 1e-9;
            if (opt.timeLimitSeconds() > 0 && elapsed > opt.timeLimitSeconds()) {
                status = SdpStatus.TIME_LIMIT;
                message = "time limit " + opt.timeLimitSeconds() + " s (" + (opt.cpuTime() ? "CPU" : "wall")
                        + ") reached";
                break;
            }
            iter++;
            // ---------------- factorisations
            long tStart = System.nanoTime();
            double[][] zi = new double[nb][];
            Cholesky[] lx = new Cholesky[nb];
            Cholesky[] lz = new Cholesky[nb];
            Cholesky mChol;
            try {
                for (int b = 0; b < nb; b++) {
                    if (lp[b]) {
                        zi[b] = new double[n[b]];
                        for (int k = 0; k < n[b]; k++) {
                            zi[b][k] = 1.0 / z[b][k];
                        }
                    } else {
                        lz[b] = nextLz != null ? nextLz[b] : Linalg.cholesky(Matrix.wrap(n[b], n[b], z[b]));
                        lx[b] = nextLx != null ? nextLx[b] : Linalg.cholesky(Matrix.wrap(n[b], n[b], x[b]));
                        int s = n[b];
                        Cholesky lzb = lz[b];
                        zi[b] = blas(productFlops(s), () -> lzb.solve(Matrix.identity(s))).data(); // two n³ solves
                        symmetrize(n[b], zi[b]);
                    }
                }
                if (splitRankOne) {
                    r1Xu = new double[nb][][];
                    r1Zu = new double[nb][][];
                    for (int b = 0; b < nb; b++) {
                        if (rankOne[b] != null) {
                            r1Xu[b] = timesRankOne(b, x[b], true);
                            r1Zu[b] = new double[rankOne[b].length][];
                            for (int k = 0; k < rankOne[b].length; k++) {
                                r1Zu[b][k] = lz[b].solve(rankOne[b][k].u);
                            }
                        }
                    }
                }
                long t1 = System.nanoTime();
                nanosStep += t1 - tStart;
                Matrix schur = schur(x, zi, opt.schur() == SdpOptions.SchurMode.DENSE);
                long t2 = System.nanoTime();
                nanosSchur += t2 - t1;
                mChol = Linalg.cholesky(schur);
                long t3 = System.nanoTime();
                nanosFactor += t3 - t2;
                tStart = t3;
            } catch (LinalgException e) {
                status = SdpStatus.NUMERICAL_PROBLEMS;
                message = "factorisation failed at iteration " + iter + ": " + e.getMessage();
                break;
            }
            if (ddCandidate && score < warmScore && wellCentred(lx, x, z, WARM_START_CENTRALITY)) {
                warmScore = score;
                warm = new double[][][] {copy(x), copy(z), {y.clone()}};
                warmIter = iter - 1;
            }
            // h0 = r_p + A(X R_d Z⁻¹)
            double[][] xrdzi = zeros();
            for (int b = 0; b < nb; b++) {
                if (lp[b]) {
                    for (int k = 0; k < n[b]; k++) {
                        xrdzi[b][k] = x[b][k] * rd[b][k] * zi[b][k];
                    }
                } else {
                    xrdzi[b] = gemm(n[b], gemm(n[b], x[b], rd[b]), zi[b]);
                }
            }
            curXrdzi = xrdzi;
            double[] h0 = opA(xrdzi);
            for (int i = 0; i < m; i++) {
                h0[i] += rp[i];
            }
            double[][] dx;
            double[][] dz;
            double[] dy;
            double sigma;
            if (opt.corrector()) {
                // predictor: R_c Z⁻¹ = −X
                double[][] rczi = zeros();
                for (int b = 0; b < nb; b++) {
                    for (int k = 0; k < rczi[b].length; k++) {
                        rczi[b][k] = -x[b][k];
                    }
                }
                double[][][] dir = direction(h0, rp, rczi, rd, x, zi, mChol);
                double[][] dxa = dir[0];
                double[][] dza = dir[1];
                double[] dya = dir[2][0];
                double[][] dzaPart = dza;
                if (r1Xu != null) { // dZa without its rank-one terms, whose part of dXa dZa Z⁻¹ is an outer product
                    dzaPart = copy(rd);
                    addAdjoint(dya, -1.0, dzaPart, true);
                }
                double ap = Math.min(1.0, maxStep(lx, x, dxa));
                double ad = Math.min(1.0, maxStep(lz, z, dza));
                double muAff;
                if (splitRankOne) {
                    muAff = innerAccurate(stepped(x, dxa, ap), stepped(z, dza, ad)) / totalSize;
                } else {
                    muAff = 0;
                    for (int b = 0; b < nb; b++) {
                        for (int k = 0; k < x[b].length; k++) {
                            muAff += (x[b][k] + ap * dxa[b][k]) * (z[b][k] + ad * dza[b][k]);
                        }
                    }
                    muAff /= totalSize;
                }
                sigma = Math.min(1.0, Math.pow(Math.max(muAff, 0) / mu, MEHROTRA_EXPONENT));
                // corrector: R_c Z⁻¹ = σμ Z⁻¹ − X − dXa dZa Z⁻¹
                for (int b = 0; b < nb; b++) {
                    if (lp[b]) {
                        for (int k = 0; k < n[b]; k++) {
                            rczi[b][k] = sigma * mu * zi[b][k] - x[b][k] - dxa[b][k] * dza[b][k] * zi[b][k];
                        }
                    } else {
                        double[] t = gemm(n[b], gemm(n[b], dxa[b], dzaPart[b]), zi[b]);
                        if (r1Xu != null && rankOne[b] != null) {
                            subtractRankOne(b, dya, timesRankOne(b, dxa[b]), t);
                        }
                        for (int k = 0; k < t.length; k++) {
                            rczi[b][k] = sigma * mu * zi[b][k] - x[b][k] - t[k];
                        }
                    }
                }
                dir = direction(h0, rp, rczi, rd, x, zi, mChol);
                dx = dir[0];
                dz = dir[1];
                dy = dir[2][0];
            } else {
                sigma = BASELINE_SIGMA;
                double[][] rczi = zeros();
                for (int b = 0; b < nb; b++) {
                    for (int k = 0; k < rczi[b].length; k++) {
                        rczi[b][k] = sigma * mu * zi[b][k] - x[b][k];
                    }
                }
                double[][][] dir = direction(h0, rp, rczi, rd, x, zi, mChol);
                dx = dir[0];
                dz = dir[1];
                dy = dir[2][0];
            }
            double ap;
            double ad;
            try {
                ap = Math.min(1.0, STEP_FRACTION * maxStep(lx, x, dx));
                ad = Math.min(1.0, STEP_FRACTION * maxStep(lz, z, dz));
            } catch (LinalgException e) {
                status = SdpStatus.NUMERICAL_PROBLEMS;
                message = "step length computation failed at iteration " + iter + ": " + e.getMessage();
                break;
            }
            if (!Double.isFinite(ap) || !Double.isFinite(ad) || !allFinite(dx) || !allFinite(dz)) {
                status = SdpStatus.NUMERICAL_PROBLEMS;
                message = "non-finite search direction at iteration " + iter;
                break;
            }
            if (ap < STALL_STEP && ad < STALL_STEP) {
                if (++stalls >= STALL_ITERATIONS) {
                    status = SdpStatus.NUMERICAL_PROBLEMS;
                    message = "no progress: step lengths below " + STALL_STEP + " for " + STALL_ITERATIONS
                            + " iterations";
                    break;
                }
            } else {
                stalls = 0;
            }
            // the Lanczos step lengths are estimates: the new X and Z must factor without jitter (their factors
            // serve the next iteration); if one does not, its step is recomputed densely
            double[][] xNew = stepped(x, dx, ap);
            nextLx = strictFactors(xNew);
            if (nextLx == null) {
                ap = Math.min(1.0, STEP_FRACTION * maxStep(lx, x, dx, false));
                xNew = stepped(x, dx, ap);
            }
            double[][] zNew = stepped(z, dz, ad);
            nextLz = strictFactors(zNew);
            if (nextLz == null) {
                ad = Math.min(1.0, STEP_FRACTION * maxStep(lz, z, dz, false));
                zNew = stepped(z, dz, ad);
            }
            for (int b = 0; b < nb; b++) {
                x[b] = xNew[b];
                z[b] = zNew[b];
            }
            for (int i = 0; i < m; i++) {
                y[i] += ad * dy[i];
            }
            nanosStep += System.nanoTime() - tStart;
            handover = ddCandidate && warm != null && mChol.jitter() > 0 && ap < HANDOVER_STEP;
        }
        final int doubleIterations = iter;
        if (status != SdpStatus.OPTIMAL && status != SdpStatus.PRIMAL_INFEASIBLE
                && status != SdpStatus.DUAL_INFEASIBLE && best != null) {
            // return the best iterate seen (by the stopping measures), not the last one
            x = best[0];
            z = best[1];
            y = best[2][0];
            pobj = bestStats[0];
            dobj = bestStats[1];
            gap = bestStats[2];
            pinf = bestStats[3];
            dinf = bestStats[4];
            message += "; returning the best iterate (iteration " + (int) bestStats[5] + ")";
            if (bestScore < NEAR_OPTIMAL_FACTOR && status != SdpStatus.TIME_LIMIT) {
                status = SdpStatus.NEAR_OPTIMAL;
            }
        }
        // an iteration limit ends in a double-double restart only when the run had stalled (its best score improved
        // less than SLOW_PROGRESS_FACTOR-fold over the last STAGNATION_ITERATIONS iterations, far from the
        // tolerances) and a well-centred iterate is there to start from; a run that was still converging is not
        // continued behind the caller's limit
        boolean stalled = iter >= STAGNATION_ITERATIONS && bestScore >= NEAR_OPTIMAL_FACTOR && bestScore
                > bestHistory[(iter - STAGNATION_ITERATIONS) % bestHistory.length] / SLOW_PROGRESS_FACTOR;
        boolean restart = status != SdpStatus.OPTIMAL && status != SdpStatus.PRIMAL_INFEASIBLE
                && status != SdpStatus.DUAL_INFEASIBLE && status != SdpStatus.TIME_LIMIT
                && (status != SdpStatus.ITERATION_LIMIT || stalled && warm != null)
                && (DdSdpSolver.applicable(p) || warm != null && DdSdpSolver.applicableWarm(p))
                && (status != SdpStatus.NEAR_OPTIMAL || DdSdpSolver.work(p) <= NEAR_OPTIMAL_RESTART_WORK);
        if (restart && !opt.doubleDouble()) {
            message += "; the double-double restart that would follow is switched off";
        } else if (restart) {
            // first from the best well-centred double iterate (cheaper: the early iterations are not repeated),
            // then, if that misses a tolerance and the problem is small enough, from the standard start
            long ddStart = System.nanoTime();
            SdpResult dd = null;
            String how = "";
            int ddIterations = iter;
            for (int attempt = 0; attempt < 2; attempt++) {
                boolean fromWarm = attempt == 0;
                if (fromWarm ? warm == null || !DdSdpSolver.applicableWarm(p)
                        : dd != null && score(dd) < STANDARD_RESTART_SCORE || !DdSdpSolver.applicable(p)) {
                    continue;
                }
                if (!fromWarm && dd != null && illPosed(dd, divergenceY, divergenceX)) {
                    how += "; not again from the standard start: the iterates diverged (ill-posed)";
                    continue;
                }
                double used = opt.cpuTime() ? (THREADS.getCurrentThreadCpuTime() - startCpu) * 1e-9
                        : (System.nanoTime() - start) * 1e-9;
                double left = opt.timeLimitSeconds() > 0 ? opt.timeLimitSeconds() - used : 0;
                if (opt.timeLimitSeconds() > 0 && left <= 0) {
                    break;
                }
                SdpOptions ddOpt = opt.listener() == null ? opt : opt.withListener(shifted(opt.listener(),
                        (System.nanoTime() - start) * 1e-9));
                SdpResult r = fromWarm
                        ? DdSdpSolver.solve(p, ddOpt, ddIterations, left, warm[0], warm[2][0], warm[1])
                        : DdSdpSolver.solve(p, ddOpt, ddIterations, left);
                ddIterations = r.iterations();
                String note = (fromWarm ? "from iteration " + warmIter : "from the standard start") + ": "
                        + r.message();
                if (dd == null || score(r) < score(dd)) {
                    how += (dd == null ? "" : "; it missed a tolerance, so again ") + note;
                    dd = r;
                } else {
                    how += "; again " + note + " (not better)";
                }
            }
            if (dd != null) {
                nanosDd = System.nanoTime() - ddStart;
                double ddScore = score(dd);
                if (ddScore < bestScore || best == null) {
                    SdpStatus st = dd.status();
                    if (st != SdpStatus.OPTIMAL) {
                        st = ddScore < NEAR_OPTIMAL_FACTOR ? SdpStatus.NEAR_OPTIMAL
                                : st == SdpStatus.TIME_LIMIT || st == SdpStatus.ITERATION_LIMIT ? st
                                : SdpStatus.NUMERICAL_PROBLEMS;
                    } else if (ddScore >= 1) {
                        // the double-double iterate converged but its rounding to double misses a tolerance (when
                        // ‖y‖ is huge, rounding y costs ~u·‖y‖ of dual feasibility): near-optimal only within the
                        // NEAR_OPTIMAL_FACTOR of the tolerances, as for a double-precision result
                        st = ddScore < NEAR_OPTIMAL_FACTOR ? SdpStatus.NEAR_OPTIMAL : SdpStatus.NUMERICAL_PROBLEMS;
                    }
                    return diagnose(new SdpResult(st, dd.x(), dd.y(), dd.z(), dd.primalObjective(),
                            dd.dualObjective(), dd.relativeGap(), dd.primalInfeasibility(), dd.dualInfeasibility(),
                            ddIterations, (System.nanoTime() - start) * 1e-9, "double precision: " + message
                            + "; double-double restart " + how), divergenceY, divergenceX, boundCandidates)
                            .withProfile(profile(start, doubleIterations));
                }
                message += "; double-double restart did not improve (" + how + ")";
            }
        }
        double seconds = (System.nanoTime() - start) * 1e-9;
        Matrix[] xm = new Matrix[nb];
        Matrix[] zm = new Matrix[nb];
        for (int b = 0; b < nb; b++) {
            xm[b] = lp[b] ? Matrix.column(x[b]) : Matrix.wrap(n[b], n[b], x[b]);
            zm[b] = lp[b] ? Matrix.column(z[b]) : Matrix.wrap(n[b], n[b], z[b]);
        }
        return diagnose(new SdpResult(status, xm, y, zm, pobj, dobj, gap, pinf, dinf, iter, seconds, message),
                divergenceY, divergenceX, boundCandidates).withProfile(profile(start, doubleIterations));
    }

    // the Cholesky factors of the current X and Z when the last step computed them (null: factor anew)
    private Cholesky[] nextLx;
    private Cholesky[] nextLz;

    /** S + α dS, symmetrised per dense block. */
    private double[][] stepped(double[][] sv, double[][] ds, double alpha) {
        double[][] out = new double[nb][];
        for (int b = 0; b < nb; b++) {
            double[] o = sv[b].clone();
            double[] d = ds[b];
            for (int k = 0; k < o.length; k++) {
                o[k] += alpha * d[k];
            }
            if (!lp[b]) {
                symmetrize(n[b], o);
            }
            out[b] = o;
        }
        return out;
    }

    /** Jitter-free Cholesky factors of the dense blocks (diagonal blocks: positivity), or null if one fails. */
    private Cholesky[] strictFactors(double[][] sv) {
        Cholesky[] out = new Cholesky[nb];
        try {
            for (int b = 0; b < nb; b++) {
                if (lp[b]) {
                    for (double v : sv[b]) {
                        if (!(v > 0)) {
                            return null;
                        }
                    }
                } else {
                    out[b] = Linalg.choleskyStrict(Matrix.wrap(n[b], n[b], sv[b]));
                }
            }
        } catch (LinalgException e) {
            return null;
        }
        return out;
    }

    // wall nanoseconds per phase of run() (see SdpProfile)
    private long nanosSchur;
    private long nanosFactor;
    private long nanosStep;
    private long nanosDd = -1;

    private SdpProfile profile(long start, int doubleIterations) {
        double total = (System.nanoTime() - start) * 1e-9;
        double dd = Math.max(nanosDd, 0) * 1e-9;
        double other = Math.max(0, total - (nanosSchur + nanosFactor + nanosStep) * 1e-9 - dd);
        return new SdpProfile(nanosSchur * 1e-9, nanosFactor * 1e-9, nanosStep * 1e-9, other, dd, nanosDd >= 0,
                doubleIterations);
    }

    /**
     * Whether the iterates so far (the double run's ratios and the first restart's point) already mark the problem
     * ill-posed ({@link #ILL_POSED_RATIO}): then the double-double restart does not run a second time from the
     * standard start; the answer is then reported {@link SdpStatus#ILL_POSED} with the lower bound verified from the
     * iterates. On SDPLIB's hinf15 the second run took 100 iterations, 55% of the solve, and
     * was "not better", on hinf12 100 iterations for a point that misses the tolerances too (score 842 → 150).
     */
    private boolean illPosed(SdpResult dd, double divergenceY, double divergenceX) {
        double[] ratios = divergence(dd);
        return Math.max(divergenceY, ratios[0]) >= ILL_POSED_RATIO || Math.max(divergenceX, ratios[1]) >= ILL_POSED_RATIO;
    }

    /**
     * The divergence ratios of a result's point: ‖Σ y_i A_i‖ against the data, dual residual and objective, and
     * ‖X‖ against b, primal residual and objective ({@link #ILL_POSED_RATIO}).
     */
    private double[] divergence(SdpResult r) {
        double[][] aty = zeros();
        addAdjoint(r.y(), 1.0, aty);
        double normC = norm(cDense);
        double rdNorm = r.dualInfeasibility() * (1 + normC);
        double ry = norm(aty) / (1 + normC + rdNorm + Math.abs(r.dualObjective()));
        double normX = 0;
        for (Matrix xb : r.x()) {
            normX += xb.normF() * xb.normF();
        }
        double normB = norm(p.b());
        double rx = Math.sqrt(normX) / (1 + normB + r.primalInfeasibility() * (1 + normB)
                + Math.abs(r.primalObjective()));
        return new double[] {ry, rx};
    }

    /**
     * For a run that did not end optimal or infeasible: a verified lower bound on (P)'s optimal value from the
     * dual iterates, and the {@link SdpStatus#ILL_POSED} status when the iterates diverged (see
     * {@link #ILL_POSED_RATIO}). Other results are returned unchanged.
     */
    private SdpResult diagnose(SdpResult r, double divergenceY, double divergenceX, List<double[]> candidates) {
        SdpStatus st = r.status();
        if (st == SdpStatus.OPTIMAL || st == SdpStatus.NEAR_OPTIMAL || st == SdpStatus.PRIMAL_INFEASIBLE
                || st == SdpStatus.DUAL_INFEASIBLE) {
            return r;
        }
        List<double[]> all = new ArrayList<>(candidates);
        all.add(r.y()); // the returned y may come from the double-double phase
        double bound = Double.NaN;
        int checks = st == SdpStatus.TIME_LIMIT ? BOUND_CHECKS : 0; // no eigenvalue work past the time limit
        for (int k = all.size() - 1; k >= 0 && checks < BOUND_CHECKS; k--) {
            double[] yk = all.get(k);
            double obj = Linalg.dot(p.b(), yk);
            if (Double.isFinite(bound) && obj <= bound) {
                continue;
            }
            checks++;
            if (verifiedDualFeasible(yk)) {
                bound = Double.isFinite(bound) ? Math.max(bound, obj) : obj;
            }
        }
        // the returned point's own ratios, in case it comes from the double-double phase
        double[] ratios = divergence(r);
        divergenceY = Math.max(divergenceY, ratios[0]);
        divergenceX = Math.max(divergenceX, ratios[1]);
        String msg = r.message();
        if (divergenceY >= ILL_POSED_RATIO || divergenceX >= ILL_POSED_RATIO) {
            st = SdpStatus.ILL_POSED;
            if (divergenceY >= ILL_POSED_RATIO) {
                msg += String.format(java.util.Locale.ROOT, "; ill-posed: the dual iterate diverged "
                        + "(||sum y_i A_i|| up to %.1e times the data and objective), so (P) has no strictly "
                        + "feasible point to that accuracy and the optimum of (D) is not attained", divergenceY);
            }
            if (divergenceX >= ILL_POSED_RATIO) {
                msg += String.format(java.util.Locale.ROOT, "; ill-posed: the primal iterate diverged "
                        + "(||X|| up to %.1e times the data and objective), so (D) has no strictly feasible point "
                        + "to that accuracy and the optimum of (P) is not attained", divergenceX);
            }
        }
        if (Double.isFinite(bound)) {
            msg += "; verified lower bound on the optimal value of (P): " + bound;
        }
        return r.with(st, msg, bound);
    }

    /**
     * Whether C − Σ y_i A_i, formed in double from the data, is positive semidefinite with a margin that covers
     * the rounding errors of forming it and of the eigenvalue computation: λ_min ≥ (m + 2 n_max)·u·(‖C‖_F +
     * Σ_i |y_i| ‖A_i‖_F), the a-priori bound γ_k ≈ k·u for sums of k products (Higham, Accuracy and Stability of
     * Numerical Algorithms, §3.1) plus the backward error ~n·u·‖Z‖ of a symmetric eigensolver, with u = 2^-53.
     * Then bᵀy is a lower bound on (P)'s optimal value (weak duality), up to the rounding of bᵀy itself.
     */
    static boolean verifiedDualFeasible(SdpProblem problem, double[] yv) {
        return new SdpSolver(problem, SdpOptions.defaults()).verifiedDualFeasible(yv);
    }

    private boolean verifiedDualFeasible(double[] yv) {
        double[][] zz = copy(cDense);
        addAdjoint(yv, -1.0, zz);
        double scale = norm(cDense);
        double[] normA = new double[m];
        int maxBlock = 1;
        for (int b = 0; b < nb; b++) {
            maxBlock = Math.max(maxBlock, n[b]);
            for (SdpProblem.Term t : p.terms(b)) {
                double f = t.coefficient().normF();
                normA[t.constraint()] += f * f;
            }
        }
        for (int i = 0; i < m; i++) {
            scale += Math.abs(yv[i]) * Math.sqrt(normA[i]);
        }
        double margin = (m + 2.0 * maxBlock) * 0x1p-53 * scale;
        for (int b = 0; b < nb; b++) {
            double lmin;
            if (lp[b]) {
                lmin = Double.POSITIVE_INFINITY;
                for (double v : zz[b]) {
                    lmin = Math.min(lmin, v);
                }
            } else {
                symmetrize(n[b], zz[b]);
                lmin = Linalg.eigvalsh(Matrix.wrap(n[b], n[b], zz[b]))[0];
            }
            if (!(lmin >= margin)) {
                return false;
            }
        }
        return true;
    }

    /**
     * Whether λ_min(X^½ Z X^½) ≥ γμ on every block (μ = ⟨X, Z⟩/n, the centrality measure of wide-neighbourhood
     * methods; with X = L Lᵀ, Lᵀ Z L has the eigenvalues of X^½ Z X^½), decided by a Cholesky test of
     * Lᵀ Z L − γμ I instead of its eigenvalues: the test runs at nearly every iteration of a problem that may be
     * restarted in double-double, where the dense eigenvalue computation (~4n³ in the tridiagonal reduction) took a
     * fifth of the native time of gpp124-1 (n = 124); a Cholesky factorisation is n³/3.
     */
    private boolean wellCentred(Cholesky[] lx, double[][] x, double[][] z, double gamma) {
        double bound = gamma * inner(x, z) / totalSize;
        for (int b = 0; b < nb; b++) {
            if (lp[b]) {
                for (int k = 0; k < n[b]; k++) {
                    if (!(x[b][k] * z[b][k] >= bound)) {
                        return false;
                    }
                }
            } else {
                Matrix l = lx[b].lower();
                int s = n[b];
                double[] zb = z[b];
                Matrix zl = blas(productFlops(s), () -> Linalg.gemm(1.0, Matrix.wrap(s, s, zb), false, l, false));
                Matrix w = blas(productFlops(s), () -> Linalg.gemm(1.0, l, true, zl, false));
                w.symmetrizeInPlace();
                double[] wd = w.data();
                for (int k = 0; k < n[b]; k++) {
                    wd[k + k * n[b]] -= bound;
                }
                try {
                    Linalg.choleskyStrict(w);
                } catch (LinalgException e) {
                    return false;
                }
            }
        }
        return true;
    }

    /** The larger of gap/tolerance and infeasibility/tolerance of a result (below 1: every tolerance met). */
    private double score(SdpResult r) {
        return Math.max(r.relativeGap() / opt.gapTolerance(),
                Math.max(r.primalInfeasibility(), r.dualInfeasibility()) / opt.feasibilityTolerance());
    }

    private static boolean allFinite(double[][] a) {
        for (double[] x : a) {
            for (double v : x) {
                if (!Double.isFinite(v)) {
                    return false;
                }
            }
        }
        return true;
    }

    private void initialPoint(double[][] x, double[][] z) {
        double[] scales = startingScales();
        double xi = scales[0];
        double eta = scales[1];
        for (int b = 0; b < nb; b++) {
            for (int k = 0; k < n[b]; k++) {
                int idx = lp[b] ? k : k + k * n[b];
                x[b][idx] = xi;
                z[b][idx] = eta;
            }
        }
    }

    /** The starting point's scales {ξ, η} of a problem (X₀ = ξI, Z₀ = ηI; see {@link #START_SCALE}). */
    static double[] startingScales(SdpProblem problem) {
        return new SdpSolver(problem, SdpOptions.defaults()).startingScales();
    }

    private double[] startingScales() {
        double[] normA = new double[m];
        for (int b = 0; b < nb; b++) {
            for (SdpProblem.Term t : p.terms(b)) {
                double f = t.coefficient().normF();
                normA[t.constraint()] += f * f;
            }
        }
        double maxRatio = 0;
        double maxNorm = norm(cDense);
        // no store into normA in this loop: with `normA[i] = Math.sqrt(normA[i])` here, JDK 17.0.15's C2 compiler
        // crashed the JVM (ShouldNotReachHere in TypeVect::xmeet while vectorising the loop) once the method was hot
        // (SdpSolverTest.startingScalesCompileWithoutCrashingTheJvm)
        for (int i = 0; i < m; i++) {
            double a = Math.sqrt(normA[i]);
            maxRatio = Math.max(maxRatio, (1 + Math.abs(p.bAt(i))) / (1 + a));
            maxNorm = Math.max(maxNorm, a);
        }
        double xi = START_SCALE * totalSize * Math.max(maxRatio, 1.0 / totalSize);
        double eta = START_SCALE * (1 + maxNorm) / Math.sqrt(totalSize);
        return new double[] {xi, eta};
    }

    /**
     * Solves M dy = h0 − A(R_c Z⁻¹), then dZ = R_d − Σ dy_i A_i and dX = sym(R_c Z⁻¹ − X dZ Z⁻¹).
     * Returns {dX, dZ, {dy}}.
     */
    private double[][][] direction(double[] h0, double[] rp, double[][] rczi, double[][] rd, double[][] x, double[][] zi,
                                   Cholesky mChol) {
        double[] a = opA(rczi);
        double[] rhs = new double[m];
        for (int i = 0; i < m; i++) {
            rhs[i] = h0[i] - a[i];
        }
        double[] dy = mChol.solve(rhs);
        double[][] dx = dxOf(dy, rczi, rd, x, zi);
        // one step of iterative refinement against the exact operator: r = rhs − M dy = r_p − A(dX)
        double[] adx = opA(dx);
        double[] res = new double[m];
        for (int i = 0; i < m; i++) {
            res[i] = rp[i] - adx[i];
        }
        double rn = norm(res);
        for (int step = 0; step < REFINE_STEPS && rn > REFINE_THRESHOLD * (1 + norm(rhs)); step++) {
            double[] d = mChol.solve(res);
            double[] dyNew = dy.clone();
            for (int i = 0; i < m; i++) {
                dyNew[i] += d[i];
            }
            double[][] dxNew = dxOf(dyNew, rczi, rd, x, zi);
            double[] adxNew = opA(dxNew);
            double[] resNew = new double[m];
            for (int i = 0; i < m; i++) {
                resNew[i] = rp[i] - adxNew[i];
            }
            double rnNew = norm(resNew);
            if (!(rnNew < rn)) {
                break; // refinement no longer helps: rounding, not the factorisation, limits the accuracy
            }
            dy = dyNew;
            dx = dxNew;
            res = resNew;
            rn = rnNew;
        }
        // restore A(dX) = r_p, lost to rounding when X Z⁻¹ is ill-conditioned near the optimum, by the
        // least-norm correction dX += Σ w_i A_i with ⟨A_i, A_j⟩ w = r_p − A(dX)
        adx = opA(dx);
        for (int i = 0; i < m; i++) {
            res[i] = rp[i] - adx[i];
        }
        if (norm(res) > REFINE_THRESHOLD * (1 + norm(rp)) && !gramFailed) {
            try {
                double[] w = gram().solve(res);
                addAdjoint(w, 1.0, dx);
            } catch (LinalgException e) {
                gramFailed = true; // linearly dependent A_i: keep the unprojected direction
            }
        }
        double[][] dz = copy(rd);
        addAdjoint(dy, -1.0, dz);
        return new double[][][] {dx, dz, {dy}};
    }

    private Cholesky gram;
    private boolean gramFailed;

    /** Cholesky factor of the Gram matrix ⟨A_i, A_j⟩, built on first use (block by block, using the structure). */
    private Cholesky gram() {
        if (gram == null) {
            gram = Linalg.cholesky(Matrix.wrap(m, m, gramEntries()));
        }
        return gram;
    }

    /** ⟨A_i, A_j⟩ for tests. */
    static Matrix gramMatrix(SdpProblem problem) {
        SdpSolver s = new SdpSolver(problem, SdpOptions.defaults());
        return Matrix.wrap(s.m, s.m, s.gramEntries());
    }

    private double[] gramEntries() {
        double[] g = new double[m * m];
        for (int b = 0; b < nb; b++) {
            if (lp[b]) {
                for (int k = 0; k < n[b]; k++) {
                    int[] cons = lpCons[b][k];
                    double[] vals = lpVals[b][k];
                    for (int a = 0; a < cons.length; a++) {
                        for (int c = 0; c <= a; c++) {
                            add(g, cons[a], cons[c], vals[a] * vals[c]);
                        }
                    }
                }
                continue;
            }
            int s = n[b];
            List<SdpProblem.Term> sp = sparseTerms.get(b);
            double[] scratch = new double[s * s];
            for (int ii = 0; ii < sp.size(); ii++) {
                Coefficient.Sparse ai = (Coefficient.Sparse) sp.get(ii).coefficient();
                ai.addToDense(scratch, 1.0);
                for (int jj = ii; jj < sp.size(); jj++) {
                    Coefficient.Sparse aj = (Coefficient.Sparse) sp.get(jj).coefficient();
                    double v = 0;
                    for (int e = 0; e < aj.ea.length; e++) {
                        v += aj.ea[e] * scratch[aj.ep[e] + aj.eq[e] * s];
                    }
                    add(g, sp.get(ii).constraint(), sp.get(jj).constraint(), v);
                }
                ai.addToDense(scratch, -1.0);
            }
            LowRankBatch lr = batch(b);
            if (lr == null) {
                continue;
            }
            int rr = lr.rr;
            Matrix wu = Linalg.gemm(1.0, lr.u, true, lr.u, false);
            double[] pw = blockDiagTimes(lr.off, lr.d, rr, wu.data(), rr); // D Uᵀ U
            for (int a = 0; a < lr.cons.length; a++) {
                for (int c = 0; c <= a; c++) {
                    double v = 0;
                    for (int r = lr.off[a]; r < lr.off[a + 1]; r++) {
                        for (int q = lr.off[c]; q < lr.off[c + 1]; q++) {
                            v += pw[r + q * rr] * pw[q + r * rr];
                        }
                    }
                    add(g, lr.cons[a], lr.cons[c], v);
                }
            }
            double[] ud = timesBlockDiag(s, lr.u.data(), lr.off, lr.d, rr); // U D
            double[] u = lr.u.data();
            for (SdpProblem.Term ti : sp) {
                Coefficient.Sparse ai = (Coefficient.Sparse) ti.coefficient();
                for (int c = 0; c < lr.cons.length; c++) {
                    double v = 0;
                    for (int e = 0; e < ai.ea.length; e++) {
                        double w = 0;
                        for (int q = lr.off[c]; q < lr.off[c + 1]; q++) {
                            w += ud[ai.ep[e] + q * s] * u[ai.eq[e] + q * s];
                        }
                        v += ai.ea[e] * w;
                    }
                    add(g, ti.constraint(), lr.cons[c], v);
                }
            }
        }
        return g;
    }

    /**
     * A block's X·dZ·Z⁻¹ is formed as X R_d Z⁻¹ (already computed for the right-hand side) plus (X S) Z⁻¹ with the
     * sparse S = −Σ dy_i A_i multiplied into X entry by entry, when S has at most n²/4 stored entries (e.g. SDPLIB's
     * mcp/maxG with A_i = e_i e_iᵀ: n entries): one dense product (2n³) instead of two per search direction.
     */
    static final double SPARSE_DZ_FRACTION = 0.25;
    /**
     * ... and only on blocks of at least 64 rows: below, the saved product costs microseconds, and the changed
     * rounding moves the sensitive small SDPLIB runs (hinf12's verified bound 0.0097 → 0.0083) for no gain.
     */
    static final int SPARSE_DZ_MIN_SIZE = 64;

    // X R_d Z⁻¹ of the current iteration (see SPARSE_DZ_FRACTION)
    private double[][] curXrdzi;

    /** Whether block b's Σ dy_i A_i is multiplied into X entry by entry (see {@link #SPARSE_DZ_FRACTION}). */
    private boolean sparseDz(int b) {
        if (lp[b] || n[b] < SPARSE_DZ_MIN_SIZE || !lowRankTerms.get(b).isEmpty()) {
            return false;
        }
        long count = 0;
        for (SdpProblem.Term t : sparseTerms.get(b)) {
            count += ((Coefficient.Sparse) t.coefficient()).expandedCount();
        }
        return count <= SPARSE_DZ_FRACTION * n[b] * n[b];
    }

    private boolean[] sparseDzBlocks;

    private double[][] dxOf(double[] dy, double[][] rczi, double[][] rd, double[][] x, double[][] zi) {
        boolean split = r1Xu != null;
        if (sparseDzBlocks == null) {
            sparseDzBlocks = new boolean[nb];
            for (int b = 0; b < nb; b++) {
                sparseDzBlocks[b] = sparseDz(b);
            }
        }
        boolean anySparse = false;
        for (int b = 0; b < nb; b++) {
            anySparse |= sparseDzBlocks[b] && curXrdzi != null;
        }
        double[][] dz = copy(rd);
        if (anySparse) {
            // only the blocks on the dense route need dZ itself
            for (int b = 0; b < nb; b++) {
                if (sparseDzBlocks[b]) {
                    dz[b] = null;
                }
            }
        }
        addAdjointDense(dy, dz, split);
        double[][] dx = zeros();
        for (int b = 0; b < nb; b++) {
            if (lp[b]) {
                for (int k = 0; k < n[b]; k++) {
                    dx[b][k] = rczi[b][k] - x[b][k] * dz[b][k] * zi[b][k];
                }
            } else {
                double[] t;
                if (dz[b] == null) {
                    int s = n[b];
                    double[] xs = new double[s * s]; // X S, S = −Σ dy_i A_i, one axpy of a column of X per entry
                    double[] xb = x[b];
                    for (SdpProblem.Term term : sparseTerms.get(b)) {
                        double w = -dy[term.constraint()];
                        if (w == 0) {
                            continue;
                        }
                        Coefficient.Sparse a = (Coefficient.Sparse) term.coefficient();
                        for (int e = 0; e < a.ea.length; e++) {
                            double f = w * a.ea[e];
                            int po = a.ep[e] * s;
                            int qo = a.eq[e] * s;
                            for (int r = 0; r < s; r++) {
                                xs[qo + r] += f * xb[po + r];
                            }
                        }
                    }
                    t = gemm(s, xs, zi[b]);
                    double[] xr = curXrdzi[b];
                    for (int k = 0; k < t.length; k++) {
                        t[k] += xr[k];
                    }
                } else {
                    t = gemm(n[b], gemm(n[b], x[b], dz[b]), zi[b]);
                }
                if (split && rankOne[b] != null) {
                    subtractRankOne(b, dy, r1Xu[b], t);
                }
                for (int k = 0; k < t.length; k++) {
                    dx[b][k] = rczi[b][k] - t[k];
                }
                symmetrize(n[b], dx[b]);
            }
        }
        return dx;
    }

    /** Largest α with X + α dX ⪰ 0 (+∞ if every α ≥ 0 works), given the Cholesky factors of the SDP blocks. */
    private double maxStep(Cholesky[] chol, double[][] x, double[][] dx) {
        return maxStep(chol, x, dx, true);
    }

    /**
     * Largest α with X + α dX ⪰ 0; with {@code lanczos}, blocks of size ≥ {@link StepLength#MIN_SIZE} estimate
     * λ_min(L⁻¹ dX L⁻ᵀ) by the Lanczos method ({@link StepLength}), the others (and a Lanczos run that does not
     * converge) compute it densely.
     */
    private double maxStep(Cholesky[] chol, double[][] x, double[][] dx, boolean lanczos) {
        double best = Double.POSITIVE_INFINITY;
        for (int b = 0; b < nb; b++) {
            if (lp[b]) {
                for (int k = 0; k < n[b]; k++) {
                    if (dx[b][k] < 0) {
                        best = Math.min(best, -x[b][k] / dx[b][k]);
                    }
                }
            } else {
                int s = n[b];
                Matrix l = chol[b].lower();
                if (lanczos && s >= StepLength.MIN_SIZE) {
                    double lam = StepLength.minEigenvalue(l.data(), dx[b], s);
                    if (!Double.isNaN(lam)) {
                        if (lam < 0) {
                            best = Math.min(best, -1.0 / lam);
                        }
                        continue;
                    }
                }
                Matrix w = Matrix.wrap(s, s, dx[b].clone());
                Matrix wt = blas(productFlops(s), () -> {
                    Linalg.solveLowerInPlace(l, false, w); // L⁻¹ dX
                    Matrix t = w.transpose();
                    Linalg.solveLowerInPlace(l, false, t); // L⁻¹ dX L⁻ᵀ
                    return t;
                });
                wt.symmetrizeInPlace();
                double lmin = Linalg.eigvalsh(wt)[0];
                if (lmin < 0) {
                    best = Math.min(best, -1.0 / lmin);
                }
            }
        }
        return best;
    }

    // ------------------------------------------------------------------ Schur complement

    /**
     * The Schur complement M_ij = ⟨A_i, X A_j Z⁻¹⟩ at given X and Z⁻¹ (per block, dense or diagonal), as the solver
     * forms it; for tests against a brute-force computation.
     */
    static Matrix schurMatrix(SdpProblem problem, double[][] x, double[][] zInverse, boolean dense) {
        return new SdpSolver(problem, SdpOptions.defaults()).schur(x, zInverse, dense);
    }

    /**
     * The Schur complement with every sparse constraint column formed by one formula of Fujisawa, Kojima and Nakata
     * (1997, §3): {@code formula} 1 (F1: G = X A_j Z⁻¹ densely, then ⟨A_i, G⟩), 2 (F2: X A_j Z⁻¹ only on the
     * columns of A_j's support) or 3 (F3: the double sum over the nonzeros of A_i and A_j); 0 picks per column by
     * the operation count, as the solver does. For tests.
     */
    static Matrix schurMatrix(SdpProblem problem, double[][] x, double[][] zInverse, int formula) {
        SdpSolver s = new SdpSolver(problem, SdpOptions.defaults());
        s.forcedFormula = formula;
        return s.schur(x, zInverse, false);
    }

    /**
     * The Schur complement as the solver forms it when the problem has dense rank-one constraint matrices
     * ({@link RankOne}): their rows from X u (compensated) and Z⁻¹ u = {@code zInverse}·u; for tests.
     */
    static Matrix schurMatrixRankOne(SdpProblem problem, double[][] x, double[][] zInverse) {
        SdpSolver s = new SdpSolver(problem, SdpOptions.defaults());
        s.r1Xu = new double[s.nb][][];
        s.r1Zu = new double[s.nb][][];
        for (int b = 0; b < s.nb; b++) {
            if (s.rankOne[b] != null) {
                s.r1Xu[b] = s.timesRankOne(b, x[b], true);
                s.r1Zu[b] = s.timesRankOne(b, zInverse[b], false);
            }
        }
        return s.schur(x, zInverse, false);
    }

    /** The number of constraint matrices the solver treats as dense rank one ({@link RankOne}); for tests. */
    static int rankOneTerms(SdpProblem problem) {
        int count = 0;
        for (RankOne[] r : new SdpSolver(problem, SdpOptions.defaults()).rankOne) {
            count += r == null ? 0 : r.length;
        }
        return count;
    }

    /**
     * F3 is chosen only when its operation count is 4× below F1's and F2's: its inner loop reads X and Z⁻¹ at
     * scattered positions (two cache misses per term where F2 streams a row), and on small blocks (SDPLIB's hinf)
     * the F2 count it undercuts is a few hundred operations, where switching formulas only reorders the sums.
     */
    static final double F3_ADVANTAGE = 4.0;

    /** 0: choose F1/F2/F3 per constraint by the operation count; 1–3: always that formula (tests). */
    private int forcedFormula;

    private Matrix schur(double[][] x, double[][] zi, boolean dense) {
        double[] mm = new double[m * m];
        for (int b = 0; b < nb; b++) {
            if (lp[b]) {
                schurLp(b, x[b], zi[b], mm);
            } else {
                schurSdp(b, x[b], zi[b], mm, dense);
            }
        }
        Matrix out = Matrix.wrap(m, m, mm);
        return out;
    }

    private void add(double[] mm, int i, int j, double v) {
        mm[i + j * m] += v;
        if (i != j) {
            mm[j + i * m] += v;
        }
    }

    private void schurLp(int b, double[] x, double[] zi, double[] mm) {
        for (int k = 0; k < n[b]; k++) {
            double d = x[k] * zi[k];
            int[] cons = lpCons[b][k];
            double[] vals = lpVals[b][k];
            for (int a = 0; a < cons.length; a++) {
                double va = vals[a] * d;
                for (int c = 0; c <= a; c++) {
                    add(mm, cons[a], cons[c], va * vals[c]);
                }
            }
        }
    }

    /**
     * The Schur entries of block b's dense rank-one terms A_k = d u uᵀ against every sparse term of the block:
     * ⟨A_k, X A_j Z⁻¹⟩ = d (X u)ᵀ A_j (Z⁻¹ u), from the accurate X u and Z⁻¹ u of the iteration (r1Xu, r1Zu).
     */
    private void schurRankOne(int b, double[] mm) {
        List<SdpProblem.Term> sp = sparseTerms.get(b);
        RankOne[] r1 = rankOne[b];
        for (int k = 0; k < r1.length; k++) {
            double[] xu = r1Xu[b][k];
            double[] zu = r1Zu[b][k];
            int ck = r1[k].term.constraint();
            for (SdpProblem.Term tj : sp) {
                int kj = -1;
                for (int q = 0; q < r1.length; q++) {
                    if (r1[q].term == tj) {
                        kj = q;
                    }
                }
                if (kj >= 0 && kj < k) {
                    continue; // the pair was added from the other side
                }
                Coefficient.Sparse aj = (Coefficient.Sparse) tj.coefficient();
                double v = 0;
                for (int e = 0; e < aj.ea.length; e++) {
                    v += aj.ea[e] * xu[aj.ep[e]] * zu[aj.eq[e]];
                }
                add(mm, ck, tj.constraint(), r1[k].d * v);
            }
        }
    }

    private void schurSdp(int b, double[] x, double[] zi, double[] mm, boolean dense) {
        int s = n[b];
        List<SdpProblem.Term> sp = sparseTerms.get(b);
        List<SdpProblem.Term> lr = lowRankTerms.get(b);
        int ns = sp.size();
        long[] suffix = new long[ns + 1];
        for (int k = ns - 1; k >= 0; k--) {
            suffix[k] = suffix[k + 1] + ((Coefficient.Sparse) sp.get(k).coefficient()).expandedCount();
        }
        int[] pos = new int[s];
        Arrays.fill(pos, -1);
        double[] t = null;
        boolean[] skip = new boolean[ns];
        boolean r1 = r1Xu != null && rankOne[b] != null;
        if (r1) {
            for (int ii = 0; ii < ns; ii++) {
                skip[ii] = isRankOne(rankOne[b], sp.get(ii));
            }
            schurRankOne(b, mm);
        }
        for (int jj = 0; jj < ns; jj++) {
            if (skip[jj]) {
                continue;
            }
            Coefficient.Sparse aj = (Coefficient.Sparse) sp.get(jj).coefficient();
            int j = sp.get(jj).constraint();
            int nnz = aj.expandedCount();
            int k = aj.support.length;
            // operation counts of the three formulas of Fujisawa, Kojima & Nakata (1997, §3) for this column
            double costDense = 2.0 * s * s * s + (double) s * nnz + suffix[jj];
            double costSparse = (double) s * nnz + (double) k * s + (double) k * suffix[jj];
            double costVerySparse = 2.0 * nnz * suffix[jj];
            int formula = dense ? 1 : forcedFormula != 0 ? forcedFormula
                    : F3_ADVANTAGE * costVerySparse <= Math.min(costDense, costSparse) ? 3
                    : costDense < costSparse ? 1 : 2;
            if (formula == 3) {
                // F3: M_ij = Σ_{(p,q) ∈ A_i} Σ_{(r,t) ∈ A_j} a_pq b_rt X(q,r) Z⁻¹(t,p), no intermediate matrix
                for (int ii = jj; ii < ns; ii++) {
                    if (skip[ii]) {
                        continue;
                    }
                    Coefficient.Sparse ai = (Coefficient.Sparse) sp.get(ii).coefficient();
                    double v = 0;
                    for (int f = 0; f < nnz; f++) {
                        int xr = aj.ep[f] * s; // X(q, r) = X[q + r s]
                        int zt = aj.eq[f];     // Z⁻¹(t, p) = Z⁻¹[t + p s]
                        double w = 0;
                        for (int e = 0; e < ai.ea.length; e++) {
                            w += ai.ea[e] * x[ai.eq[e] + xr] * zi[zt + ai.ep[e] * s];
                        }
                        v += aj.ea[f] * w;
                    }
                    add(mm, sp.get(ii).constraint(), j, v);
                }
            } else if (formula == 1) {
                if (t == null) {
                    t = new double[s * s];
                } else {
                    Arrays.fill(t, 0);
                }
                for (int e = 0; e < nnz; e++) { // T(:, q) += a X(:, p)
                    int pp = aj.ep[e] * s;
                    int qq = aj.eq[e] * s;
                    double a = aj.ea[e];
                    for (int r = 0; r < s; r++) {
                        t[qq + r] += a * x[pp + r];
                    }
                }
                double[] g = gemm(s, t, zi);
                for (int ii = jj; ii < ns; ii++) {
                    if (skip[ii]) {
                        continue;
                    }
                    Coefficient.Sparse ai = (Coefficient.Sparse) sp.get(ii).coefficient();
                    double v = 0;
                    for (int e = 0; e < ai.ea.length; e++) {
                        v += ai.ea[e] * g[ai.ep[e] + ai.eq[e] * s];
                    }
                    add(mm, sp.get(ii).constraint(), j, v);
                }
            } else {
                int[] sup = aj.support;
                for (int c = 0; c < k; c++) {
                    pos[sup[c]] = c;
                }
                // T(:, sup[c]) = Σ_{e: q_e = sup[c]} a_e X(:, p_e), one contiguous axpy per entry (X is exactly
                // symmetric, so its row p_e is its column p_e); every T(r, c) receives the same products in the same
                // order as in a loop over r outside the entries, so the values are the same, but the loop over r
                // reads X and T with stride 1 (gpp's all-ones constraint: s·nnz = 1.9e6 such updates per iteration
                // on gpp124, where the strided form took most of the Schur assembly)
                double[] tcol = new double[s * k]; // tcol[r + c s] = T(r, sup[c])
                for (int e = 0; e < nnz; e++) {
                    int cs = pos[aj.eq[e]] * s;
                    int ps = aj.ep[e] * s;
                    double a = aj.ea[e];
                    for (int r = 0; r < s; r++) {
                        tcol[cs + r] += a * x[ps + r];
                    }
                }
                double[] tct = new double[k * s]; // tct[c + r k] = T(r, sup[c])
                for (int c = 0; c < k; c++) {
                    for (int r = 0; r < s; r++) {
                        tct[c + r * k] = tcol[r + c * s];
                    }
                }
                double[] zs = new double[k * s]; // zs[c + col k] = Zi(sup[c], col)
                for (int col = 0; col < s; col++) {
                    for (int c = 0; c < k; c++) {
                        zs[c + col * k] = zi[sup[c] + col * s];
                    }
                }
                for (int ii = jj; ii < ns; ii++) {
                    if (skip[ii]) {
                        continue;
                    }
                    Coefficient.Sparse ai = (Coefficient.Sparse) sp.get(ii).coefficient();
                    double v = 0;
                    for (int e = 0; e < ai.ea.length; e++) {
                        int ro = ai.ep[e] * k;
                        int co = ai.eq[e] * k;
                        double d = 0;
                        for (int c = 0; c < k; c++) {
                            d += tct[ro + c] * zs[co + c];
                        }
                        v += ai.ea[e] * d;
                    }
                    add(mm, sp.get(ii).constraint(), j, v);
                }
                for (int c = 0; c < k; c++) {
                    pos[sup[c]] = -1;
                }
            }
        }
        if (lr.isEmpty()) {
            return;
        }
        // low-rank terms
        int nl = lr.size();
        int[] off = new int[nl + 1];
        for (int a = 0; a < nl; a++) {
            off[a + 1] = off[a] + ((Coefficient.LowRank) lr.get(a).coefficient()).rank();
        }
        int rr = off[nl];
        double[] uall = new double[s * rr];
        double[] dblk = new double[rr * rr];
        for (int a = 0; a < nl; a++) {
            Coefficient.LowRank c = (Coefficient.LowRank) lr.get(a).coefficient();
            int k = c.rank();
            System.arraycopy(c.u.data(), 0, uall, off[a] * s, s * k);
            for (int q = 0; q < k; q++) {
                for (int r = 0; r < k; r++) {
                    dblk[(off[a] + r) + (off[a] + q) * rr] = c.d[r + q * k];
                }
            }
        }
        Matrix u = Matrix.wrap(s, rr, uall);
        double lrFlops = 2.0 * s * s * rr;
        Matrix xu = blas(lrFlops, () -> Linalg.gemm(1.0, Matrix.wrap(s, s, x), false, u, false));
        Matrix zu = blas(lrFlops, () -> Linalg.gemm(1.0, Matrix.wrap(s, s, zi), false, u, false));
        Matrix wx = Linalg.gemm(1.0, u, true, xu, false);
        Matrix wz = Linalg.gemm(1.0, u, true, zu, false);
        // P = D Wx (row-block a uses D_a), Q = D Wz; M_ij = tr(P_ij Q_ji)
        double[] pm = blockDiagTimes(off, dblk, rr, wx.data(), rr);
        double[] qm = blockDiagTimes(off, dblk, rr, wz.data(), rr);
        for (int a = 0; a < nl; a++) {
            for (int c = 0; c <= a; c++) {
                double v = 0;
                for (int r = off[a]; r < off[a + 1]; r++) {
                    for (int q = off[c]; q < off[c + 1]; q++) {
                        v += pm[r + q * rr] * qm[q + r * rr];
                    }
                }
                add(mm, lr.get(a).constraint(), lr.get(c).constraint(), v);
            }
        }
        if (ns == 0) {
            return;
        }
        double[] xud = timesBlockDiag(s, xu.data(), off, dblk, rr); // (XU)D
        double[] zud = zu.data();
        for (SdpProblem.Term ti : sp) {
            Coefficient.Sparse ai = (Coefficient.Sparse) ti.coefficient();
            for (int c = 0; c < nl; c++) {
                double v = 0;
                for (int e = 0; e < ai.ea.length; e++) {
                    int r = ai.ep[e];
                    int q = ai.eq[e];
                    double d = 0;
                    for (int w = off[c]; w < off[c + 1]; w++) {
                        d += xud[r + w * s] * zud[q + w * s];
                    }
                    v += ai.ea[e] * d;
                }
                add(mm, ti.constraint(), lr.get(c).constraint(), v);
            }
        }
    }
}
