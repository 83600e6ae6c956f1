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
import org.psdkit.linalg.Linalg;
import org.psdkit.linalg.Matrix;
import org.psdkit.model.ModelHeader;
import org.psdkit.model.Pipeline;
import org.psdkit.regression.KernelRidge;
import org.psdkit.regression.KrrTrainer;
import org.psdkit.regression.NystromKrr;
import org.psdkit.regression.NystromKrrTrainer;

/**
 * Nyström kernel ridge regression over an Apache Spark RDD: the Falkon solver of {@link NystromKrr} (Rudi,
 * Carratino &amp; Rosasco 2017, Alg. 1) with its data-sized sums distributed. Each CG iteration needs
 * K_nmᵀ(K_nm u); every partition cuts its rows into blocks, computes K_b = k(x_b, c) against the broadcast anchors
 * and adds K_bᵀ(K_b u), and the partial m-vectors are combined with {@code treeAggregate}. The right-hand side
 * K_nmᵀ(y − offset) is one more such pass. The m×m algebra (K_mm, its Cholesky factor, the preconditioner, the CG
 * recursion) runs on the driver in {@link NystromKrr#solve}, the same code as the single-machine fit.
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
     * What a distributed fit returns: the model, its CG diagnostics, the number of rows and the training-set metrics
     * ({@code rmse}, {@code mae}, {@code r2}, as {@link org.psdkit.model.Metrics#regression}; one more pass).
     */
    public record Fit(Pipeline<KernelRidge> pipeline, NystromKrr.Diagnostics diagnostics, long rows,
                      Map<String, Double> trainMetrics) {
    }

    /**
     * m anchors drawn uniformly without replacement on the cluster ({@code takeSample}); the same seed and
     * partitioning give the same anchors. Rows carry the target last; it is dropped.
     */
    public static Matrix sampleAnchors(JavaRDD<double[]> rows, int m, long seed) {
        if (m < 1) {
            throw new IllegalArgumentException("anchors must be >= 1, got " + m);
        }
        List<double[]> s = rows.takeSample(false, m, seed);
        if (s.size() < m) {
            throw new IllegalArgumentException("anchors must be at most the number of points " + s.size()
                    + ", got " + m);
        }
        double[][] a = new double[m][];
        for (int i = 0; i < m; i++) {
            double[] r = s.get(i);
            a[i] = java.util.Arrays.copyOf(r, r.length - 1);
        }
        return Matrix.of(a);
    }

    /**
     * Fits with anchors sampled on the cluster ({@link #sampleAnchors}, seed of the options).
     */
    public static Fit fit(JavaRDD<double[]> rows, Kernel kernel, NystromKrrTrainer.Options o,
                          List<String> featureNames, String targetName, String source) {
        return fit(rows, kernel, sampleAnchors(rows, o.anchors(), o.seed()), o, featureNames, targetName, source);
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
        try {
            double[] ny = blocks.treeAggregate(new double[2], (acc, b) -> {
                acc[0] += b.rows;
                for (double v : b.y) {
                    acc[1] += v;
                }
                return acc;
            }, SparkNystromKrr::add, TREE_DEPTH);
            long n = (long) ny[0];
            if (n == 0) {
                throw new IllegalArgumentException(source + ": nystrom krr: no training points");
            }
            double offset = o.center() ? ny[1] / n : 0;
            double[] b = blocks.treeAggregate(new double[m], (acc, blk) -> task.rhs(acc, blk, offset),
                    SparkNystromKrr::add, TREE_DEPTH);
            NystromKrr.Operator op = new NystromKrr.Operator() {
                @Override
                public long rows() {
                    return n;
                }

                @Override
                public double[] applyKtK(double[] u) {
                    return blocks.treeAggregate(new double[m], (acc, blk) -> task.ktk(acc, blk, u),
                            SparkNystromKrr::add, TREE_DEPTH);
                }

                @Override
                public String storage() {
                    return "spark";
                }
            };
            Matrix kmm = kernel.gram(anchors);
            Cholesky ch = Linalg.cholesky(kmm);
            NystromKrr.Solution s = NystromKrr.solve(op, kmm, ch, b, offset, o.lambda(), o.tolerance(),
                    o.maxIterations());
            KernelRidge model = NystromKrr.model(kernel, anchors, s, o.center());
            double[] alpha = s.alpha();
            double mean = ny[1] / n;
            double[] r = blocks.treeAggregate(new double[3], (acc, blk) -> task.residuals(acc, blk, alpha,
                    offset, mean), SparkNystromKrr::add, TREE_DEPTH);
            Map<String, Double> metrics = new LinkedHashMap<>();
            metrics.put("rmse", Math.sqrt(r[0] / n));
            metrics.put("mae", r[1] / n);
            metrics.put("r2", r[2] == 0 ? (r[0] == 0 ? 1.0 : 0.0) : 1 - r[0] / r[2]); // as Metrics.r2
            double secs = (System.nanoTime() - t0) * 1e-9;
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
            java.util.Map<String, Object> diag = NystromKrrTrainer.diagnostics(s.diagnostics(), secs);
            diag.put("engine", "spark");
            ModelHeader h = new ModelHeader(KrrTrainer.TYPE, names, targetName == null ? "y" : targetName, null,
                    kernel.spec(), NystromKrrTrainer.hyperParameters(o, m),
                    new ModelHeader.Training((int) Math.min(Integer.MAX_VALUE, n), d, source));
            return new Fit(KrrTrainer.of(h, model, diag), s.diagnostics(), n, metrics);
        } finally {
            blocks.unpersist(false);
        }
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
        private transient Kernel kernel;
        private transient Matrix c;

        Task(String spec, Matrix anchors) {
            this.spec = spec;
            this.m = anchors.rows();
            this.d = anchors.cols();
            this.anchors = anchors.data().clone();
        }

        private Matrix kb(Block b) {
            if (kernel == null) {
                kernel = Kernels.parse(spec);
                c = Matrix.wrap(m, d, anchors);
            }
            return kernel.cross(b.features(), c); // b × m
        }

        double[] ktk(double[] acc, Block b, double[] u) {
            Matrix k = kb(b);
            return add(acc, Linalg.gemv(k, true, Linalg.gemv(k, false, u)));
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

        double[] rhs(double[] acc, Block b, double offset) {
            Matrix k = kb(b);
            double[] t = new double[b.rows];
            for (int i = 0; i < b.rows; i++) {
                t[i] = b.y[i] - offset;
            }
            return add(acc, Linalg.gemv(k, true, t));
        }
    }
}
