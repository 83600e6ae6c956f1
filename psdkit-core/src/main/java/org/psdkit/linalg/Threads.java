package org.psdkit.linalg;

/**
 * The one library setting for the number of threads: OpenBLAS's thread count and the threads that compute kernel
 * matrices ({@code org.psdkit.kernel.ParallelColumns}). Default: all available processors, or the system property
 * {@code psdkit.threads}.
 *
 * <p>Why all cores by default: on an idle machine a second core can nearly halve a Cholesky factorisation. The price
 * is paid on a machine whose other cores are busy: docs/design.md measured LAPACK dsyevd at n = 1000 going from
 * 0.14 s to 1.7 s with two BLAS threads while another process held a core, and kernel ridge regression at n = 10,000
 * from 15.5 s to 40.8 s (docs/benchmarks/krr.md), because OpenBLAS's threads wait for each other at every panel. On a
 * shared machine set 1 thread
 * ({@code --threads 1} on the command line, {@code -Dpsdkit.threads=1} or {@link #set(int)}). Results agree up to
 * rounding whatever the count: the blocked BLAS/LAPACK kernels change only the summation order.
 */
public final class Threads {
    private static volatile int threads;

    static {
        int def = Math.max(1, Runtime.getRuntime().availableProcessors());
        String p = System.getProperty("psdkit.threads");
        int n = def;
        if (p != null && !p.isBlank()) {
            try {
                n = Integer.parseInt(p.trim());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("system property psdkit.threads: '" + p + "' is not an integer");
            }
        }
        apply(n);
    }

    private Threads() {
    }

    /** Number of available processors (the default thread count). */
    public static int available() {
        return Math.max(1, Runtime.getRuntime().availableProcessors());
    }

    /** Sets the number of threads for BLAS/LAPACK and kernel matrices, n &gt;= 1. */
    public static synchronized void set(int n) {
        apply(n);
    }

    private static void apply(int n) {
        if (n < 1) {
            throw new IllegalArgumentException("threads must be >= 1, got " + n);
        }
        try (NativeCalls.Call nc = NativeCalls.enter()) {
            org.bytedeco.openblas.global.openblas.blas_set_num_threads(n);
        }
        threads = n;
    }

    /** The current thread count. */
    public static int get() {
        return threads;
    }
}
