package org.psdkit.linalg;

import org.bytedeco.javacpp.DoublePointer;
import org.bytedeco.openblas.global.openblas;
import org.bytedeco.openblas.global.openblas_nolapack;

/**
 * One n×n symmetric matrix in native memory (column-major, only the lower triangle is significant), filled once and
 * factored in place by LAPACK dpotrf: the single n×n buffer of exact kernel ridge regression.
 *
 * <p>Why native: JavaCPP copies every {@code double[]} argument into fresh native memory and back on each call (see
 * {@code NativeScratch}), so a Gram matrix held in a Java array costs a second n×n buffer and two copies per LAPACK
 * call. Here the Gram matrix is written straight into the buffer LAPACK factors: at n = 20,000 that is 3.2 GB of
 * native memory in total and none on the Java heap. JavaCPP counts the buffer against its limit
 * {@code org.bytedeco.javacpp.maxBytes} (default: the maximum heap size, {@code -Xmx}).
 *
 * <p>Columns are read and written in ranges ({@link #read}, {@link #write}); calls on disjoint ranges may run on
 * different threads. Not otherwise thread-safe. Close it to free the memory.
 */
public final class SpdBuffer implements AutoCloseable {
    private static final int COL_MAJOR = 102;
    private static final int NO_TRANS = 111;
    private static final int LOWER = 122;

    static {
        Threads.loadBlas(); // loads OpenBLAS with the thread setting before the first BLAS call
    }

    private final int n;
    private DoublePointer data;
    private boolean factored;

    private SpdBuffer(int n, DoublePointer data) {
        this.n = n;
        this.data = data;
    }

    /**
     * Allocates an n×n buffer (contents undefined). Throws {@link IllegalArgumentException} naming the size when the
     * memory limit does not allow it.
     */
    public static SpdBuffer allocate(int n) {
        if (n < 0) {
            throw new IllegalArgumentException("n must be >= 0, got " + n);
        }
        long len = Math.max(1L, (long) n * n);
        try {
            return new SpdBuffer(n, new DoublePointer(len));
        } catch (OutOfMemoryError e) {
            double bytes = len * 8.0;
            String size = bytes >= 1e9 ? String.format(java.util.Locale.ROOT, "%.1f GB", bytes * 1e-9)
                    : String.format(java.util.Locale.ROOT, "%.0f MB", bytes * 1e-6);
            throw new IllegalArgumentException(String.format(java.util.Locale.ROOT,
                    "the %d x %d matrix needs %s of native memory, more than the limit allows (%s); use fewer "
                            + "points or raise the heap limit -Xmx (PSDKIT_JAVA_OPTS for bin/psdkit)", n, n, size,
                    e.getMessage()));
        }
    }

    /** A buffer holding the lower triangle of the symmetric matrix {@code a}. */
    public static SpdBuffer copyOf(Matrix a) {
        a.requireSquare();
        SpdBuffer b = allocate(a.rows());
        b.setLower(a);
        return b;
    }

    public int size() {
        return n;
    }

    private DoublePointer live() {
        if (data == null) {
            throw new IllegalStateException("SpdBuffer is closed");
        }
        return data;
    }

    /** Copies the lower triangle of {@code a} (n×n) into the buffer. */
    public void setLower(Matrix a) {
        if (a.rows() != n || a.cols() != n) {
            throw new IllegalArgumentException("expected an " + n + "x" + n + " matrix, got " + a.rows() + "x"
                    + a.cols());
        }
        DoublePointer p = live();
        double[] src = a.data();
        for (int j = 0; j < n; j++) {
            long off = (long) j * n + j;
            new DoublePointer(p).position(off).put(src, j * n + j, n - j);
        }
        factored = false;
    }

    /** Lower triangle ← X Xᵀ for X with one point per row (n×d), by BLAS dsyrk. */
    public void syrkLower(Matrix x) {
        if (x.rows() != n) {
            throw new IllegalArgumentException("expected " + n + " rows, got " + x.rows());
        }
        int d = x.cols();
        DoublePointer p = live();
        if (n == 0) {
            return;
        }
        if (d == 0) {
            for (int j = 0; j < n; j++) {
                new DoublePointer(p).position((long) j * n + j).put(new double[n - j], 0, n - j);
            }
        } else {
            try (DoublePointer px = new DoublePointer((long) n * d)) {
                px.put(x.data(), 0, n * d);
                openblas_nolapack.cblas_dsyrk(COL_MAJOR, LOWER, NO_TRANS, n, d, 1.0, px, n, 0.0, p, n);
            }
        }
        factored = false;
    }

    /**
     * Copies rows i0 ≤ i &lt; n of columns j0 ≤ j &lt; j1 into {@code dst}, column-major with leading dimension
     * n − i0.
     */
    public void read(int i0, int j0, int j1, double[] dst) {
        checkRange(i0, j0, j1, dst);
        DoublePointer p = live();
        int rows = n - i0;
        for (int j = j0; j < j1; j++) {
            new DoublePointer(p).position((long) j * n + i0).get(dst, (j - j0) * rows, rows);
        }
    }

    /** The inverse of {@link #read}: rows i0.. of columns j0..j1 from {@code src}. */
    public void write(int i0, int j0, int j1, double[] src) {
        checkRange(i0, j0, j1, src);
        DoublePointer p = live();
        int rows = n - i0;
        for (int j = j0; j < j1; j++) {
            new DoublePointer(p).position((long) j * n + i0).put(src, (j - j0) * rows, rows);
        }
        factored = false;
    }

    private void checkRange(int i0, int j0, int j1, double[] a) {
        if (i0 < 0 || i0 > n || j0 < 0 || j1 < j0 || j1 > n || (long) (n - i0) * (j1 - j0) > a.length) {
            throw new IllegalArgumentException("rows " + i0 + ".. columns " + j0 + ".." + j1 + " of an " + n + "x"
                    + n + " buffer with an array of length " + a.length);
        }
    }

    /** The diagonal. */
    public double[] diagonal() {
        DoublePointer p = live();
        double[] d = new double[n];
        for (int i = 0; i < n; i++) {
            d[i] = p.get((long) i * n + i);
        }
        return d;
    }

    /**
     * Lower triangle ← D A D with D = diag(s): entry (i, j) times s_i·s_j (the √w-scaling of a weighted kernel
     * system, as in scikit-learn's {@code _solve_cholesky_kernel} with {@code sample_weight}).
     */
    public void scaleSymmetric(double[] s) {
        if (s.length != n) {
            throw new IllegalArgumentException(s.length + " scale factors for an " + n + "x" + n + " buffer");
        }
        DoublePointer p = live();
        double[] col = new double[n];
        for (int j = 0; j < n; j++) {
            int len = n - j;
            DoublePointer c = new DoublePointer(p).position((long) j * n + j);
            c.get(col, 0, len);
            double sj = s[j];
            for (int k = 0; k < len; k++) {
                col[k] *= s[j + k] * sj;
            }
            c.put(col, 0, len);
        }
        factored = false;
    }

    /** Adds {@code s} to every diagonal entry. */
    public void addToDiagonal(double s) {
        DoublePointer p = live();
        for (int i = 0; i < n; i++) {
            long k = (long) i * n + i;
            p.put(k, p.get(k) + s);
        }
    }

    /**
     * LAPACK dpotrf (lower) in place: afterwards the buffer holds L with A = L Lᵀ. Returns LAPACK's info: 0 on
     * success, k &gt; 0 when the leading minor of order k is not positive (the buffer is then partly overwritten).
     */
    public int factorInPlace() {
        DoublePointer p = live();
        if (n == 0) {
            factored = true;
            return 0;
        }
        int info = openblas.LAPACKE_dpotrf(COL_MAJOR, (byte) 'L', n, p, n);
        if (info < 0) {
            throw new LinalgException("dpotrf: illegal argument " + (-info));
        }
        factored = info == 0;
        return info;
    }

    /** Solves L Lᵀ x = b with the factor of {@link #factorInPlace()} (LAPACK dpotrs); b is not modified. */
    public double[] solve(double[] b) {
        if (!factored) {
            throw new IllegalStateException("solve needs a successful factorInPlace first");
        }
        if (b.length != n) {
            throw new IllegalArgumentException("right-hand side of length " + b.length + " for an " + n + "x" + n
                    + " system");
        }
        double[] x = b.clone();
        if (n == 0) {
            return x;
        }
        try (DoublePointer pb = new DoublePointer(x)) {
            int info = openblas.LAPACKE_dpotrs(COL_MAJOR, (byte) 'L', n, 1, live(), n, pb, n);
            if (info != 0) {
                throw new LinalgException("dpotrs: illegal argument " + (-info));
            }
            pb.get(x);
        }
        return x;
    }

    @Override
    public void close() {
        if (data != null) {
            data.deallocate();
            data = null;
        }
    }
}
