package org.psdkit.optim.smo;

import java.util.Arrays;
import org.psdkit.kernel.Kernel;
import org.psdkit.linalg.Matrix;
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
 * Shrinking (Fan, Chen &amp; Lin 2005; Chang &amp; Lin 2011, Sec. 5.1) is on by default: bounded variables that
 * cannot move leave the active set, the gradient of the others is reconstructed before the final check, so the
 * stopping test always covers all m variables. {@link #solve(Kernel, Matrix, double[], double[], double, Options,
 * long, double[], ProgressListener)} bounds the memory for kernel values (LIBSVM's {@code -m}).
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

    /**
     * Default memory for kernel values, MB: the cache size of the scikit-learn (LIBSVM) timings this solver is
     * compared with (docs/benchmarks/svm.md). The dense Gram matrix fits up to m = 8,100 points, next to the former
     * fixed dense limit of 8,000, so the double-precision dense path is kept for the problems that took it before.
     */
    public static final int DEFAULT_CACHE_MB = 500;

    /** Iterations between two shrinking passes: LIBSVM's min(l, 1000). */
    static final int SHRINK_INTERVAL = 1000;
    /**
     * Shrinking is undone once (gradient reconstructed, all variables active again) when the violation falls below
     * this multiple of the tolerance: LIBSVM's {@code eps*10} (Chang &amp; Lin 2011, Sec. 5.1).
     */
    static final double UNSHRINK_FACTOR = 10;

    /** Bit of {@code Solver.set}: the position is in I_up (y = +1 and α &lt; C, or y = −1 and α &gt; 0). */
    private static final byte UP = 1;
    /** Bit of {@code Solver.set}: the position is in I_low (y = +1 and α &gt; 0, or y = −1 and α &lt; C). */
    private static final byte LOW = 2;

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
     * @param cachePeakBytes    largest size of the kernel-row cache in bytes (0 when rows were not cached)
     * @param kernelEntries     kernel values computed for the cache (0 when rows were not cached)
     * @param gradient          the final gradient ∇ = Qα + p of all m variables in point order (the shrunk ones
     *                          reconstructed, as LIBSVM does before its final check), of the matrix the solver
     *                          worked on: Q itself from double-precision rows, the rounded Q̃ from single-precision
     *                          ones ({@code singlePrecision}); null when the solve was not asked for it. At the
     *                          training points Σ_s α_s y_s K(x_s, x_t) = y_t (∇_t − p_t), so the training decision
     *                          values need no second pass over the kernel (with Q̃, within
     *                          2⁻²⁴ Σ_s α_s |K_st| plus the single-precision underflow of each entry)
     * @param singlePrecision   whether the kernel rows were kept in single precision (LIBSVM's {@code Qfloat}, see
     *                          {@link #solve(Kernel, Matrix, double[], double[], double, Options, long, double[],
     *                          ProgressListener)}), so that {@code gradient} is that of Q̃
     */
    public record Result(double[] alpha, double bias, double dual, int iterations, double violation,
                         boolean converged, double seconds, long cachePeakBytes, long kernelEntries,
                         double[] gradient, boolean singlePrecision) {
        /** A result whose gradient (or null) is that of double-precision rows. */
        public Result(double[] alpha, double bias, double dual, int iterations, double violation,
                      boolean converged, double seconds, long cachePeakBytes, long kernelEntries,
                      double[] gradient) {
            this(alpha, bias, dual, iterations, violation, converged, seconds, cachePeakBytes, kernelEntries,
                    gradient, false);
        }

        /** This result with the row cache's figures of the solve (the solver itself reports 0 for both). */
        Result withCache(long peakBytes, long entries) {
            return new Result(alpha, bias, dual, iterations, violation, converged, seconds, peakBytes, entries,
                    gradient, singlePrecision);
        }

        /** A result without the gradient. */
        public Result(double[] alpha, double bias, double dual, int iterations, double violation,
                      boolean converged, double seconds, long cachePeakBytes, long kernelEntries) {
            this(alpha, bias, dual, iterations, violation, converged, seconds, cachePeakBytes, kernelEntries, null);
        }
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
     * classification dual has p = −e; ε-insensitive regression uses it on a doubled problem, see
     * {@link org.psdkit.regression.Svr}).
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
     * (null: none); a listener that throws stops the solve. Shrinking is on (LIBSVM's default).
     */
    public static Result solve(KernelRows k, double[] y, double[] p, double c, double tolerance,
                               double[] alphaInit, ProgressListener listener) {
        return solve(k, y, p, c, new Options(tolerance, true), alphaInit, listener);
    }

    /**
     * Solver options.
     *
     * @param tolerance stopping tolerance on the KKT violation (&gt; 0)
     * @param shrinking whether to shrink bounded variables that cannot move (Fan, Chen &amp; Lin 2005, Sec. 4;
     *                  Chang &amp; Lin 2011, Sec. 5.1), LIBSVM's {@code -h 1}; the solution is the same to the
     *                  tolerance, since the gradient is reconstructed and the stopping test is made on all variables
     */
    public record Options(double tolerance, boolean shrinking) {
        public Options {
            if (!(tolerance > 0)) {
                throw new IllegalArgumentException("tolerance must be positive, got " + tolerance);
            }
        }

        /** LIBSVM's defaults: tolerance 1e-3, shrinking. */
        public static Options defaults() {
            return new Options(DEFAULT_TOLERANCE, true);
        }
    }

    /** Solves with the rows of {@code k} (a dense {@link KernelRows#dense} Gram matrix is read in place). */
    public static Result solve(KernelRows k, double[] y, double[] p, double c, Options o, double[] alphaInit,
                               ProgressListener listener) {
        int m = k.size();
        check(m, y, p, c, o);
        int[] perm = identity(m);
        double[] yw = y.clone();
        QRows q = k instanceof KernelRows.DenseRows d ? new QRows.Dense(d.data(), m, perm, yw)
                : new QRows.FromRows(k, perm, yw);
        double[] diag = new double[m];
        for (int i = 0; i < m; i++) {
            diag[i] = k.diag(i);
        }
        return new Solver(q, diag, p, uniform(m, c), o, alphaInit, listener).run();
    }

    /**
     * As {@link #solve(KernelRows, double[], double[], double, Options, double[], ProgressListener)} with a box
     * bound per variable, 0 ≤ α_i ≤ C_i: LIBSVM's per-class weights (C_i = C·w_{y_i}, {@code -wi}) and its
     * instance-weight extension (C_i = C·w_i; scikit-learn's {@code sample_weight}). The pair update clips to the
     * two bounds as LIBSVM's {@code Solver::Solve} does with {@code get_C(i)}; with all C_i equal it is the solve
     * above, bit for bit.
     *
     * @param upper the bounds C_i &gt; 0 (finite), length m
     */
    public static Result solve(KernelRows k, double[] y, double[] p, double[] upper, Options o, double[] alphaInit,
                               ProgressListener listener) {
        int m = k.size();
        check(m, y, p, upper, o);
        int[] perm = identity(m);
        double[] yw = y.clone();
        QRows q = k instanceof KernelRows.DenseRows d ? new QRows.Dense(d.data(), m, perm, yw)
                : new QRows.FromRows(k, perm, yw);
        double[] diag = new double[m];
        for (int i = 0; i < m; i++) {
            diag[i] = k.diag(i);
        }
        return new Solver(q, diag, p, upper.clone(), o, alphaInit, listener).run();
    }

    /**
     * As {@link #solve(Kernel, Matrix, double[], double[], double, Options, long, double[], ProgressListener)} with a
     * box bound C_i per variable (see {@link #solve(KernelRows, double[], double[], double[], Options, double[],
     * ProgressListener)}).
     */
    public static Result solve(Kernel kernel, Matrix x, double[] y, double[] p, double[] upper, Options o,
                               long cacheBytes, double[] alphaInit, ProgressListener listener) {
        int m = x.rows();
        if (cacheBytes <= 0) {
            throw new IllegalArgumentException("cache size must be positive, got " + cacheBytes + " bytes");
        }
        check(m, y, p, upper, o);
        RowCache q = new RowCache(kernel, x.toRowArrays(), cacheBytes, identity(m), y.clone());
        Result r = new Solver(q, kernel.diag(x), p, upper.clone(), o, alphaInit, listener).run();
        return r.withCache(q.peak(), q.computedEntries());
    }

    /**
     * Solves the sub-problem on the points {@code points} (indices into the rows of {@code shared}) with labels
     * {@code y} (±1, one per point) and bounds C_i, reading kernel values from a cache shared by several
     * sub-problems on the same points: the one-vs-one pairs of a multi-class SVM and their cross-validation fits
     * (see {@link SharedKernelRows}).
     */
    public static Result solve(SharedKernelRows shared, int[] points, double[] y, double[] upper, Options o,
                               double[] alphaInit, ProgressListener listener) {
        int m = points.length;
        check(m, y, null, upper, o);
        QRows q = shared.rows(points, identity(m), y.clone());
        double[] diag = new double[m];
        for (int i = 0; i < m; i++) {
            diag[i] = shared.diag(points[i]);
        }
        try {
            return new Solver(q, diag, null, upper.clone(), o, alphaInit, listener).run();
        } finally {
            q.release();
        }
    }

    private static double[] uniform(int m, double c) {
        double[] u = new double[m];
        Arrays.fill(u, c);
        return u;
    }

    private static void check(int m, double[] y, double[] p, double[] upper, Options o) {
        if (upper == null || upper.length != m) {
            throw new IllegalArgumentException("bounds length " + (upper == null ? 0 : upper.length)
                    + " differs from kernel size " + m);
        }
        for (int i = 0; i < m; i++) {
            if (!(upper[i] > 0) || Double.isInfinite(upper[i])) {
                throw new IllegalArgumentException("C_" + i + " must be positive and finite, got " + upper[i]);
            }
        }
        check(m, y, p, 1.0, o);
    }

    /**
     * Solves the dual of the kernel {@code kernel} on the points {@code x} (rows) within a memory budget: kernel rows
     * are computed on demand (on all cores for long rows) and kept in a least-recently-used cache of at most
     * {@code cacheBytes} (at least two rows), in double precision when all m rows fit (8m² bytes: the values of the
     * dense Gram matrix, computed only where the solver asks), otherwise in single precision. No m×m matrix is
     * formed otherwise. {@link Result#cachePeakBytes()} reports the largest size the cache reached.
     *
     * @param p          linear term, or {@code null} for −e
     * @param cacheBytes memory budget for kernel values in bytes (LIBSVM's {@code -m}, in bytes)
     */
    public static Result solve(Kernel kernel, Matrix x, double[] y, double[] p, double c, Options o,
                               long cacheBytes, double[] alphaInit, ProgressListener listener) {
        return solveCached(kernel, x, y, p, c, o, cacheBytes, alphaInit, listener);
    }

    /** Whether the dense m×m Gram matrix (8m² bytes) fits a budget of {@code cacheBytes}. */
    public static boolean denseFits(int m, long cacheBytes) {
        return 8.0 * m * m <= cacheBytes;
    }

    /** Same as {@link #solve(Kernel, Matrix, double[], double[], double, Options, long, double[], ProgressListener)}. */
    static Result solveCached(Kernel kernel, Matrix x, double[] y, double[] p, double c, Options o,
                                     long cacheBytes, double[] alphaInit, ProgressListener listener) {
        int m = x.rows();
        if (cacheBytes <= 0) {
            throw new IllegalArgumentException("cache size must be positive, got " + cacheBytes + " bytes");
        }
        check(m, y, p, c, o);
        int[] perm = identity(m);
        double[] yw = y.clone();
        RowCache q = new RowCache(kernel, x.toRowArrays(), cacheBytes, perm, yw);
        double[] diag = kernel.diag(x);
        Result r = new Solver(q, diag, p, uniform(m, c), o, alphaInit, listener).run();
        return r.withCache(q.peak(), q.computedEntries());
    }

    /**
     * Outcome of a ν solve ({@link #solveNu}). With ∇ = Qα + p, the free variables of class s satisfy ∇_t = r_s; the
     * multipliers of the two equality constraints Σ y_t α_t = Δ₁ and Σ α_t = Δ₂ are (r₊ − r₋)/2 and (r₊ + r₋)/2
     * (Chang &amp; Lin 2001, Sec. 2 and 4; Chang &amp; Lin 2011, Sec. 4.2).
     *
     * @param result the solution; {@link Result#bias()} is −(r₊ − r₋)/2
     * @param r      (r₊ + r₋)/2: the ν-SVC scale 1/r of α and b (Chang &amp; Lin 2001, Theorem 2) and −ε of ν-SVR
     */
    public record NuResult(Result result, double r) {
    }

    /**
     * Solves min ½αᵀQα + pᵀα s.t. yᵀα = yᵀα⁰, 0 ≤ α ≤ C, Q_ij = y_i y_j K_ij, starting exactly at the feasible
     * {@code start} (whose Σ y_t α_t fixes the constraint: the one-class dual of Schölkopf et al. 2001, eq. 3.4-3.5,
     * has all y = +1 and Σ α_t = νm). Labels may hold one class. Working sets, shrinking and bias as
     * {@link #solve(KernelRows, double[], double[], double, Options, double[], ProgressListener)}.
     *
     * @param p     linear term, or {@code null} for 0
     * @param start α⁰ in [0, C]^m
     */
    public static Result solveFrom(KernelRows k, double[] y, double[] p, double c, Options o, double[] start,
                                   ProgressListener listener) {
        return startedRows(k, y, p, c, o, start, false, listener).result();
    }

    /** As {@link #solveFrom(KernelRows, double[], double[], double, Options, double[], ProgressListener)} on cached kernel rows. */
    public static Result solveFrom(Kernel kernel, Matrix x, double[] y, double[] p, double c, Options o,
                                   long cacheBytes, double[] start, ProgressListener listener) {
        return startedCached(kernel, x, y, p, c, o, cacheBytes, start, false, listener).result();
    }

    /**
     * Solves min ½αᵀQα + pᵀα s.t. yᵀα = yᵀα⁰, eᵀα = eᵀα⁰, 0 ≤ α ≤ C from the feasible {@code start}: the duals of
     * ν-SVC and ν-SVR (Schölkopf et al. 2000, eq. 24-26 and 48-50; Chang &amp; Lin 2001, eq. 2.4). Both equality
     * constraints stay fixed because each pair is taken within one class: per class s, i maximises −y_t∇_t over
     * I_up ∩ {y = s} and j minimises −b²/a over I_low ∩ {y = s} (second order, Fan, Chen &amp; Lin 2005, Sec. 5); the
     * solver stops when max_s (m_s − M_s) is below the tolerance. Shrinking uses the per-class bounds.
     *
     * @param p     linear term, or {@code null} for 0
     * @param start α⁰ in [0, C]^m
     */
    public static NuResult solveNu(KernelRows k, double[] y, double[] p, double c, Options o, double[] start,
                                   ProgressListener listener) {
        return startedRows(k, y, p, c, o, start, true, listener);
    }

    /** As {@link #solveNu(KernelRows, double[], double[], double, Options, double[], ProgressListener)} on cached kernel rows. */
    public static NuResult solveNu(Kernel kernel, Matrix x, double[] y, double[] p, double c, Options o,
                                   long cacheBytes, double[] start, ProgressListener listener) {
        return startedCached(kernel, x, y, p, c, o, cacheBytes, start, true, listener);
    }

    private static NuResult startedRows(KernelRows k, double[] y, double[] p, double c, Options o, double[] start,
                                        boolean nu, ProgressListener listener) {
        int m = k.size();
        checkStart(m, y, p, c, o, start);
        int[] perm = identity(m);
        double[] yw = y.clone();
        QRows q = k instanceof KernelRows.DenseRows d ? new QRows.Dense(d.data(), m, perm, yw)
                : new QRows.FromRows(k, perm, yw);
        double[] diag = new double[m];
        for (int i = 0; i < m; i++) {
            diag[i] = k.diag(i);
        }
        Solver s = new Solver(q, diag, zeroIfNull(p, m), uniform(m, c), o, null, listener);
        s.startAt(start, nu);
        Result r = s.run();
        return new NuResult(r, s.nuR);
    }

    private static NuResult startedCached(Kernel kernel, Matrix x, double[] y, double[] p, double c, Options o,
                                          long cacheBytes, double[] start, boolean nu, ProgressListener listener) {
        int m = x.rows();
        if (cacheBytes <= 0) {
            throw new IllegalArgumentException("cache size must be positive, got " + cacheBytes + " bytes");
        }
        checkStart(m, y, p, c, o, start);
        int[] perm = identity(m);
        double[] yw = y.clone();
        RowCache q = new RowCache(kernel, x.toRowArrays(), cacheBytes, perm, yw);
        Solver s = new Solver(q, kernel.diag(x), zeroIfNull(p, m), uniform(m, c), o, null, listener);
        s.startAt(start, nu);
        Result r = s.run();
        return new NuResult(r.withCache(q.peak(), q.computedEntries()), s.nuR);
    }

    private static double[] zeroIfNull(double[] p, int m) {
        return p == null ? new double[m] : p;
    }

    private static void checkStart(int m, double[] y, double[] p, double c, Options o, double[] start) {
        checkShapes(m, y, p, c, o);
        if (start == null || start.length != m) {
            throw new IllegalArgumentException("the start needs " + m + " values, got "
                    + (start == null ? "none" : start.length));
        }
        for (int t = 0; t < m; t++) {
            if (y[t] != 1 && y[t] != -1) {
                throw new IllegalArgumentException("SVM labels must be -1 or +1, got " + y[t]);
            }
            if (!(start[t] >= 0 && start[t] <= c)) {
                throw new IllegalArgumentException("start value " + t + " is " + start[t] + ", outside [0, " + c
                        + "]");
            }
        }
    }

    /** The checks every solve makes: lengths of the labels and linear term, C positive and finite, options given. */
    private static void checkShapes(int m, double[] y, double[] p, double c, Options o) {
        if (y.length != m) {
            throw new IllegalArgumentException("labels length " + y.length + " differs from kernel size " + m);
        }
        if (p != null && p.length != m) {
            throw new IllegalArgumentException("linear term length " + p.length + " differs from kernel size " + m);
        }
        if (!(c > 0) || Double.isInfinite(c)) {
            throw new IllegalArgumentException("C must be positive and finite, got " + c);
        }
        if (o == null) {
            throw new IllegalArgumentException("options must not be null");
        }
    }

    private static int[] identity(int m) {
        int[] perm = new int[m];
        for (int i = 0; i < m; i++) {
            perm[i] = i;
        }
        return perm;
    }

    private static void check(int m, double[] y, double[] p, double c, Options o) {
        checkShapes(m, y, p, c, o);
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
    }

    /**
     * One solve, LIBSVM's {@code Solver::Solve} (Chang &amp; Lin 2011, Algorithm 1 with Sec. 4.1 working sets and
     * Sec. 5.1 shrinking). All arrays are in working order (position a holds point perm[a]); the active variables
     * are the positions below {@code active}.
     */
    private static final class Solver {
        private final QRows q;
        private final int m;
        /** Box bound C_t of each position, in working order (swapped with the other arrays). */
        private final double[] cs;
        private final double tol;
        private final boolean shrinking;
        private final ProgressListener lis;
        private final boolean report;
        private final long t0 = System.nanoTime();
        private final double[] y;
        private final int[] perm;
        private final double[] a;
        private final double[] g;
        private final double[] gBar;
        private final double[] lin;
        private final double[] qd;
        private final double[] qi;
        private final double[] qj;
        /** Membership of each position in I_up ({@link #UP}) and I_low ({@link #LOW}), kept in step with α. */
        private final byte[] set;
        /** Whether the rows are kept in single precision and read in place ({@link QRows#floatRow}). */
        private final boolean floats;
        /** Q_i of the last selection, in place: {@link #fi} when {@link #floats}, else {@link #di}. */
        private float[] fi;
        private double[] di;
        /** Swaps of the current shrinking pass, handed to the rows at once (pairs of positions). */
        private int[] swaps = new int[64];
        private int swapCount;
        private int active;
        private boolean unshrunk;
        // outcome of the last selection
        private int selI;
        private int selJ;
        private double violation = Double.POSITIVE_INFINITY;
        /** Whether the ν rule is used ({@link #selectNu}, {@link #shrinkNu}, {@link #nuBias}); set by {@link #startAt}. */
        private boolean nu;
        /** (r₊ + r₋)/2 of the last ν solve ({@link NuResult#r()}). */
        double nuR = Double.NaN;
        /** Buffer of the second row of a ν selection (rows not kept in place). */
        private double[] qn;
        /**
         * The position maximising −y_t∇_t over I_up, found by the gradient pass of the last update
         * ({@link #addPairMaxUp}); used by the next {@link #select} when {@link #upValid} (nothing moved since).
         */
        private int upNext;
        private boolean upValid;
        /** M(α) = min of −y_t∇_t over I_low of the last {@link #minLow} scan. */
        private final double[] scan = new double[1];

        Solver(QRows q, double[] diag, double[] p, double[] cs, Options o, double[] alphaInit,
               ProgressListener listener) {
            this.q = q;
            this.y = q.y;
            this.perm = q.perm;
            this.m = y.length;
            this.cs = cs;
            this.tol = o.tolerance();
            this.shrinking = o.shrinking();
            this.lis = ProgressListener.orNone(listener);
            this.report = lis != ProgressListener.NONE;
            this.a = alphaInit == null ? new double[m] : feasible(alphaInit, y, cs);
            if (p == null) {
                lin = new double[m];
                Arrays.fill(lin, -1.0);
            } else {
                lin = p.clone();
            }
            this.qd = diag.clone();
            this.g = lin.clone();
            this.gBar = shrinking ? new double[m] : null;
            this.qi = new double[m];
            this.qj = new double[m];
            this.active = m;
            this.floats = q.floatRows();
            this.set = new byte[m];
            for (int i = 0; i < m; i++) {
                if (a[i] != 0) {
                    q.row(i, m, qi);
                    double ai = a[i];
                    for (int t = 0; t < m; t++) {
                        g[t] += qi[t] * ai;
                    }
                    if (shrinking && ai >= cs[i]) {
                        double ci = cs[i];
                        for (int t = 0; t < m; t++) {
                            gBar[t] += ci * qi[t];
                        }
                    }
                }
            }
            for (int t = 0; t < m; t++) {
                setStatus(t);
            }
        }

        /** Recomputes the I_up / I_low membership of position t from α_t (Fan, Chen &amp; Lin 2005, eq. 7). */
        private void setStatus(int t) {
            set[t] = (byte) ((inUp(t) ? UP : 0) | (inLow(t) ? LOW : 0));
        }

        Result run() {
            int maxIter = Math.max(MIN_MAX_ITERATIONS, ITERATIONS_PER_POINT * m);
            int iter = 0;
            boolean converged = false;
            int counter = Math.min(m, SHRINK_INTERVAL) + 1;
            while (iter < maxIter) {
                if (shrinking && --counter == 0) {
                    counter = Math.min(m, SHRINK_INTERVAL);
                    shrink();
                }
                boolean optimal = select();
                if (optimal && active < m) {
                    // optimal on the active set: reconstruct the gradient and check all variables
                    reconstruct();
                    active = m;
                    optimal = select();
                    counter = 1; // shrink again at the next iteration (LIBSVM)
                }
                if (report && iter > 0) {
                    lis.onProgress(new ProgressListener.Event(TASK, iter, 0, "violation", violation,
                            (System.nanoTime() - t0) * 1e-9));
                }
                if (optimal) {
                    converged = true;
                    break;
                }
                iter++;
                update(selI, selJ);
            }
            if (active < m) {
                reconstruct();
                active = m;
            }
            double bias = nu ? nuBias() : bias(a, g, y, cs);
            double dual = 0;
            for (int t = 0; t < m; t++) {
                dual -= 0.5 * a[t] * (g[t] + lin[t]);
            }
            double[] alpha = new double[m];
            double[] grad = new double[m];
            for (int t = 0; t < m; t++) {
                alpha[perm[t]] = a[t];
                grad[perm[t]] = g[t];
            }
            return new Result(alpha, bias, dual, iter, violation, converged, (System.nanoTime() - t0) * 1e-9, 0, 0,
                    grad, floats);
        }

        /**
         * Second-order working-set selection on the active set (Fan, Chen &amp; Lin 2005, WSS 2): i maximises
         * −y_t ∇_t over I_up, j minimises −b²/a over I_low; keeps Q_i in {@link #fi} or {@link #di}. Returns whether the active
         * set is optimal (violation below the tolerance, or no pair).
         */
        private boolean select() {
            if (nu) {
                return selectNu();
            }
            int n = active;
            int i = upValid ? upNext : maxUp(set, y, g, n);
            upValid = false;
            if (i < 0) {
                violation = 0;
                return true;
            }
            double gmax = -y[i] * g[i];
            double kii = qd[i];
            double yi = y[i];
            // the same scan over a float row (read in place) or a double row; the float entries are the values the
            // double copy would hold, so both give the same j
            int j;
            if (floats) {
                float[] r = q.floatRow(i, n);
                fi = r;
                j = minLow(r, set, y, g, qd, n, gmax, kii, yi, scan);
            } else {
                double[] r = q.doubleRow(i, n, qi);
                di = r;
                j = minLow(r, set, y, g, qd, n, gmax, kii, yi, scan);
            }
            double gmin = scan[0];
            // the KKT conditions hold iff m(alpha) <= M(alpha) (Fan, Chen & Lin 2005, eq. 9), so the violation is
            // max(0, m - M); an empty lower set (gmin = +inf) means no pair can improve the dual: violation 0
            violation = gmin == Double.POSITIVE_INFINITY ? 0 : Math.max(0, gmax - gmin);
            selI = i;
            selJ = j;
            return violation < tol || j < 0;
        }

        /** The two-variable update of the pair (i, j) (Q_i in {@link #fi} or {@link #di}) and the gradient update. */
        private void update(int i, int j) {
            int n = active;
            float[] fj = floats ? q.floatRow(j, n) : null;
            double[] dj = floats ? null : q.doubleRow(j, n, qj);
            double kij = y[i] * y[j] * (floats ? fi[j] : di[j]);
            double curv = qd[i] + qd[j] - 2 * kij;
            if (curv <= 0) {
                curv = TAU;
            }
            double oldAi = a[i];
            double oldAj = a[j];
            double ci = cs[i];
            double cj = cs[j];
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
                if (diff > ci - cj) {
                    if (a[i] > ci) {
                        a[i] = ci;
                        a[j] = ci - diff;
                    }
                } else if (a[j] > cj) {
                    a[j] = cj;
                    a[i] = cj + diff;
                }
            } else {
                double delta = (g[i] - g[j]) / curv;
                double sum = a[i] + a[j];
                a[i] -= delta;
                a[j] += delta;
                if (sum > ci) {
                    if (a[i] > ci) {
                        a[i] = ci;
                        a[j] = sum - ci;
                    }
                } else if (a[j] < 0) {
                    a[j] = 0;
                    a[i] = sum;
                }
                if (sum > cj) {
                    if (a[j] > cj) {
                        a[j] = cj;
                        a[i] = sum - cj;
                    }
                } else if (a[i] < 0) {
                    a[i] = 0;
                    a[j] = sum;
                }
            }
            setStatus(i);
            setStatus(j);
            double dai = a[i] - oldAi;
            double daj = a[j] - oldAj;
            if (nu) {
                if (floats) {
                    addPair(g, fi, dai, fj, daj, n);
                } else {
                    addPair(g, di, dai, dj, daj, n);
                }
            } else {
                // the next selection's i from the same pass (α_i, α_j and their sets are final here)
                upNext = floats ? addPairMaxUp(g, fi, dai, fj, daj, n, set, y)
                        : addPairMaxUp(g, di, dai, dj, daj, n, set, y);
                upValid = true;
            }
            if (shrinking) {
                // Ḡ_t = C Σ_{α_s = C} Q_ts, kept for reconstructing the gradient of shrunk variables
                updateGBar(i, oldAi >= ci, a[i] >= ci);
                updateGBar(j, oldAj >= cj, a[j] >= cj);
            }
        }

        private void updateGBar(int s, boolean wasUpper, boolean isUpper) {
            if (wasUpper == isUpper) {
                return;
            }
            double f = isUpper ? cs[s] : -cs[s];
            if (floats) {
                addScaled(gBar, f, q.floatRow(s, m), m);
            } else {
                addScaled(gBar, f, q.doubleRow(s, m, qj), m);
            }
        }

        /**
         * Shrinking (Chang &amp; Lin 2011, Sec. 5.1): a bounded variable that is only in I_up with −y_t∇_t below
         * M(α) = min over I_low, or only in I_low with −y_t∇_t above m(α) = max over I_up,, cannot be part of a violating pair; it is
         * moved behind the active set. Once the violation is within {@value #UNSHRINK_FACTOR}× the tolerance, the
         * gradient is reconstructed and all variables are reconsidered (once).
         */
        private void shrink() {
            upValid = false;
            if (nu) {
                shrinkNu();
                return;
            }
            double gmax = Double.NEGATIVE_INFINITY;
            double gmin = Double.POSITIVE_INFINITY;
            for (int t = 0; t < active; t++) {
                double v = -y[t] * g[t];
                if (inUp(t)) {
                    gmax = Math.max(gmax, v);
                }
                if (inLow(t)) {
                    gmin = Math.min(gmin, v);
                }
            }
            if (!unshrunk && gmax - gmin <= UNSHRINK_FACTOR * tol) {
                unshrunk = true;
                reconstruct();
                active = m;
            }
            swapCount = 0;
            for (int t = 0; t < active; t++) {
                if (shrinkable(t, gmax, gmin)) {
                    active--;
                    while (active > t) {
                        if (!shrinkable(active, gmax, gmin)) {
                            swap(t, active);
                            break;
                        }
                        active--;
                    }
                }
            }
            q.swapAll(swaps, swapCount);
            swapCount = 0;
        }

        /**
         * Starts at {@code start} exactly (point order; no shrinking has happened yet, so working order is point
         * order): ∇ = p + Qα, Ḡ = C Σ_{α_s = C} Q_s and the sets from α, as the constructor does for a warm start.
         *
         * @param useNu whether to use the ν rule
         */
        void startAt(double[] start, boolean useNu) {
            upValid = false;
            this.nu = useNu;
            System.arraycopy(start, 0, a, 0, m);
            for (int i = 0; i < m; i++) {
                if (a[i] != 0) {
                    q.row(i, m, qi);
                    double ai = a[i];
                    for (int t = 0; t < m; t++) {
                        g[t] += qi[t] * ai;
                    }
                    double ci = upperBound(i);
                    if (shrinking && ai >= ci) {
                        for (int t = 0; t < m; t++) {
                            gBar[t] += ci * qi[t];
                        }
                    }
                }
            }
            for (int t = 0; t < m; t++) {
                setStatus(t);
            }
        }

        /** The box bound C_t of position t. */
        private double upperBound(int t) {
            return cs[t];
        }

        /**
         * The ν working set on the active set (Chang &amp; Lin 2001, Sec. 4; Fan, Chen &amp; Lin 2005, Sec. 5): within
         * each class s, i_s maximises v_t = −y_t∇_t over I_up, and j minimises −b²/a over I_low of both classes with
         * b = v_{i_s} − v_j for j's class s; i is then i_s. The violation is max_s (m_s − M_s). Keeps Q_i in
         * {@link #fi} or {@link #di}; returns whether the active set is optimal.
         */
        private boolean selectNu() {
            int n = active;
            double gmaxP = Double.NEGATIVE_INFINITY;
            double gmaxN = Double.NEGATIVE_INFINITY;
            int ip = -1;
            int in = -1;
            for (int t = 0; t < n; t++) {
                if ((set[t] & UP) != 0) {
                    double v = -y[t] * g[t];
                    if (y[t] > 0) {
                        if (v >= gmaxP) {
                            gmaxP = v;
                            ip = t;
                        }
                    } else if (v >= gmaxN) {
                        gmaxN = v;
                        in = t;
                    }
                }
            }
            float[] fp = null;
            float[] fnr = null;
            double[] dp = null;
            double[] dnr = null;
            if (floats) {
                fp = ip < 0 ? null : q.floatRow(ip, n);
                fnr = in < 0 ? null : q.floatRow(in, n);
            } else {
                if (qn == null) {
                    qn = new double[m];
                }
                dp = ip < 0 ? null : q.doubleRow(ip, n, qi);
                dnr = in < 0 ? null : q.doubleRow(in, n, qn);
            }
            double gminP = Double.POSITIVE_INFINITY;
            double gminN = Double.POSITIVE_INFINITY;
            int j = -1;
            double best = Double.POSITIVE_INFINITY;
            for (int t = 0; t < n; t++) {
                if ((set[t] & LOW) == 0) {
                    continue;
                }
                double v = -y[t] * g[t];
                boolean pos = y[t] > 0;
                int i = pos ? ip : in;
                if (pos) {
                    gminP = Math.min(gminP, v);
                } else {
                    gminN = Math.min(gminN, v);
                }
                if (i < 0) {
                    continue;
                }
                double b = (pos ? gmaxP : gmaxN) - v;
                if (b > 0) {
                    double qit = floats ? (pos ? fp : fnr)[t] : (pos ? dp : dnr)[t];
                    double curv = qd[i] + qd[t] - 2 * y[i] * y[t] * qit;
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
            double vp = gminP == Double.POSITIVE_INFINITY || ip < 0 ? 0 : Math.max(0, gmaxP - gminP);
            double vn = gminN == Double.POSITIVE_INFINITY || in < 0 ? 0 : Math.max(0, gmaxN - gminN);
            violation = Math.max(vp, vn);
            if (j >= 0) {
                boolean pos = y[j] > 0;
                selI = pos ? ip : in;
                if (floats) {
                    fi = pos ? fp : fnr;
                } else {
                    di = pos ? dp : dnr;
                }
            }
            selJ = j;
            return violation < tol || j < 0;
        }

        /**
         * Shrinking for the ν rule: {@link #shrink}'s test with the bounds m_s, M_s of the variable's own class, and the
         * same one-time reconstruction once max_s (m_s − M_s) is within {@value #UNSHRINK_FACTOR}× the tolerance.
         */
        private void shrinkNu() {
            upValid = false;
            double gmaxP = Double.NEGATIVE_INFINITY;
            double gmaxN = Double.NEGATIVE_INFINITY;
            double gminP = Double.POSITIVE_INFINITY;
            double gminN = Double.POSITIVE_INFINITY;
            for (int t = 0; t < active; t++) {
                double v = -y[t] * g[t];
                if (inUp(t)) {
                    if (y[t] > 0) {
                        gmaxP = Math.max(gmaxP, v);
                    } else {
                        gmaxN = Math.max(gmaxN, v);
                    }
                }
                if (inLow(t)) {
                    if (y[t] > 0) {
                        gminP = Math.min(gminP, v);
                    } else {
                        gminN = Math.min(gminN, v);
                    }
                }
            }
            if (!unshrunk && Math.max(gmaxP - gminP, gmaxN - gminN) <= UNSHRINK_FACTOR * tol) {
                unshrunk = true;
                reconstruct();
                active = m;
            }
            swapCount = 0;
            for (int t = 0; t < active; t++) {
                if (shrinkableNu(t, gmaxP, gmaxN, gminP, gminN)) {
                    active--;
                    while (active > t) {
                        if (!shrinkableNu(active, gmaxP, gmaxN, gminP, gminN)) {
                            swap(t, active);
                            break;
                        }
                        active--;
                    }
                }
            }
            q.swapAll(swaps, swapCount);
            swapCount = 0;
        }

        private boolean shrinkableNu(int t, double gmaxP, double gmaxN, double gminP, double gminN) {
            return y[t] > 0 ? shrinkable(t, gmaxP, gminP) : shrinkable(t, gmaxN, gminN);
        }

        /**
         * The two multipliers of the ν dual from the KKT conditions (all variables active): in class s, a free
         * variable has ∇_t = r_s, one at its upper bound ∇_t ≤ r_s and one at 0 ∇_t ≥ r_s. r_s is the mean of ∇ over
         * the free variables of s, else the middle of the interval the bounded ones leave (its finite end when the
         * other is open). Sets {@link #nuR} = (r₊ + r₋)/2 and returns the bias −(r₊ − r₋)/2.
         */
        private double nuBias() {
            double[] sum = new double[2];
            int[] free = new int[2];
            double[] ub = {Double.POSITIVE_INFINITY, Double.POSITIVE_INFINITY};
            double[] lb = {Double.NEGATIVE_INFINITY, Double.NEGATIVE_INFINITY};
            for (int t = 0; t < m; t++) {
                int s = y[t] > 0 ? 0 : 1;
                boolean up = inUp(t);
                boolean low = inLow(t);
                if (up && low) {
                    sum[s] += g[t];
                    free[s]++;
                } else if (y[t] > 0 ? !up : !low) {
                    lb[s] = Math.max(lb[s], g[t]); // α_t = C
                } else {
                    ub[s] = Math.min(ub[s], g[t]); // α_t = 0
                }
            }
            double[] r = new double[2];
            for (int s = 0; s < 2; s++) {
                if (free[s] > 0) {
                    r[s] = sum[s] / free[s];
                } else if (Double.isInfinite(ub[s])) {
                    r[s] = Double.isInfinite(lb[s]) ? 0 : lb[s];
                } else if (Double.isInfinite(lb[s])) {
                    r[s] = ub[s];
                } else {
                    r[s] = 0.5 * (ub[s] + lb[s]);
                }
            }
            nuR = 0.5 * (r[0] + r[1]);
            return -0.5 * (r[0] - r[1]);
        }

        // The loops of select and update live in small methods of their own: the JIT compiles a loop that runs
        // thousands of times per call long before the branchy two-variable step around it has a settled branch
        // profile, and a loop inlined in that step would be thrown away and recompiled with it each time one of the
        // step's clipping branches is taken for the first time. The arithmetic is the same as inline.

        /** The position maximising −y_t∇_t over I_up among the first n (the last one on ties), or −1 if none. */
        private static int maxUp(byte[] set, double[] y, double[] g, int n) {
            double gmax = Double.NEGATIVE_INFINITY;
            int i = -1;
            for (int t = 0; t < n; t++) {
                if ((set[t] & UP) != 0) {
                    double v = -y[t] * g[t];
                    if (v >= gmax) {
                        gmax = v;
                        i = t;
                    }
                }
            }
            return i;
        }

        /**
         * WSS 2's j over I_low among the first n (Fan, Chen &amp; Lin 2005, eq. 11): minimises −b²/a_it with
         * b = gmax + y_t∇_t &gt; 0 (the last one on ties), −1 if none; min of −y_t∇_t over I_low into gminOut[0].
         */
        private static int minLow(float[] r, byte[] set, double[] y, double[] g, double[] qd, int n, double gmax,
                                  double kii, double yi, double[] gminOut) {
            double gmin = Double.POSITIVE_INFINITY;
            int j = -1;
            double best = Double.POSITIVE_INFINITY;
            for (int t = 0; t < n; t++) {
                if ((set[t] & LOW) == 0) {
                    continue;
                }
                double v = -y[t] * g[t];
                if (v < gmin) {
                    gmin = v;
                }
                double b = gmax - v;
                if (b > 0) {
                    double curv = kii + qd[t] - 2 * yi * y[t] * r[t];
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
            gminOut[0] = gmin;
            return j;
        }

        /** {@link #minLow(float[], byte[], double[], double[], double[], int, double, double, double, double[])} on a double row. */
        private static int minLow(double[] r, byte[] set, double[] y, double[] g, double[] qd, int n, double gmax,
                                  double kii, double yi, double[] gminOut) {
            double gmin = Double.POSITIVE_INFINITY;
            int j = -1;
            double best = Double.POSITIVE_INFINITY;
            for (int t = 0; t < n; t++) {
                if ((set[t] & LOW) == 0) {
                    continue;
                }
                double v = -y[t] * g[t];
                if (v < gmin) {
                    gmin = v;
                }
                double b = gmax - v;
                if (b > 0) {
                    double curv = kii + qd[t] - 2 * yi * y[t] * r[t];
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
            gminOut[0] = gmin;
            return j;
        }

        /** g_t += Q_it Δα_i + Q_jt Δα_j for t &lt; n (the gradient update of a pair step). */
        private static void addPair(double[] g, float[] ri, double dai, float[] rj, double daj, int n) {
            for (int t = 0; t < n; t++) {
                g[t] += ri[t] * dai + rj[t] * daj;
            }
        }

        private static void addPair(double[] g, double[] ri, double dai, double[] rj, double daj, int n) {
            for (int t = 0; t < n; t++) {
                g[t] += ri[t] * dai + rj[t] * daj;
            }
        }

        /**
         * {@link #addPair} and, in the same pass, {@link #maxUp} of the updated gradient: the same values and the
         * same position (the last one on ties) as the two loops one after the other.
         */
        private static int addPairMaxUp(double[] g, float[] ri, double dai, float[] rj, double daj, int n,
                                        byte[] set, double[] y) {
            double gmax = Double.NEGATIVE_INFINITY;
            int i = -1;
            for (int t = 0; t < n; t++) {
                double gt = g[t] + (ri[t] * dai + rj[t] * daj);
                g[t] = gt;
                if ((set[t] & UP) != 0) {
                    double v = -y[t] * gt;
                    if (v >= gmax) {
                        gmax = v;
                        i = t;
                    }
                }
            }
            return i;
        }

        private static int addPairMaxUp(double[] g, double[] ri, double dai, double[] rj, double daj, int n,
                                        byte[] set, double[] y) {
            double gmax = Double.NEGATIVE_INFINITY;
            int i = -1;
            for (int t = 0; t < n; t++) {
                double gt = g[t] + (ri[t] * dai + rj[t] * daj);
                g[t] = gt;
                if ((set[t] & UP) != 0) {
                    double v = -y[t] * gt;
                    if (v >= gmax) {
                        gmax = v;
                        i = t;
                    }
                }
            }
            return i;
        }

        /** v_t += f r_t for t &lt; n. */
        private static void addScaled(double[] v, double f, float[] r, int n) {
            for (int t = 0; t < n; t++) {
                v[t] += f * r[t];
            }
        }

        private static void addScaled(double[] v, double f, double[] r, int n) {
            for (int t = 0; t < n; t++) {
                v[t] += f * r[t];
            }
        }

        /** v_t += f r_t for from &le; t &lt; to. */
        private static void addScaled(double[] v, double f, double[] r, int from, int to) {
            for (int t = from; t < to; t++) {
                v[t] += f * r[t];
            }
        }

        /** Σ α_t r_t over the free variables (0 &lt; α_t &lt; C_t) among the first n, in order. */
        private static double freeDot(double[] a, double[] cs, double[] r, int n) {
            double sum = 0;
            for (int t = 0; t < n; t++) {
                if (a[t] > 0 && a[t] < cs[t]) {
                    sum += a[t] * r[t];
                }
            }
            return sum;
        }

        private boolean inUp(int t) {
            return y[t] > 0 ? a[t] < cs[t] : a[t] > 0;
        }

        private boolean inLow(int t) {
            return y[t] > 0 ? a[t] > 0 : a[t] < cs[t];
        }

        private boolean shrinkable(int t, double gmax, double gmin) {
            boolean up = inUp(t);
            boolean low = inLow(t);
            if (up == low) {
                return false; // free variables stay
            }
            double v = -y[t] * g[t];
            return up ? v < gmin : v > gmax;
        }

        private void swap(int s, int t) {
            swap(a, s, t);
            swap(y, s, t);
            swap(g, s, t);
            if (gBar != null) {
                swap(gBar, s, t);
            }
            swap(lin, s, t);
            swap(qd, s, t);
            swap(cs, s, t);
            byte st = set[s];
            set[s] = set[t];
            set[t] = st;
            int pt = perm[s];
            perm[s] = perm[t];
            perm[t] = pt;
            // the rows follow at the end of the pass (QRows.swapAll)
            if (2 * swapCount + 2 > swaps.length) {
                swaps = Arrays.copyOf(swaps, 2 * swaps.length);
            }
            swaps[2 * swapCount] = s;
            swaps[2 * swapCount + 1] = t;
            swapCount++;
        }

        private static void swap(double[] v, int s, int t) {
            double x = v[s];
            v[s] = v[t];
            v[t] = x;
        }

        /**
         * The gradient of the shrunk variables from Ḡ and the free variables (LIBSVM's
         * {@code reconstruct_gradient}), choosing the cheaper of the row-wise and column-wise sums.
         */
        private void reconstruct() {
            upValid = false;
            int n = active;
            if (n == m) {
                return;
            }
            for (int t = n; t < m; t++) {
                g[t] = gBar[t] + lin[t];
            }
            int free = 0;
            for (int t = 0; t < n; t++) {
                if (a[t] > 0 && a[t] < cs[t]) {
                    free++;
                }
            }
            if ((double) free * m > 2.0 * n * (m - n)) {
                for (int s = n; s < m; s++) {
                    q.row(s, n, qj);
                    g[s] += freeDot(a, cs, qj, n);
                }
            } else {
                for (int s = 0; s < n; s++) {
                    if (a[s] > 0 && a[s] < cs[s]) {
                        q.row(s, m, qj);
                        addScaled(g, a[s], qj, n, m);
                    }
                }
            }
        }
    }

    private static double bias(double[] a, double[] g, double[] y, double[] cs) {
        double ub = Double.POSITIVE_INFINITY;
        double lb = Double.NEGATIVE_INFINITY;
        double sum = 0;
        int free = 0;
        for (int t = 0; t < a.length; t++) {
            double yg = y[t] * g[t];
            if (a[t] >= cs[t]) {
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
        return feasible(init, y, uniform(init.length, c));
    }

    /** Clips α_t into [0, C_t] and rescales one class so that Σ α_i y_i = 0 (keeps the box). */
    static double[] feasible(double[] init, double[] y, double[] cs) {
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
            a[t] = Math.min(cs[t], Math.max(0, v));
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
