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
 * The loop and its rules are {@link IpmCore}'s; this class supplies the double-precision operations
 * ({@link IpmOperations}) on general coefficient matrices and what happens after the loop (best iterate,
 * double-double restart, diagnosis).
 *
 * <p>Each iteration forms the Schur complement M_ij = ⟨A_i, X A_j Z⁻¹⟩ block by block ({@link DoubleSchur}) and
 * factors it with Cholesky ({@link Linalg#cholesky}). The formation exploits the stored form of every A_i: for a sparse A_j it picks, by an
 * operation count, either the dense formula (G = X A_j Z⁻¹ by GEMM, then sparse inner products ⟨A_i, G⟩) or a sparse
 * one that only touches the columns of X A_j in the support of A_j; for low-rank A_i = U_i D_i U_iᵀ it uses
 * M_ij = tr(D_i U_iᵀ X U_j D_j U_jᵀ Z⁻¹ U_i); diagonal (LP) blocks contribute Σ_k a_ik a_jk x_k / z_k. These are the
 * formulas F1 (dense) and F2 (sparse) of Fujisawa, Kojima &amp; Nakata (1997); their F3 (a double sum over the
 * nonzeros of A_i and A_j) is used where its count is {@value DoubleSchur#F3_ADVANTAGE}× lower.
 *
 * <p>Step lengths on blocks of size ≥ {@value StepLength#MIN_SIZE} come from a Lanczos estimate of
 * λ_min(L⁻¹ dX L⁻ᵀ) (Toh 2002; {@link StepLength}); the new X and Z must then factor without jitter, else the step
 * is recomputed with the dense eigenvalue computation. Those factors serve the next iteration.
 *
 * <p>Near the optimum the Schur complement becomes ill-conditioned. Each direction therefore gets up to
 * {@code IpmSettings.refineSteps} steps of iterative refinement of dy against the exact operator, and dX is then corrected by
 * the least-norm Σ w_i A_i that restores A(dX) = b − A(X) (Gram matrix ⟨A_i, A_j⟩, factored once). The solver keeps
 * the best iterate and stops when it has not improved for {@code IpmSettings.stagnationIterations} iterations.
 *
 * <p>When that double-precision run ends without meeting the tolerances (a stall, typically on problems without a
 * strictly feasible point such as SDPLIB's hinf and qap, or an iteration limit reached while stalled) and the problem
 * is small enough ({@link DdSdpSolver#applicable}), the same method is run again in double-double arithmetic
 * ({@link DdSdpSolver}): from the best well-centred double iterate ({@link IpmSettings#warmStartCentrality()}) when there is one,
 * and from the standard start if that misses a tolerance. Its result replaces the double-precision one when it scores
 * better. Its gap and infeasibilities are those of the returned (rounded) point, so they certify the returned
 * value.
 *
 * <p>A run that ends neither optimal nor infeasible gets a verified lower bound on (P)'s optimal value
 * ({@link SdpResult#lowerBound()}: bᵀy of a dual iterate whose slack, recomputed from the data, is positive definite
 * beyond the rounding errors), and the status {@link SdpStatus#ILL_POSED} when its iterates diverged far beyond the
 * data ({@link IpmSettings#illPosedRatio()}), the sign that one side has no strictly feasible point and the other side's
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

    /** The method's constants (one record for the double, double-double and Kernel SoS iterations). */
    private static final IpmSettings S = IpmSettings.DEFAULT;


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
        this.schurAssembly = new DoubleSchur(m, n, lp, sparseTerms, lowRankTerms, lpCons, lpVals, rankOne,
                options.schur() == SdpOptions.SchurMode.DENSE);
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

    /** V u for every rank-one term of block b. */
    private double[][] timesRankOne(int b, double[] v) {
        return timesRankOne(b, v, false);
    }

    /** out −= Σ_{rank-one i} w_i d_i (V u_i)(Z⁻¹u_i)ᵀ on block b ({@link RankOne#subtract}). */
    private void subtractRankOne(int b, double[] w, double[][] vu, double[] out) {
        RankOne.subtract(rankOne[b], n[b], r1Zu[b], w, vu, out);
    }

    /** V u for every rank-one term of block b ({@link RankOne#times}); compensated sums if {@code compensated}. */
    private double[][] timesRankOne(int b, double[] v, boolean compensated) {
        return RankOne.times(rankOne[b], n[b], v, compensated);
    }

    // the Schur complement's assembly (block structure, formulas F1–F3, rank-one and low-rank terms)
    private final DoubleSchur schurAssembly;
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

    /** Solves with default options. */
    public static SdpResult solve(SdpProblem problem) {
        return solve(problem, SdpOptions.defaults());
    }

    public static SdpResult solve(SdpProblem problem, SdpOptions options) {
        checkMemory("the SDP", problem.constraints(), problem.signedSizes());
        return Diagnosis.scaleDiagnosis(problem, Threads.blasCapped(1, () -> new SdpSolver(problem, options).run()));
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
    static <T> T blas(double flops, java.util.function.Supplier<T> call) {
        return parallelBlas(flops) ? Threads.blasUncapped(call) : call.get();
    }

    /** Floating-point operations of an order-n product (2n³). */
    static double productFlops(int n) {
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

    static double[][] copy(double[][] a) {
        double[][] c = new double[a.length][];
        for (int b = 0; b < a.length; b++) {
            c[b] = a[b].clone();
        }
        return c;
    }

    private double inner(double[][] a, double[][] c) {
        return HkmDouble.inner(a, c);
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

    static double norm(double[][] a) {
        double s = 0;
        for (double[] x : a) {
            for (double v : x) {
                s += v * v;
            }
        }
        return Math.sqrt(s);
    }

    static double norm(double[] a) {
        double s = 0;
        for (double v : a) {
            s += v * v;
        }
        return Math.sqrt(s);
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
                if (w == 0 || r1 != null && RankOne.isRankOne(r1, t)) {
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

    static double[] gemm(int n, double[] a, double[] b) {
        Matrix c = blas(productFlops(n), () -> Linalg.gemm(1.0, Matrix.wrap(n, n, a), false, Matrix.wrap(n, n, b),
                false));
        return c.data();
    }

    static void symmetrize(int n, double[] a) {
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
        IpmCore.Setup setup = IpmCore.Setup.of(opt, S, opt.corrector());
        DoubleIteration it = new DoubleIteration();
        IpmCore.Outcome<BestIterate> out = IpmCore.run(it, setup);
        return finish(new End(out.status(), out.message(), it.x, it.z, it.y, out.last().stats(), out.iterations()),
                out.monitor(), it.warm, it.warmIter, it.diagnosis, setup.startNanos(), setup.startCpuNanos());
    }

    /** The first direction {dX, dZ, {dy}} and step lengths from the standard start (for tests). */
    static IpmCore.Probe<double[][][]> probe(SdpProblem problem) {
        SdpOptions options = SdpOptions.defaults();
        SdpSolver solver = new SdpSolver(problem, options);
        return IpmCore.probe(solver.new DoubleIteration(), IpmCore.Setup.of(options, S, true));
    }

    /**
     * The double-precision operations of {@link IpmCore} on this problem: the iterate, the residuals and factors of
     * the current iteration, and what the double-double restart may start from.
     */
    private final class DoubleIteration implements IpmOperations<BestIterate, double[][][]> {
        final double[][] x = zeros();
        final double[][] z = zeros();
        final double[] y = new double[m];
        private final double[] bv = p.b();
        private final double normB;
        private final double normC;
        // a double-double restart may follow: track the best well-centred iterate to start it from (the same with
        // the restart switched off, so that its double run and its answer are the default run's double phase: the
        // point it would hand over)
        private final boolean ddCandidate = DdSdpSolver.applicableWarm(p);
        private boolean handover; // see S.handoverStep()
        private double warmScore = Double.POSITIVE_INFINITY;
        double[][][] warm;
        int warmIter;
        // the largest divergence ratios seen (see IpmSettings.illPosedRatio), and dual iterates that may give a
        // lower bound
        final Diagnosis diagnosis;
        // the current iteration: residuals, A(X), the score, the factors, h0 and the start of the step phase
        private double[][] rd;
        private double[] rp;
        private double[] ax;
        private double score;
        private Factors f;
        private double[] h0;
        private long tStart;

        DoubleIteration() {
            StartingPoint.fill(x, z, n, lp, StartingPoint.scales(p));
            normB = norm(p.b());
            normC = norm(cDense);
            diagnosis = new Diagnosis(p, S, cDense, n, lp, SdpSolver.this::addAdjoint);
        }

        @Override
        public IpmCore.Measures measure() {
            rd = copy(cDense);
            for (int b = 0; b < nb; b++) {
                for (int k = 0; k < rd[b].length; k++) {
                    rd[b][k] -= z[b][k];
                }
            }
            addAdjoint(y, -1.0, rd);
            ax = opA(x);
            rp = new double[m];
            for (int i = 0; i < m; i++) {
                rp[i] = bv[i] - ax[i];
            }
            double xz = splitRankOne ? innerAccurate(x, z) : inner(x, z);
            return IpmCore.Measures.of(inner(cDense, x), Linalg.dot(bv, y), xz, norm(rp), norm(rd), normB, normC,
                    totalSize);
        }

        @Override
        public BestIterate snapshot(int iteration, IpmCore.Measures measures) {
            return BestIterate.copyOf(x, z, y, measures.stats(), iteration);
        }

        @Override
        public void observed(int iteration, double score, IpmCore.Measures ms) {
            this.score = score;
            if (iteration > 0) {
                diagnosis.track(x, z, y, rd, rp, ms.pobj(), ms.dobj(), ms.dinf() <= opt.feasibilityTolerance(), normB,
                        normC);
            }
        }

        @Override
        public StopReason certificate(IpmCore.Measures ms) {
            return InfeasibilityCertificate.of(cDense, rd, ax, ms.pobj(), ms.dobj(), opt.infeasibilityTolerance());
        }

        @Override
        public StopReason earlyStop(int iteration, IpmCore.Measures ms, IterateMonitor<BestIterate> monitor) {
            return SdpSolver.this.earlyStop(iteration, ms.xz(), handover, monitor);
        }

        @Override
        public String factor(int iteration) {
            tStart = System.nanoTime();
            try {
                f = SdpSolver.this.factor(x, z);
                tStart = System.nanoTime();
            } catch (LinalgException e) {
                return "factorisation failed at iteration " + iteration + ": " + e.getMessage();
            }
            if (ddCandidate && score < warmScore && wellCentred(f.lx(), x, z, S.warmStartCentrality())) {
                warmScore = score;
                warm = new double[][][] {copy(x), copy(z), {y.clone()}};
                warmIter = iteration - 1;
            }
            return null;
        }

        @Override
        public void prepareDirections() {
            h0 = rhsBase(rp, rd, x, f.zi());
        }

        @Override
        public double[][][] predictor() {
            return direction(h0, rp, HkmDouble.predictorRhs(x), rd, x, f.zi(), f.m());
        }

        @Override
        public double[][][] centred(double sigmaMu, double[][][] affine) {
            return direction(h0, rp, centring(sigmaMu, affine, rd, x, f.zi()), rd, x, f.zi(), f.m());
        }

        @Override
        public double maxPrimalStep(double[][][] d) {
            return maxStep(f.lx(), x, d[0]);
        }

        @Override
        public double maxDualStep(double[][][] d) {
            return maxStep(f.lz(), z, d[1]);
        }

        @Override
        public double affineMu(double[][][] a, double ap, double ad) {
            return SdpSolver.this.affineMu(x, z, a, ap, ad);
        }

        @Override
        public boolean finite(double[][][] d) {
            return allFinite(d[0]) && allFinite(d[1]);
        }

        @Override
        public String step(int iteration, double[][][] d, double ap, double ad) {
            double taken = takeStep(x, z, y, d, f.lx(), f.lz(), ap, ad);
            nanosStep += System.nanoTime() - tStart;
            handover = ddCandidate && warm != null && f.m().jitter() > 0 && taken < S.handoverStep();
            return null;
        }
    }

    /** Where the double run's loop ended: status, message, the last iterate, its statistics and the iterations. */
    private record End(SdpStatus status, String message, double[][] x, double[][] z, double[] y, double[] stats,
                       int iterations) {
    }

    /**
     * The answer of a double run that ended at {@code end}: the best iterate instead of the last one when the run
     * did not converge, the double-double restart when it applies ({@link DdRestart#run}), and the
     * diagnosis ({@link Diagnosis#diagnose}).
     */
    private SdpResult finish(End end, IterateMonitor<BestIterate> monitor, double[][][] warm, int warmIter,
                             Diagnosis diagnosis, long start, long startCpu) {
        SdpStatus status = end.status();
        String message = end.message();
        double[][] x = end.x();
        double[][] z = end.z();
        double[] y = end.y();
        double pobj = end.stats()[0];
        double dobj = end.stats()[1];
        double gap = end.stats()[2];
        double pinf = end.stats()[3];
        double dinf = end.stats()[4];
        int iter = end.iterations();
        final int doubleIterations = iter;
        if (status != SdpStatus.OPTIMAL && status != SdpStatus.PRIMAL_INFEASIBLE
                && status != SdpStatus.DUAL_INFEASIBLE && monitor.best() != null) {
            // return the best iterate seen (by the stopping measures), not the last one
            BestIterate best = monitor.best();
            x = best.x();
            z = best.z();
            y = best.y();
            pobj = best.stats()[0];
            dobj = best.stats()[1];
            gap = best.stats()[2];
            pinf = best.stats()[3];
            dinf = best.stats()[4];
            message += best.note();
            if (monitor.nearOptimal() && status != SdpStatus.TIME_LIMIT) {
                status = SdpStatus.NEAR_OPTIMAL;
            }
        }
        // the rule of DdRestart.applies
        boolean stalled = monitor.stalledAtLimit(iter);
        boolean restart = DdRestart.applies(p, status, stalled, warm != null);
        if (restart && !opt.doubleDouble()) {
            message += "; the double-double restart that would follow is switched off";
        } else if (restart) {
            long ddStart = System.nanoTime();
            DdRestart.Outcome rs = DdRestart.run(p, opt, warm, warmIter, iter, diagnosis, start, startCpu);
            SdpResult dd = rs.result();
            String how = rs.how();
            int ddIterations = dd == null ? iter : rs.iterations();
            if (dd != null) {
                nanosDd = System.nanoTime() - ddStart;
                double ddScore = score(dd);
                if (ddScore < monitor.bestScore() || monitor.best() == null) {
                    SdpStatus st = dd.status();
                    if (st != SdpStatus.OPTIMAL) {
                        st = ddScore < S.nearOptimalFactor() ? SdpStatus.NEAR_OPTIMAL
                                : st == SdpStatus.TIME_LIMIT || st == SdpStatus.ITERATION_LIMIT ? st
                                : SdpStatus.NUMERICAL_PROBLEMS;
                    } else if (ddScore >= 1) {
                        // the double-double iterate converged but its rounding to double misses a tolerance (when
                        // ‖y‖ is huge, rounding y costs ~u·‖y‖ of dual feasibility): near-optimal only within the
                        // IpmSettings.nearOptimalFactor of the tolerances, as for a double-precision result
                        st = ddScore < S.nearOptimalFactor() ? SdpStatus.NEAR_OPTIMAL : SdpStatus.NUMERICAL_PROBLEMS;
                    }
                    return diagnosis.diagnose(new SdpResult(st, dd.x(), dd.y(), dd.z(), dd.primalObjective(),
                            dd.dualObjective(), dd.relativeGap(), dd.primalInfeasibility(), dd.dualInfeasibility(),
                            ddIterations, (System.nanoTime() - start) * 1e-9, "double precision: " + message
                            + "; double-double restart " + how))
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
        return diagnosis.diagnose(new SdpResult(status, xm, y, zm, pobj, dobj, gap, pinf, dinf, iter, seconds,
                message)).withProfile(profile(start, doubleIterations));
    }

    /**
     * The double run's own stopping rules, tested before the shared ones of {@link IpmCore}: ⟨X, Z⟩ lost by
     * rounding (rank-one terms), then the hand-over to the double-double restart ({@code handoverStep}); null to go
     * on.
     */
    private StopReason earlyStop(int iter, double xz, boolean handover, IterateMonitor<BestIterate> monitor) {
        if (splitRankOne && iter > 0 && !(xz > 0) && monitor.bestIteration() > 0) {
            // ⟨X, Z⟩ of positive definite X and Z is positive; summed accurately (innerAccurate) it is not, so
            // the rounding of the stored iterates has lost the cone (Z's smallest eigenvalues, ~μ/λ_max(X),
            // below u·‖Z‖ when ‖Z‖ grows, as on gpp with |y_0| ~ 1e4): no later iterate can be trusted
            return new StopReason(SdpStatus.NUMERICAL_PROBLEMS, "<X,Z> = " + xz + " <= 0 at iteration " + iter
                    + ": the iterates left the cones by rounding");
        }
        if (handover && (!monitor.nearOptimal() || DdSdpSolver.work(p) <= S.nearOptimalRestartWork())) {
            return new StopReason(SdpStatus.NUMERICAL_PROBLEMS, "Schur complement singular (jitter) with a primal step "
                    + "below " + S.handoverStep() + " at iteration " + iter);
        }
        return null;
    }

    /** The factors of one iteration ({@link #factor}). */
    private record Factors(double[][] zi, Cholesky[] lx, Cholesky[] lz, Cholesky m) {
    }

    /**
     * Factors of one iteration: Cholesky factors of X and Z per dense block (those of the last step when it computed
     * them), Z⁻¹, the rank-one products, and the Cholesky factor of the Schur complement; the phase times go to the
     * profile.
     */
    private Factors factor(double[][] x, double[][] z) throws LinalgException {
        long tStart = System.nanoTime();
        double[][] zi = new double[nb][];
        Cholesky[] lx = new Cholesky[nb];
        Cholesky[] lz = new Cholesky[nb];
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
        schurAssembly.rankOneProducts(r1Xu, r1Zu);
        Matrix schur = schurAssembly.assemble(x, zi);
        long t2 = System.nanoTime();
        nanosSchur += t2 - t1;
        Cholesky mChol = Linalg.cholesky(schur);
        long t3 = System.nanoTime();
        nanosFactor += t3 - t2;
        return new Factors(zi, lx, lz, mChol);
    }

    /** h0 = r_p + A(X R_d Z⁻¹), the part of the Schur right-hand side shared by the predictor and corrector. */
    private double[] rhsBase(double[] rp, double[][] rd, double[][] x, double[][] zi) {
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
        return HkmDouble.rhsBase(rp, opA(xrdzi));
    }

    /**
     * ⟨X + ap dXa, Z + ad dZa⟩ / n: with rank-one terms summed accurately from the symmetrised points
     * ({@link #innerAccurate}), else plainly.
     */
    private double affineMu(double[][] x, double[][] z, double[][][] affine, double ap, double ad) {
        double[][] dxa = affine[0];
        double[][] dza = affine[1];
        if (splitRankOne) {
            return innerAccurate(stepped(x, dxa, ap), stepped(z, dza, ad)) / totalSize;
        }
        return HkmDouble.affineMu(x, z, dxa, dza, ap, ad, totalSize);
    }

    /**
     * R_c Z⁻¹ = σμ Z⁻¹ − X − dXa dZa Z⁻¹ for Mehrotra's corrector ({@code affine} = the predictor {dXa, dZa, {dya}}),
     * or σμ Z⁻¹ − X without it (null). With rank-one terms, their part of dXa dZa Z⁻¹ is an outer product
     * ({@link #subtractRankOne}).
     */
    private double[][] centring(double sigmaMu, double[][][] affine, double[][] rd, double[][] x, double[][] zi) {
        double[][] rczi = new double[nb][];
        if (affine == null) {
            for (int b = 0; b < nb; b++) {
                rczi[b] = HkmDouble.centredRhs(sigmaMu, zi[b], x[b], null);
            }
            return rczi;
        }
        double[][] dxa = affine[0];
        double[][] dza = affine[1];
        double[] dya = affine[2][0];
        double[][] dzaPart = dza;
        if (r1Xu != null) { // dZa without its rank-one terms, whose part of dXa dZa Z⁻¹ is an outer product
            dzaPart = copy(rd);
            addAdjoint(dya, -1.0, dzaPart, true);
        }
        for (int b = 0; b < nb; b++) {
            double[] t;
            if (lp[b]) {
                t = new double[n[b]];
                for (int k = 0; k < n[b]; k++) {
                    t[k] = dxa[b][k] * dza[b][k] * zi[b][k];
                }
            } else {
                t = gemm(n[b], gemm(n[b], dxa[b], dzaPart[b]), zi[b]);
                if (r1Xu != null && rankOne[b] != null) {
                    subtractRankOne(b, dya, timesRankOne(b, dxa[b]), t);
                }
            }
            rczi[b] = HkmDouble.centredRhs(sigmaMu, zi[b], x[b], t);
        }
        return rczi;
    }

    /**
     * Takes the steps ap along dX and ad along (dZ, dy), in place. The Lanczos step lengths are estimates: the new X
     * and Z must factor without jitter (their factors serve the next iteration); if one does not, its step is
     * recomputed densely. Returns the primal step taken.
     */
    private double takeStep(double[][] x, double[][] z, double[] y, double[][][] dir, Cholesky[] lx, Cholesky[] lz,
                            double ap, double ad) {
        double[][] dx = dir[0];
        double[][] dz = dir[1];
        double[] dy = dir[2][0];
        double[][] xNew = stepped(x, dx, ap);
        nextLx = strictFactors(xNew);
        if (nextLx == null) {
            ap = Math.min(1.0, S.stepFraction() * maxStep(lx, x, dx, false));
            xNew = stepped(x, dx, ap);
        }
        double[][] zNew = stepped(z, dz, ad);
        nextLz = strictFactors(zNew);
        if (nextLz == null) {
            ad = Math.min(1.0, S.stepFraction() * maxStep(lz, z, dz, false));
            zNew = stepped(z, dz, ad);
        }
        for (int b = 0; b < nb; b++) {
            x[b] = xNew[b];
            z[b] = zNew[b];
        }
        for (int i = 0; i < m; i++) {
            y[i] += ad * dy[i];
        }
        return ap;
    }

    /** A diagnosis of {@code problem} without iterates (for {@link Diagnosis#verifiedDualFeasible(SdpProblem, double[])}). */
    static Diagnosis diagnosis(SdpProblem problem) {
        SdpSolver solver = new SdpSolver(problem, SdpOptions.defaults());
        return new Diagnosis(problem, S, solver.cDense, solver.n, solver.lp, solver::addAdjoint);
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
        return DdRestart.score(r, opt);
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

    /**
     * Solves M dy = h0 − A(R_c Z⁻¹), then dZ = R_d − Σ dy_i A_i and dX = sym(R_c Z⁻¹ − X dZ Z⁻¹).
     * Returns {dX, dZ, {dy}}.
     */
    private double[][][] direction(double[] h0, double[] rp, double[][] rczi, double[][] rd, double[][] x, double[][] zi,
                                   Cholesky mChol) {
        double[] rhs = HkmDouble.schurRhs(h0, opA(rczi));
        double[] dy = mChol.solve(rhs);
        double[][] dx = dxOf(dy, rczi, rd, x, zi);
        // one step of iterative refinement against the exact operator: r = rhs − M dy = r_p − A(dX)
        double[] res = HkmDouble.primalMiss(rp, opA(dx));
        double rn = norm(res);
        for (int step = 0; step < S.refineSteps() && rn > S.refineThreshold() * (1 + norm(rhs)); step++) {
            double[] d = mChol.solve(res);
            double[] dyNew = dy.clone();
            for (int i = 0; i < m; i++) {
                dyNew[i] += d[i];
            }
            double[][] dxNew = dxOf(dyNew, rczi, rd, x, zi);
            double[] resNew = HkmDouble.primalMiss(rp, opA(dxNew));
            double rnNew = norm(resNew);
            if (!(rnNew < rn)) {
                break; // refinement no longer helps: rounding, not the factorisation, limits the accuracy
            }
            dy = dyNew;
            dx = dxNew;
            res = resNew;
            rn = rnNew;
        }
        // restore A(dX) = r_p, lost to rounding when X Z⁻¹ is ill-conditioned near the optimum
        res = HkmDouble.primalMiss(rp, opA(dx));
        double[] w = restoration.weights(res, norm(res), norm(rp));
        if (w != null) {
            addAdjoint(w, 1.0, dx);
        }
        double[][] dz = copy(rd);
        addAdjoint(dy, -1.0, dz);
        return new double[][][] {dx, dz, {dy}};
    }

    private Cholesky gram;
    /** The least-norm restoration of A(dX) = r_p ({@link HkmDouble.LeastNormCorrection}). */
    private final HkmDouble.LeastNormCorrection restoration =
            new HkmDouble.LeastNormCorrection(this::gram, S.refineThreshold());

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
                            DoubleSchur.addSym(g, m, cons[a], cons[c], vals[a] * vals[c]);
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
                    DoubleSchur.addSym(g, m, sp.get(ii).constraint(), sp.get(jj).constraint(), v);
                }
                ai.addToDense(scratch, -1.0);
            }
            LowRankBatch lr = batch(b);
            if (lr == null) {
                continue;
            }
            int rr = lr.rr;
            Matrix wu = Linalg.gemm(1.0, lr.u, true, lr.u, false);
            double[] pw = LowRankBatch.blockDiagTimes(lr.off, lr.d, rr, wu.data(), rr); // D Uᵀ U
            for (int a = 0; a < lr.cons.length; a++) {
                for (int c = 0; c <= a; c++) {
                    double v = 0;
                    for (int r = lr.off[a]; r < lr.off[a + 1]; r++) {
                        for (int q = lr.off[c]; q < lr.off[c + 1]; q++) {
                            v += pw[r + q * rr] * pw[q + r * rr];
                        }
                    }
                    DoubleSchur.addSym(g, m, lr.cons[a], lr.cons[c], v);
                }
            }
            double[] ud = LowRankBatch.timesBlockDiag(s, lr.u.data(), lr.off, lr.d, rr); // U D
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
                    DoubleSchur.addSym(g, m, ti.constraint(), lr.cons[c], v);
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
        DoubleSchur schur = new SdpSolver(problem, SdpOptions.defaults()).schurAssembly;
        schur.dense = dense;
        return schur.assemble(x, zInverse);
    }

    /**
     * The Schur complement with every sparse constraint column formed by one formula of Fujisawa, Kojima and Nakata
     * (1997, §3): {@code formula} 1 (F1: G = X A_j Z⁻¹ densely, then ⟨A_i, G⟩), 2 (F2: X A_j Z⁻¹ only on the
     * columns of A_j's support) or 3 (F3: the double sum over the nonzeros of A_i and A_j); 0 picks per column by
     * the operation count, as the solver does. For tests.
     */
    static Matrix schurMatrix(SdpProblem problem, double[][] x, double[][] zInverse, int formula) {
        SdpSolver s = new SdpSolver(problem, SdpOptions.defaults());
        s.schurAssembly.forcedFormula = formula;
        return s.schurAssembly.assemble(x, zInverse);
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
        s.schurAssembly.rankOneProducts(s.r1Xu, s.r1Zu);
        return s.schurAssembly.assemble(x, zInverse);
    }

    /** The number of constraint matrices the solver treats as dense rank one ({@link RankOne}); for tests. */
    static int rankOneTerms(SdpProblem problem) {
        int count = 0;
        for (RankOne[] r : new SdpSolver(problem, SdpOptions.defaults()).rankOne) {
            count += r == null ? 0 : r.length;
        }
        return count;
    }

}
