package org.psdkit.regression.nystrom.internal;

import org.psdkit.regression.nystrom.Storage;

/**
 * The route of a Nyström KRR solve on one machine ({@link Storage#AUTO}): plain Falkon CG over the single-precision
 * K_nm, the Gram route or the sketch route, priced by a cost model in units of one entry of a CG pass, and the
 * memory budgets of the single-precision store and the m×m arrays. The constants were measured with
 * {@code bench krr-scale} (docs/benchmarks/krr-scale.md).
 */
public final class RoutePlanner {

    private RoutePlanner() {
    }

    /** Row-block size target: blocks of K_nm of about 2²⁰ numbers (8 MB in double), small enough for caches. */
    public static final int BLOCK_ENTRIES = 1 << 20;

    /**
     * Row-block size of the single-precision passes: 2²² numbers (16 MB). Larger than {@link #BLOCK_ENTRIES} because
     * the Gram pass ({@link Storage#GRAM}) runs one dsyrk per block, and a deeper inner dimension (838 rows at
     * m = 5,000) keeps it near the BLAS's peak.
     */
    public static final int FLOAT_BLOCK_ENTRIES = 1 << 22;

    /**
     * In a heap below 512 MB a block holds at most 1/{@value} of the maximum heap in entries instead: a Gram-pass
     * block is widened to double on the heap and copied to native memory (16 bytes an entry per worker beside the
     * block itself), so 2²² entries need 64 MB a worker. At 512 MB and above the blocks keep their sizes above (and
     * the fits their numbers).
     */
    public static final long HEAP_SHARE = 128;

    /** Entries of one row block of K_nm in this JVM: {@code entries}, or less in a heap below 512 MB. */
    public static int blockEntries(int entries) {
        return (int) Math.max(1024, Math.min(entries, Runtime.getRuntime().maxMemory() / HEAP_SHARE));
    }

    /**
     * Rows per single-precision sum of the experimental Gram pass ({@link Storage#GRAM_SINGLE}: one {@code cblas_ssyrk} per chunk, the
     * chunks added in double). Every entry of K_nm is positive, so an entry of a chunk's sum has relative error at
     * most γ_R ≈ R·u = 2.4e-4 (u = 2⁻²⁴, Higham 2002, eq. 3.4), typically √R·u ≈ 4e-6; the Gram matrix only
     * preconditions CG, so this costs iterations, never accuracy (NystromKrrTest checks the bound). 4,096 rows keep
     * ssyrk's inner dimension deep (near its peak) while the double additions of the chunks' m×m results (m²/2 per
     * chunk) stay ≈ 1/4,096 of the flops.
     */
    public static final int GRAM_CHUNK_ROWS = 4096;

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
     * {@code gram} minus that of {@code float}, against passSeconds / passes / (n·m)): 1/15 at n = 30,000, m = 500,
     * 1/60 at m = 1,500; 1/160 from the CPU seconds at n = 50,000, m = 5,000 (docs/benchmarks/krr-scale.md). In one
     * run beside scikit-learn (same file, "small m") the Gram route won at n = 30,000, m = 1,000 and n = 100,000,
     * m = 500 and 1,000, and tied in CPU (lost in wall time, its m×m factorisations waiting on OpenBLAS's threads) at
     * n = 100,000, m = 2,000; 1/40 puts the crossover there. The Gram pass's BLAS calls run single-threaded per worker (about twice the dsyrk
     * multiply-adds per CPU-second), so the constant is halved to 1/80; with it the Gram route is also taken at
     * n = 100,000, m = 2,000 (docs/benchmarks/krr-scale.md, with the per-pass figures).
     */
    public static final double GRAM_FLOP_COST_PER_PASS_ENTRY = 1.0 / 80;

    /**
     * Falkon CG iterations to the default tolerance, predicted as this times √(n/m): the sweep of
     * docs/benchmarks/krr-scale-curves.csv (λ = 1, σ = 3, d = 10; n = 5,000–100,000, m = 250–4,000) took
     * 5.2–7.3 √(n/m) iterations (57 at n = 30,000, m = 250; 89 at 100,000, 500; 17 at 30,000, 4,000).
     */
    public static final double CG_ITERATIONS_PER_SQRT_N_OVER_M = 6;

    /**
     * Whether the Gram route ({@link Storage#GRAM}: one pass with n·m² dsyrk flops plus an m³/3 Cholesky, then CG on
     * the m×m Gram matrix without reading the data) costs less than the plain CG's
     * ≈ {@link #CG_ITERATIONS_PER_SQRT_N_OVER_M}·√(n/m) passes of n·m entries plus its true-residual check; both
     * routes compute the right-hand side in their first pass (the Gram pass, or filling the single-precision
     * store), so the saving is every CG pass.
     */
    public static boolean gramCheaper(long n, int m) {
        double gramCost = GRAM_FLOP_COST_PER_PASS_ENTRY * ((double) n * m * m + (double) m * m * m / 3);
        double iterations = CG_ITERATIONS_PER_SQRT_N_OVER_M * Math.sqrt((double) n / m);
        return gramCost < (iterations + 1) * n * m;
    }

    /**
     * Cap on the CG iterations on the accumulated Gram matrix ({@link Storage#GRAM}) before the solve continues on
     * data passes: its preconditioner is the operator up to rounding, so it converges in one to three iterations
     * when it converges at all. At n = 10⁶, m = 5,000 (λ = 1) G's absolute rounding, ≈ u‖G‖ per product, stayed
     * above the tolerance, and CG on G ran all 200 iterations without reaching it, while one data pass afterwards
     * found the residual at 3.8e-8 (docs/benchmarks/krr-scale.md).
     */
    public static final int GRAM_OPERATOR_MAX_ITERATIONS = 10;

    /**
     * Rows of the sampled Gram preconditioner ({@link Storage#SKETCH}) per anchor: s = 20·m rows (m = 5,000:
     * 100,000 rows, 2.5e12 multiply-adds). With s = 10·m, CG took 11 iterations at n = 10⁵, m = 2,000 and 16 at
     * n = 10⁶, m = 5,000 (43 and ≈ 85 without it); the sketch's relative error falls like 1/√s, so doubling s cuts
     * the condition number's excess by √2 for a sketch that still costs about two passes at 10⁶ × 5,000
     * (docs/benchmarks/krr-scale.md).
     */
    public static final int SKETCH_ROWS_PER_ANCHOR = 20;

    /**
     * CG iterations to the default tolerance with the sketch preconditioner, for the cost model
     * ({@link #autoRoute}): 11 and 16 measured with s = 10·m (see {@link #SKETCH_ROWS_PER_ANCHOR}).
     */
    public static final double SKETCH_CG_ITERATIONS = 14;

    /**
     * Cost of computing one entry of K_nm (the fast single-precision Gaussian block: sgemm plus the vectorised
     * exponential) in units of a CG pass entry over kept single-precision K_nm (two multiply-adds), timed on one
     * core (docs/benchmarks/krr-scale.md).
     */
    public static final double FILL_COST_PER_PASS_ENTRY = 2.6;

    /** Data passes of the Gram route after the Gram pass: CG on G, then one pass for the true residual (and rarely more). */
    public static final double GRAM_ROUTE_PASSES = 2;

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
    public static Storage autoRoute(long n, int m, double kept, double keptWithMm, boolean mmFits) {
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
    public static final long SKETCH_SEED = 0x5EEDL;

    /**
     * Single-precision K_nm is kept when it needs at most this fraction of the maximum heap: 0.4 leaves room for the
     * data (n·d doubles) and the JVM's copying headroom with the default heap.
     */
    public static final double FLOAT_CACHE_HEAP_FRACTION = 0.4;
}
