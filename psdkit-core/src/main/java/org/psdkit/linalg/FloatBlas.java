package org.psdkit.linalg;

import org.bytedeco.javacpp.DoublePointer;
import org.bytedeco.javacpp.FloatPointer;
import org.bytedeco.openblas.global.openblas;

/**
 * Single-precision BLAS on row-major Java {@code float[]} arrays, for the data-sized passes of Nyström solvers
 * (the rest of the library stays in double through {@link Linalg}). Each thread reuses its own native buffers
 * (as {@link NativeScratch} does for doubles: fresh native memory per call costs more than the product), and every
 * call runs inside {@link NativeCalls#enter()}.
 */
public final class FloatBlas {
    private static final int ROW_MAJOR = 101;
    private static final int NO_TRANS = 111;
    private static final int TRANS = 112;
    private static final int LOWER = 122;

    private static final ThreadLocal<FloatPointer[]> LOCAL = ThreadLocal.withInitial(() -> new FloatPointer[3]);

    static {
        Threads.get(); // applies the thread setting before the first BLAS call
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
            openblas.cblas_sgemm(ROW_MAJOR, NO_TRANS, TRANS, rows, cols, k, alpha, pa, Math.max(1, k), pb,
                    Math.max(1, k), 0f, pc, Math.max(1, cols));
        }
        pc.position(0).get(c, 0, rows * cols);
    }

    /**
     * Accumulates G = Σ AᵀA over row blocks A (rows × m, row-major, single precision) in double precision: each
     * block is widened to double (exactly) and added by {@code cblas_dsyrk} into a native m×m buffer, so G is the
     * Gram matrix of the single-precision numbers themselves to double rounding (a product of two floats is exact
     * in double). Owns native memory (8m² bytes plus one block): {@link #close()} frees it.
     */
    public static final class GramAccumulator implements AutoCloseable {
        private final int m;
        private final DoublePointer c;
        private DoublePointer a;
        private double[] widened = new double[0];

        public GramAccumulator(int m) {
            if (m < 1) {
                throw new IllegalArgumentException("gram: m must be >= 1, got " + m);
            }
            this.m = m;
            this.c = new DoublePointer((long) m * m);
            c.fill(0);
        }

        /** G += AᵀA for the first {@code rows} rows of {@code block}. */
        public void add(int rows, float[] block) {
            if ((long) rows * m > block.length) {
                throw new IllegalArgumentException("gram: block shorter than " + rows + "x" + m);
            }
            if (rows == 0) {
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
                openblas.cblas_dsyrk(ROW_MAJOR, LOWER, TRANS, m, rows, 1.0, a, m, 1.0, c, m);
            }
        }

        /** Adds G's lower triangle (row-major: G[i·m + j], j ≤ i) into {@code g}. */
        public void addLowerInto(double[] g) {
            double[] row = new double[m];
            for (int i = 0; i < m; i++) {
                c.position((long) i * m).get(row, 0, i + 1);
                int off = i * m;
                for (int j = 0; j <= i; j++) {
                    g[off + j] += row[j];
                }
            }
            c.position(0);
        }

        @Override
        public void close() {
            c.deallocate();
            if (a != null) {
                a.deallocate();
            }
        }
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
