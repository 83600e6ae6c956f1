package org.psdkit.linalg.internal;

import org.bytedeco.javacpp.DoublePointer;
import org.bytedeco.javacpp.FloatPointer;
import org.bytedeco.openblas.global.openblas;
import org.bytedeco.openblas.global.openblas_nolapack;
import org.psdkit.linalg.Threads;

/**
 * Single-precision BLAS on row-major Java {@code float[]} arrays, for the data-sized passes of Nyström solvers (the
 * rest of the library stays in double through {@link org.psdkit.linalg.Linalg}). Each thread reuses its own native
 * buffers (as {@code linalg.NativeScratch} does for doubles: fresh native memory per call costs more than the product),
 * and every call runs inside {@link NativeCalls#enter()}.
 */
public final class FloatBlas {
    private static final int ROW_MAJOR = 101;
    private static final int NO_TRANS = 111;
    private static final int TRANS = 112;
    private static final int LOWER = 122;

    private static final ThreadLocal<FloatPointer[]> LOCAL = ThreadLocal.withInitial(() -> new FloatPointer[3]);

    static {
        Threads.loadBlas(); // loads OpenBLAS with the thread setting before the first BLAS call
    }

    private FloatBlas() {
    }

    private static FloatPointer buffer(int slot, long size) {
        FloatPointer[] s = LOCAL.get();
        FloatPointer p = s[slot];
        if (p == null || p.capacity() < size) {
            if (p != null) {
                p.deallocate();
            }
            p = new FloatPointer(Math.max(1L, size));
            s[slot] = p;
        }
        return p.position(0);
    }

    /**
     * C = alpha · A Bᵀ with A (rows × k), B (cols × k) and C (rows × cols) row-major ({@code cblas_sgemm}).
     */
    public static void gemmNT(int rows, int cols, int k, float alpha, float[] a, float[] b, float[] c) {
        if ((long) rows * k > a.length || (long) cols * k > b.length || (long) rows * cols > c.length) {
            throw new IllegalArgumentException("sgemm: arrays too short for " + rows + "x" + k + " times ("
                    + cols + "x" + k + ")ᵀ");
        }
        if (rows == 0 || cols == 0) {
            return;
        }
        FloatPointer pa = buffer(0, (long) rows * k).put(a, 0, rows * k);
        FloatPointer pb = buffer(1, (long) cols * k).put(b, 0, cols * k);
        FloatPointer pc = buffer(2, (long) rows * cols);
        pa.position(0);
        pb.position(0);
        try (NativeCalls.Call nc = NativeCalls.enter()) {
            openblas_nolapack.cblas_sgemm(ROW_MAJOR, NO_TRANS, TRANS, rows, cols, k, alpha, pa, Math.max(1, k), pb,
                    Math.max(1, k), 0f, pc, Math.max(1, cols));
        }
        pc.position(0).get(c, 0, rows * cols);
    }

    /**
     * Accumulates G = Σ AᵀA over row blocks A (rows × m, row-major, single precision) into a double-precision m×m
     * sum, in one of two precisions:
     * <ul>
     * <li>{@link #GramAccumulator(int) double}: each block is widened to double (exactly) and added by
     * {@code cblas_dsyrk} into a native m×m buffer, so G is the Gram matrix of the single-precision numbers themselves
     * to double rounding (a product of two floats is exact in double);</li>
     * <li>{@link #single(int, int) single}: the rows are gathered into chunks of at most {@code chunkRows} rows, each
     * chunk's AᵀA is one {@code cblas_ssyrk} (single-precision sums, twice the double rate and half the memory
     * traffic), and the chunks' results are added in double. A float sum of R products has relative error at most
     * γ_R = R·u/(1 − R·u), u = 2⁻²⁴ (Higham 2002, eq. 3.4 and Lemma 3.1), so when the entries of A are nonnegative
     * (a Gaussian kernel) |G̃ − G| ≤ γ_R·G entrywise, whatever the number of chunks; typical errors are ≈ √R·u
     * relative.</li>
     * </ul>
     * Owns native memory ({@link #close()} frees it). The first {@code add} of a thread decides nothing: one
     * accumulator is used by one thread at a time. Public for engines that sum per partition (psdkit-spark):
     * {@link #add(int, float[], double[], int, double[])} also accumulates K_bᵀy_b for the right-hand side.
     */
    public static final class GramAccumulator implements AutoCloseable {
        private final int m;
        private final boolean single;
        private final int chunkRows;
        private DoublePointer c; // double: native m×m sum
        private double[] widened = new double[0];
        private DoublePointer a; // double: the widened block
        private FloatPointer fa; // single: the pending chunk, chunkRows × m
        private FloatPointer fc; // single: one chunk's AᵀA
        private double[] sum; // single: row-major lower triangle of the double sum
        private int pending; // single: rows gathered in fa
        private float[] row = new float[0];

        /** A double-precision accumulator (dsyrk of each block widened to double). */
        public GramAccumulator(int m) {
            this(m, false, 0);
        }

        private GramAccumulator(int m, boolean single, int chunkRows) {
            if (m < 1) {
                throw new IllegalArgumentException("gram: m must be >= 1, got " + m);
            }
            if (single && chunkRows < 1) {
                throw new IllegalArgumentException("gram: chunkRows must be >= 1, got " + chunkRows);
            }
            this.m = m;
            this.single = single;
            this.chunkRows = chunkRows;
            if (single) {
                this.sum = new double[m * m];
            } else {
                this.c = new DoublePointer((long) m * m);
                c.fill(0);
            }
        }

        /**
         * A single-precision accumulator: ssyrk per chunk of at most {@code chunkRows} rows, chunks summed in double
         * (relative error of an entry at most γ_chunkRows for nonnegative A, see the class comment).
         */
        public static GramAccumulator single(int m, int chunkRows) {
            return new GramAccumulator(m, true, chunkRows);
        }

        /** Whether the chunks' sums are single precision ({@link #single}). */
        public boolean isSingle() {
            return single;
        }

        /** G += AᵀA for the first {@code rows} rows of {@code block}. */
        public void add(int rows, float[] block) {
            if ((long) rows * m > block.length) {
                throw new IllegalArgumentException("gram: block shorter than " + rows + "x" + m);
            }
            if (rows == 0) {
                return;
            }
            if (single) {
                addSingle(rows, block);
                return;
            }
            int len = rows * m;
            if (widened.length < len) {
                widened = new double[len];
                if (a != null) {
                    a.deallocate();
                }
                a = new DoublePointer(len);
            }
            for (int i = 0; i < len; i++) {
                widened[i] = block[i];
            }
            a.position(0).put(widened, 0, len);
            a.position(0);
            try (NativeCalls.Call nc = NativeCalls.enter()) {
                openblas_nolapack.cblas_dsyrk(ROW_MAJOR, LOWER, TRANS, m, rows, 1.0, a, m, 1.0, c, m);
            }
        }

        /**
         * G += AᵀA and rhs += Aᵀ v[from, from + rows) (in double) for the first {@code rows} rows of {@code block}:
         * one block's (K_bᵀK_b, K_bᵀy_b).
         */
        public void add(int rows, float[] block, double[] v, int from, double[] rhs) {
            if (rhs.length != m || from < 0 || (long) from + rows > v.length) {
                throw new IllegalArgumentException("gram: rhs must have " + m + " entries and v " + (from + rows));
            }
            add(rows, block);
            addTransposeTimes(rows, m, block, v, from, rhs);
        }

        private void addSingle(int rows, float[] block) {
            if (fa == null) {
                fa = new FloatPointer((long) chunkRows * m);
                fc = new FloatPointer((long) m * m);
            }
            int done = 0;
            while (done < rows) {
                int take = Math.min(rows - done, chunkRows - pending);
                fa.position((long) pending * m).put(block, done * m, take * m);
                pending += take;
                done += take;
                if (pending == chunkRows) {
                    flush();
                }
            }
            fa.position(0);
        }

        /** Runs the pending chunk's ssyrk and adds its lower triangle into the double sum. */
        private void flush() {
            if (pending == 0) {
                return;
            }
            fa.position(0);
            fc.position(0);
            try (NativeCalls.Call nc = NativeCalls.enter()) {
                openblas_nolapack.cblas_ssyrk(ROW_MAJOR, LOWER, TRANS, m, pending, 1f, fa, m, 0f, fc, m);
            }
            pending = 0;
            if (row.length < m) {
                row = new float[m];
            }
            for (int i = 0; i < m; i++) {
                fc.position((long) i * m).get(row, 0, i + 1);
                int off = i * m;
                for (int j = 0; j <= i; j++) {
                    sum[off + j] += row[j];
                }
            }
            fc.position(0);
        }

        /** Adds G's lower triangle (row-major: G[i·m + j], j ≤ i) into {@code g}. */
        public void addLowerInto(double[] g) {
            if (g.length < m * m) {
                throw new IllegalArgumentException("gram: target shorter than " + m + "x" + m);
            }
            if (single) {
                flush();
                for (int i = 0; i < m; i++) {
                    int off = i * m;
                    for (int j = 0; j <= i; j++) {
                        g[off + j] += sum[off + j];
                    }
                }
                return;
            }
            double[] r = new double[m];
            for (int i = 0; i < m; i++) {
                c.position((long) i * m).get(r, 0, i + 1);
                int off = i * m;
                for (int j = 0; j <= i; j++) {
                    g[off + j] += r[j];
                }
            }
            c.position(0);
        }

        @Override
        public void close() {
            if (c != null) {
                c.deallocate();
            }
            if (a != null) {
                a.deallocate();
            }
            if (fa != null) {
                fa.deallocate();
                fc.deallocate();
            }
        }
    }

    /**
     * out += Aᵀ v[from, from + rows) for A (rows × m, row-major, single precision), summed in double: the
     * right-hand side K_bᵀy_b of one row block.
     */
    public static void addTransposeTimes(int rows, int m, float[] a, double[] v, int from, double[] out) {
        if ((long) rows * m > a.length || out.length < m || from < 0 || (long) from + rows > v.length) {
            throw new IllegalArgumentException("transpose-times: arrays too short for " + rows + "x" + m);
        }
        for (int i = 0; i < rows; i++) {
            double t = v[from + i];
            if (t != 0) {
                int off = i * m;
                for (int j = 0; j < m; j++) {
                    out[j] += a[off + j] * t;
                }
            }
        }
    }

    /**
     * Runs {@code body} with OpenBLAS set to one thread, restoring the library's thread count ({@link Threads#get()})
     * when the last such section ends ({@link Threads#blasCapped}, the one mechanism for a scoped cap). For data-sized passes whose Java workers, one per core, each call BLAS on
     * their own block: with OpenBLAS's threads as well, two callers on two cores kept four threads waiting on each
     * other at OpenBLAS's barriers, which halved the multiply-adds per CPU-second of dsyrk
     * (docs/benchmarks/krr-scale.md). The setting is process-wide: another BLAS call running
     * meanwhile runs single-threaded too (its result agrees up to rounding, see {@link Threads}).
     */
    public static <T> T singleThreaded(java.util.function.Supplier<T> body) {
        return Threads.blasCapped(1, body);
    }

    /** Frees the calling thread's native buffers. */
    public static void releaseBuffers() {
        FloatPointer[] s = LOCAL.get();
        for (int i = 0; i < s.length; i++) {
            if (s[i] != null) {
                s[i].deallocate();
                s[i] = null;
            }
        }
    }
}
