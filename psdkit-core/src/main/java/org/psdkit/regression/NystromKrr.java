package org.psdkit.regression;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.psdkit.kernel.GaussianKernel;
import org.psdkit.kernel.Kernel;
import org.psdkit.linalg.FloatBlas;
import org.psdkit.linalg.Cholesky;
import org.psdkit.linalg.Linalg;
import org.psdkit.linalg.Matrix;
import org.psdkit.linalg.OnThread;
import org.psdkit.linalg.Threads;
import org.psdkit.linalg.SpdSolve;
import org.psdkit.optim.ConjugateGradient;

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
 * recomputed each pass or, when n·m single-precision numbers fit in {@link #FLOAT_CACHE_HEAP_FRACTION} of the
 * heap still free, kept as floats after the first pass ({@link Storage}). CG stops when the relative residual
 * ‖Bᵀb − BᵀHBβ‖/‖Bᵀb‖ falls below the tolerance; that residual is recomputed from scratch (one extra pass) before
 * it is reported, so the number reported is the true one, not CG's recursion.
 */
public final class NystromKrr {

    /** Row-block size target: blocks of K_nm of about 2²⁰ numbers (8 MB in double), small enough for caches. */
    static final int BLOCK_ENTRIES = 1 << 20;

    /**
     * Row-block size of the single-precision passes: 2²² numbers (16 MB). Larger than {@link #BLOCK_ENTRIES} because
     * the Gram pass ({@link Storage#GRAM}) runs one dsyrk per block, and a deeper inner dimension (838 rows at
     * m = 5,000) keeps it near the BLAS's peak.
     */
    static final int FLOAT_BLOCK_ENTRIES = 1 << 22;

    /**
     * Rows per single-precision sum of the experimental Gram pass ({@link Storage#GRAM_SINGLE}: one {@code cblas_ssyrk} per chunk, the
     * chunks added in double). Every entry of K_nm is positive, so an entry of a chunk's sum has relative error at
     * most γ_R ≈ R·u = 2.4e-4 (u = 2⁻²⁴, Higham 2002, eq. 3.4), typically √R·u ≈ 4e-6; the Gram matrix only
     * preconditions CG, so this costs iterations, never accuracy (NystromKrrTest checks the bound). 4,096 rows keep
     * ssyrk's inner dimension deep (near its peak) while the double additions of the chunks' m×m results (m²/2 per
     * chunk) stay ≈ 1/4,096 of the flops.
     */
    static final int GRAM_CHUNK_ROWS = 4096;

    /**
     * {@link Storage#AUTO} accumulates K_nmᵀK_nm ({@link Storage#GRAM}) when K_nm does not fit the single-precision
     * store ({@link #FLOAT_CACHE_HEAP_FRACTION}) and one m×m double array per worker plus two more fit in this
     * fraction of the free heap (m = 5,000: 4 × 200 MB with two workers; the per-worker
     * accumulators are native memory, counted here all the same).
     */
    public static final double GRAM_HEAP_FRACTION = 0.3;

    /**
     * Cost of one flop of the Gram pass (dsyrk of the single-precision blocks widened to double, and the m³/3 of the
     * Cholesky of H̃) in units of the cost of one entry of a CG pass over the kept single-precision K_nm (K_bᵀ(K_b u)
     * per row: two multiply-adds per entry in Java). Measured with {@code bench krr-scale}'s profile (first pass of
     * {@code gram} minus that of {@code float}, against passSeconds / passes / (n·m)): 1/15 at n = 30,000, m = 500
     * (0.24 ns per flop, 4.2 ns per entry; load 13 on 2 cores), 1/60 at m = 1,500 (0.05 ns, 3 ns); 1/160 from the
     * CPU seconds at n = 50,000, m = 5,000 (docs/benchmarks/krr-scale.md). In one run beside scikit-learn (same
     * file, "small m") the Gram route won at n = 30,000, m = 1,000 and n = 100,000, m = 500 and 1,000, and tied in CPU
     * (lost in wall time, its m×m factorisations waiting on OpenBLAS's threads) at n = 100,000, m = 2,000; 1/40 puts
     * the crossover there. The Gram pass's BLAS calls run single-threaded per worker (dsyrk 25 instead of
     * 13 G multiply-adds per CPU-second, same process, load ≈ 20), so the constant is halved to 1/80; with it the
     * Gram route is also taken at n = 100,000, m = 2,000 (docs/benchmarks/krr-scale.md, session 4).
     */
    static final double GRAM_FLOP_COST_PER_PASS_ENTRY = 1.0 / 80;

    /**
     * Falkon CG iterations to the default tolerance, predicted as this times √(n/m): the sweep of
     * docs/benchmarks/krr-scale-curves.csv (λ = 1, σ = 3, d = 10; n = 5,000–100,000, m = 250–4,000) took
     * 5.2–7.3 √(n/m) iterations (57 at n = 30,000, m = 250; 89 at 100,000, 500; 17 at 30,000, 4,000).
     */
    static final double CG_ITERATIONS_PER_SQRT_N_OVER_M = 6;

    /**
     * Whether the Gram route ({@link Storage#GRAM}: one pass with n·m² dsyrk flops plus an m³/3 Cholesky, then CG on
     * the m×m Gram matrix without reading the data) costs less than the plain CG's
     * ≈ {@link #CG_ITERATIONS_PER_SQRT_N_OVER_M}·√(n/m) passes of n·m entries plus its true-residual check; both
     * routes compute the right-hand side in their first pass (the Gram pass, or filling the single-precision
     * store), so the saving is every CG pass.
     */
    static boolean gramCheaper(long n, int m) {
        double gramCost = GRAM_FLOP_COST_PER_PASS_ENTRY * ((double) n * m * m + (double) m * m * m / 3);
        double iterations = CG_ITERATIONS_PER_SQRT_N_OVER_M * Math.sqrt((double) n / m);
        return gramCost < (iterations + 1) * n * m;
    }

    /**
     * Cap on the CG iterations on the accumulated Gram matrix ({@link Storage#GRAM}) before the solve continues on
     * data passes: its preconditioner is the operator up to rounding, so it converges in one to three iterations
     * when it converges at all. At n = 10⁶, m = 5,000 (λ = 1) G's absolute rounding, ≈ u‖G‖ per product, stayed
     * above the tolerance, and CG on G ran all 200 iterations (103 s of m×m work) without reaching it, while one
     * data pass afterwards found the residual at 3.8e-8 (docs/benchmarks/krr-scale.md, session 4).
     */
    static final int GRAM_OPERATOR_MAX_ITERATIONS = 10;

    /**
     * Rows of the sampled Gram preconditioner ({@link Storage#SKETCH}) per anchor: s = 20·m rows (m = 5,000:
     * 100,000 rows, 2.5e12 multiply-adds). With s = 10·m, CG took 11 iterations at n = 10⁵, m = 2,000 and 16 at
     * n = 10⁶, m = 5,000 (43 and ≈ 85 without it); the sketch's relative error falls like 1/√s, so doubling s cuts
     * the condition number's excess by √2 for a sketch that still costs about two passes at 10⁶ × 5,000
     * (docs/benchmarks/krr-scale.md, session 5).
     */
    static final int SKETCH_ROWS_PER_ANCHOR = 20;

    /**
     * CG iterations to the default tolerance with the sketch preconditioner, for the cost model
     * ({@link #autoRoute}): 11 and 16 measured with s = 10·m (see {@link #SKETCH_ROWS_PER_ANCHOR}).
     */
    static final double SKETCH_CG_ITERATIONS = 14;

    /**
     * Cost of computing one entry of K_nm (the fast single-precision Gaussian block: sgemm 0.8 ns plus the
     * vectorised exponential 3.4 ns) in units of a CG pass entry over kept single-precision K_nm (two
     * multiply-adds, 1.6 ns), one core of this machine, idle (session 5).
     */
    static final double FILL_COST_PER_PASS_ENTRY = 2.6;

    /** Data passes of the Gram route after the Gram pass: CG on G, then one pass for the true residual (and rarely more). */
    static final double GRAM_ROUTE_PASSES = 2;

    /**
     * The route {@link Storage#AUTO} takes for n rows and m anchors when a fraction {@code kept} of K_nm fits the
     * single-precision store ({@code keptWithMm}: with the m×m arrays of the Gram or sketch route taken from the
     * budget): {@link Storage#FLOAT} (plain Falkon CG), {@link Storage#GRAM} or {@link Storage#SKETCH}, whichever
     * costs least in pass entries. A pass costs n·m·(1 + (1 − kept)·{@link #FILL_COST_PER_PASS_ENTRY}); the plain
     * CG takes {@link #CG_ITERATIONS_PER_SQRT_N_OVER_M}·√(n/m) + 1 passes; the Gram route n·m² + m³/3 flops at
     * {@link #GRAM_FLOP_COST_PER_PASS_ENTRY} plus {@link #GRAM_ROUTE_PASSES}; the sketch s·m² + m³/3 flops, s·m
     * entries and {@link #SKETCH_CG_ITERATIONS} + 1 passes (only when s &lt; n: otherwise it is the Gram route).
     * Neither m×m route when {@code mmFits} is false.
     */
    static Storage autoRoute(long n, int m, double kept, double keptWithMm, boolean mmFits) {
        double e = (double) n * m;
        double plain = (CG_ITERATIONS_PER_SQRT_N_OVER_M * Math.sqrt((double) n / m) + 1)
                * e * (1 + (1 - kept) * FILL_COST_PER_PASS_ENTRY);
        if (!mmFits) {
            return Storage.FLOAT;
        }
        double pass = e * (1 + (1 - keptWithMm) * FILL_COST_PER_PASS_ENTRY);
        double mm3 = (double) m * m * m / 3;
        double gram = GRAM_FLOP_COST_PER_PASS_ENTRY * ((double) n * m * m + mm3) + GRAM_ROUTE_PASSES * pass;
        long s = (long) SKETCH_ROWS_PER_ANCHOR * m;
        double sketch = s >= n ? Double.POSITIVE_INFINITY
                : GRAM_FLOP_COST_PER_PASS_ENTRY * ((double) s * m * m + mm3) + (double) s * m * FILL_COST_PER_PASS_ENTRY
                + (SKETCH_CG_ITERATIONS + 1) * pass;
        if (plain <= gram && plain <= sketch) {
            return Storage.FLOAT;
        }
        return gram <= sketch ? Storage.GRAM : Storage.SKETCH;
    }

    /** Seed of the sketch's row sample (fixed: the same data and anchors give the same fit). */
    static final long SKETCH_SEED = 0x5EEDL;

    /**
     * Single-precision K_nm is kept when it needs at most this fraction of the maximum heap: 0.4 leaves room for the
     * data (n·d doubles) and the JVM's copying headroom with the default heap.
     */
    public static final double FLOAT_CACHE_HEAP_FRACTION = 0.4;

    /** The pool of the data-sized passes ({@link Threads#dataPool}). */
    private static final ForkJoinPool POOL = Threads.dataPool();

    /** Default relative residual of CG: 1e-6, far below the statistical error of any regression fit. */
    public static final double DEFAULT_TOLERANCE = 1e-6;

    /** Default cap on CG iterations; Falkon needs ≈ 10–20 with its preconditioner (Rudi et al. 2017, Sec. 4). */
    public static final int DEFAULT_MAX_ITERATIONS = 200;

    /** Size of the uniform pilot sample for approximate ridge leverage scores (cost O(n·pilot²)). */
    static final int LEVERAGE_PILOT = 256;

    /** How anchors are chosen. */
    public enum AnchorMethod {
        /** m distinct rows uniformly at random (Falkon's choice). */
        UNIFORM,
        /** D² sampling in feature space (Arthur &amp; Vassilvitskii 2007, k-means++ seeding). */
        KMEANSPP,
        /** Approximate ridge leverage scores from a uniform pilot (Alaoui &amp; Mahoney 2015, Def. 1). */
        LEVERAGE;

        /** Parses {@code uniform|kmeans++|leverage}; errors name the parameter {@code anchorMethod}. */
        public static AnchorMethod parse(String s) {
            String t = s == null ? "" : s.trim().toLowerCase(Locale.ROOT);
            return switch (t) {
                case "uniform" -> UNIFORM;
                case "kmeans++", "kmeanspp" -> KMEANSPP;
                case "leverage" -> LEVERAGE;
                default -> throw new IllegalArgumentException("anchorMethod: '" + s
                        + "' is not uniform, kmeans++ or leverage");
            };
        }

        public String label() {
            return this == KMEANSPP ? "kmeans++" : name().toLowerCase(Locale.ROOT);
        }
    }

    /** Where the blocks of K_nm live between CG iterations. */
    public enum Storage {
        /**
         * Single precision as far as it fits ({@link #FLOAT_CACHE_HEAP_FRACTION}, the rest recomputed), with the
         * plain Falkon CG, the Gram preconditioner ({@link #GRAM}) or the sampled one ({@link #SKETCH}), whichever
         * {@link #autoRoute} prices lowest.
         */
        AUTO,
        /** Recomputed in double precision every pass (O(m) extra memory per block). */
        RECOMPUTE,
        /** Kept in single precision (n·m·4 bytes). */
        FLOAT,
        /**
         * K_nmᵀK_nm of the single-precision blocks accumulated once (dsyrk per row block) and its Cholesky
         * factor used as CG's preconditioner, so CG needs one to three passes; the blocks of K_nm in single
         * precision, kept as far as {@link #FLOAT_CACHE_HEAP_FRACTION} allows and recomputed otherwise. The Gram
         * matrix is that of the single-precision blocks to double rounding, so it is also CG's operator: after the
         * Gram pass (which computes the right-hand side too) the solve reads no data.
         */
        GRAM,
        /**
         * Experimental, not chosen by {@link #AUTO}: {@link #GRAM} with K_nmᵀK_nm summed in single precision per
         * chunk of {@link #GRAM_CHUNK_ROWS} rows ({@code cblas_ssyrk}, half the flop cost) and in double across
         * chunks. Its rounding (≈ R·u/√(n/R) relative per entry) is far above λK_mm's smallest eigenvalues, so it
         * serves only as a preconditioner, CG's operator stays the data passes, and CG needed more iterations than
         * plain Falkon CG in the measurements (docs/benchmarks/krr-scale.md, session 4).
         */
        GRAM_SINGLE,
        /**
         * The blocks as {@link #AUTO} keeps them (single precision as far as they fit, the rest recomputed each
         * pass), with CG preconditioned by the Gram matrix of a uniform sample of s = {@link #SKETCH_ROWS_PER_ANCHOR}·m
         * rows (at most n), scaled by n/s: H̃ = (n/s)·K_smᵀK_sm + λK_mm in place of {@link #GRAM}'s full
         * K_nmᵀK_nm + λK_mm. It costs s·m² instead of n·m² flops, and since a uniform row sample approximates the
         * (λ-regularised) Gram matrix up to a relative error that falls like 1/√s (the sketching argument of Rudi,
         * Carratino &amp; Rosasco 2017, Lemma 5, with s sampled rows in place of their m anchors), CG needs a few
         * passes more than with the full Gram matrix and far fewer than Falkon's H̃ = (n/m)K_mm² + λK_mm.
         */
        SKETCH;

        public static Storage parse(String s) {
            String t = s == null ? "" : s.trim().toLowerCase(Locale.ROOT);
            return switch (t) {
                case "auto" -> AUTO;
                case "recompute" -> RECOMPUTE;
                case "float" -> FLOAT;
                case "gram" -> GRAM;
                case "gram-single" -> GRAM_SINGLE;
                case "sketch" -> SKETCH;
                default -> throw new IllegalArgumentException("storage: '" + s
                        + "' is not auto, recompute, float, gram, gram-single or sketch");
            };
        }

        public String label() {
            return this == GRAM_SINGLE ? "gram-single" : name().toLowerCase(Locale.ROOT);
        }
    }

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

    /**
     * The data-sized product of one CG iteration, u ↦ K_nmᵀK_nm u, wherever the n rows live ({@link Problem} on
     * this machine in row blocks; an engine such as psdkit-spark over partitions). {@link #solve} runs the Falkon
     * CG on the driver with it; everything else in the solve is m×m.
     */
    public interface Operator {
        /** The number n of data rows. */
        long rows();

        /** K_nmᵀK_nm u (length m). */
        double[] applyKtK(double[] u);

        /** Where K_nm lives, for the diagnostics ({@code float}, {@code recompute}, ...). */
        String storage();
    }

    private NystromKrr() {
    }

    // ------------------------------------------------------------------------------------------------ anchors

    /**
     * Indices of m anchors among the rows of x; the same seed gives the same indices.
     *
     * @param lambda the ridge λ (used by {@link AnchorMethod#LEVERAGE} only)
     */
    public static int[] selectAnchors(Kernel kernel, Matrix x, int m, AnchorMethod method, long seed,
                                      double lambda) {
        int n = x.rows();
        if (m < 1 || m > n) {
            throw new IllegalArgumentException("anchors must be between 1 and the number of points " + n
                    + ", got " + m);
        }
        Random rnd = new Random(seed);
        return switch (method) {
            case UNIFORM -> uniform(n, m, rnd);
            case KMEANSPP -> kmeansPlusPlus(x, m, rnd);
            case LEVERAGE -> leverage(kernel, x, m, rnd, lambda);
        };
    }

    private static int[] uniform(int n, int m, Random rnd) {
        int[] idx = new int[n];
        for (int i = 0; i < n; i++) {
            idx[i] = i;
        }
        for (int i = 0; i < m; i++) { // partial Fisher–Yates shuffle
            int j = i + rnd.nextInt(n - i);
            int t = idx[i];
            idx[i] = idx[j];
            idx[j] = t;
        }
        return Arrays.copyOf(idx, m);
    }

    private static int[] kmeansPlusPlus(Matrix x, int m, Random rnd) {
        int n = x.rows();
        int d = x.cols();
        double[] xr = rowMajor(x);
        double[] dmin = new double[n];
        Arrays.fill(dmin, Double.POSITIVE_INFINITY);
        boolean[] taken = new boolean[n];
        int[] out = new int[m];
        int c = rnd.nextInt(n);
        for (int k = 0; k < m; k++) {
            out[k] = c;
            taken[c] = true;
            final int cc = c;
            POOL.submit(() -> IntStream.range(0, n).parallel().forEach(i -> {
                double s = 0;
                for (int t = 0; t < d; t++) {
                    double v = xr[i * d + t] - xr[cc * d + t];
                    s += v * v;
                }
                if (s < dmin[i]) {
                    dmin[i] = s;
                }
            })).join();
            if (k + 1 == m) {
                break;
            }
            double total = 0;
            for (int i = 0; i < n; i++) {
                if (!taken[i]) {
                    total += dmin[i];
                }
            }
            c = -1;
            if (total > 0) {
                double u = rnd.nextDouble() * total;
                for (int i = 0; i < n; i++) {
                    if (!taken[i]) {
                        u -= dmin[i];
                        if (u < 0) {
                            c = i;
                            break;
                        }
                    }
                }
            }
            if (c < 0) { // all remaining points coincide with anchors (or rounding): the next free one at random
                int free = rnd.nextInt(n - k - 1);
                for (int i = 0; i < n; i++) {
                    if (!taken[i] && free-- == 0) {
                        c = i;
                        break;
                    }
                }
            }
        }
        return out;
    }

    /**
     * Ridge leverage scores ℓ_i ∝ k(x_i, x_i) − k_iSᵀ(K_SS + λI)⁻¹k_iS from a uniform pilot S (Alaoui &amp; Mahoney
     * 2015; Musco &amp; Musco 2017, eq. 5), then m rows without replacement with probability ∝ ℓ_i (keys
     * log(u)/ℓ_i, Efraimidis &amp; Spirakis 2006).
     */
    private static int[] leverage(Kernel kernel, Matrix x, int m, Random rnd, double lambda) {
        int n = x.rows();
        int s = Math.min(n, Math.min(m, LEVERAGE_PILOT));
        Matrix pilot = x.selectRows(uniform(n, s, new Random(rnd.nextLong())));
        Matrix kss = kernel.gram(pilot);
        double mean = kss.trace() / s;
        // λ = 0 has no ridge: a relative 1e-6 of the mean diagonal keeps the scores finite and positive
        kss.addToDiagonal(lambda > 0 ? lambda : 1e-6 * Math.max(mean, 1e-300));
        Cholesky ch = Linalg.cholesky(kss);
        double[] diag = kernel.diag(x);
        double[] score = new double[n];
        int rows = Math.max(1, BLOCK_ENTRIES / s);
        for (int i0 = 0; i0 < n; i0 += rows) {
            int i1 = Math.min(n, i0 + rows);
            Matrix kbs = kernel.cross(pilot, x.rowRange(i0, i1)); // s × b
            Linalg.solveLowerInPlace(ch.lower(), false, kbs);
            double[] a = kbs.data();
            for (int j = 0; j < i1 - i0; j++) {
                double q = 0;
                for (int t = 0; t < s; t++) {
                    q += a[j * s + t] * a[j * s + t];
                }
                score[i0 + j] = diag[i0 + j] - q;
            }
        }
        double floor = 1e-12 * Math.max(mean, 1e-300); // rounding can make a score 0 or negative: keep it drawable
        Integer[] order = new Integer[n];
        double[] key = new double[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
            key[i] = Math.log(rnd.nextDouble()) / Math.max(score[i], floor);
        }
        Arrays.sort(order, (p, q) -> Double.compare(key[q], key[p]));
        int[] out = new int[m];
        for (int k = 0; k < m; k++) {
            out[k] = order[k];
        }
        return out;
    }

    // ------------------------------------------------------------------------------------------------ problem

    /**
     * The λ-independent part of a Nyström KRR problem: the data in row blocks, the anchors, K_mm and its Cholesky
     * factor, and (if stored) K_nm in single precision. {@link #solve} can be called for many λ (the grid of
     * {@code cv krr}) and targets.
     */
    public static final class Problem implements Operator {
        private final Kernel kernel;
        private final Matrix anchors;
        private final List<Matrix> blocks = new ArrayList<>();
        private final int[] blockStart;
        private final int n;
        private final int m;
        private final Matrix kmm;
        private final Cholesky kmmChol;
        private final float[][] cache; // per block, row-major b×m; null (or null blocks) when recomputed
        private final int cached; // number of leading blocks kept in single precision
        private final boolean single; // passes in single precision (else recomputed in double)
        private final GaussianFloatBlocks fast; // the fast single-precision Gaussian block, or null
        private final Matrix gram; // K_nmᵀK_nm of the single-precision blocks (Storage.GRAM), or null
        private final boolean gramSingle; // gram summed in single precision per chunk (Storage.GRAM_SINGLE)
        private final Matrix sketch; // (n/s)·K_smᵀK_sm of s sampled rows (Storage.SKETCH), or null
        private final int sketchRows; // s, or 0
        private final double sketchSeconds;
        private final double[] fusedTarget; // the y − offset whose K_nmᵀ(y − offset) the first pass computed, or null
        private final double[] fusedRhs; // K_nmᵀ fusedTarget
        private final double kmmSeconds; // K_mm and its Cholesky factor
        private final double firstPassSeconds; // the Gram pass or filling the single-precision store
        private final java.util.concurrent.atomic.AtomicLong passNanos = new java.util.concurrent.atomic.AtomicLong();
        private final AtomicInteger passes = new AtomicInteger();
        private final java.util.concurrent.atomic.AtomicLong solveMmNanos = new java.util.concurrent.atomic.AtomicLong();

        Problem(Kernel kernel, Matrix x, Matrix anchors, Storage storage, double[] target) {
            if (x.cols() != anchors.cols()) {
                throw new IllegalArgumentException("anchors have " + anchors.cols() + " features, points "
                        + x.cols());
            }
            this.kernel = kernel;
            this.anchors = anchors.copy();
            this.n = x.rows();
            this.m = anchors.rows();
            long t0 = System.nanoTime();
            kmm = kernel.gram(this.anchors);
            kmmChol = Linalg.cholesky(kmm);
            kmmSeconds = (System.nanoTime() - t0) * 1e-9;
            Runtime rt = Runtime.getRuntime();
            long free = rt.maxMemory() - (rt.totalMemory() - rt.freeMemory());
            int workers = POOL.getParallelism();
            single = storage != Storage.RECOMPUTE;
            int rows = Math.max(1, (single ? FLOAT_BLOCK_ENTRIES : BLOCK_ENTRIES) / m);
            // AUTO: the Gram route when its m×m arrays fit and either K_nm does not fit the single-precision store
            // or the cost model says the Gram pass is cheaper than the CG passes it saves (gramCheaper)
            double mmBytes = (workers + 2.0) * 8.0 * m * m; // the Gram or sketch route's m×m arrays
            boolean gramFits = mmBytes <= GRAM_HEAP_FRACTION * free;
            Storage route = storage;
            if (storage == Storage.AUTO) {
                double entries = (double) n * m * Float.BYTES;
                route = autoRoute(n, m, Math.min(1, FLOAT_CACHE_HEAP_FRACTION * free / entries),
                        Math.min(1, FLOAT_CACHE_HEAP_FRACTION * (free - mmBytes) / entries), gramFits);
            }
            boolean gram = route == Storage.GRAM || route == Storage.GRAM_SINGLE;
            gramSingle = storage == Storage.GRAM_SINGLE;
            if (target != null && target.length != n) {
                throw new IllegalArgumentException("nystrom krr: " + n + " points but " + target.length + " targets");
            }
            int nb = (n + rows - 1) / rows;
            blockStart = new int[nb + 1];
            for (int b = 0; b < nb; b++) {
                blockStart[b] = b * rows;
                blocks.add(x.rowRange(b * rows, Math.min(n, (b + 1) * rows)));
            }
            blockStart[nb] = n;
            GaussianFloatBlocks g = null;
            if (single && kernel instanceof GaussianKernel gk) {
                g = new GaussianFloatBlocks(gk, this.anchors);
                if (g.errorBound(g.maxCentredNorm2(x)) > GaussianFloatBlocks.MAX_RELATIVE_ERROR) {
                    g = null; // points far from the anchors' mean relative to σ: the double kernel, rounded
                }
            }
            fast = g;
            boolean sketched = route == Storage.SKETCH;
            t0 = System.nanoTime();
            if (sketched) {
                sketchRows = (int) Math.min(n, (long) SKETCH_ROWS_PER_ANCHOR * m);
                sketch = sketchGram(x, sketchRows, rows);
            } else {
                sketchRows = 0;
                sketch = null;
            }
            sketchSeconds = (System.nanoTime() - t0) * 1e-9;
            long budget = (long) (FLOAT_CACHE_HEAP_FRACTION * (free - (gram || sketched
                    ? (workers + 2L) * 8L * m * m : 0)));
            // AUTO (and GRAM) keep as many leading blocks as fit in the budget and recompute the rest
            int keep = storage == Storage.FLOAT ? nb : storage == Storage.RECOMPUTE ? 0
                    : (int) Math.max(0, Math.min(nb, Math.floor(budget / ((double) rows * m * Float.BYTES))));
            cached = keep;
            cache = keep > 0 ? new float[nb][] : null;
            t0 = System.nanoTime();
            double[] rhs = null;
            if (gram) {
                rhs = target == null ? null : new double[m];
                this.gram = gramSingle ? accumulateGramSingle(keep, target, rhs) : accumulateGram(keep, target, rhs);
            } else {
                this.gram = null;
                if (keep > 0) {
                    // the right-hand side K_nmᵀ target is fused into this pass when every block is filled here
                    boolean fuse = target != null && keep == nb;
                    rhs = FloatBlas.singleThreaded(() -> POOL.submit(() -> IntStream.range(0, keep).parallel()
                            .mapToObj(b -> {
                        float[] a = floatBlock(b, new float[(blockStart[b + 1] - blockStart[b]) * m]);
                        cache[b] = a;
                        double[] w = null;
                        if (fuse) {
                            w = new double[m];
                            FloatBlas.addTransposeTimes(blockStart[b + 1] - blockStart[b], m, a, target,
                                    blockStart[b], w);
                        }
                        return w;
                    }).reduce(null, NystromKrr::sum)).join());
                    if (!fuse) {
                        rhs = null;
                    }
                }
            }
            fusedTarget = rhs == null ? null : target.clone();
            fusedRhs = rhs;
            firstPassSeconds = (System.nanoTime() - t0) * 1e-9;
        }

        /**
         * Where the time went (for {@code bench krr-scale}'s profile): {@code kmmSeconds} (K_mm and its factor),
         * {@code firstPassSeconds} (the Gram pass, or filling the single-precision store), {@code passes} and
         * {@code passSeconds} (the passes K_nmᵀ(K_nm u + v) so far: right-hand sides, CG products, residual checks),
     * {@code solveMmSeconds} (the rest of the solves: the m×m preconditioner factors and products).
         */
        public java.util.Map<String, Double> timings() {
            java.util.Map<String, Double> t = new java.util.LinkedHashMap<>();
            t.put("kmmSeconds", kmmSeconds);
            t.put("firstPassSeconds", firstPassSeconds);
            if (sketch != null) {
                t.put("sketchRows", (double) sketchRows);
                t.put("sketchSeconds", sketchSeconds);
            }
            t.put("passes", (double) passes.get());
            t.put("passSeconds", passNanos.get() * 1e-9);
            t.put("solveMmSeconds", solveMmNanos.get() * 1e-9);
            return t;
        }

        /**
         * (n/s)·K_smᵀK_sm for s rows of x drawn uniformly without replacement ({@link #SKETCH_SEED}), in their
         * original order: the single-precision blocks of those rows through {@link #gramPass}.
         */
        private Matrix sketchGram(Matrix x, int s, int rows) {
            int[] idx;
            if (s >= n) {
                idx = IntStream.range(0, n).toArray();
            } else {
                // Floyd's sampling of s distinct rows, then sorted (blocks read x in its order)
                java.util.Random rnd = new java.util.Random(SKETCH_SEED);
                java.util.BitSet chosen = new java.util.BitSet(n);
                for (int j = n - s; j < n; j++) {
                    int t = rnd.nextInt(j + 1);
                    chosen.set(chosen.get(t) ? j : t);
                }
                idx = chosen.stream().toArray();
            }
            int[] sample = idx;
            Matrix g = gramPass((s + rows - 1) / rows, null, (b, acc, part) -> {
                int from = b * rows;
                int to = Math.min(s, from + rows);
                float[] a = scratch((to - from) * m);
                fillFloat(x.selectRows(Arrays.copyOfRange(sample, from, to)), a);
                acc.add(to - from, a);
            });
            g.scaleInPlace((double) n / s);
            return g;
        }

        /**
         * K_nmᵀK_nm of the single-precision blocks, in one pass: dsyrk of each block widened to double, accumulated
         * natively per worker (so the Gram matrix is that of the very numbers the CG passes multiply, to double
         * rounding), with K_bᵀ target_b summed per worker when a target is given; keeps the leading {@code keep}
         * blocks. Each worker's BLAS calls run single-threaded ({@link FloatBlas#singleThreaded}): with OpenBLAS's
         * own threads as well, two workers' dsyrk calls kept four threads waiting on each other on two cores
         * (13 against 25 G multiply-adds per CPU-second, docs/benchmarks/krr-scale.md, session 4).
         */
        private Matrix accumulateGram(int keep, double[] target, double[] rhs) {
            return gramPass(blocks.size(), target == null ? null : rhs, (b, acc, part) -> {
                int rows = blockStart[b + 1] - blockStart[b];
                float[] a = b < keep ? new float[rows * m] : scratch(rows * m);
                floatBlock(b, a);
                if (b < keep) {
                    cache[b] = a;
                }
                if (part != null) {
                    acc.add(rows, a, target, blockStart[b], part);
                } else {
                    acc.add(rows, a);
                }
            });
        }

        /** One block's share of {@link #gramPass}: adds block b into {@code acc} (and into {@code part}, if any). */
        private interface GramStep {
            void add(int b, FloatBlas.GramAccumulator acc, double[] part);
        }

        /**
         * The Gram pass over {@code count} blocks on all workers: each worker pulls blocks in turn into its own
         * double-precision accumulator (BLAS single-threaded per worker, see {@link #accumulateGram}), and the
         * workers' sums are added into the symmetric m×m result (and their right-hand side parts into {@code rhs},
         * when it is not null).
         */
        private Matrix gramPass(int count, double[] rhs, GramStep step) {
            int workers = POOL.getParallelism();
            AtomicInteger next = new AtomicInteger();
            double[] g = new double[m * m];
            FloatBlas.singleThreaded(() -> POOL.submit(() -> IntStream.range(0, workers).parallel().forEach(w -> {
                try (FloatBlas.GramAccumulator acc = new FloatBlas.GramAccumulator(m)) {
                    double[] part = rhs == null ? null : new double[m];
                    int b;
                    while ((b = next.getAndIncrement()) < count) {
                        step.add(b, acc, part);
                    }
                    synchronized (g) {
                        acc.addLowerInto(g);
                        if (part != null) {
                            for (int j = 0; j < m; j++) {
                                rhs[j] += part[j];
                            }
                        }
                    }
                }
            })).join());
            mirrorLower(g, m);
            return Matrix.wrap(m, m, g);
        }

        /**
         * K_nmᵀK_nm of the single-precision blocks in one pass, with single-precision sums per chunk of
         * {@link #GRAM_CHUNK_ROWS} rows ({@link FloatBlas.GramAccumulator#single}) added in double. The blocks are
         * filled a group at a time on all workers (with the right-hand side K_bᵀ target_b of each block when a target
         * is given), then the calling thread hands the group to one ssyrk, which OpenBLAS runs on its own threads
         * (the library's thread count): two Java workers each calling a threaded BLAS left the cores waiting for
         * each other (docs/benchmarks/krr-scale.md, session 4). Keeps the leading {@code keep} blocks.
         */
        private Matrix accumulateGramSingle(int keep, double[] target, double[] rhs) {
            int workers = POOL.getParallelism();
            int nb = blocks.size();
            int rows0 = blockStart[1] - blockStart[0];
            // blocks per group: a multiple of the workers, about one chunk of rows
            int group = workers * Math.max(1, (int) Math.ceil(GRAM_CHUNK_ROWS / ((double) rows0 * workers)));
            float[][] scratch = new float[group][];
            double[] g = new double[m * m];
            try (FloatBlas.GramAccumulator acc = FloatBlas.GramAccumulator.single(m, GRAM_CHUNK_ROWS)) {
                for (int b0 = 0; b0 < nb; b0 += group) {
                    int from = b0;
                    int to = Math.min(nb, b0 + group);
                    float[][] filled = new float[to - from][];
                    double[] part = POOL.submit(() -> IntStream.range(from, to).parallel().mapToObj(b -> {
                        int rows = blockStart[b + 1] - blockStart[b];
                        float[] a;
                        if (b < keep) {
                            a = new float[rows * m];
                            cache[b] = a;
                        } else {
                            int s = b - from;
                            if (scratch[s] == null || scratch[s].length < rows * m) {
                                scratch[s] = new float[rows0 * m];
                            }
                            a = scratch[s];
                        }
                        floatBlock(b, a);
                        filled[b - from] = a;
                        if (target == null) {
                            return null;
                        }
                        double[] w = new double[m];
                        FloatBlas.addTransposeTimes(rows, m, a, target, blockStart[b], w);
                        return w;
                    }).reduce(null, NystromKrr::sum)).join();
                    if (rhs != null) {
                        for (int j = 0; j < m; j++) {
                            rhs[j] += part[j];
                        }
                    }
                    for (int b = from; b < to; b++) {
                        acc.add(blockStart[b + 1] - blockStart[b], filled[b - from]);
                    }
                }
                acc.addLowerInto(g);
            }
            mirrorLower(g, m);
            return Matrix.wrap(m, m, g);
        }

        /**
         * u ↦ G u with G the accumulated K_nmᵀK_nm ({@link Storage#GRAM}): it equals a data pass K_nmᵀ(K_nm u) over
         * the same single-precision blocks up to double rounding (both sum exact products of floats in double, in
         * another order; NystromKrrTest compares them), so CG iterates and checks its true residual without reading
         * the data again: O(m²) per product instead of n·m kernel entries recomputed.
         */
        Operator gramOperator() {
            Matrix g = gram;
            return new Operator() {
                @Override
                public long rows() {
                    return n;
                }

                @Override
                public double[] applyKtK(double[] u) {
                    return OnThread.gemv(g, false, u);
                }

                @Override
                public String storage() {
                    return Problem.this.storage();
                }
            };
        }

        /** Rows of block b of K_nm in single precision into {@code out} (row-major b×m). */
        private float[] floatBlock(int b, float[] out) {
            return fillFloat(blocks.get(b), out);
        }

        /** K(xb, anchors) in single precision into {@code out} (row-major), as every block is computed. */
        private float[] fillFloat(Matrix xb, float[] out) {
            if (fast != null) {
                float[][] aug = AUG.get();
                int len = xb.rows() * (xb.cols() + 2);
                if (aug[0] == null || aug[0].length < len) {
                    aug[0] = new float[len];
                }
                fast.fill(xb, aug[0], out);
            } else {
                toFloatRowMajor(kernel.cross(xb, anchors), out);
            }
            return out;
        }

        public int anchorsCount() {
            return m;
        }

        public Matrix anchors() {
            return anchors.copy();
        }

        /**
         * {@code float} (every block kept in single precision), {@code float k/nb} (k of the nb row blocks kept, the
         * others recomputed in single precision each pass), {@code recompute} (double, every pass), each with
         * {@code gram+} in front when K_nmᵀK_nm was accumulated ({@link Storage#GRAM}; {@code gram-single+} for
         * {@link Storage#GRAM_SINGLE}).
         */
        public String storage() {
            int nb = blocks.size();
            String s = !single ? "recompute" : cached == nb ? "float" : "float " + cached + "/" + nb;
            if (sketch != null) {
                return "sketch " + sketchRows + "+" + s;
            }
            return gram != null ? (gramSingle ? "gram-single+" : "gram+") + s : s;
        }

        /** Σ over row blocks of K_bᵀ(K_b u + v_b); u or v may be null (taken as 0). */
        double[] pass(double[] u, double[] v) {
            long t0 = System.nanoTime();
            // single-threaded BLAS in each worker (the blocks' sgemm): see accumulateGram
            double[] out = FloatBlas.singleThreaded(() -> POOL.submit(() -> IntStream.range(0, blocks.size())
                    .parallel().mapToObj(b -> block(b, u, v))
                    .reduce(new double[m], (p, q) -> {
                        double[] r = new double[m];
                        for (int j = 0; j < m; j++) {
                            r[j] = p[j] + q[j];
                        }
                        return r;
                    })).join());
            passNanos.addAndGet(System.nanoTime() - t0);
            passes.incrementAndGet();
            return out;
        }

        private double[] block(int b, double[] u, double[] v) {
            int i0 = blockStart[b];
            int rows = blockStart[b + 1] - i0;
            double[] w = new double[m];
            if (single) {
                float[] a = cache != null && cache[b] != null ? cache[b] : floatBlock(b, scratch(rows * m));
                NystromBlocks.addKtK(a, rows, u, v, i0, w);
                return w;
            }
            Matrix kb = kernel.cross(blocks.get(b), anchors);
            double[] t = u == null ? new double[rows] : Linalg.gemv(kb, false, u);
            if (v != null) {
                for (int i = 0; i < rows; i++) {
                    t[i] += v[i0 + i];
                }
            }
            return Linalg.gemv(kb, true, t);
        }

        @Override
        public long rows() {
            return n;
        }

        @Override
        public double[] applyKtK(double[] u) {
            return pass(u, null);
        }

        /** H u = K_nmᵀK_nm u + λ K_mm u. */
        double[] applyH(double[] u, double lambda) {
            return NystromKrr.applyH(this, kmm, u, lambda);
        }

        /** b = K_nmᵀ y. */
        double[] rhs(double[] y) {
            return pass(null, y);
        }

        /**
         * Solves (K_nmᵀK_nm + λK_mm)α = K_nmᵀ(y − offset) by Falkon-preconditioned CG.
         *
         * @param offset subtracted from y before fitting (the training mean when centring, else 0)
         */
        public Solution solve(double[] y, double offset, double lambda, double tolerance, int maxIterations) {
            if (y.length != n) {
                throw new IllegalArgumentException("nystrom krr: " + n + " points but " + y.length + " targets");
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
            double[] yc = new double[n];
            for (int i = 0; i < n; i++) {
                yc[i] = y[i] - offset;
            }
            long t0 = System.nanoTime();
            long pass0 = passNanos.get();
            double[] b = fusedTarget != null && Arrays.equals(yc, fusedTarget) ? fusedRhs.clone() : rhs(yc);
            Solution s;
            if (gram != null && !gramSingle) {
                // CG on G (no data read), then its true residual from one data pass, and CG on the passes from there
                // if G's rounding (absolute, ≈ u‖G‖, where a pass's ‖K_nm u‖² is relative) left it above the
                // tolerance on a numerically singular H
                Factors f = factors(kmm, kmmChol, gram, lambda, n); // once for both solves
                Solution g = NystromKrr.solve(gramOperator(), kmm, kmmChol, b, offset, lambda, tolerance,
                        Math.min(maxIterations, GRAM_OPERATOR_MAX_ITERATIONS), f, null, 0);
                s = NystromKrr.solve(this, kmm, kmmChol, b, offset, lambda, tolerance,
                        Math.max(1, maxIterations - g.diagnostics().iterations()), f, g.alpha(),
                        g.diagnostics().iterations());
            } else {
                s = NystromKrr.solve(this, kmm, kmmChol, b, offset, lambda, tolerance, maxIterations,
                        gram != null ? gram : sketch);
            }
            solveMmNanos.addAndGet(System.nanoTime() - t0 - (passNanos.get() - pass0));
            return s;
        }

        /** The preconditioned residual Bᵀ(b − Hα)... for tests: recomputes ‖Bᵀb − BᵀHBβ‖/‖Bᵀb‖ from α. */
        double relativeResidual(double[] y, double offset, double[] alpha, double lambda) {
            double[] yc = new double[n];
            for (int i = 0; i < n; i++) {
                yc[i] = y[i] - offset;
            }
            Precond pc = new Precond(kmmChol.lower(), lambda / n, m);
            double[] r = pc.leftApply(rhs(yc), n);
            double[] h = pc.leftApply(applyH(alpha, lambda), n);
            double[] d = new double[m];
            for (int j = 0; j < m; j++) {
                d[j] = r[j] - h[j];
            }
            return norm(d) / norm(r);
        }

        /** The fitted model for a solution of this problem. */
        public KernelRidge model(Solution s, boolean center) {
            return NystromKrr.model(kernel, anchors, s, center);
        }
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
    public static Solution solve(Operator op, Matrix kmm, Cholesky kmmChol, double[] b, double offset,
                                 double lambda, double tolerance, int maxIterations) {
        return solve(op, kmm, kmmChol, b, offset, lambda, tolerance, maxIterations, null);
    }

    /**
     * {@link #solve(Operator, Matrix, Cholesky, double[], double, double, double, int)} with, when
     * {@code gram} = K_nmᵀK_nm is given (as accumulated by {@link Storage#GRAM}), a second preconditioner inside
     * Falkon's: CG on BᵀHBβ = Bᵀb preconditioned by M = BᵀH̃B with H̃ = gram + λK_mm, i.e.
     * M⁻¹ = B⁻¹H̃⁻¹B⁻ᵀ = n L_AᵀLᵀ H̃⁻¹ L L_A (H̃ by Cholesky, with jitter if it is numerically singular; it is
     * factored directly rather than whitened by L⁻¹, whose amplification of rounding made L⁻¹H̃L⁻ᵀ indefinite on
     * ill-conditioned K_mm). M equals the operator up to rounding and jitter, so CG converges in one to three
     * iterations; the residual and the stopping rule are Falkon's, unchanged (run as the equivalent CG on Hα = b
     * preconditioned by H̃⁻¹, {@link #solveWithFactor}). Without {@code gram} M = I and this is the plain Falkon CG,
     * step for step.
     */
    static Solution solve(Operator op, Matrix kmm, Cholesky kmmChol, double[] b, double offset,
                          double lambda, double tolerance, int maxIterations, Matrix gram) {
        return solve(op, kmm, kmmChol, b, offset, lambda, tolerance, maxIterations, gram, null, 0);
    }

    /**
     * The same, CG started from {@code alpha0} (null: from 0) after {@code iterationsBefore} iterations elsewhere
     * (counted in the diagnostics): its first step is the true residual of alpha0 (one product with op), and CG stops
     * at once if that is within the tolerance.
     */
    static Solution solve(Operator op, Matrix kmm, Cholesky kmmChol, double[] b, double offset,
                          double lambda, double tolerance, int maxIterations, Matrix gram, double[] alpha0,
                          int iterationsBefore) {
        if (!(lambda >= 0) || Double.isInfinite(lambda)) {
            throw new IllegalArgumentException("lambda must be >= 0 and finite, got " + lambda);
        }
        return solve(op, kmm, kmmChol, b, offset, lambda, tolerance, maxIterations,
                factors(kmm, kmmChol, gram, lambda, op.rows()), alpha0, iterationsBefore);
    }

    /** The m×m factors of a solve for one λ: Falkon's B and, with a Gram matrix, the Cholesky factor of H̃. */
    static final class Factors {
        private final Precond pc;
        private final Matrix sChol;

        private Factors(Precond pc, Matrix sChol) {
            this.pc = pc;
            this.sChol = sChol;
        }
    }

    /** Computes {@link Factors} (three m³/3 factorisations and products: computed once per λ and reused). */
    static Factors factors(Matrix kmm, Cholesky kmmChol, Matrix gram, double lambda, double n) {
        int m = kmm.rows();
        Precond pc = new Precond(kmmChol.lower(), lambda / n, m);
        Matrix sChol = null;
        if (gram != null) {
            Matrix h = kmm.scale(lambda).plus(gram);
            try {
                sChol = Linalg.cholesky(h).lower();
            } catch (org.psdkit.linalg.LinalgException e) {
                sChol = null; // H̃ beyond the jitter ladder: Falkon's preconditioner alone (more iterations, same α)
            }
        }
        return new Factors(pc, sChol);
    }

    private static Solution solve(Operator op, Matrix kmm, Cholesky kmmChol, double[] b, double offset,
                                  double lambda, double tolerance, int maxIterations, Factors f, double[] alpha0,
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
        Precond pc = f.pc;
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
    private static Solution solveWithFactor(Operator op, Matrix kmm, Cholesky kmmChol, double[] b, double offset,
                                            double lambda, double tolerance, int maxIterations, Factors f,
                                            double[] alpha0, int iterationsBefore) {
        double n = op.rows();
        Precond pc = f.pc;
        Matrix rf = f.sChol;
        ConjugateGradient.Result r = ConjugateGradient.solve(u -> applyH(op, kmm, u, lambda),
                v -> OnThread.solveLower(rf, true, OnThread.solveLower(rf, false, v)),
                v -> norm(pc.leftApply(v, n)), b, alpha0, tolerance, maxIterations);
        return solution(r.x(), r.iterations() + iterationsBefore, r.residual(), tolerance, op, kmmChol, offset,
                lambda);
    }

    /** The solution of a CG run, after checking that its coefficients are finite. */
    private static Solution solution(double[] alpha, int iterations, double res, double tolerance, Operator op,
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

    /** r = b − Hα (one data pass); returns Falkon's relative residual ‖Bᵀr‖ / rhsNorm. */
    private static double residual(Operator op, Matrix kmm, Precond pc, double[] b, double[] alpha, double lambda,
                                   double n, double rhsNorm, double[] r) {
        double[] h = applyH(op, kmm, alpha, lambda);
        for (int j = 0; j < r.length; j++) {
            r[j] = b[j] - h[j];
        }
        return norm(pc.leftApply(r, n)) / rhsNorm;
    }

    /** H u = K_nmᵀK_nm u + λ K_mm u. */
    static double[] applyH(Operator op, Matrix kmm, double[] u, double lambda) {
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

    /**
     * B = n^{-1/2} L⁻ᵀ L_A⁻ᵀ (Falkon's T⁻¹A⁻¹ with T = Lᵀ, A = L_Aᵀ), L_A L_Aᵀ = LᵀL/m + λ_F I, λ_F = λ/n.
     */
    private static final class Precond {
        private final Matrix l;
        private final Matrix la;

        Precond(Matrix l, double lambdaF, int m) {
            this.l = l;
            Matrix ltl = Linalg.syrk(l, true); // LᵀL
            ltl.scaleInPlace(1.0 / m);
            ltl.addToDiagonal(lambdaF);
            this.la = Linalg.cholesky(ltl).lower();
        }

        /** Bᵀv = n^{-1/2} L_A⁻¹ L⁻¹ v. */
        double[] leftApply(double[] v, double n) {
            double[] t = OnThread.solveLower(l, false, v);
            t = OnThread.solveLower(la, false, t);
            double s = 1 / Math.sqrt(n);
            for (int j = 0; j < t.length; j++) {
                t[j] *= s;
            }
            return t;
        }

        /** β = B⁻¹α = n^{1/2} L_Aᵀ Lᵀ α (the strict upper triangles of L and L_A are zero). */
        double[] rightInverse(double[] alpha, double n) {
            double[] t = OnThread.gemv(la, true, OnThread.gemv(l, true, alpha));
            double s = Math.sqrt(n);
            for (int j = 0; j < t.length; j++) {
                t[j] *= s;
            }
            return t;
        }

        /** Bβ = n^{-1/2} L⁻ᵀ L_A⁻ᵀ β. */
        double[] rightApply(double[] beta, double n) {
            double[] t = OnThread.solveLower(la, true, beta);
            t = OnThread.solveLower(l, true, t);
            double s = 1 / Math.sqrt(n);
            for (int j = 0; j < t.length; j++) {
                t[j] *= s;
            }
            return t;
        }

        double[] operator(Operator p, Matrix kmm, double[] beta, double lambda, double n) {
            return leftApply(applyH(p, kmm, rightApply(beta, n), lambda), n);
        }
    }

    /** The λ-independent part for x and the anchors given (rows of x, or any points with x's columns). */
    public static Problem problem(Kernel kernel, Matrix x, Matrix anchors, Storage storage) {
        return problem(kernel, x, anchors, storage, null);
    }

    /**
     * {@link #problem(Kernel, Matrix, Matrix, Storage)} that also computes K_nmᵀ target in its first pass (the Gram
     * pass, or filling the single-precision store), so that {@link Problem#solve} for y and offset with
     * y − offset equal to {@code target} (compared entry by entry) needs no separate pass for its right-hand side.
     *
     * @param target y − offset of the solve to come (copied), or null
     */
    public static Problem problem(Kernel kernel, Matrix x, Matrix anchors, Storage storage, double[] target) {
        if (kernel == null) {
            throw new IllegalArgumentException("kernel must not be null");
        }
        if (x.rows() == 0) {
            throw new IllegalArgumentException("nystrom krr: no training points");
        }
        return new Problem(kernel, x, anchors, storage == null ? Storage.AUTO : storage, target);
    }

    // ------------------------------------------------------------------------------------------------ helpers

    /** Per-thread scratch of the recomputed single-precision blocks (reused: they are 16 MB each). */
    private static final ThreadLocal<float[][]> SCRATCH = ThreadLocal.withInitial(() -> new float[1][]);

    /** Per-thread scratch of the augmented rows of {@link GaussianFloatBlocks#fill}. */
    private static final ThreadLocal<float[][]> AUG = ThreadLocal.withInitial(() -> new float[1][]);

    private static float[] scratch(int len) {
        float[][] h = SCRATCH.get();
        if (h[0] == null || h[0].length < len) {
            h[0] = new float[len];
        }
        return h[0];
    }

    private static void toFloatRowMajor(Matrix k, float[] out) {
        int r = k.rows();
        int c = k.cols();
        double[] a = k.data();
        for (int j = 0; j < c; j++) {
            for (int i = 0; i < r; i++) {
                out[i * c + j] = (float) a[j * r + i];
            }
        }
    }

    private static double[] rowMajor(Matrix x) {
        int n = x.rows();
        int d = x.cols();
        double[] out = new double[n * d];
        double[] a = x.data();
        for (int j = 0; j < d; j++) {
            for (int i = 0; i < n; i++) {
                out[i * d + j] = a[j * n + i];
            }
        }
        return out;
    }

    /** p + q into a new array (null is the identity): the reduction of per-block right-hand sides. */
    private static double[] sum(double[] p, double[] q) {
        if (p == null) {
            return q;
        }
        if (q == null) {
            return p;
        }
        double[] r = new double[p.length];
        for (int j = 0; j < r.length; j++) {
            r[j] = p[j] + q[j];
        }
        return r;
    }

    /** Row-major lower triangle = column-major upper: mirrors it into a full symmetric column-major matrix. */
    private static void mirrorLower(double[] g, int m) {
        for (int i = 0; i < m; i++) {
            for (int j = 0; j < i; j++) {
                g[j * m + i] = g[i * m + j];
            }
        }
    }

    private static double norm(double[] v) {
        return Math.sqrt(Linalg.dot(v, v));
    }
}
