package org.psdkit.spark;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.storage.StorageLevel;
import org.psdkit.density.DensityRows;
import org.psdkit.kernel.Kernel;
import org.psdkit.kernel.Kernels;
import org.psdkit.linalg.Linalg;
import org.psdkit.linalg.Matrix;

/**
 * {@link DensityRows} over a Spark RDD: the data-sized sums of the primal PSD density solver (Marteau-Ferey, Bach
 * &amp; Rudi 2020, eq. 8 with the Nyström features of App. B.5) computed per partition and combined with {@code
 * treeAggregate}. Row i's feature vector v_i = Tᵀ k(anchors, x_i) (r entries) is recomputed in each pass from the
 * broadcast anchors and factor T, in row blocks, and rounded to single precision as the single-machine rows keep
 * them; the current point S and direction D are kept
 * on the driver and shipped with each pass (r×q numbers), so no per-row state lives on the executors and a lost
 * partition is simply recomputed. Each call of the protocol ({@link #at}, {@link #line}, {@link #step}, {@link
 * #weightedGram}) is one Spark job; {@link #direction} costs nothing. Rows are the d features (no target), or with
 * {@link #nystromWeighted} the d features followed by the row's sample weight w_i &gt; 0: the sums are then the
 * weighted ones of {@link DensityRows} (each weight multiplied into its row's terms after they are formed, as
 * {@link org.psdkit.density.LocalDensityRows#weighted} does, so weights of 1 give the unweighted sums bit for bit).
 *
 * <p>Call {@link #close} (or let the fit end) to unpersist the cached row blocks.
 */
public final class SparkDensityRows implements DensityRows, AutoCloseable {

    /** Rows per block: an m×b kernel block of about 2²⁰ numbers, the block size of the local solvers. */
    static final int BLOCK_ENTRIES = 1 << 20;

    private final JavaRDD<Block> blocks;
    private final Task task;
    private final long n;
    private final double weightSum;
    private final int r;
    private Matrix s;
    private Matrix d;

    private SparkDensityRows(JavaRDD<Block> blocks, Task task, long n, double weightSum, int r) {
        this.blocks = blocks;
        this.task = task;
        this.n = n;
        this.weightSum = weightSum;
        this.r = r;
    }

    /**
     * The rows of {@code rows} (each: d features) with features v = Tᵀ k(anchors, x).
     *
     * @param t the m×r factor of the anchors' feature map
     */
    public static SparkDensityRows nystrom(JavaRDD<double[]> rows, Kernel kernel, Matrix anchors, Matrix t) {
        return nystrom(rows, kernel, anchors, t, false);
    }

    /**
     * As {@link #nystrom}, each row the d features followed by its sample weight (&gt; 0 and finite; rows of weight 0
     * are left out beforehand): the weighted log-likelihood −Σ w_i log f(x_i) / Σ w_i.
     */
    public static SparkDensityRows nystromWeighted(JavaRDD<double[]> rows, Kernel kernel, Matrix anchors,
                                                   Matrix t) {
        return nystrom(rows, kernel, anchors, t, true);
    }

    private static SparkDensityRows nystrom(JavaRDD<double[]> rows, Kernel kernel, Matrix anchors, Matrix t,
                                            boolean weighted) {
        if (t.rows() != anchors.rows()) {
            throw new IllegalArgumentException("density rows: factor T has " + t.rows() + " rows, anchors "
                    + anchors.rows());
        }
        int d = anchors.cols();
        int m = anchors.rows();
        int cap = Math.max(1, BLOCK_ENTRIES / Math.max(m, t.cols()));
        JavaRDD<Block> blocks = rows.mapPartitions(it -> Block.cut(it, d, cap, weighted))
                .persist(StorageLevel.MEMORY_AND_DISK());
        // {rows, Σ w} (Σ w = rows without weights); the counts are exact in double below 2⁵³ rows
        double[] nw = blocks.map(b -> new double[] {b.rows, b.weightSum()}).fold(new double[2],
                SparkNystromKrr::add);
        long n = (long) nw[0];
        if (n == 0) {
            SparkNystromKrr.release(blocks);
            throw new IllegalArgumentException("density rows: no data rows");
        }
        return new SparkDensityRows(blocks, new Task(kernel.spec(), anchors, t), n, weighted ? nw[1] : n,
                t.cols());
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
        return "spark";
    }

    @Override
    public Sums at(Matrix sNew) {
        if (sNew.rows() != r) {
            throw new IllegalArgumentException("density rows: factor has " + sNew.rows() + " rows, rank is " + r);
        }
        this.s = sNew.copy();
        this.d = null;
        return sums(s);
    }

    private Sums sums(Matrix sc) {
        int q = sc.cols();
        double[] zero = new double[2 + r * q];
        zero[1] = Double.POSITIVE_INFINITY;
        Task tk = task;
        double[] sData = sc.data();
        int rr = r;
        double[] acc = blocks.treeAggregate(zero, (a, b) -> tk.at(a, b, Matrix.wrap(rr, q, sData)),
                SparkDensityRows::sumMin, SparkNystromKrr.TREE_DEPTH);
        double sl = acc[0];
        double mn = acc[1];
        if (!(mn > 0) || !Double.isFinite(sl)) {
            return new Sums(Double.NEGATIVE_INFINITY, mn, null);
        }
        double[] g = java.util.Arrays.copyOfRange(acc, 2, acc.length);
        return new Sums(sl, mn, Matrix.wrap(r, q, g));
    }

    /** Entry 0 and 2.. summed, entry 1 the minimum. */
    private static double[] sumMin(double[] a, double[] b) {
        a[0] += b[0];
        a[1] = Math.min(a[1], b[1]);
        for (int k = 2; k < a.length; k++) {
            a[k] += b[k];
        }
        return a;
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
        this.d = dNew.copy();
    }

    @Override
    public Line line(double[] steps) {
        if (d == null) {
            throw new IllegalStateException("density rows: line without a direction");
        }
        int k = steps.length;
        int q = s.cols();
        double[] zero = new double[3 * k];
        java.util.Arrays.fill(zero, 2 * k, 3 * k, Double.POSITIVE_INFINITY);
        Task tk = task;
        double[] sData = s.data();
        double[] dData = d.data();
        double[] st = steps.clone();
        int rr = r;
        double[] acc = blocks.treeAggregate(zero, (a, b) -> tk.line(a, b, Matrix.wrap(rr, q, sData),
                Matrix.wrap(rr, q, dData), st), (a, b) -> {
                    for (int j = 0; j < 2 * k; j++) {
                        a[j] += b[j];
                    }
                    for (int j = 2 * k; j < 3 * k; j++) {
                        a[j] = Math.min(a[j], b[j]);
                    }
                    return a;
                }, SparkNystromKrr.TREE_DEPTH);
        double[] sl = java.util.Arrays.copyOfRange(acc, 0, k);
        double[] sp = java.util.Arrays.copyOfRange(acc, k, 2 * k);
        double[] mn = java.util.Arrays.copyOfRange(acc, 2 * k, 3 * k);
        return Line.ofSums(sl, sp, mn);
    }

    @Override
    public Sums step(double t) {
        if (d == null) {
            throw new IllegalStateException("density rows: step without a direction");
        }
        this.s = s.plus(d.scale(t));
        this.d = null;
        return sums(s);
    }

    @Override
    public Matrix weightedGram() {
        if (s == null) {
            throw new IllegalStateException("density rows: weighted Gram matrix before a current point");
        }
        Task tk = task;
        int q = s.cols();
        double[] sData = s.data();
        int rr = r;
        double[] acc = blocks.treeAggregate(new double[r * r], (a, b) -> tk.gram(a, b,
                Matrix.wrap(rr, q, sData)), SparkNystromKrr::add, SparkNystromKrr.TREE_DEPTH);
        return Matrix.wrap(r, r, acc);
    }

    @Override
    public void close() {
        SparkNystromKrr.release(blocks);
    }

    /** Rows of one block, features column-major (b×d, {@link Matrix}'s layout), and their weights. */
    static final class Block implements Serializable {
        private static final long serialVersionUID = 1L;
        final int rows;
        final int d;
        final double[] x;
        /** The rows' weights (null: 1 each). */
        final double[] w;

        private Block(int rows, int d, double[] x, double[] w) {
            this.rows = rows;
            this.d = d;
            this.x = x;
            this.w = w;
        }

        /** Row i's weight. */
        double weight(int i) {
            return w == null ? 1.0 : w[i];
        }

        /** Σ of the rows' weights (the row count without weights). */
        double weightSum() {
            if (w == null) {
                return rows;
            }
            double s = 0;
            for (double v : w) {
                s += v;
            }
            return s;
        }

        static Iterator<Block> cut(Iterator<double[]> it, int d, int cap, boolean weighted) {
            List<Block> out = new ArrayList<>();
            List<double[]> buf = new ArrayList<>();
            int len = weighted ? d + 1 : d;
            while (it.hasNext()) {
                double[] row = it.next();
                if (row == null || row.length != len) {
                    throw new IllegalArgumentException("density rows: a row has " + (row == null ? 0 : row.length)
                            + " values, expected " + d + " features" + (weighted ? " and a weight" : ""));
                }
                if (weighted && (!(row[d] > 0) || Double.isInfinite(row[d]))) {
                    throw new IllegalArgumentException("density rows: weight " + row[d] + " of the row "
                            + java.util.Arrays.toString(java.util.Arrays.copyOf(row, d))
                            + "; weights must be > 0 and finite (leave rows of weight 0 out)");
                }
                buf.add(row);
                if (buf.size() == cap) {
                    out.add(of(buf, d, weighted));
                    buf.clear();
                }
            }
            if (!buf.isEmpty()) {
                out.add(of(buf, d, weighted));
            }
            return out.iterator();
        }

        private static Block of(List<double[]> buf, int d, boolean weighted) {
            int b = buf.size();
            double[] x = new double[b * d];
            double[] w = weighted ? new double[b] : null;
            for (int i = 0; i < b; i++) {
                double[] row = buf.get(i);
                for (int j = 0; j < d; j++) {
                    x[j * b + i] = row[j];
                }
                if (weighted) {
                    w[i] = row[d];
                }
            }
            return new Block(b, d, x, w);
        }
    }

    /** The kernel (as its spec), anchors and T; rebuilt once per deserialised copy. */
    static final class Task implements Serializable {
        private static final long serialVersionUID = 1L;
        private final String spec;
        private final int m;
        private final int d;
        private final int r;
        private final double[] anchors;
        private final double[] t;
        private transient Kernel kernel;
        private transient Matrix c;
        private transient Matrix tm;

        Task(String spec, Matrix anchors, Matrix t) {
            this.spec = spec;
            this.m = anchors.rows();
            this.d = anchors.cols();
            this.r = t.cols();
            this.anchors = anchors.data().clone();
            this.t = t.data().clone();
        }

        /**
         * V_b = Tᵀ k(anchors, x_b), r×b, rounded to single precision as the single-machine rows keep their features
         * ({@code LocalDensityRows.nystrom}), so that both engines fit the same model on the same anchors.
         */
        Matrix features(Block b) {
            if (kernel == null) {
                kernel = Kernels.parse(spec);
                c = Matrix.wrap(m, d, anchors);
                tm = Matrix.wrap(m, r, t);
            }
            Matrix v = Linalg.gemm(1.0, tm, true, kernel.cross(c, Matrix.wrap(b.rows, b.d, b.x)), false);
            double[] a = v.data();
            for (int k = 0; k < a.length; k++) {
                a[k] = (float) a[k];
            }
            return v;
        }

        /** Adds Σ w_i log f_i, min f_i and Σ w_i v_i (v_iᵀS)/f_i of the block. */
        double[] at(double[] acc, Block b, Matrix s) {
            Matrix v = features(b);
            Matrix u = Linalg.gemm(1.0, s, true, v, false); // q×b
            int q = u.rows();
            double[] ud = u.data();
            double sl = 0;
            double mn = Double.POSITIVE_INFINITY;
            for (int i = 0; i < b.rows; i++) {
                double f = 0;
                for (int k = 0; k < q; k++) {
                    f += ud[k + i * q] * ud[k + i * q];
                }
                mn = Math.min(mn, f);
                double wi = b.weight(i);
                sl += wi * Math.log(f);
                for (int k = 0; k < q; k++) {
                    ud[k + i * q] = ud[k + i * q] / f * wi;
                }
            }
            acc[0] += sl;
            acc[1] = Math.min(acc[1], mn);
            if (mn > 0 && Double.isFinite(sl)) {
                double[] g = Linalg.gemm(1.0, v, false, u, true).data(); // r×q
                for (int k = 0; k < g.length; k++) {
                    acc[2 + k] += g[k];
                }
            }
            return acc;
        }

        /** Adds, per trial step, Σ w_i log f_i(t), Σ w_i f_i'(t)/f_i(t) and min f_i(t) of the block. */
        double[] line(double[] acc, Block b, Matrix s, Matrix dir, double[] steps) {
            Matrix v = features(b);
            double[] ud = Linalg.gemm(1.0, s, true, v, false).data();
            double[] dd = Linalg.gemm(1.0, dir, true, v, false).data();
            int q = s.cols();
            int k = steps.length;
            for (int i = 0; i < b.rows; i++) {
                double f = 0;
                double ci = 0;
                double ei = 0;
                for (int j = 0; j < q; j++) {
                    double a = ud[j + i * q];
                    double z = dd[j + i * q];
                    f += a * a;
                    ci += a * z;
                    ei += z * z;
                }
                double wi = b.weight(i);
                for (int j = 0; j < k; j++) {
                    double tt = steps[j];
                    double fi = f + tt * (2 * ci + tt * ei);
                    acc[j] += wi * Math.log(fi);
                    acc[k + j] += wi * (2 * (ci + tt * ei) / fi);
                    acc[2 * k + j] = Math.min(acc[2 * k + j], fi);
                }
            }
            return acc;
        }

        /** Adds Σ w_i v_i v_iᵀ / f_i of the block (r×r). */
        double[] gram(double[] acc, Block b, Matrix s) {
            Matrix v = features(b);
            double[] ud = Linalg.gemm(1.0, s, true, v, false).data();
            int q = s.cols();
            double[] vd = v.data();
            for (int i = 0; i < b.rows; i++) {
                double f = 0;
                for (int j = 0; j < q; j++) {
                    f += ud[j + i * q] * ud[j + i * q];
                }
                double sc = 1.0 / Math.sqrt(f);
                if (b.w != null) {
                    sc *= Math.sqrt(b.w[i]);
                }
                for (int j = 0; j < r; j++) {
                    vd[j + i * r] *= sc;
                }
            }
            double[] g = Linalg.syrk(v, false).data();
            for (int j = 0; j < g.length; j++) {
                acc[j] += g[j];
            }
            return acc;
        }
    }
}
