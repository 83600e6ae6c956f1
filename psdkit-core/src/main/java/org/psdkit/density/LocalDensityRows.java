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
 * (Nyström) and kept in single precision when they fit in {@link #FEATURE_HEAP_FRACTION} of the free heap, else
 * recomputed at every pass. The per-row vectors Sᵀv_i and Dᵀv_i are kept per block (double) when they fit in
 * {@link #STATE_HEAP_FRACTION} of the free heap, else recomputed. Never an n×n matrix.
 */
public final class LocalDensityRows implements DensityRows {

    /** Block size target: about 2²⁰ numbers per r×b feature block (8 MB in double), small enough for caches. */
    static final int BLOCK_ENTRIES = 1 << 20;
    /** Single-precision features are kept when they need at most this fraction of the free heap (as NystromKrr). */
    static final double FEATURE_HEAP_FRACTION = 0.4;
    /** The per-row state (two q-vectors per row, double) is kept when it needs at most this fraction of the free heap. */
    static final double STATE_HEAP_FRACTION = 0.25;

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

    // state of the protocol
    private Matrix s;
    private Matrix d;
    private Matrix[] u;     // q×b per block: Sᵀ V_b (null blocks: recompute)
    private Matrix[] dv;    // q×b per block: Dᵀ V_b
    private double[] f;
    private double[] c;
    private double[] e;
    private boolean keepState;

    private LocalDensityRows(int r, int n, int[] start, Matrix[] dense, float[][] single, Kernel kernel,
                             Matrix anchors, Matrix t, Matrix x, Matrix vGiven) {
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
        this.f = new double[n];
        this.c = new double[n];
        this.e = new double[n];
    }

    private static int[] blocks(int n, int r) {
        int threads = Math.max(1, Threads.get());
        int per = Math.max(1, Math.min(BLOCK_ENTRIES / Math.max(1, r), (n + 2 * threads - 1) / (2 * threads)));
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
        int[] st = blocks(n, Math.max(r, anchors.rows()));
        int nb = st.length - 1;
        Runtime rt = Runtime.getRuntime();
        long free = rt.maxMemory() - (rt.totalMemory() - rt.freeMemory());
        boolean keep = (double) n * r * Float.BYTES <= FEATURE_HEAP_FRACTION * free;
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
            double[] a = new double[fl.length];
            for (int k = 0; k < a.length; k++) {
                a[k] = fl[k];
            }
            return Matrix.wrap(r, start[b + 1] - start[b], a);
        }
        return compute(b);
    }

    @Override
    public long rows() {
        return n;
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

    private Sums reduce(List<Part> parts, int q) {
        double sl = 0;
        double mn = Double.POSITIVE_INFINITY;
        Matrix g = Matrix.zeros(r, q);
        boolean bad = false;
        for (Part p : parts) {
            sl += p.sumLog;
            mn = Math.min(mn, p.minF);
            if (p.grad == null) {
                bad = true;
            } else {
                double[] gd = g.data();
                double[] pd = p.grad.data();
                for (int k = 0; k < gd.length; k++) {
                    gd[k] += pd[k];
                }
            }
        }
        if (bad || !(mn > 0) || !Double.isFinite(sl)) {
            return new Sums(Double.NEGATIVE_INFINITY, mn, null);
        }
        return new Sums(sl, mn, g);
    }

    private <T> List<T> parallel(java.util.function.IntFunction<T> task) {
        return POOL.submit(() -> IntStream.range(0, nb()).parallel().mapToObj(task).toList()).join();
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
            sl += Math.log(s2);
            double inv = 1.0 / s2;
            for (int k = 0; k < q; k++) {
                uwd[k + i * q] = ud[k + i * q] * inv;
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
        Runtime rt = Runtime.getRuntime();
        long free = rt.maxMemory() - (rt.totalMemory() - rt.freeMemory());
        if (u == null || u.length != nb() || u[0] == null || u[0].rows() != q) {
            keepState = 2.0 * n * q * Double.BYTES <= STATE_HEAP_FRACTION * free;
            u = new Matrix[nb()];
            dv = new Matrix[nb()];
        }
        List<Part> parts = parallel(b -> {
            Matrix vb = features(b);
            Matrix ub = Linalg.gemm(1.0, sNew, true, vb, false);
            if (keepState) {
                u[b] = ub;
            }
            return part(b, vb, ub);
        });
        return reduce(parts, q);
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
                    sl += Math.log(fi);
                    sp += 2 * (c[i] + tt * e[i]) / fi;
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
        List<Part> parts = parallel(b -> {
            Matrix ub = u[b];
            double[] ud = ub.data();
            double[] dd = dv[b].data();
            for (int k = 0; k < ud.length; k++) {
                ud[k] += tt * dd[k];
            }
            return part(b, features(b), ub);
        });
        this.d = null;
        return reduce(parts, q);
    }

    @Override
    public Matrix weightedGram() {
        if (s == null) {
            throw new IllegalStateException("density rows: weighted Gram matrix before a current point");
        }
        List<Matrix> parts = parallel(b -> {
            Matrix vb = features(b);
            int w = vb.cols();
            Matrix a = Matrix.zeros(r, w);
            double[] ad = a.data();
            double[] vd = vb.data();
            for (int i = 0; i < w; i++) {
                double sc = 1.0 / Math.sqrt(f[start[b] + i]);
                for (int k = 0; k < r; k++) {
                    ad[k + i * r] = vd[k + i * r] * sc;
                }
            }
            return Linalg.syrk(a, false);
        });
        Matrix g = Matrix.zeros(r, r);
        for (Matrix p : parts) {
            double[] gd = g.data();
            double[] pd = p.data();
            for (int k = 0; k < gd.length; k++) {
                gd[k] += pd[k];
            }
        }
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
        if (vGiven != null) {
            return of(vGiven.selectCols(idx));
        }
        return nystrom(kernel, anchors, t, x.selectRows(idx));
    }
}
