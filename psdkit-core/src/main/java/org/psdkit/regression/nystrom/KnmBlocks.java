package org.psdkit.regression.nystrom;

import static org.psdkit.regression.nystrom.internal.RoutePlanner.*;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.psdkit.kernel.GaussianKernel;
import org.psdkit.kernel.Kernel;
import org.psdkit.linalg.Cholesky;
import org.psdkit.linalg.internal.FloatBlas;
import org.psdkit.linalg.Linalg;
import org.psdkit.linalg.Matrix;
import org.psdkit.linalg.internal.OnThread;
import org.psdkit.linalg.Threads;
import org.psdkit.regression.KernelRidge;
import org.psdkit.regression.nystrom.internal.GaussianFloatBlocks;
import org.psdkit.regression.nystrom.internal.NystromBlocks;
import org.psdkit.regression.nystrom.internal.RoutePlanner;

/**
 * The λ-independent part of a Nyström KRR problem: the data in row blocks, the anchors, K_mm and its Cholesky
 * factor, and (if stored) K_nm in single precision. {@link #solve} can be called for many λ (the grid of
 * {@code cv krr}) and targets.
 */
public final class KnmBlocks implements KnmOperator {
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

    KnmBlocks(Kernel kernel, Matrix x, Matrix anchors, Storage storage, double[] target) {
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
        int rows = Math.max(1, RoutePlanner.blockEntries(single ? FLOAT_BLOCK_ENTRIES : BLOCK_ENTRIES) / m);
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
                }).reduce(null, KnmBlocks::sum)).join());
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
     * (n/s)·K_smᵀK_sm for s rows of x drawn uniformly without replacement ({@link RoutePlanner#SKETCH_SEED}), in their
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
     * (docs/benchmarks/krr-scale.md).
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
     * The Gram pass over {@code count} blocks on all workers: worker w adds blocks w, w + W, w + 2W, … (W workers)
     * into its own double-precision accumulator (BLAS single-threaded per worker, see {@link #accumulateGram}), and
     * the workers' sums are added into the symmetric m×m result in worker order (and their right-hand side parts
     * into {@code rhs}, when it is not null). The fixed assignment and order make the sums, and so the fitted
     * coefficients, the same in every run with the same number of workers (blocks pulled in turn from a shared
     * counter summed them in an order that varied from run to run: 2.5e-10 relative in the coefficients,
     * docs/benchmarks/krr-scale.md).
     */
    private Matrix gramPass(int count, double[] rhs, GramStep step) {
        int workers = POOL.getParallelism();
        FloatBlas.GramAccumulator[] accs = new FloatBlas.GramAccumulator[workers];
        double[][] parts = new double[workers][];
        double[] g = new double[m * m];
        try {
            for (int w = 0; w < workers; w++) {
                accs[w] = new FloatBlas.GramAccumulator(m);
                parts[w] = rhs == null ? null : new double[m];
            }
            FloatBlas.singleThreaded(() -> POOL.submit(() -> IntStream.range(0, workers).parallel().forEach(w -> {
                for (int b = w; b < count; b += workers) {
                    step.add(b, accs[w], parts[w]);
                }
            })).join());
            for (int w = 0; w < workers; w++) {
                accs[w].addLowerInto(g);
                if (rhs != null) {
                    for (int j = 0; j < m; j++) {
                        rhs[j] += parts[w][j];
                    }
                }
            }
        } finally {
            for (FloatBlas.GramAccumulator a : accs) {
                if (a != null) {
                    a.close();
                }
            }
        }
        mirrorLower(g, m);
        return Matrix.wrap(m, m, g);
    }

    /**
     * K_nmᵀK_nm of the single-precision blocks in one pass, with single-precision sums per chunk of
     * {@link RoutePlanner#GRAM_CHUNK_ROWS} rows ({@link FloatBlas.GramAccumulator#single}) added in double. The blocks are
     * filled a group at a time on all workers (with the right-hand side K_bᵀ target_b of each block when a target
     * is given), then the calling thread hands the group to one ssyrk, which OpenBLAS runs on its own threads
     * (the library's thread count): two Java workers each calling a threaded BLAS left the cores waiting for
     * each other (docs/benchmarks/krr-scale.md). Keeps the leading {@code keep} blocks.
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
                }).reduce(null, KnmBlocks::sum)).join();
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
    KnmOperator gramOperator() {
        Matrix g = gram;
        return new KnmOperator() {
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
                return KnmBlocks.this.storage();
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
    public NystromKrr.Solution solve(double[] y, double offset, double lambda, double tolerance, int maxIterations) {
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
        NystromKrr.Solution s;
        if (gram != null && !gramSingle) {
            // CG on G (no data read), then its true residual from one data pass, and CG on the passes from there
            // if G's rounding (absolute, ≈ u‖G‖, where a pass's ‖K_nm u‖² is relative) left it above the
            // tolerance on a numerically singular H
            FalkonPreconditioner.Factors f = FalkonPreconditioner.factors(kmm, kmmChol, gram, lambda, n); // once for both solves
            NystromKrr.Solution g = NystromKrr.solve(gramOperator(), kmm, kmmChol, b, offset, lambda, tolerance,
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
        FalkonPreconditioner pc = new FalkonPreconditioner(kmmChol.lower(), lambda / n, m);
        double[] r = pc.leftApply(rhs(yc), n);
        double[] h = pc.leftApply(applyH(alpha, lambda), n);
        double[] d = new double[m];
        for (int j = 0; j < m; j++) {
            d[j] = r[j] - h[j];
        }
        return norm(d) / norm(r);
    }

    /** The fitted model for a solution of this problem. */
    public KernelRidge model(NystromKrr.Solution s, boolean center) {
        return NystromKrr.model(kernel, anchors, s, center);
    }

    /** The pool of the data-sized passes ({@link Threads#dataPool}). */
    private static final ForkJoinPool POOL = Threads.dataPool();


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
