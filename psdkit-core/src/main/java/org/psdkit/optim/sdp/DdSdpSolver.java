package org.psdkit.optim.sdp;

import java.util.ArrayList;
import java.util.List;
import org.psdkit.linalg.Linalg;
import org.psdkit.linalg.Matrix;
import org.psdkit.linalg.Threads;
import org.psdkit.optim.sdp.DoubleDouble.Acc;
import org.psdkit.optim.sdp.DoubleDouble.Mat;

/**
 * The interior-point method of {@link SdpSolver} (HKM direction, Mehrotra predictor–corrector, infeasible start)
 * carried out entirely in double-double arithmetic ({@link DoubleDouble}), for small problems whose double-precision
 * run stalls: near the optimum of a problem without a strictly feasible point (hinf, qap) X and Z become so
 * ill-conditioned that the direction computed in double no longer makes progress. With ~32 digits the same
 * iteration continues to the requested tolerance.
 * The loop is {@link IpmCore}'s ({@link IpmCore.Variant#DOUBLE_DOUBLE}); this class supplies its double-double
 * operations.
 *
 * <p>Everything is dense per block; coefficients must be sparse (SDPA files are). The Schur complement is formed as
 * M_ij = ⟨A_i, X A_j Z⁻¹⟩ with G_j = X[:, supp A_j]·(A_j Z⁻¹)[supp A_j, :] and factored by double-double Cholesky.
 * Only the step length to the cone boundary (an eigenvalue of L⁻¹ dX L⁻ᵀ) is computed in double, from the rounded
 * double-double matrix; a step whose result fails the double-double Cholesky test is halved.
 */
final class DdSdpSolver {

    /** The method's constants (one record for the double, double-double and Kernel SoS iterations). */
    private static final IpmSettings S = IpmSettings.DEFAULT;

    /**
     * Cost limit of one iteration, in the estimate of {@link #applicable} (double-double multiply–adds of the Schur
     * formation and factorisation); the CPU time per iteration grows with it (per-problem figures:
     * docs/benchmarks/sdp.md). 2e8 admits control6 (1.9e8, certified) and qap9 (1.7e8) and keeps qap10 (4.2e8) out
     * of restarts from the standard start.
     */
    static final double MAX_WORK_PER_ITERATION = 2e8;

    private final SdpProblem p;
    private final SdpOptions opt;
    private final int m;
    private final int nb;
    private final int[] n;
    private final boolean[] lp;
    private final int totalSize;
    private final double[][] c; // C per block (dense n×n or diagonal), exact doubles
    private final double[] bv;
    // per block: expanded sparse terms
    private final List<List<DdTerm>> terms = new ArrayList<>();

    // per dense block: the last term index (in the block's term order) with an entry at position p + q·n
    // (neededLast, −1 if none) and the positions sorted by it, decreasing (neededOrder); the Schur assembly for term
    // j needs G_j exactly at the positions whose last term is ≥ j, a prefix of neededOrder
    private final List<int[]> neededLast = new ArrayList<>();
    private final List<int[]> neededOrder = new ArrayList<>();

    private DdSdpSolver(SdpProblem problem, SdpOptions options) {
        this.p = problem;
        this.opt = options;
        this.m = problem.constraints();
        this.nb = problem.blocks();
        this.n = new int[nb];
        this.lp = new boolean[nb];
        this.c = new double[nb][];
        this.bv = problem.b();
        int tot = 0;
        for (int b = 0; b < nb; b++) {
            n[b] = problem.blockSize(b);
            lp[b] = problem.isDiagonal(b);
            tot += n[b];
            c[b] = problem.denseC(b);
            List<DdTerm> list = new ArrayList<>();
            for (SdpProblem.Term t : problem.terms(b)) {
                Coefficient.Sparse s = (Coefficient.Sparse) t.coefficient();
                if (lp[b]) {
                    int k = s.entries();
                    int[] rows = new int[k];
                    double[] vals = new double[k];
                    for (int e = 0; e < k; e++) {
                        rows[e] = s.row(e);
                        vals[e] = s.value(e);
                    }
                    list.add(new DdTerm(t.constraint(), rows, rows, vals, rows, null));
                } else {
                    list.add(new DdTerm(t.constraint(), s.ep, s.eq, s.ea, s.support,
                            DdTerm.crossOf(s.ep, s.eq, s.ea, s.support.length)));
                }
            }
            terms.add(list);
            int[] last = new int[lp[b] ? 0 : n[b] * n[b]];
            java.util.Arrays.fill(last, -1);
            for (int k = 0; k < list.size() && !lp[b]; k++) {
                DdTerm t = list.get(k);
                for (int e = 0; e < t.ea().length; e++) {
                    last[t.ep()[e] + t.eq()[e] * n[b]] = k;
                }
            }
            neededLast.add(last);
            neededOrder.add(java.util.stream.IntStream.range(0, last.length).boxed()
                    .sorted((u, v) -> Integer.compare(last[v], last[u])).mapToInt(Integer::intValue).toArray());
        }
        this.totalSize = tot;
        // A(S) per constraint: its entries over all blocks in the order of opAPlain (blocks, then the block's terms,
        // then the term's entries), indexing the blocks laid end to end
        flatOffset = new int[nb];
        int flat = 0;
        for (int b = 0; b < nb; b++) {
            flatOffset[b] = flat;
            flat += lp[b] ? n[b] : n[b] * n[b];
        }
        flatSize = flat;
        consStart = new int[m + 1];
        for (int b = 0; b < nb; b++) {
            for (DdTerm t : terms.get(b)) {
                consStart[t.cons() + 1] += t.ea().length;
            }
        }
        for (int i = 0; i < m; i++) {
            consStart[i + 1] += consStart[i];
        }
        consIndex = new int[consStart[m]];
        consCoef = new double[consStart[m]];
        int[] fill = consStart.clone();
        for (int b = 0; b < nb; b++) {
            for (DdTerm t : terms.get(b)) {
                for (int e = 0; e < t.ea().length; e++) {
                    int k = fill[t.cons()]++;
                    consIndex[k] = flatOffset[b] + (lp[b] ? t.ep()[e] : t.ep()[e] + t.eq()[e] * n[b]);
                    consCoef[k] = t.ea()[e];
                }
            }
        }
        opAOrder = java.util.stream.IntStream.range(0, m).boxed()
                .sorted((u, v) -> Integer.compare(consStart[u + 1] - consStart[u], consStart[v + 1] - consStart[v]))
                .mapToInt(Integer::intValue).toArray();
        this.schurAssembly = new DdSchur(m, n, lp, terms, neededLast, neededOrder);
        this.gramChol = DoubleDouble.cholesky(Mat.of(m, m, SdpSolver.gramMatrix(problem).data()));
    }

    // opA's layout: block b's entries start at flatOffset[b] of the blocks laid end to end (flatSize in all);
    // constraint i's entries are consStart[i] … consStart[i+1]−1 (position consIndex, coefficient consCoef); opAOrder:
    // the constraints by entry count
    private final int[] flatOffset;
    private final int flatSize;
    private final int[] consStart;
    private final int[] consIndex;
    private final double[] consCoef;
    private final int[] opAOrder;
    // opA's copy of S, blocks end to end (reused by every call: opA runs on the solving thread only)
    private double[] opAFlatH;
    private double[] opAFlatL;
    /** Whether {@link #opA} interleaves four constraints (tests compare with {@link #opAPlain}). */
    boolean interleavedOpA = true;

    /** The Schur complement's assembly. */
    final DdSchur schurAssembly;

    /** Double-double Cholesky factor of the Gram matrix ⟨A_i, A_j⟩ (null if the A_i are linearly dependent). */
    private final Mat gramChol;
    /**
     * Rounds of the feasibility correction: the Gram matrix is formed in double (relative error ~1e-16·κ), so each
     * round multiplies the residual by ~1e-16·κ; two rounds reach double-double accuracy for κ up to ~1e4 (SDPLIB).
     */
    static final int GRAM_ROUNDS = 2;

    /**
     * Cost limit of one iteration for a restart that starts from a well-centred double-precision iterate
     * ({@link #solve(SdpProblem, SdpOptions, int, double, double[][], double[], double[][])}): such a restart needs
     * about half the iterations of one from the standard start (qap9: 16 instead of 26), so twice the per-iteration
     * cost fits the same time. 4.5e8 admits qap10 (4.2e8) and keeps theta3 (5.4e8) and everything larger out.
     */
    static final double MAX_WARM_WORK_PER_ITERATION = 4.5e8;

    /** Whether the problem suits this solver: sparse coefficients only and a per-iteration cost under the limit. */
    static boolean applicable(SdpProblem problem) {
        return work(problem) <= MAX_WORK_PER_ITERATION;
    }

    /** Whether a restart from a well-centred double iterate suits the problem ({@link #MAX_WARM_WORK_PER_ITERATION}). */
    static boolean applicableWarm(SdpProblem problem) {
        return work(problem) <= MAX_WARM_WORK_PER_ITERATION;
    }

    /** Estimated double-double multiply–adds of one iteration (+∞ when a coefficient is not sparse). */
    static double work(SdpProblem problem) {
        int m = problem.constraints();
        double work = m * (double) m * m / 3.0;
        for (int b = 0; b < problem.blocks(); b++) {
            int s = problem.blockSize(b);
            if (problem.c(b) != null && !(problem.c(b) instanceof Coefficient.Sparse)) {
                return Double.POSITIVE_INFINITY;
            }
            double nnz = 0;
            for (SdpProblem.Term t : problem.terms(b)) {
                if (!(t.coefficient() instanceof Coefficient.Sparse sp)) {
                    return Double.POSITIVE_INFINITY;
                }
                nnz += sp.expandedCount();
                if (!problem.isDiagonal(b)) {
                    work += (double) s * s * sp.support.length + (double) s * sp.expandedCount();
                }
            }
            work += problem.isDiagonal(b) ? 0 : 10.0 * s * s * s + nnz * problem.terms(b).size() / 2.0;
        }
        return work;
    }

    /** A solver for {@code problem} with default options (for tests of its parts). */
    static DdSdpSolver of(SdpProblem problem) {
        return new DdSdpSolver(problem, SdpOptions.defaults());
    }

    /** The run from the standard start with this instance's settings (for tests). */
    SdpResult solveFromStandardStart() {
        return run(0, 0, null);
    }

    /**
     * Solves from the standard start. Called from {@link SdpSolver#solve}, whose cap keeps OpenBLAS at one thread
     * here ({@link Threads#blasCapped}): the BLAS/LAPACK calls of this run are small (eigenvalues of the n×n blocks
     * for the step lengths), and the second core belongs to the Java workers of the double-double kernels.
     */
    static SdpResult solve(SdpProblem problem, SdpOptions options, int firstIteration, double secondsLeft) {
        return new DdSdpSolver(problem, options).run(firstIteration, secondsLeft, null);
    }

    /**
     * As {@link #solve(SdpProblem, SdpOptions, int, double)}, but starting from the given iterate of the
     * double-precision run (blocks laid out as in {@link SdpSolver}: n×n column-major, or n entries for a diagonal
     * block) instead of the standard starting point. X₀ and Z₀ must be positive definite.
     */
    static SdpResult solve(SdpProblem problem, SdpOptions options, int firstIteration, double secondsLeft,
                           double[][] x0, double[] y0, double[][] z0) {
        return new DdSdpSolver(problem, options).run(firstIteration, secondsLeft, new double[][][] {x0, {y0}, z0});
    }

    // ------------------------------------------------------------------ block helpers

    private Mat[] zeros() {
        Mat[] z = new Mat[nb];
        for (int b = 0; b < nb; b++) {
            z[b] = lp[b] ? new Mat(n[b], 1) : new Mat(n[b], n[b]);
        }
        return z;
    }

    private static Mat[] copy(Mat[] a) {
        Mat[] out = new Mat[a.length];
        for (int b = 0; b < a.length; b++) {
            out[b] = a[b].copy();
        }
        return out;
    }

    private static void inner(Mat[] a, Mat[] b, Acc acc) {
        acc.set(0, 0);
        for (int k = 0; k < a.length; k++) {
            for (int e = 0; e < a[k].h.length; e++) {
                acc.addProduct(a[k].h[e], a[k].l[e], b[k].h[e], b[k].l[e]);
            }
        }
    }

    private static double normDouble(Mat[] a) {
        double s = 0;
        for (Mat x : a) {
            for (int e = 0; e < x.h.length; e++) {
                double v = x.h[e] + x.l[e];
                s += v * v;
            }
        }
        return Math.sqrt(s);
    }

    private static double normDouble(double[] h, double[] l) {
        double s = 0;
        for (int i = 0; i < h.length; i++) {
            double v = h[i] + l[i];
            s += v * v;
        }
        return Math.sqrt(s);
    }

    /** out = A(S) as hi/lo arrays. */
    void opA(Mat[] s, double[] outH, double[] outL) {
        if (!interleavedOpA) {
            opAPlain(s, outH, outL);
            return;
        }
        if (opAFlatH == null) {
            opAFlatH = new double[flatSize];
            opAFlatL = new double[flatSize];
        }
        double[] fh = opAFlatH;
        double[] fl = opAFlatL;
        Acc acc = new Acc(); // the chains' tails, one constraint after another
        for (int b = 0; b < nb; b++) {
            System.arraycopy(s[b].h, 0, fh, flatOffset[b], s[b].h.length);
            System.arraycopy(s[b].l, 0, fl, flatOffset[b], s[b].l.length);
        }
        // four constraints at a time (by entry count, so that the four chains have nearly the same length): each
        // chain is the accurate double-double sum of its constraint's products in the order of opAPlain, so every
        // result is bit-identical to it; the four chains are independent and overlap in the processor
        int g = 0;
        for (; g + 3 < m; g += 4) {
            int c0 = opAOrder[g];
            int c1 = opAOrder[g + 1];
            int c2 = opAOrder[g + 2];
            int c3 = opAOrder[g + 3];
            int b0 = consStart[c0];
            int b1 = consStart[c1];
            int b2 = consStart[c2];
            int b3 = consStart[c3];
            int len = Math.min(Math.min(consStart[c0 + 1] - b0, consStart[c1 + 1] - b1),
                    Math.min(consStart[c2 + 1] - b2, consStart[c3 + 1] - b3));
            double h0 = 0;
            double l0 = 0;
            double h1 = 0;
            double l1 = 0;
            double h2 = 0;
            double l2 = 0;
            double h3 = 0;
            double l3 = 0;
            for (int t = 0; t < len; t++) {
                int e = b0 + t;
                double a = consCoef[e];
                double xh = fh[consIndex[e]];
                double xl = fl[consIndex[e]];
                double p = a * xh;
                double q = Math.fma(a, xh, -p) + a * xl;
                double ph = p + q;
                double pl = q - (ph - p);
                double s1 = h0 + ph;
                double bb = s1 - h0;
                double er = (h0 - (s1 - bb)) + (ph - bb);
                double tt = l0 + pl;
                double tb = tt - l0;
                double f = (l0 - (tt - tb)) + (pl - tb);
                er += tt;
                double s2 = s1 + er;
                er = er - (s2 - s1);
                er += f;
                h0 = s2 + er;
                l0 = er - (h0 - s2);
                e = b1 + t;
                a = consCoef[e];
                xh = fh[consIndex[e]];
                xl = fl[consIndex[e]];
                p = a * xh;
                q = Math.fma(a, xh, -p) + a * xl;
                ph = p + q;
                pl = q - (ph - p);
                s1 = h1 + ph;
                bb = s1 - h1;
                er = (h1 - (s1 - bb)) + (ph - bb);
                tt = l1 + pl;
                tb = tt - l1;
                f = (l1 - (tt - tb)) + (pl - tb);
                er += tt;
                s2 = s1 + er;
                er = er - (s2 - s1);
                er += f;
                h1 = s2 + er;
                l1 = er - (h1 - s2);
                e = b2 + t;
                a = consCoef[e];
                xh = fh[consIndex[e]];
                xl = fl[consIndex[e]];
                p = a * xh;
                q = Math.fma(a, xh, -p) + a * xl;
                ph = p + q;
                pl = q - (ph - p);
                s1 = h2 + ph;
                bb = s1 - h2;
                er = (h2 - (s1 - bb)) + (ph - bb);
                tt = l2 + pl;
                tb = tt - l2;
                f = (l2 - (tt - tb)) + (pl - tb);
                er += tt;
                s2 = s1 + er;
                er = er - (s2 - s1);
                er += f;
                h2 = s2 + er;
                l2 = er - (h2 - s2);
                e = b3 + t;
                a = consCoef[e];
                xh = fh[consIndex[e]];
                xl = fl[consIndex[e]];
                p = a * xh;
                q = Math.fma(a, xh, -p) + a * xl;
                ph = p + q;
                pl = q - (ph - p);
                s1 = h3 + ph;
                bb = s1 - h3;
                er = (h3 - (s1 - bb)) + (ph - bb);
                tt = l3 + pl;
                tb = tt - l3;
                f = (l3 - (tt - tb)) + (pl - tb);
                er += tt;
                s2 = s1 + er;
                er = er - (s2 - s1);
                er += f;
                h3 = s2 + er;
                l3 = er - (h3 - s2);
            }
            finishChain(c0, len, h0, l0, fh, fl, outH, outL, acc);
            finishChain(c1, len, h1, l1, fh, fl, outH, outL, acc);
            finishChain(c2, len, h2, l2, fh, fl, outH, outL, acc);
            finishChain(c3, len, h3, l3, fh, fl, outH, outL, acc);
        }
        for (; g < m; g++) {
            finishChain(opAOrder[g], 0, 0, 0, fh, fl, outH, outL, acc);
        }
    }

    /**
     * The rest of constraint i's chain of {@link #opA} from its entry {@code from} on, started at (h, l), summed in
     * {@code a}.
     */
    private void finishChain(int i, int from, double h, double l, double[] fh, double[] fl, double[] outH,
                             double[] outL, Acc a) {
        a.set(h, l);
        for (int e = consStart[i] + from; e < consStart[i + 1]; e++) {
            a.addScaled(consCoef[e], fh[consIndex[e]], fl[consIndex[e]]);
        }
        outH[i] = a.hi;
        outL[i] = a.lo;
    }

    /** {@link #opA} term by term (the reference of the interleaved one; tests compare the two). */
    void opAPlain(Mat[] s, double[] outH, double[] outL) {
        Acc[] acc = new Acc[m];
        for (int i = 0; i < m; i++) {
            acc[i] = new Acc();
        }
        for (int b = 0; b < nb; b++) {
            int size = n[b];
            for (DdTerm t : terms.get(b)) {
                Acc a = acc[t.cons()];
                for (int e = 0; e < t.ea().length; e++) {
                    int idx = lp[b] ? t.ep()[e] : t.ep()[e] + t.eq()[e] * size;
                    a.addScaled(t.ea()[e], s[b].h[idx], s[b].l[idx]);
                }
            }
        }
        for (int i = 0; i < m; i++) {
            outH[i] = acc[i].hi;
            outL[i] = acc[i].lo;
        }
    }

    /** out += scale · Σ_i y_i A_i. */
    private void addAdjoint(double[] yh, double[] yl, double scale, Mat[] out) {
        Acc a = new Acc();
        for (int b = 0; b < nb; b++) {
            int size = n[b];
            Mat o = out[b];
            for (DdTerm t : terms.get(b)) {
                double wh = scale * yh[t.cons()];
                double wl = scale * yl[t.cons()];
                if (wh == 0 && wl == 0) {
                    continue;
                }
                for (int e = 0; e < t.ea().length; e++) {
                    int idx = lp[b] ? t.ep()[e] : t.ep()[e] + t.eq()[e] * size;
                    a.set(o.h[idx], o.l[idx]).addScaled(t.ea()[e], wh, wl);
                    o.h[idx] = a.hi;
                    o.l[idx] = a.lo;
                }
            }
        }
    }

    /** X·S·Zi for one dense block (symmetrised). */
    private static Mat sandwich(Mat x, Mat s, Mat zi) {
        Mat t = DoubleDouble.times(DoubleDouble.times(x, s), zi);
        t.symmetrize();
        return t;
    }

    // ------------------------------------------------------------------ Schur complement

    /** M_ij = Σ_blocks ⟨A_i, X A_j Z⁻¹⟩ in double-double ({@link DdSchur#assemble(Mat[], Mat[], boolean)}). */
    Mat schur(Mat[] x, Mat[] zi, boolean onlyNeeded) {
        return schurAssembly.assemble(x, zi, onlyNeeded);
    }

    // ------------------------------------------------------------------ main loop

    private SdpResult run(int firstIteration, double secondsLeft, double[][][] warm) {
        long start = System.nanoTime();
        IpmCore.Setup setup = new IpmCore.Setup(opt, S, IpmCore.Variant.DOUBLE_DOUBLE, true, firstIteration,
                secondsLeft, "time limit reached", start, IpmCore.cpuNow(opt));
        DdIteration it = new DdIteration(firstIteration, warm);
        IpmCore.Outcome<DdBest> out = IpmCore.run(it, setup);
        SdpStatus status = out.status();
        String message = out.message();
        int iterations = firstIteration + out.iterations();
        IterateMonitor<DdBest> monitor = out.monitor();
        Mat[] x = it.x;
        Mat[] z = it.z;
        double[] yh = it.yh;
        double[] yl = it.yl;
        if (status != SdpStatus.OPTIMAL && monitor.best() != null) {
            DdBest best = monitor.best();
            x = best.x();
            z = best.z();
            yh = best.yh();
            yl = best.yl();
            message += "; returning the best iterate (double-double iteration " + monitor.bestIteration() + ")";
        }
        SdpResult result = result(status, x, z, yh, yl, iterations, (System.nanoTime() - start) * 1e-9, message,
                it.normB, it.normC, it.cm);
        if (it.bestRounded != null && it.bestRoundedScore < roundedScore(result)) {
            SdpResult r = it.bestRounded;
            result = new SdpResult(it.bestRoundedScore < 1 ? SdpStatus.OPTIMAL : status, r.x(), r.y(), r.z(),
                    r.primalObjective(), r.dualObjective(), r.relativeGap(), r.primalInfeasibility(),
                    r.dualInfeasibility(), iterations, (System.nanoTime() - start) * 1e-9,
                    message + "; returning the " + r.message() + ", whose rounding to double scores best");
        }
        return result;
    }

    /**
     * The first direction {dX, dZ, {dy}} (rounded to double) and step lengths from the standard start, computed in
     * double-double (for tests).
     */
    static IpmCore.Probe<double[][][]> probe(SdpProblem problem) {
        SdpOptions options = SdpOptions.defaults();
        DdSdpSolver solver = new DdSdpSolver(problem, options);
        IpmCore.Setup setup = new IpmCore.Setup(options, S, IpmCore.Variant.DOUBLE_DOUBLE, true, 0, 0, "",
                System.nanoTime(), 0);
        IpmCore.Probe<Mat[][]> pr = IpmCore.probe(solver.new DdIteration(0, null), setup);
        double[][][] d = new double[3][][];
        for (int k = 0; k < 3; k++) {
            Mat[] part = pr.direction()[k];
            d[k] = new double[part.length][];
            for (int b = 0; b < part.length; b++) {
                d[k][b] = part[b].toDouble();
            }
        }
        return new IpmCore.Probe<>(d, pr.ap(), pr.ad());
    }

    /**
     * The double-double operations of {@link IpmCore}: the iterate as high and low parts, the residuals and factors
     * of the current iteration, and the iterate whose rounding to double scores best.
     */
    private final class DdIteration implements IpmOperations<DdBest, Mat[][]> {
        private final int firstIteration;
        Mat[] x = zeros();
        Mat[] z = zeros();
        final double[] yh = new double[m];
        final double[] yl = new double[m];
        final Mat[] cm = new Mat[nb];
        final double normB;
        final double normC;
        private final Acc acc = new Acc();
        // rounding to double can cost accuracy when ‖y‖ is huge (dual optimum not attained): the iterate whose
        // rounded point scores best, checked once the double-double iterate is near the tolerance
        double bestRoundedScore = Double.POSITIVE_INFINITY;
        SdpResult bestRounded;
        // Cholesky factors of the current X and Z per dense block, when the step test computed them (else null)
        private Mat[] nextLx;
        private Mat[] nextLz;
        // the current iteration: residuals, factors, h0
        private Mat[] rd;
        private double[] rph;
        private double[] rpl;
        private DdFactors f;
        private double[] h0h;
        private double[] h0l;

        DdIteration(int firstIteration, double[][][] warm) {
            this.firstIteration = firstIteration;
            if (warm == null) {
                initialPoint(x, z);
            } else {
                for (int b = 0; b < nb; b++) {
                    x[b] = Mat.of(x[b].rows, x[b].cols, warm[0][b]);
                    z[b] = Mat.of(z[b].rows, z[b].cols, warm[2][b]);
                }
                System.arraycopy(warm[1][0], 0, yh, 0, m);
            }
            normB = Math.sqrt(Linalg.dot(bv, bv));
            for (int b = 0; b < nb; b++) {
                cm[b] = lp[b] ? Mat.of(n[b], 1, c[b]) : Mat.of(n[b], n[b], c[b]);
            }
            normC = normDouble(cm);
        }

        @Override
        public IpmCore.Measures measure() {
            rd = dualResidual(cm, z, yh, yl, acc);
            rph = new double[m];
            rpl = new double[m];
            primalResidual(x, rph, rpl, acc);
            inner(cm, x, acc);
            double pobj = acc.hi;
            acc.set(0, 0);
            for (int i = 0; i < m; i++) {
                acc.addProduct(bv[i], 0, yh[i], yl[i]);
            }
            double dobj = acc.hi;
            inner(x, z, acc);
            return IpmCore.Measures.of(pobj, dobj, acc.hi, normDouble(rph, rpl), normDouble(rd), normB, normC,
                    totalSize);
        }

        @Override
        public DdBest snapshot(int iteration, IpmCore.Measures measures) {
            return new DdBest(copy(x), copy(z), yh.clone(), yl.clone());
        }

        @Override
        public void observed(int iteration, double score, IpmCore.Measures measures) {
            if (iteration > 0 && score < S.nearOptimalFactor()) {
                SdpResult rounded = result(SdpStatus.NEAR_OPTIMAL, x, z, yh, yl, firstIteration + iteration, 0,
                        "rounded double-double iterate " + iteration, normB, normC, cm);
                double rs = roundedScore(rounded);
                if (rs < bestRoundedScore) {
                    bestRoundedScore = rs;
                    bestRounded = rounded;
                }
            }
        }

        @Override
        public String factor(int iteration) {
            f = DdSdpSolver.this.factor(x, z, nextLx, nextLz, acc);
            return f == null ? "double-double factorisation failed at iteration " + iteration : null;
        }

        @Override
        public void prepareDirections() {
            h0h = new double[m];
            h0l = new double[m];
            rhsBase(rph, rpl, rd, x, f.zi(), h0h, h0l, acc);
        }

        @Override
        public Mat[][] predictor() {
            Mat[] rczi = zeros();
            for (int b = 0; b < nb; b++) {
                for (int k = 0; k < rczi[b].h.length; k++) {
                    rczi[b].h[k] = -x[b].h[k];
                    rczi[b].l[k] = -x[b].l[k];
                }
            }
            return direction(h0h, h0l, rph, rpl, rczi, rd, x, f.zi(), f.m(), f.schur());
        }

        @Override
        public Mat[][] centred(double sigmaMu, Mat[][] affine) {
            return direction(h0h, h0l, rph, rpl, centring(sigmaMu, affine, x, f.zi(), acc), rd, x, f.zi(), f.m(),
                    f.schur());
        }

        @Override
        public double maxPrimalStep(Mat[][] d) {
            return maxStep(f.lx(), x, d[0]);
        }

        @Override
        public double maxDualStep(Mat[][] d) {
            return maxStep(f.lz(), z, d[1]);
        }

        @Override
        public double affineMu(Mat[][] a, double ap, double ad) {
            inner(axpy(x, ap, a[0]), axpy(z, ad, a[1]), acc);
            return acc.hi / totalSize;
        }

        @Override
        public String nonFinite(int iteration) {
            return "non-finite step at iteration " + iteration;
        }

        @Override
        public String step(int iteration, Mat[][] d, double ap, double ad) {
            DdStep st = takeStep(x, z, d, ap, ad);
            if (st == null) {
                return "no positive definite step at iteration " + iteration;
            }
            x = st.x();
            z = st.z();
            nextLx = reuseFactors ? st.fx() : null;
            nextLz = reuseFactors ? st.fz() : null;
            double[] dyh = d[2][0].h;
            double[] dyl = d[2][0].l;
            for (int i = 0; i < m; i++) {
                acc.set(yh[i], yl[i]).addScaled(st.ad(), dyh[i], dyl[i]);
                yh[i] = acc.hi;
                yl[i] = acc.lo;
            }
            return null;
        }
    }

    /** R_d = C − Z − Σ y_i A_i in double-double. */
    private Mat[] dualResidual(Mat[] cm, Mat[] z, double[] yh, double[] yl, Acc acc) {
        Mat[] rd = copy(cm);
        for (int b = 0; b < nb; b++) {
            for (int k = 0; k < rd[b].h.length; k++) {
                acc.set(rd[b].h[k], rd[b].l[k]).add(-z[b].h[k], -z[b].l[k]);
                rd[b].h[k] = acc.hi;
                rd[b].l[k] = acc.lo;
            }
        }
        addAdjoint(yh, yl, -1.0, rd);
        return rd;
    }

    /** r_p = b − A(X) in double-double, into {@code rph}/{@code rpl}. */
    private void primalResidual(Mat[] x, double[] rph, double[] rpl, Acc acc) {
        opA(x, rph, rpl);
        for (int i = 0; i < m; i++) {
            acc.set(bv[i], 0).add(-rph[i], -rpl[i]);
            rph[i] = acc.hi;
            rpl[i] = acc.lo;
        }
    }

    /** The factors of one double-double iteration: Z⁻¹, the Cholesky factors of X and Z, M and its factor. */
    private record DdFactors(Mat[] zi, Mat[] lx, Mat[] lz, Mat schur, Mat m) {
    }

    /**
     * Z⁻¹, the Cholesky factors of X and Z per dense block (those of the last step when it computed them), the Schur
     * complement and its (possibly shifted, {@link #choleskyWithJitter}) factor; null when one factorisation fails.
     */
    private DdFactors factor(Mat[] x, Mat[] z, Mat[] nextLx, Mat[] nextLz, Acc acc) {
        Mat[] zi = new Mat[nb];
        Mat[] lx = new Mat[nb];
        Mat[] lz = new Mat[nb];
        boolean ok = true;
        for (int b = 0; b < nb && ok; b++) {
            if (lp[b]) {
                zi[b] = new Mat(n[b], 1);
                for (int k = 0; k < n[b]; k++) {
                    DoubleDouble.div(1, 0, z[b].h[k], z[b].l[k], acc);
                    zi[b].h[k] = acc.hi;
                    zi[b].l[k] = acc.lo;
                }
            } else {
                lz[b] = nextLz != null ? nextLz[b] : DoubleDouble.cholesky(z[b]);
                lx[b] = nextLx != null ? nextLx[b] : DoubleDouble.cholesky(x[b]);
                ok = lz[b] != null && lx[b] != null;
                if (ok) {
                    zi[b] = DoubleDouble.inverseFromCholesky(lz[b]);
                }
            }
        }
        if (!ok) {
            return null;
        }
        Mat schurM = schur(x, zi, true);
        Mat mChol = choleskyWithJitter(schurM);
        return mChol == null ? null : new DdFactors(zi, lx, lz, schurM, mChol);
    }

    /** h0 = r_p + A(X R_d Z⁻¹) in double-double, into {@code h0h}/{@code h0l}. */
    private void rhsBase(double[] rph, double[] rpl, Mat[] rd, Mat[] x, Mat[] zi, double[] h0h, double[] h0l,
                         Acc acc) {
        Mat[] xrdzi = zeros();
        for (int b = 0; b < nb; b++) {
            if (lp[b]) {
                for (int k = 0; k < n[b]; k++) {
                    acc.set(0, 0).addProduct(x[b].h[k], x[b].l[k], rd[b].h[k], rd[b].l[k]);
                    double th = acc.hi;
                    double tl = acc.lo;
                    acc.set(0, 0).addProduct(th, tl, zi[b].h[k], zi[b].l[k]);
                    xrdzi[b].h[k] = acc.hi;
                    xrdzi[b].l[k] = acc.lo;
                }
            } else {
                xrdzi[b] = sandwich(x[b], rd[b], zi[b]);
            }
        }
        opA(xrdzi, h0h, h0l);
        for (int i = 0; i < m; i++) {
            acc.set(h0h[i], h0l[i]).add(rph[i], rpl[i]);
            h0h[i] = acc.hi;
            h0l[i] = acc.lo;
        }
    }

    /** R_c Z⁻¹ = σμ Z⁻¹ − X − dXa dZa Z⁻¹ in double-double, for the predictor {dXa, dZa, …}. */
    private Mat[] centring(double sigmaMu, Mat[][] dir, Mat[] x, Mat[] zi, Acc acc) {
        Mat[] rczi = zeros();
        for (int b = 0; b < nb; b++) {
            Mat dxa = dir[0][b];
            Mat dza = dir[1][b];
            if (lp[b]) {
                for (int k = 0; k < n[b]; k++) {
                    acc.set(0, 0).addScaled(sigmaMu, zi[b].h[k], zi[b].l[k]);
                    acc.add(-x[b].h[k], -x[b].l[k]);
                    double th = DoubleDouble.mulHi(dxa.h[k], dxa.l[k], dza.h[k], dza.l[k]);
                    double tl = DoubleDouble.mulLo(dxa.h[k], dxa.l[k], dza.h[k], dza.l[k]);
                    acc.addProduct(-th, -tl, zi[b].h[k], zi[b].l[k]);
                    rczi[b].h[k] = acc.hi;
                    rczi[b].l[k] = acc.lo;
                }
            } else {
                Mat t = DoubleDouble.times(DoubleDouble.times(dxa, dza), zi[b]);
                for (int k = 0; k < t.h.length; k++) {
                    acc.set(0, 0).addScaled(sigmaMu, zi[b].h[k], zi[b].l[k]);
                    acc.add(-x[b].h[k], -x[b].l[k]).add(-t.h[k], -t.l[k]);
                    rczi[b].h[k] = acc.hi;
                    rczi[b].l[k] = acc.lo;
                }
            }
        }
        return rczi;
    }

    /** A double-double step taken: the new X and Z, their Cholesky factors, and the step lengths. */
    private record DdStep(Mat[] x, Mat[] z, Mat[] fx, Mat[] fz, double ap, double ad) {
    }

    /**
     * The step from (X, Z) along dir with at most ap and ad: each halved (at most {@code maxShrinks} times) until
     * the new point factors, then both shrunk by {@code backtrack} (at most {@code neighbourhoodBacktracks} times)
     * while it is outside the wide neighbourhood {@code ddNeighbourhood}; null when no positive definite step was
     * found.
     */
    private DdStep takeStep(Mat[] x, Mat[] z, Mat[][] dir, double ap, double ad) {
        // the factors of the positive-definiteness tests serve the neighbourhood test and the next iteration
        // (DoubleDouble.cholesky is deterministic: the same factors as computed anew)
        Mat[] xn = null;
        Mat[] zn = null;
        Mat[] fxn = null;
        Mat[] fzn = null;
        for (int h = 0; h <= S.maxShrinks(); h++) {
            xn = axpy(x, ap, dir[0]);
            fxn = factors(xn);
            if (fxn != null) {
                break;
            }
            ap *= 0.5;
            xn = null;
        }
        for (int h = 0; h <= S.maxShrinks(); h++) {
            zn = axpy(z, ad, dir[1]);
            fzn = factors(zn);
            if (fzn != null) {
                break;
            }
            ad *= 0.5;
            zn = null;
        }
        if (xn == null || zn == null) {
            return null;
        }
        // keep the iterate in the wide neighbourhood λ_min(X^½ Z X^½) ≥ γ·μ: shrink both steps otherwise
        double apTaken = ap;
        double adTaken = ad;
        for (int h = 0; h < S.neighbourhoodBacktracks() && centrality(xn, zn, fxn) < S.ddNeighbourhood(); h++) {
            Mat[] xt = axpy(x, apTaken * S.backtrack(), dir[0]);
            Mat[] zt = axpy(z, adTaken * S.backtrack(), dir[1]);
            Mat[] fxt = factors(xt);
            Mat[] fzt = fxt == null ? null : factors(zt);
            if (fxt == null || fzt == null) {
                break;
            }
            apTaken *= S.backtrack();
            adTaken *= S.backtrack();
            xn = xt;
            zn = zt;
            fxn = fxt;
            fzn = fzt;
        }
        return new DdStep(xn, zn, fxn, fzn, apTaken, adTaken);
    }

    /** The best double-double iterate: X, Z and y as high and low parts. */
    private record DdBest(Mat[] x, Mat[] z, double[] yh, double[] yl) {
    }

    private double roundedScore(SdpResult r) {
        return IterateMonitor.score(r.relativeGap(), r.primalInfeasibility(), r.dualInfeasibility(), opt);
    }

    /**
     * Builds the result from the iterate rounded to double; objectives, gap and infeasibilities are those of the
     * rounded point (evaluated in double-double), so they certify what is returned.
     */
    private SdpResult result(SdpStatus status, Mat[] x, Mat[] z, double[] yh, double[] yl, int iterations,
                             double seconds, String message, double normB, double normC, Mat[] cm) {
        Matrix[] xm = new Matrix[nb];
        Matrix[] zm = new Matrix[nb];
        Mat[] xr = new Mat[nb];
        Mat[] zr = new Mat[nb];
        for (int b = 0; b < nb; b++) {
            double[] xd = x[b].toDouble();
            double[] zd = z[b].toDouble();
            xm[b] = lp[b] ? Matrix.column(xd) : Matrix.wrap(n[b], n[b], xd);
            zm[b] = lp[b] ? Matrix.column(zd) : Matrix.wrap(n[b], n[b], zd);
            xr[b] = Mat.of(x[b].rows, x[b].cols, xd);
            zr[b] = Mat.of(z[b].rows, z[b].cols, zd);
        }
        double[] y = new double[m];
        for (int i = 0; i < m; i++) {
            y[i] = yh[i] + yl[i];
        }
        double[] zero = new double[m];
        Mat[] rd = copy(cm);
        Acc acc = new Acc();
        for (int b = 0; b < nb; b++) {
            for (int k = 0; k < rd[b].h.length; k++) {
                acc.set(rd[b].h[k], rd[b].l[k]).add(-zr[b].h[k], 0);
                rd[b].h[k] = acc.hi;
                rd[b].l[k] = acc.lo;
            }
        }
        addAdjoint(y, zero, -1.0, rd);
        double[] rph = new double[m];
        double[] rpl = new double[m];
        opA(xr, rph, rpl);
        for (int i = 0; i < m; i++) {
            acc.set(bv[i], 0).add(-rph[i], -rpl[i]);
            rph[i] = acc.hi;
            rpl[i] = acc.lo;
        }
        inner(cm, xr, acc);
        double pobj = acc.hi;
        acc.set(0, 0);
        for (int i = 0; i < m; i++) {
            acc.addProduct(bv[i], y[i]);
        }
        double dobj = acc.hi;
        double gap = Math.abs(pobj - dobj) / (1 + Math.abs(pobj) + Math.abs(dobj));
        double pinf = normDouble(rph, rpl) / (1 + normB);
        double dinf = normDouble(rd) / (1 + normC);
        return new SdpResult(status, xm, y, zm, pobj, dobj, gap, pinf, dinf, iterations, seconds, message);
    }

    /**
     * Cholesky factor of M, or of M + δ·max diag(M)·I with δ = {@link IpmSettings#ddJitter()} stepping up by 1e4 when M is not
     * numerically positive definite (the refinement in {@link #direction} then solves against M itself); null when
     * even the largest shift fails.
     */
    private static Mat choleskyWithJitter(Mat mm) {
        Mat f = DoubleDouble.cholesky(mm);
        int size = mm.rows;
        double maxDiag = 0;
        for (int i = 0; i < size; i++) {
            maxDiag = Math.max(maxDiag, Math.abs(mm.h[i + i * size]));
        }
        for (double d = S.ddJitter(); f == null && d <= S.ddMaxJitter(); d *= 1e4) {
            Mat shifted = mm.copy();
            Acc a = new Acc();
            for (int i = 0; i < size; i++) {
                a.set(shifted.h[i + i * size], shifted.l[i + i * size]).add(d * maxDiag, 0);
                shifted.h[i + i * size] = a.hi;
                shifted.l[i + i * size] = a.lo;
            }
            f = DoubleDouble.cholesky(shifted);
        }
        return f;
    }

    private Mat[] axpy(Mat[] x, double alpha, Mat[] d) {
        Mat[] out = new Mat[nb];
        Acc acc = new Acc();
        for (int b = 0; b < nb; b++) {
            out[b] = x[b].copy();
            for (int k = 0; k < out[b].h.length; k++) {
                acc.set(x[b].h[k], x[b].l[k]).addScaled(alpha, d[b].h[k], d[b].l[k]);
                out[b].h[k] = acc.hi;
                out[b].l[k] = acc.lo;
            }
            if (!lp[b]) {
                out[b].symmetrize();
            }
        }
        return out;
    }

    /**
     * min over blocks of λ_min(Lᵀ Z L) / μ with X = L Lᵀ, μ = ⟨X, Z⟩ / n (1 at the central path); {@code lx}: the
     * factors of X from {@link #factors} (null: computed here).
     */
    private double centrality(Mat[] x, Mat[] z, Mat[] lx) {
        Acc acc = new Acc();
        inner(x, z, acc);
        double mu = acc.hi / totalSize;
        double lmin = Double.POSITIVE_INFINITY;
        for (int b = 0; b < nb; b++) {
            if (lp[b]) {
                for (int k = 0; k < n[b]; k++) {
                    lmin = Math.min(lmin, DoubleDouble.mulHi(x[b].h[k], x[b].l[k], z[b].h[k], z[b].l[k]));
                }
            } else {
                Mat l = lx != null && reuseFactors ? lx[b] : DoubleDouble.cholesky(x[b]);
                if (l == null) {
                    return 0;
                }
                Mat w = DoubleDouble.congruence(l, z[b]);
                w.symmetrize();
                lmin = Math.min(lmin, Linalg.eigvalsh(Matrix.wrap(n[b], n[b], w.toDouble()))[0]);
            }
        }
        return lmin / mu;
    }

    /**
     * The Cholesky factors of the dense blocks of a positive definite X (null entries for the diagonal blocks), or
     * null when a block is not numerically positive definite (a diagonal entry ≤ 0 or a failed factorisation).
     */
    private Mat[] factors(Mat[] x) {
        Mat[] f = new Mat[nb];
        for (int b = 0; b < nb; b++) {
            if (lp[b]) {
                for (int k = 0; k < n[b]; k++) {
                    if (!(x[b].h[k] > 0)) {
                        return null;
                    }
                }
            } else {
                f[b] = DoubleDouble.cholesky(x[b]);
                if (f[b] == null) {
                    return null;
                }
            }
        }
        return f;
    }

    /**
     * Whether the factors of the step tests are reused by the neighbourhood test and the next iteration (tests compare
     * with factoring anew: the iterates are bit-identical).
     */
    boolean reuseFactors = true;

    /** Largest α with X + α dX ⪰ 0 (+∞ if none), from the eigenvalues of the rounded L⁻¹ dX L⁻ᵀ. */
    private double maxStep(Mat[] chol, Mat[] x, Mat[] dx) {
        double best = Double.POSITIVE_INFINITY;
        for (int b = 0; b < nb; b++) {
            if (lp[b]) {
                for (int k = 0; k < n[b]; k++) {
                    double d = dx[b].h[k] + dx[b].l[k];
                    if (d < 0) {
                        best = Math.min(best, -(x[b].h[k] + x[b].l[k]) / d);
                    }
                }
            } else {
                Mat w = DoubleDouble.congruenceInverse(chol[b], dx[b]);
                double lmin = Linalg.eigvalsh(Matrix.wrap(n[b], n[b], w.toDouble()))[0];
                if (lmin < 0) {
                    best = Math.min(best, -1.0 / lmin);
                }
            }
        }
        return best;
    }

    /**
     * Solves M dy = h0 − A(R_c Z⁻¹) (with one step of iterative refinement against the double-double M), then
     * dZ = R_d − Σ dy_i A_i and dX = sym(R_c Z⁻¹ − X dZ Z⁻¹). Returns {dX, dZ, {dy as a column}}.
     */
    private Mat[][] direction(double[] h0h, double[] h0l, double[] rph, double[] rpl, Mat[] rczi, Mat[] rd, Mat[] x,
                              Mat[] zi, Mat mChol, Mat schurM) {
        double[] ah = new double[m];
        double[] al = new double[m];
        opA(rczi, ah, al);
        Acc acc = new Acc();
        double[] rh = new double[m];
        double[] rl = new double[m];
        for (int i = 0; i < m; i++) {
            acc.set(h0h[i], h0l[i]).add(-ah[i], -al[i]);
            rh[i] = acc.hi;
            rl[i] = acc.lo;
        }
        double[] dyh = rh.clone();
        double[] dyl = rl.clone();
        DoubleDouble.solveLower(mChol, dyh, dyl);
        DoubleDouble.solveUpper(mChol, dyh, dyl);
        // iterative refinement against the unshifted M: dy += M⁻¹ (rhs − M dy)
        double[] sh = new double[m];
        double[] sl = new double[m];
        for (int step = 0; step < S.ddRefineSteps(); step++) {
        // row i of the symmetric M (stored identically in both triangles by addSym) read as column i; the rows are
        // independent sums, so they are spread over the pool above the threshold with the same bits
        final double[] fdyh = dyh;
        final double[] fdyl = dyl;
        org.psdkit.kernel.ParallelColumns.forColumns(m,
                m >= DoubleDouble.PARALLEL_MIN_ORDER ? Long.MAX_VALUE : 0, (from, to) -> {
                    Acc ai = new Acc();
                    for (int i = from; i < to; i++) {
                        DoubleDouble.dot(rh[i], rl[i], schurM.h, schurM.l, i * m, 1, fdyh, fdyl, 0, 1, m, -1.0, ai);
                        sh[i] = ai.hi;
                        sl[i] = ai.lo;
                    }
                });
        DoubleDouble.solveLower(mChol, sh, sl);
        DoubleDouble.solveUpper(mChol, sh, sl);
        for (int i = 0; i < m; i++) {
            acc.set(dyh[i], dyl[i]).add(sh[i], sl[i]);
            dyh[i] = acc.hi;
            dyl[i] = acc.lo;
        }
        }
        Mat dy = new Mat(m, 1);
        System.arraycopy(dyh, 0, dy.h, 0, m);
        System.arraycopy(dyl, 0, dy.l, 0, m);
        Mat[] dz = copy(rd);
        addAdjoint(dyh, dyl, -1.0, dz);
        Mat[] dx = zeros();
        for (int b = 0; b < nb; b++) {
            if (lp[b]) {
                for (int k = 0; k < n[b]; k++) {
                    double th = DoubleDouble.mulHi(x[b].h[k], x[b].l[k], dz[b].h[k], dz[b].l[k]);
                    double tl = DoubleDouble.mulLo(x[b].h[k], x[b].l[k], dz[b].h[k], dz[b].l[k]);
                    acc.set(rczi[b].h[k], rczi[b].l[k]).addProduct(-th, -tl, zi[b].h[k], zi[b].l[k]);
                    dx[b].h[k] = acc.hi;
                    dx[b].l[k] = acc.lo;
                }
            } else {
                Mat t = DoubleDouble.times(DoubleDouble.times(x[b], dz[b]), zi[b]);
                for (int k = 0; k < t.h.length; k++) {
                    acc.set(rczi[b].h[k], rczi[b].l[k]).add(-t.h[k], -t.l[k]);
                    dx[b].h[k] = acc.hi;
                    dx[b].l[k] = acc.lo;
                }
                dx[b].symmetrize();
            }
        }
        // restore A(dX) = r_p, which an ill-conditioned Schur solve loses even in double-double, by the least-norm
        // correction dX += Σ w_i A_i with ⟨A_i, A_j⟩ w = r_p − A(dX) (as the double-precision solver does)
        double[] ch = new double[m];
        double[] cl = new double[m];
        for (int round = 0; round < GRAM_ROUNDS && gramChol != null; round++) {
            opA(dx, ch, cl);
            for (int i = 0; i < m; i++) {
                acc.set(rph[i], rpl[i]).add(-ch[i], -cl[i]);
                ch[i] = acc.hi;
                cl[i] = acc.lo;
            }
            DoubleDouble.solveLower(gramChol, ch, cl);
            DoubleDouble.solveUpper(gramChol, ch, cl);
            addAdjoint(ch, cl, 1.0, dx);
        }
        return new Mat[][] {dx, dz, {dy}};
    }

    private void initialPoint(Mat[] x, Mat[] z) {
        double[] scales = StartingPoint.scales(p); // the double-precision solver's start
        for (int b = 0; b < nb; b++) {
            for (int k = 0; k < n[b]; k++) {
                int idx = lp[b] ? k : k + k * n[b];
                x[b].h[idx] = scales[0];
                z[b].h[idx] = scales[1];
            }
        }
    }
}
