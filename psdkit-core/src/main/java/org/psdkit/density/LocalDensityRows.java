package org.psdkit.density;

import java.util.List;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinWorkerThread;
import java.util.stream.IntStream;
import org.psdkit.data.Splits;
import org.psdkit.kernel.Kernel;
import org.psdkit.linalg.Linalg;
import org.psdkit.linalg.Matrix;
import org.psdkit.linalg.Threads;

/**
 * {@link DensityRows} on this machine: the features cut into column blocks V_b (r×b), processed in parallel on
 * {@link Threads#get()} workers, each block's products through native BLAS (dgemm). The features are either given
 * (the exact model: V of the feature map, kept in double), or computed from the data as V_b = Tᵀ k(anchors, x_b)
 * (Nyström) and kept in single precision when they fit in the free heap together with the per-row state of a factor
 * of {@link #RESERVED_STATE_COLUMNS} columns and a {@link #headroom()} of the heap left over, else recomputed at
 * every pass. The per-row vectors Sᵀv_i and Dᵀv_i are kept per block (double) when they fit in the free heap less
 * that headroom, else recomputed. Single-precision blocks are sized to whole G1 heap regions (a block of more than
 * half a region is a humongous object that owns whole regions, so an unlucky width would waste up to half of them).
 * Never an n×n matrix.
 */
public final class LocalDensityRows implements DensityRows {

    /** Block size target: about 2²⁰ numbers per r×b feature block (8 MB in double), small enough for caches. */
    static final int BLOCK_ENTRIES = 1 << 20;
    /**
     * Fraction of the maximum heap that the feature cache and the per-row state leave free: the blocks' double
     * temporaries (a few r×b per worker), the certificate's r×r matrices and eigenvectors, the solver's factors and
     * room for the collector. 0.15: 1.2 GB at the launcher's -Xmx8g, where the rest (r = 1,000: ~10 r×r matrices of
     * 8 MB, 2 workers × 3 blocks of 8 MB) needs ~0.2 GB; the margin is for G1, which needs free regions to evacuate
     * into (the n = 10⁶, 1,000-anchor run of docs/benchmarks/psd-scale.md §8 ran with it).
     */
    static final double HEADROOM_FRACTION = 0.15;
    /**
     * Width q of the factor whose per-row state (2·n·q doubles) the feature budget sets aside before keeping the
     * features: 64 covers the q ≈ 60 of the d = 10 cases (1.25p + 4 with p ≈ 40–45 positive eigenvalues at the
     * optimum, docs/benchmarks/psd-scale.md §6).
     */
    static final int RESERVED_STATE_COLUMNS = 64;
    /**
     * Blocks of {@link #BLOCK_ENTRIES} doubles a worker holds while it processes one block: the kernel's cross matrix,
     * the block's features in double and the q×b products it forms from them.
     */
    static final int WORKER_BLOCKS = 4;

    /**
     * The heap the feature cache and the per-row state leave free: {@link #HEADROOM_FRACTION} of the maximum, and at
     * least what the workers hold while they process their blocks ({@link #WORKER_BLOCKS} blocks of
     * {@link #BLOCK_ENTRIES} doubles each, 32 MB a worker), which dominates in small heaps.
     */
    static double headroom() {
        double working = (double) WORKER_BLOCKS * BLOCK_ENTRIES * Double.BYTES * POOL.getParallelism();
        return Math.max(HEADROOM_FRACTION * Runtime.getRuntime().maxMemory(), working);
    }

    /** Bytes of a Java array's header (HotSpot, 64-bit: 16), subtracted when a block is fitted to whole regions. */
    static final int ARRAY_HEADER_BYTES = 16;

    private static final ForkJoinPool POOL = new ForkJoinPool(Math.max(1,
            Runtime.getRuntime().availableProcessors()), pool -> {
                ForkJoinWorkerThread t = ForkJoinPool.defaultForkJoinWorkerThreadFactory.newThread(pool);
                t.setDaemon(true);
                t.setName("psdkit-density-rows-" + t.getPoolIndex());
                return t;
            }, null, false);

    private final int r;
    private final int n;
    private final int[] start;            // block b: columns start[b] .. start[b+1]-1
    private final Matrix[] dense;         // double features per block (or null)
    private final float[][] single;       // single-precision features per block, column-major r×b (or null)
    // Nyström source for recomputation and sampling
    private final Kernel kernel;
    private final Matrix anchors;
    private final Matrix t;               // m×r
    private final Matrix x;               // n×d (null for given features)
    private final Matrix vGiven;          // r×n given features (null for Nyström)
    private final double[] weight;        // sample weights w_i > 0 (null: 1 each)
    private final double weightSum;       // Σ w_i (n without weights)

    // state of the protocol
    private Matrix s;
    private Matrix d;
    private Matrix[] u;     // q×b per block: Sᵀ V_b (null blocks: recompute)
    private Matrix[] dv;    // q×b per block: Dᵀ V_b
    private double[] f;
    private double[] c;
    private double[] e;
    private boolean keepState;
    private int stateColumns;   // the q for which keepState was decided

    private LocalDensityRows(int r, int n, int[] start, Matrix[] dense, float[][] single, Kernel kernel,
                             Matrix anchors, Matrix t, Matrix x, Matrix vGiven) {
        this(r, n, start, dense, single, kernel, anchors, t, x, vGiven, null);
    }

    private LocalDensityRows(int r, int n, int[] start, Matrix[] dense, float[][] single, Kernel kernel,
                             Matrix anchors, Matrix t, Matrix x, Matrix vGiven, double[] weight) {
        this.r = r;
        this.n = n;
        this.start = start;
        this.dense = dense;
        this.single = single;
        this.kernel = kernel;
        this.anchors = anchors;
        this.t = t;
        this.x = x;
        this.vGiven = vGiven;
        this.weight = weight;
        double sw = n;
        if (weight != null) {
            sw = 0;
            for (double v : weight) {
                sw += v;
            }
        }
        this.weightSum = sw;
        this.f = new double[n];
        this.c = new double[n];
        this.e = new double[n];
    }

    private static int[] blocks(int n, int r) {
        return blocks(n, r, BLOCK_ENTRIES / Math.max(1, r));
    }

    private static int[] blocks(int n, int r, int maxPer) {
        int threads = Math.max(1, Threads.get());
        int per = Math.max(1, Math.min(maxPer, (n + 2 * threads - 1) / (2 * threads)));
        per = Math.max(Math.min(n, 64), per);
        int nb = (n + per - 1) / per;
        int[] st = new int[nb + 1];
        for (int b = 0; b < nb; b++) {
            st[b] = b * per;
        }
        st[nb] = n;
        return st;
    }

    /** Given features V (r×n, one column per row), kept in double. */
    public static LocalDensityRows of(Matrix v) {
        int r = v.rows();
        int n = v.cols();
        if (n < 1 || r < 1) {
            throw new IllegalArgumentException("density rows: empty feature matrix " + r + "x" + n);
        }
        int[] st = blocks(n, r);
        int nb = st.length - 1;
        Matrix[] dn = new Matrix[nb];
        for (int b = 0; b < nb; b++) {
            int w = st[b + 1] - st[b];
            double[] a = new double[r * w];
            System.arraycopy(v.data(), st[b] * r, a, 0, r * w);
            dn[b] = Matrix.wrap(r, w, a);
        }
        return new LocalDensityRows(r, n, st, dn, null, null, null, null, null, v);
    }

    /**
     * Nyström features of the rows of {@code x}: v_i = Tᵀ k(anchors, x_i) with T (m×r) the anchors' coefficient
     * factor U S^{-1/2} (Marteau-Ferey, Bach &amp; Rudi 2020 App. B.5). Kept in single precision if they fit, else
     * recomputed per pass.
     */
    public static LocalDensityRows nystrom(Kernel kernel, Matrix anchors, Matrix t, Matrix x) {
        int r = t.cols();
        int n = x.rows();
        if (n < 1) {
            throw new IllegalArgumentException("density rows: no data rows");
        }
        boolean keep = featuresFit(n, r);
        int[] st = keep ? blocks(n, Math.max(r, anchors.rows()), floatBlockWidth(r))
                : blocks(n, Math.max(r, anchors.rows()));
        int nb = st.length - 1;
        LocalDensityRows out = new LocalDensityRows(r, n, st, null, keep ? new float[nb][] : null, kernel,
                anchors, t, x, null);
        if (keep) {
            float[][] target = out.single;
            POOL.submit(() -> IntStream.range(0, nb).parallel().forEach(b -> {
                Matrix vb = out.compute(b);
                double[] a = vb.data();
                float[] fl = new float[a.length];
                for (int k = 0; k < a.length; k++) {
                    fl[k] = (float) a[k];
                }
                target[b] = fl;
            })).join();
        }
        return out;
    }

    /**
     * These rows with sample weights: the solver then minimises the weighted log-likelihood −Σ w_i log f(x_i) / Σ w_i
     * ({@link DensityRows}); the features are shared, not copied. Each weight is multiplied into its row's terms
     * after they are formed, so that weights of 1 give the unweighted sums bit for bit.
     *
     * @param w one weight per row, each &gt; 0 and finite (a row of weight 0 is left out beforehand)
     */
    public LocalDensityRows weighted(double[] w) {
        if (w == null || w.length != n) {
            throw new IllegalArgumentException("density rows: " + (w == null ? "no" : String.valueOf(w.length))
                    + " weights for " + n + " rows");
        }
        for (int i = 0; i < n; i++) {
            if (!(w[i] > 0) || Double.isInfinite(w[i])) {
                throw new IllegalArgumentException("density rows: weight " + w[i] + " of row " + (i + 1)
                        + "; weights must be > 0 and finite");
            }
        }
        return new LocalDensityRows(r, n, start, dense, single, kernel, anchors, t, x, vGiven, w.clone());
    }

    /** The heap the JVM may still allocate; when it looks short of {@code need}, once more after a collection. */
    static long freeHeap(double need) {
        Runtime rt = Runtime.getRuntime();
        long free = rt.maxMemory() - (rt.totalMemory() - rt.freeMemory());
        if (free < need) {
            // garbage (the CSV reader's, a finished warm start's) counts as used until it is collected
            System.gc();
            free = rt.maxMemory() - (rt.totalMemory() - rt.freeMemory());
        }
        return free;
    }

    /**
     * Whether n×r single-precision features fit: their n·r·4 bytes plus the per-row state of a factor of
     * min(r, {@link #RESERVED_STATE_COLUMNS}) columns (2·n·q·8 bytes) within the free heap less the
     * {@link #headroom()} (n = 10⁶, r = 1,000: 4.0 + 1.0 GB, under -Xmx8g's 8 − 1.2 GB).
     */
    static boolean featuresFit(long n, int r) {
        double features = (double) n * r * Float.BYTES;
        double state = 2.0 * n * Math.min(r, RESERVED_STATE_COLUMNS) * Double.BYTES;
        double need = features + state + headroom();
        return need <= freeHeap(need);
    }

    /** Whether the per-row state of a q-column factor (2·n·q doubles) fits in the free heap less {@link #headroom()}. */
    static boolean stateFits(long n, int q) {
        double need = 2.0 * n * q * Double.BYTES + headroom();
        return need <= freeHeap(need);
    }

    /**
     * Columns of a single-precision block: about {@link #BLOCK_ENTRIES} entries, rounded down so that the array
     * (r·b·4 bytes and its header) fills whole G1 regions; {@link #BLOCK_ENTRIES}/r when the region size is unknown.
     */
    static int floatBlockWidth(int r) {
        int plain = BLOCK_ENTRIES / Math.max(1, r);
        long region = g1RegionBytes();
        if (region <= 0) {
            return plain;
        }
        long target = (long) BLOCK_ENTRIES * Float.BYTES;
        long regions = Math.max(1, Math.round((double) target / region));
        long width = (regions * region - ARRAY_HEADER_BYTES) / ((long) Float.BYTES * Math.max(1, r));
        return (int) Math.max(1, Math.min(Integer.MAX_VALUE, width));
    }

    /** G1's heap region size in bytes, 0 when not running G1 or not known. */
    static long g1RegionBytes() {
        try {
            for (var gc : java.lang.management.ManagementFactory.getGarbageCollectorMXBeans()) {
                if (gc.getName().startsWith("G1")) {
                    // HotSpotDiagnosticMXBean.getVMOption through the platform MBean server (java.management only)
                    Object o = java.lang.management.ManagementFactory.getPlatformMBeanServer().invoke(
                            new javax.management.ObjectName("com.sun.management:type=HotSpotDiagnostic"),
                            "getVMOption", new Object[] {"G1HeapRegionSize"}, new String[] {String.class.getName()});
                    if (o instanceof javax.management.openmbean.CompositeData cd) {
                        return Long.parseLong(String.valueOf(cd.get("value")));
                    }
                    return 0;
                }
            }
        } catch (javax.management.JMException | RuntimeException | LinkageError e) {
            // not HotSpot: keep the plain width
        }
        return 0;
    }

    private Matrix compute(int b) {
        Matrix xb = rowRange(x, start[b], start[b + 1]);
        return Linalg.gemm(1.0, t, true, kernel.cross(anchors, xb), false);
    }

    private static Matrix rowRange(Matrix x, int from, int to) {
        int[] idx = new int[to - from];
        for (int i = 0; i < idx.length; i++) {
            idx[i] = from + i;
        }
        return x.selectRows(idx);
    }

    /** The features of block b, r×b in double. */
    private Matrix features(int b) {
        if (dense != null) {
            return dense[b];
        }
        if (single != null && single[b] != null) {
            float[] fl = single[b];
            double[] a = WIDENED.get();
            if (a.length != fl.length) {
                a = new double[fl.length];
                WIDENED.set(a);
            }
            for (int k = 0; k < a.length; k++) {
                a[k] = fl[k];
            }
            return Matrix.wrap(r, start[b + 1] - start[b], a);
        }
        return compute(b);
    }

    /**
     * Each worker's buffer for a widened single-precision block (reused: a fresh r×b double array per block and
     * pass is 8 MB of garbage, a humongous object under G1, 8 GB per pass at n = 10⁶). A block's widened features
     * are used only inside the task that asked for them, before that thread widens another.
     */
    private static final ThreadLocal<double[]> WIDENED = ThreadLocal.withInitial(() -> new double[0]);

    /** Whether {@link #features} returns a worker's scratch copy (which may be changed) rather than stored data. */
    private boolean scratchFeatures(int b) {
        return dense == null && single != null && single[b] != null;
    }

    @Override
    public long rows() {
        return n;
    }

    @Override
    public double weightSum() {
        return weightSum;
    }

    @Override
    public int rank() {
        return r;
    }

    @Override
    public String storage() {
        return dense != null ? "double" : single != null ? "float" : "recompute";
    }

    private int nb() {
        return start.length - 1;
    }

    private record Part(double sumLog, double minF, Matrix grad) {
    }

    /**
     * The sums over all blocks of {@code task}'s parts, added in block order (the same result whatever the thread
     * count), holding at most {@link #chunk()} parts at a time: at n = 10⁶ there are ~1,000 blocks, and a list of
     * every block's r×q gradient (or r×r Gram matrix) would not fit the heap.
     */
    private Sums reduce(java.util.function.IntFunction<Part> task, int q) {
        double[] sl = {0};
        double[] mn = {Double.POSITIVE_INFINITY};
        Matrix g = Matrix.zeros(r, q);
        boolean[] bad = {false};
        inOrder(task, p -> {
            sl[0] += p.sumLog;
            mn[0] = Math.min(mn[0], p.minF);
            if (p.grad == null) {
                bad[0] = true;
            } else {
                addInto(g, p.grad);
            }
        });
        if (bad[0] || !(mn[0] > 0) || !Double.isFinite(sl[0])) {
            return new Sums(Double.NEGATIVE_INFINITY, mn[0], null);
        }
        return new Sums(sl[0], mn[0], g);
    }

    private static void addInto(Matrix g, Matrix p) {
        double[] gd = g.data();
        double[] pd = p.data();
        for (int k = 0; k < gd.length; k++) {
            gd[k] += pd[k];
        }
    }

    /** Blocks per parallel round of {@link #inOrder}: enough to keep every worker busy, few enough to hold. */
    private static int chunk() {
        return 4 * POOL.getParallelism();
    }

    /** Runs {@code task} on every block in parallel rounds and hands the results to {@code sink} in block order. */
    private <T> void inOrder(java.util.function.IntFunction<T> task, java.util.function.Consumer<T> sink) {
        int nb = nb();
        for (int from = 0; from < nb; from += chunk()) {
            int lo = from;
            int hi = Math.min(nb, from + chunk());
            blas(() -> POOL.submit(() -> IntStream.range(lo, hi).parallel().mapToObj(task).toList()).join())
                    .forEach(sink);
        }
    }

    private <T> List<T> parallel(java.util.function.IntFunction<T> task) {
        return blas(() -> POOL.submit(() -> IntStream.range(0, nb()).parallel().mapToObj(task).toList()).join());
    }

    /**
     * A pass over the blocks: for the exact model's double features with one BLAS thread per worker
     * ({@link Threads#blasCapped}), so that the {@link Threads#get()} workers, each calling dgemm on its own block,
     * use one core each instead of each asking OpenBLAS for all of them (docs/benchmarks/psd-scale.md §13: at 2
     * threads the d = 10, n = 1,000 fit gained nothing over 1 thread before); the Nyström passes as before.
     */
    private <T> T blas(java.util.function.Supplier<T> body) {
        return dense != null && POOL.getParallelism() > 1 && Threads.get() > 1 ? Threads.blasCapped(1, body)
                : body.get();
    }

    /**
     * Runs {@code task(0..count-1)} on the rows' worker pool with one BLAS thread per worker (the solver's r×r·r×q
     * products split in row blocks, {@code PsdDensityPrimal}); results in index order.
     */
    static <T> List<T> onWorkers(int count, java.util.function.IntFunction<T> task) {
        return Threads.blasCapped(1, () -> POOL.submit(() -> IntStream.range(0, count).parallel().mapToObj(task)
                .toList()).join());
    }

    /** Workers of the pool that {@link #onWorkers} runs on. */
    static int workers() {
        return POOL.getParallelism();
    }

    /** Sums of block b from its U = Sᵀ V_b (q×b); fills f. */
    private Part part(int b, Matrix vb, Matrix ub) {
        int q = ub.rows();
        int w = ub.cols();
        int i0 = start[b];
        double sl = 0;
        double mn = Double.POSITIVE_INFINITY;
        double[] ud = ub.data();
        Matrix uw = Matrix.zeros(q, w);
        double[] uwd = uw.data();
        for (int i = 0; i < w; i++) {
            double s2 = 0;
            for (int k = 0; k < q; k++) {
                double z = ud[k + i * q];
                s2 += z * z;
            }
            f[i0 + i] = s2;
            mn = Math.min(mn, s2);
            double wi = weight == null ? 1.0 : weight[i0 + i];
            sl += wi * Math.log(s2);
            double inv = 1.0 / s2;
            for (int k = 0; k < q; k++) {
                uwd[k + i * q] = ud[k + i * q] * inv * wi;
            }
        }
        if (!(mn > 0) || !Double.isFinite(sl)) {
            return new Part(Double.NEGATIVE_INFINITY, mn, null);
        }
        return new Part(sl, mn, Linalg.gemm(1.0, vb, false, uw, true));
    }

    @Override
    public Sums at(Matrix sNew) {
        if (sNew.rows() != r) {
            throw new IllegalArgumentException("density rows: factor has " + sNew.rows() + " rows, rank is " + r);
        }
        this.s = sNew;
        this.d = null;
        int q = sNew.cols();
        if (u == null || stateColumns != q) {
            u = null;
            dv = null;
            keepState = stateFits(n, q);
            stateColumns = q;
            u = new Matrix[nb()];
            dv = new Matrix[nb()];
        }
        return reduce(b -> {
            Matrix vb = features(b);
            Matrix ub = Linalg.gemm(1.0, sNew, true, vb, false);
            if (keepState) {
                u[b] = ub;
            }
            return part(b, vb, ub);
        }, q);
    }

    @Override
    public void direction(Matrix dNew) {
        if (s == null) {
            throw new IllegalStateException("density rows: direction before a current point");
        }
        if (dNew.rows() != s.rows() || dNew.cols() != s.cols()) {
            throw new IllegalArgumentException("density rows: direction is " + dNew.rows() + "x" + dNew.cols()
                    + ", the factor " + s.rows() + "x" + s.cols());
        }
        this.d = dNew;
        int q = s.cols();
        parallel(b -> {
            Matrix vb = features(b);
            Matrix ub = keepState ? u[b] : Linalg.gemm(1.0, s, true, vb, false);
            Matrix db = Linalg.gemm(1.0, dNew, true, vb, false);
            if (keepState) {
                dv[b] = db;
            }
            double[] ud = ub.data();
            double[] dd = db.data();
            int i0 = start[b];
            int w = ub.cols();
            for (int i = 0; i < w; i++) {
                double ci = 0;
                double ei = 0;
                for (int k = 0; k < q; k++) {
                    double z = dd[k + i * q];
                    ci += ud[k + i * q] * z;
                    ei += z * z;
                }
                c[i0 + i] = ci;
                e[i0 + i] = ei;
            }
            return null;
        });
    }

    @Override
    public Line line(double[] steps) {
        if (d == null) {
            throw new IllegalStateException("density rows: line without a direction");
        }
        int k = steps.length;
        List<double[]> parts = parallel(b -> {
            double[] out = new double[3 * k];
            for (int j = 0; j < k; j++) {
                double tt = steps[j];
                double sl = 0;
                double sp = 0;
                double mn = Double.POSITIVE_INFINITY;
                for (int i = start[b]; i < start[b + 1]; i++) {
                    double fi = f[i] + tt * (2 * c[i] + tt * e[i]);
                    mn = Math.min(mn, fi);
                    double wi = weight == null ? 1.0 : weight[i];
                    sl += wi * Math.log(fi);
                    sp += wi * (2 * (c[i] + tt * e[i]) / fi);
                }
                out[j] = sl;
                out[k + j] = sp;
                out[2 * k + j] = mn;
            }
            return out;
        });
        double[] sl = new double[k];
        double[] sp = new double[k];
        double[] mn = new double[k];
        java.util.Arrays.fill(mn, Double.POSITIVE_INFINITY);
        for (double[] p : parts) {
            for (int j = 0; j < k; j++) {
                sl[j] += p[j];
                sp[j] += p[k + j];
                mn[j] = Math.min(mn[j], p[2 * k + j]);
            }
        }
        return Line.ofSums(sl, sp, mn);
    }

    @Override
    public Sums step(double tt) {
        if (d == null) {
            throw new IllegalStateException("density rows: step without a direction");
        }
        Matrix sNew = s.plus(d.scale(tt));
        if (!keepState) {
            return at(sNew);
        }
        this.s = sNew;
        int q = sNew.cols();
        return reduce(b -> {
            Matrix ub = u[b];
            double[] ud = ub.data();
            double[] dd = dv[b].data();
            for (int k = 0; k < ud.length; k++) {
                ud[k] += tt * dd[k];
            }
            return part(b, features(b), ub);
        }, q);
    }

    @Override
    public Matrix weightedGram() {
        if (s == null) {
            throw new IllegalStateException("density rows: weighted Gram matrix before a current point");
        }
        Matrix g = Matrix.zeros(r, r);
        inOrder(b -> {
            Matrix vb = features(b);
            int w = vb.cols();
            // a worker's scratch copy is scaled in place; stored double features are copied first
            Matrix a = scratchFeatures(b) ? vb : Matrix.zeros(r, w);
            double[] ad = a.data();
            double[] vd = vb.data();
            for (int i = 0; i < w; i++) {
                double sc = 1.0 / Math.sqrt(f[start[b] + i]);
                if (weight != null) {
                    sc *= Math.sqrt(weight[start[b] + i]);
                }
                for (int k = 0; k < r; k++) {
                    ad[k + i * r] = vd[k + i * r] * sc;
                }
            }
            return Linalg.syrk(a, false);
        }, p -> addInto(g, p));
        return g;
    }

    @Override
    public DensityRows sample(int count, long seed) {
        if (count < 1 || count >= n) {
            return null;
        }
        int[] perm = Splits.permutation(n, seed);
        int[] idx = java.util.Arrays.copyOf(perm, count);
        java.util.Arrays.sort(idx);
        LocalDensityRows sub = sampleUnweighted(idx);
        if (weight == null) {
            return sub;
        }
        double[] ws = new double[count];
        for (int j = 0; j < count; j++) {
            ws[j] = weight[idx[j]];
        }
        return sub.weighted(ws);
    }

    private LocalDensityRows sampleUnweighted(int[] idx) {
        int count = idx.length;
        if (vGiven != null) {
            return of(vGiven.selectCols(idx));
        }
        if (single == null) {
            return nystrom(kernel, anchors, t, x.selectRows(idx));
        }
        // the cached features of the chosen rows, copied (no kernel evaluations)
        int[] st = blocks(count, Math.max(r, anchors.rows()), floatBlockWidth(r));
        int nbs = st.length - 1;
        float[][] sub = new float[nbs][];
        int[] owner = new int[n];
        for (int b = 0; b < nb(); b++) {
            java.util.Arrays.fill(owner, start[b], start[b + 1], b);
        }
        POOL.submit(() -> IntStream.range(0, nbs).parallel().forEach(b -> {
            float[] fl = new float[r * (st[b + 1] - st[b])];
            for (int j = st[b]; j < st[b + 1]; j++) {
                int i = idx[j];
                int ob = owner[i];
                System.arraycopy(single[ob], (i - start[ob]) * r, fl, (j - st[b]) * r, r);
            }
            sub[b] = fl;
        })).join();
        return new LocalDensityRows(r, count, st, null, sub, kernel, anchors, t, x.selectRows(idx), null);
    }
}
