package org.psdkit.spark;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.storage.StorageLevel;
import org.psdkit.kernel.Kernel;
import org.psdkit.kernel.Kernels;
import org.psdkit.linalg.Cholesky;
import org.psdkit.linalg.internal.FloatBlas;
import org.psdkit.linalg.Linalg;
import org.psdkit.linalg.Matrix;
import org.psdkit.model.ModelHeader;
import org.psdkit.model.Pipeline;
import org.psdkit.regression.KernelRidge;
import org.psdkit.regression.KrrTrainer;
import org.psdkit.regression.nystrom.KnmOperator;
import org.psdkit.regression.nystrom.internal.NystromBlocks;
import org.psdkit.regression.nystrom.NystromDirect;
import org.psdkit.regression.nystrom.NystromKrr;
import org.psdkit.regression.nystrom.NystromKrrTrainer;
import org.psdkit.regression.nystrom.internal.RoutePlanner;
import org.psdkit.regression.nystrom.Storage;

/**
 * Nyström kernel ridge regression over an Apache Spark RDD: the Falkon solver of {@link NystromKrr} (Rudi,
 * Carratino &amp; Rosasco 2017, Alg. 1) with its data-sized sums distributed. Each CG iteration needs
 * K_nmᵀ(K_nm u); every partition cuts its rows into blocks, computes K_b = k(x_b, c) against the broadcast anchors
 * and adds K_bᵀ(K_b u), and the partial m-vectors are combined with {@code treeAggregate}. The right-hand side
 * K_nmᵀ(y − offset) is one more such pass. The m×m algebra (K_mm, its Cholesky factor, the preconditioner, the CG
 * recursion) runs on the driver in {@link NystromKrr#solve}, the same code as the single-machine fit.
 *
 * <p>The Gram route ({@link Storage#GRAM}; chosen by {@code auto} as {@link #gramRoute} says) does as
 * the single machine's: one job in which every partition accumulates K_bᵀK_b of its single-precision blocks
 * (widened to double, dsyrk) and K_bᵀ(y_b − offset) ({@link NystromBlocks}, the core's arithmetic), combined by
 * {@code treeReduce}; the driver factors K_nmᵀK_nm + λK_mm and preconditions the CG with it, which then converges in
 * one to three iterations, i.e. one to three more jobs (plus the final residual check) instead of ≈ 6√(n/m). The
 * Gram job caches the single-precision blocks (n·m floats over the cluster, {@code MEMORY_AND_DISK}) and the CG
 * jobs multiply them, as the single machine keeps them: the fit equals the single-machine Gram-route fit with the
 * same anchors up to summation order. A task holds ≈ 16m² bytes for the Gram sum whatever its partition's size
 * ({@link #gramPartition}).
 *
 * <p>Rows are {@code double[]} of the d features followed by the target. Features are used as given (no scaling:
 * the model's scaler is the identity). The result is an ordinary {@code krr} model whose points are the anchors.
 */
public final class SparkNystromKrr {

    /** Rows per block: K_b of about 2²⁰ numbers, the block size of the single-machine solver. */
    static final int BLOCK_ENTRIES = 1 << 20;

    /** Depth of {@code treeAggregate}: Spark's default 2 (partials merged on executors before the driver). */
    static final int TREE_DEPTH = 2;

    private SparkNystromKrr() {
    }

    /**
     * What a distributed fit returns: the model, its CG diagnostics, the number of rows, the training-set metrics
     * ({@code rmse}, {@code mae}, {@code r2}, as {@link org.psdkit.model.Metrics#regression}; one more pass) and where
     * the time went (wall seconds of the driver: {@code countSeconds}, the first pass (n, Σy, norms);
     * {@code firstPassSeconds}, the Gram job or the right-hand side's; {@code cgJobs} and {@code cgSeconds}, the CG
     * products' jobs; {@code solveMmSeconds}, K_mm and the m×m algebra; {@code metricsSeconds}, the last pass).
     */
    public record Fit(Pipeline<KernelRidge> pipeline, NystromKrr.Diagnostics diagnostics, long rows,
                      Map<String, Double> trainMetrics, Map<String, Double> timings) {
    }

    /**
     * m uniform anchors: the rows {@link org.psdkit.psd.Anchors#select} takes on one machine with the same seed
     * ({@link SparkAnchors#krr}). Rows carry the target last; it is dropped.
     */
    public static Matrix sampleAnchors(JavaRDD<double[]> rows, int m, long seed) {
        return SparkAnchors.krr(rows, m, org.psdkit.psd.Anchors.Method.UNIFORM, seed);
    }

    /**
     * Fits with the anchors the single-machine fit takes ({@link SparkAnchors#krr}: the options' number, method and
     * seed).
     */
    public static Fit fit(JavaRDD<double[]> rows, Kernel kernel, NystromKrrTrainer.Options o,
                          List<String> featureNames, String targetName, String source) {
        return fit(rows, kernel, SparkAnchors.krr(rows, o.anchors(), o.method(), o.seed()), o, featureNames,
                targetName, source);
    }

    /**
     * Fits (K_nmᵀK_nm + λK_mm)α = K_nmᵀ(y − offset) over the rows of {@code rows} with the anchors given.
     *
     * @param featureNames d names (for the model file), or null for x1..xd
     * @param targetName   the target's name, or null for y
     * @param source       the data's source recorded in the model file
     */
    public static Fit fit(JavaRDD<double[]> rows, Kernel kernel, Matrix anchors, NystromKrrTrainer.Options o,
                          List<String> featureNames, String targetName, String source) {
        if (kernel == null) {
            throw new IllegalArgumentException("kernel must not be null");
        }
        if (o == null) {
            throw new IllegalArgumentException("options must not be null");
        }
        int d = anchors.cols();
        int m = anchors.rows();
        long t0 = System.nanoTime();
        Task task = new Task(kernel.spec(), anchors);
        JavaRDD<Block> blocks = rows.mapPartitions(it -> blocks(it, d, m)).persist(StorageLevel.MEMORY_AND_DISK());
        JavaRDD<FloatBlock> floats = null;
        try {
            // n, Σy and the largest centred squared norm (the fast Gaussian block's bound, as NystromKrr decides it)
            double[] ny = blocks.treeAggregate(new double[3], task::counts, SparkNystromKrr::addCounts, TREE_DEPTH);
            long t1 = System.nanoTime();
            long n = (long) ny[0];
            if (n == 0) {
                throw new IllegalArgumentException(source + ": nystrom krr: no training points");
            }
            double offset = o.center() ? ny[1] / n : 0;
            boolean gramRoute = gramRoute(o.storage(), n, m);
            long[] cg = new long[2]; // CG jobs and their nanoseconds
            double[] b;
            Matrix gram = null;
            KnmOperator op;
            if (gramRoute) {
                // one job: per partition K_bᵀK_b and K_bᵀ(y_b − offset) of the single-precision blocks (an m×m
                // lower triangle and an m-vector), summed by treeReduce (treeAggregate without a zero value, which
                // would ship m² doubles to every task); the job caches the single-precision blocks (memory, spilling
                // to disk) for the CG jobs, as the single machine keeps them (Storage.GRAM's float store)
                Task ft = task.floats(ny[2]);
                floats = blocks.map(ft::floatBlock).persist(StorageLevel.MEMORY_AND_DISK());
                double[] g = floats.mapPartitions(it -> gramPartition(it, m, offset))
                        .treeReduce(SparkNystromKrr::add, TREE_DEPTH);
                b = java.util.Arrays.copyOfRange(g, m * m, m * m + m);
                gram = NystromBlocks.symmetricFromLower(java.util.Arrays.copyOf(g, m * m), m);
                g = null;
                JavaRDD<FloatBlock> fb = floats;
                op = operator(n, "gram+spark", cg, u -> fb.treeAggregate(new double[m], (acc, blk) -> {
                    NystromBlocks.addKtK(blk.k, blk.rows, u, acc);
                    return acc;
                }, SparkNystromKrr::add, TREE_DEPTH));
            } else {
                b = blocks.treeAggregate(new double[m], (acc, blk) -> task.rhs(acc, blk, offset),
                        SparkNystromKrr::add, TREE_DEPTH);
                op = operator(n, "spark", cg, u -> blocks.treeAggregate(new double[m],
                        (acc, blk) -> task.ktk(acc, blk, u), SparkNystromKrr::add, TREE_DEPTH));
            }
            long t2 = System.nanoTime();
            Matrix kmm = kernel.gram(anchors);
            Cholesky ch = Linalg.cholesky(kmm);
            NystromKrr.Solution s = NystromBlocks.solve(op, kmm, ch, b, offset, o.lambda(), o.tolerance(),
                    o.maxIterations(), gram);
            gram = null;
            long t3 = System.nanoTime();
            KernelRidge model = NystromKrr.model(kernel, anchors, s, o.center());
            double[] alpha = s.alpha();
            double mean = ny[1] / n;
            double[] r = blocks.treeAggregate(new double[3], (acc, blk) -> task.residuals(acc, blk, alpha,
                    offset, mean), SparkNystromKrr::add, TREE_DEPTH);
            Map<String, Double> metrics = new LinkedHashMap<>();
            metrics.put("rmse", Math.sqrt(r[0] / n));
            metrics.put("mae", r[1] / n);
            metrics.put("r2", r[2] == 0 ? (r[0] == 0 ? 1.0 : 0.0) : 1 - r[0] / r[2]); // as Metrics.r2
            long t4 = System.nanoTime();
            double secs = (t4 - t0) * 1e-9;
            Map<String, Double> timings = new LinkedHashMap<>();
            timings.put("countSeconds", (t1 - t0) * 1e-9);
            timings.put("firstPassSeconds", (t2 - t1) * 1e-9);
            timings.put("cgJobs", (double) cg[0]);
            timings.put("cgSeconds", cg[1] * 1e-9);
            timings.put("solveMmSeconds", (t3 - t2 - cg[1]) * 1e-9);
            timings.put("metricsSeconds", (t4 - t3) * 1e-9);
            List<String> names = featureNames;
            if (names == null) {
                names = new ArrayList<>();
                for (int j = 1; j <= d; j++) {
                    names.add("x" + j);
                }
            }
            if (names.size() != d) {
                throw new IllegalArgumentException("featureNames has " + names.size() + " names but the anchors "
                        + d + " features");
            }
            NystromKrrTrainer.FitDiagnostics diag = NystromKrrTrainer.diagnostics(s.diagnostics(), secs)
                    .withEngine("spark");
            ModelHeader h = new ModelHeader(KrrTrainer.TYPE, names, targetName == null ? "y" : targetName, null,
                    kernel.spec(), NystromKrrTrainer.hyperParameters(o, m),
                    new ModelHeader.Training((int) Math.min(Integer.MAX_VALUE, n), d, source));
            return new Fit(KrrTrainer.of(h, model, diag), s.diagnostics(), n, metrics, timings);
        } finally {
            release(blocks);
            release(floats);
        }
    }

    /** Rows of K_nm formed at a time by the weighted fit's partitions: NystromDirect's block of 2,048 rows. */
    static final int DIRECT_BLOCK_ROWS = 2048;

    /**
     * The weighted fit: rows of d features, the target and a sample weight w_i &gt;= 0. The anchors are those of the
     * unweighted fit ({@link SparkAnchors}: the single-machine trainer's for the same seed), then one job sums
     * G = K_nmᵀWK_nm and B = K_nmᵀW(y − offset) per partition ({@link org.psdkit.regression.nystrom.NystromDirect}'s
     * accumulation: rows in blocks of {@link #DIRECT_BLOCK_ROWS}, scaled by √w_i) and the driver solves
     * (G + λK_mm)α = B with {@link NystromDirect#solve}, as {@link NystromKrrTrainer#fitDirect} does on one machine:
     * the model equals the single-machine weighted fit with the same anchors up to the order of the sums. With
     * {@code center} the offset is the weighted mean Σw_i y_i / Σw_i. The CG settings and the storage are not used.
     * Training metrics are unweighted, as for the unweighted fit.
     */
    public static Fit fitWeighted(JavaRDD<double[]> rows, NystromKrrTrainer.Options o, List<String> featureNames,
                                  String targetName, String source) {
        if (o == null) {
            throw new IllegalArgumentException("options must not be null");
        }
        List<double[]> first = rows.take(1);
        if (first.isEmpty()) {
            throw new IllegalArgumentException(source + ": nystrom krr: no training points");
        }
        int d = first.get(0).length - 2;
        Kernel kernel = o.kernel();
        long t0 = System.nanoTime();
        Matrix anchors = SparkAnchors.density(rows.map(r -> java.util.Arrays.copyOf(r, d)), o.anchors(), o.method(),
                o.seed());
        int m = anchors.rows();
        Task task = new Task(kernel.spec(), anchors);
        // n, Σw, Σw·y (the weighted mean that centring subtracts, as NystromDirect.normal)
        double[] sums = rows.treeAggregate(new double[3], (acc, r) -> {
            acc[0] += 1;
            acc[1] += r[d + 1];
            acc[2] += r[d + 1] * r[d];
            return acc;
        }, SparkNystromKrr::add, TREE_DEPTH);
        long n = (long) sums[0];
        double offset = o.center() ? sums[2] / sums[1] : 0;
        if (!(sums[1] > 0)) {
            throw new IllegalArgumentException(source + ": weights: every weight is 0");
        }
        double[] gb = rows.mapPartitions(it -> task.weightedNormal(it, d, offset))
                .treeReduce(SparkNystromKrr::add, TREE_DEPTH);
        Matrix g = Matrix.wrap(m, m, java.util.Arrays.copyOf(gb, m * m));
        g.symmetrizeInPlace();
        Matrix b = Matrix.wrap(m, 1, java.util.Arrays.copyOfRange(gb, m * m, m * m + m));
        gb = null;
        NystromDirect.Solution s = NystromDirect.solve(new NystromDirect.Normal(g, b, kernel.gram(anchors),
                new double[] {offset}), o.lambda());
        KernelRidge.Options ko = new KernelRidge.Options(o.lambda(), KernelRidge.Form.STANDARD, 0, o.center());
        org.psdkit.linalg.SpdSolve.Diagnostics sd = new org.psdkit.linalg.SpdSolve.Diagnostics("nystrom-direct",
                s.diagnostics().jitter(), m, 0);
        KernelRidge model = KernelRidge.of(kernel, anchors, s.alpha().col(0), offset, ko, sd);
        double[] alpha = s.alpha().col(0);
        double mean = 0;
        JavaRDD<Block> blocks = rows.mapPartitions(it -> blocks(dropLast(it), d, m));
        double[] ny = blocks.treeAggregate(new double[2], (acc, blk) -> {
            acc[0] += blk.rows;
            for (double v : blk.y) {
                acc[1] += v;
            }
            return acc;
        }, SparkNystromKrr::add, TREE_DEPTH);
        mean = ny[1] / ny[0];
        double mu = mean;
        double[] r = blocks.treeAggregate(new double[3], (acc, blk) -> task.residuals(acc, blk, alpha, offset, mu),
                SparkNystromKrr::add, TREE_DEPTH);
        Map<String, Double> metrics = new LinkedHashMap<>();
        metrics.put("rmse", Math.sqrt(r[0] / n));
        metrics.put("mae", r[1] / n);
        metrics.put("r2", r[2] == 0 ? (r[0] == 0 ? 1.0 : 0.0) : 1 - r[0] / r[2]); // as Metrics.r2
        double secs = (System.nanoTime() - t0) * 1e-9;
        List<String> names = featureNames == null ? genericNames(d) : featureNames;
        if (names.size() != d) {
            throw new IllegalArgumentException("featureNames has " + names.size() + " names but the rows " + d
                    + " features");
        }
        NystromKrrTrainer.FitDiagnostics diag = NystromKrrTrainer.directDiagnostics(s, secs).withEngine("spark");
        ModelHeader h = new ModelHeader(KrrTrainer.TYPE, names, targetName == null ? "y" : targetName, null,
                kernel.spec(), NystromKrrTrainer.hyperParameters(o, m),
                new ModelHeader.Training((int) Math.min(Integer.MAX_VALUE, n), d, source));
        return new Fit(KrrTrainer.of(h, model, diag), null, n, metrics, Map.of("seconds", secs));
    }

    private static List<String> genericNames(int d) {
        List<String> names = new ArrayList<>();
        for (int j = 1; j <= d; j++) {
            names.add("x" + j);
        }
        return names;
    }

    /** The rows without their last value (the weight). */
    private static Iterator<double[]> dropLast(Iterator<double[]> it) {
        return new Iterator<>() {
            @Override
            public boolean hasNext() {
                return it.hasNext();
            }

            @Override
            public double[] next() {
                double[] r = it.next();
                return java.util.Arrays.copyOf(r, r.length - 1);
            }
        };
    }

    /**
     * A CG product u ↦ K_nmᵀK_nm u that runs {@code job} (one Spark job: per block K_bᵀ(K_b u), summed by
     * treeAggregate), counting the jobs and their nanoseconds in {@code clock}; {@code storage} names the route.
     */
    private static KnmOperator operator(long n, String storage, long[] clock,
                                                java.util.function.UnaryOperator<double[]> job) {
        return new KnmOperator() {
            @Override
            public long rows() {
                return n;
            }

            @Override
            public double[] applyKtK(double[] u) {
                long t = System.nanoTime();
                double[] w = job.apply(u);
                clock[0]++;
                clock[1] += System.nanoTime() - t;
                return w;
            }

            @Override
            public String storage() {
                return storage;
            }
        };
    }

    /**
     * The route, as {@link Storage#AUTO} chooses it on one machine: {@code gram} always,
     * {@code recompute} and {@code float} never (the plain Falkon CG, K_nm recomputed in double every iteration),
     * {@code auto} when NystromKrr's cost model prefers it
     * ({@link NystromBlocks#gramCheaper}; it prices the CG passes it saves as passes over a kept single-precision
     * K_nm, so against this engine's passes, which recompute K_nm and each cost a Spark job, it is conservative) and
     * the driver's m×m arrays fit ({@link #gramFitsDriver}).
     */
    static boolean gramRoute(Storage storage, long n, int m) {
        return switch (storage == null ? Storage.AUTO : storage) {
            case GRAM -> true;
            case RECOMPUTE, FLOAT -> false;
            case AUTO -> NystromBlocks.gramCheaper(n, m) && gramFitsDriver(m);
            case GRAM_SINGLE, SKETCH -> throw new IllegalArgumentException(
                    "storage " + storage.label() + " (single-machine only) is not available on Spark;"
                            + " use gram, auto, recompute or float");
        };
    }

    /**
     * Arrays of m² doubles the driver holds on the Gram route: the combined partials (two while treeReduce merges),
     * the Gram matrix, H̃ = K_nmᵀK_nm + λK_mm and its Cholesky factor, beside K_mm and its factor.
     */
    static final int GRAM_DRIVER_ARRAYS = 7;

    /** Whether {@link #GRAM_DRIVER_ARRAYS} m×m arrays fit {@link NystromKrr#GRAM_HEAP_FRACTION} of the free heap. */
    static boolean gramFitsDriver(int m) {
        Runtime rt = Runtime.getRuntime();
        long free = rt.maxMemory() - (rt.totalMemory() - rt.freeMemory());
        return GRAM_DRIVER_ARRAYS * 8.0 * m * m <= RoutePlanner.GRAM_HEAP_FRACTION * free;
    }

    /** Combines (rows, Σy, max centred norm²) partials. */
    static double[] addCounts(double[] a, double[] b) {
        a[0] += b[0];
        a[1] += b[1];
        a[2] = Math.max(a[2], b[2]);
        return a;
    }

    static double[] add(double[] a, double[] b) {
        for (int j = 0; j < a.length; j++) {
            a[j] += b[j];
        }
        return a;
    }

    /** Cuts a partition's rows into blocks of at most {@link #BLOCK_ENTRIES}/m rows. */
    private static Iterator<Block> blocks(Iterator<double[]> it, int d, int m) {
        int cap = Math.max(1, BLOCK_ENTRIES / m);
        List<Block> out = new ArrayList<>();
        List<double[]> buf = new ArrayList<>();
        long row = 0;
        while (it.hasNext()) {
            double[] r = it.next();
            if (r == null || r.length != d + 1) {
                throw new IllegalArgumentException("nystrom krr: a row has " + (r == null ? 0 : r.length)
                        + " values, expected " + d + " features and the target (" + (d + 1) + ")");
            }
            buf.add(r);
            row++;
            if (buf.size() == cap) {
                out.add(Block.of(buf, d));
                buf.clear();
            }
        }
        if (!buf.isEmpty()) {
            out.add(Block.of(buf, d));
        }
        return out.iterator();
    }

    /**
     * One partition's K_bᵀK_b (lower triangle, row-major, m² entries) followed by its K_bᵀ(y_b − offset) (m), in
     * one array. Memory held by the task for it whatever the partition's size: the accumulator's native m×m doubles
     * plus one widened block (8·rows·m ≤ 8·{@link #BLOCK_ENTRIES} bytes) and the m² + m doubles returned, i.e.
     * ≈ 16m² bytes + 8 MB (m = 1,000: 24 MB), beside the cached single-precision blocks Spark's block manager holds.
     */
    static Iterator<double[]> gramPartition(Iterator<FloatBlock> it, int m, double offset) {
        double[] out = new double[m * m + m];
        double[] rhs = new double[m];
        try (FloatBlas.GramAccumulator acc = new FloatBlas.GramAccumulator(m)) {
            while (it.hasNext()) {
                FloatBlock b = it.next();
                NystromBlocks.addGram(b.k, b.rows, b.y, offset, acc, rhs);
            }
            acc.addLowerInto(out);
        }
        System.arraycopy(rhs, 0, out, m * m, m);
        return List.of(out).iterator();
    }

    /** A block's K_b in single precision (rows × m, row-major, as {@link NystromBlocks}) and its targets. */
    static final class FloatBlock implements Serializable {
        private static final long serialVersionUID = 1L;
        final int rows;
        final float[] k;
        final double[] y;

        FloatBlock(int rows, float[] k, double[] y) {
            this.rows = rows;
            this.k = k;
            this.y = y;
        }
    }

    /** Rows of one block: features column-major (b×d, {@link Matrix}'s layout) and targets. */
    static final class Block implements Serializable {
        private static final long serialVersionUID = 1L;
        final int rows;
        final int d;
        final double[] x;
        final double[] y;

        private Block(int rows, int d, double[] x, double[] y) {
            this.rows = rows;
            this.d = d;
            this.x = x;
            this.y = y;
        }

        static Block of(List<double[]> buf, int d) {
            int b = buf.size();
            double[] x = new double[b * d];
            double[] y = new double[b];
            for (int i = 0; i < b; i++) {
                double[] r = buf.get(i);
                for (int j = 0; j < d; j++) {
                    x[j * b + i] = r[j];
                }
                y[i] = r[d];
            }
            return new Block(b, d, x, y);
        }

        Matrix features() {
            return Matrix.wrap(rows, d, x);
        }
    }

    /**
     * What a task needs: the kernel as its spec string and the anchors column-major; both are rebuilt once per
     * deserialised copy (kernels are not serialisable).
     */
    static final class Task implements Serializable {
        private static final long serialVersionUID = 1L;
        private final String spec;
        private final int m;
        private final int d;
        private final double[] anchors;
        /**
         * NaN: K_b recomputed in double; else K_b in single precision as {@link NystromBlocks} computes it for data
         * with centred squared norms up to this (the Gram route).
         */
        private final double norm2;
        private transient Kernel kernel;
        private transient Matrix c;
        private transient NystromBlocks floats;

        Task(String spec, Matrix anchors) {
            this(spec, anchors.rows(), anchors.cols(), anchors.data().clone(), Double.NaN);
        }

        private Task(String spec, int m, int d, double[] anchors, double norm2) {
            this.spec = spec;
            this.m = m;
            this.d = d;
            this.anchors = anchors;
            this.norm2 = norm2;
        }

        /** This task with single-precision K_b for data whose centred squared norms are at most {@code norm2}. */
        Task floats(double norm2) {
            return new Task(spec, m, d, anchors, norm2);
        }

        private void init() {
            if (kernel == null) {
                kernel = Kernels.parse(spec);
                c = Matrix.wrap(m, d, anchors);
                if (!Double.isNaN(norm2)) {
                    floats = NystromBlocks.of(kernel, c, norm2);
                }
            }
        }

        private Matrix kb(Block b) {
            init();
            return kernel.cross(b.features(), c); // b × m
        }

        double[] ktk(double[] acc, Block b, double[] u) {
            Matrix k = kb(b);
            return add(acc, Linalg.gemv(k, true, Linalg.gemv(k, false, u)));
        }

        /** Adds the block's rows, Σy, and takes the max of its largest centred squared norm. */
        double[] counts(double[] acc, Block b) {
            init();
            acc[0] += b.rows;
            for (double v : b.y) {
                acc[1] += v;
            }
            acc[2] = Math.max(acc[2], NystromBlocks.maxCentredNorm2(kernel, c, b.features()));
            return acc;
        }

        /** The block's K_b in single precision (the Gram route's), with its targets. */
        FloatBlock floatBlock(Block b) {
            init();
            return new FloatBlock(b.rows, floats.floatBlockCopy(b.features()), b.y);
        }

        /** Adds Σ(y − f)², Σ|y − f| and Σ(y − mean)² of the block, f = K_b α + offset (the model's prediction). */
        double[] residuals(double[] acc, Block b, double[] alpha, double offset, double mean) {
            double[] f = Linalg.gemv(kb(b), false, alpha);
            for (int i = 0; i < b.rows; i++) {
                double e = b.y[i] - f[i] - offset;
                acc[0] += e * e;
                acc[1] += Math.abs(e);
                acc[2] += (b.y[i] - mean) * (b.y[i] - mean);
            }
            return acc;
        }

        /**
         * One partition's G = K_nmᵀWK_nm (m², column-major) followed by B = K_nmᵀW(y − offset) (m), over rows of d
         * features, target and weight, in blocks of {@link #DIRECT_BLOCK_ROWS} rows scaled by √w as
         * {@code NystromDirect.normal} scales them.
         */
        Iterator<double[]> weightedNormal(Iterator<double[]> it, int dims, double offset) {
            init();
            Matrix g = Matrix.zeros(m, m);
            Matrix rhs = Matrix.zeros(m, 1);
            List<double[]> buf = new ArrayList<>(DIRECT_BLOCK_ROWS);
            while (it.hasNext() || !buf.isEmpty()) {
                if (it.hasNext()) {
                    double[] r = it.next();
                    if (r.length != dims + 2) {
                        throw new IllegalArgumentException("nystrom krr: a row has " + r.length + " values, expected "
                                + dims + " features, the target and the weight (" + (dims + 2) + ")");
                    }
                    buf.add(r);
                }
                if (buf.size() == DIRECT_BLOCK_ROWS || (!it.hasNext() && !buf.isEmpty())) {
                    int rows = buf.size();
                    double[] x = new double[rows * dims];
                    for (int i = 0; i < rows; i++) {
                        for (int j = 0; j < dims; j++) {
                            x[j * rows + i] = buf.get(i)[j];
                        }
                    }
                    Matrix kb = kernel.cross(Matrix.wrap(rows, dims, x), c);
                    Matrix yb = Matrix.zeros(rows, 1);
                    for (int i = 0; i < rows; i++) {
                        double[] r = buf.get(i);
                        double sw = Math.sqrt(r[dims + 1]);
                        for (int j = 0; j < m; j++) {
                            kb.set(i, j, kb.get(i, j) * sw);
                        }
                        yb.set(i, 0, (r[dims] - offset) * sw);
                    }
                    Linalg.gemmInPlace(1.0, kb, true, kb, false, 1.0, g);
                    Linalg.gemmInPlace(1.0, kb, true, yb, false, 1.0, rhs);
                    buf.clear();
                }
            }
            double[] out = java.util.Arrays.copyOf(g.data(), m * m + m);
            System.arraycopy(rhs.data(), 0, out, m * m, m);
            return List.of(out).iterator();
        }

        double[] rhs(double[] acc, Block b, double offset) {
            Matrix k = kb(b);
            double[] t = new double[b.rows];
            for (int i = 0; i < b.rows; i++) {
                t[i] = b.y[i] - offset;
            }
            return add(acc, Linalg.gemv(k, true, t));
        }
    }

    /**
     * Unpersists a cached RDD (null: nothing), waiting for the blocks to go: a non-blocking unpersist right before
     * the session stops left Spark's block removal to a callback its stopped thread pool rejected, which printed a
     * RejectedExecutionException trace on stderr at the end of every {@code bench spark} run. Failures are ignored:
     * the context may already be stopped (a lost cluster), and nothing is then left to free.
     */
    public static void release(org.apache.spark.api.java.JavaRDD<?> rdd) {
        if (rdd == null) {
            return;
        }
        try {
            rdd.unpersist(true);
        } catch (RuntimeException ignored) {
            // nothing left to free
        }
    }
}
