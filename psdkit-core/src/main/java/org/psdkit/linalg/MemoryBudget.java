package org.psdkit.linalg;

import java.util.Locale;

/**
 * The one place that checks, before a large allocation, whether the Java heap can hold what a problem needs.
 *
 * <p>Readers (CSV, LIBSVM, SDPA), the Gram matrices of the kernel methods, the SDP solver's blocks and Schur complement
 * and {@link Matrix#zeros} call {@link #check} with an estimate in bytes; an estimate above the JVM's maximum heap
 * ({@link Runtime#maxMemory()}) or an array longer than a Java array can be fails at once with an
 * {@link InsufficientMemoryException} (an {@link IllegalArgumentException}: the input asked for it) instead of an
 * {@link OutOfMemoryError} after minutes of work. The estimates are lower bounds on what the computation will
 * allocate, so the check never refuses a problem that would have fitted; what passes may still run out of memory
 * later, and the CLI reports that as one line too.
 *
 * <p>Lives in {@code linalg}, the lowest layer, so that {@code data}, {@code kernel} and {@code optim} can all use it.
 */
public final class MemoryBudget {

    /** Bytes of one {@code double}. */
    public static final long DOUBLE_BYTES = Double.BYTES;

    /**
     * The longest Java array HotSpot allocates: {@code Integer.MAX_VALUE - 8}, the limit the JDK's own
     * {@code jdk.internal.util.ArraysSupport.SOFT_MAX_ARRAY_LENGTH} uses (longer requests fail with "Requested array size
     * exceeds VM limit").
     */
    public static final long MAX_ARRAY_LENGTH = Integer.MAX_VALUE - 8;

    /**
     * Allocations below this many bytes are not checked: 64 MiB is under 1/16 of the smallest heap psdkit's tests and
     * launcher use (1 GiB and more), so a check could never fail there and is skipped on hot paths.
     */
    static final long UNCHECKED_BYTES = 64L << 20;

    private static final double GIB = 1024.0 * 1024.0 * 1024.0;

    private MemoryBudget() {
    }

    private static final ThreadLocal<long[]> GUARD = new ThreadLocal<>();
    private static volatile int activeGuards;

    /**
     * While open, every {@link Matrix#zeros} (and other {@link #checkMatrix}) on the calling thread with more than
     * {@code maxEntries} entries fails with an {@link IllegalStateException}: lets a test show that a computation
     * never allocates, say, an n×n matrix (arrays allocated without {@link Matrix#zeros} are not seen). Guards do not
     * nest; close it in a try-with-resources.
     */
    public static Guard guardEntries(long maxEntries) {
        return new Guard(maxEntries);
    }

    /** An open {@link #guardEntries} limit. */
    public static final class Guard implements AutoCloseable {
        private Guard(long maxEntries) {
            GUARD.set(new long[] {maxEntries});
            synchronized (MemoryBudget.class) {
                activeGuards++;
            }
        }

        @Override
        public void close() {
            GUARD.remove();
            synchronized (MemoryBudget.class) {
                activeGuards--;
            }
        }
    }

    /** The input needs more memory than the JVM may use, or an array longer than Java arrays can be. */
    public static final class InsufficientMemoryException extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;
        private final long neededBytes;
        private final long maxBytes;

        InsufficientMemoryException(String message, long neededBytes, long maxBytes) {
            super(message);
            this.neededBytes = neededBytes;
            this.maxBytes = maxBytes;
        }

        /** The estimate that failed, in bytes ({@link Long#MAX_VALUE} if it overflowed). */
        public long neededBytes() {
            return neededBytes;
        }

        /** The JVM's maximum heap when the check failed. */
        public long maxBytes() {
            return maxBytes;
        }

        /** A heap size that would hold the estimate, as an {@code -Xmx} value ({@code null} if none would). */
        public String suggestedXmx() {
            if (neededBytes == Long.MAX_VALUE || neededBytes / GIB > 1e6) {
                return null;
            }
            // the estimate plus a quarter for everything else, rounded up to whole GiB
            long gib = (long) Math.ceil(neededBytes * 1.25 / GIB);
            return "-Xmx" + Math.max(1, gib) + "g";
        }
    }

    /** {@code a * b}, or {@link Long#MAX_VALUE} if that overflows (or either is negative). */
    public static long times(long a, long b) {
        if (a < 0 || b < 0) {
            return Long.MAX_VALUE;
        }
        long hi = Math.multiplyHigh(a, b);
        long lo = a * b;
        return hi != 0 || lo < 0 ? Long.MAX_VALUE : lo;
    }

    /** {@code a + b}, or {@link Long#MAX_VALUE} if that overflows. */
    public static long plus(long a, long b) {
        long s = a + b;
        return a < 0 || b < 0 || s < 0 ? Long.MAX_VALUE : s;
    }

    /** Bytes of a dense {@code rows × cols} matrix of doubles (saturating). */
    public static long matrixBytes(long rows, long cols) {
        return times(times(rows, cols), DOUBLE_BYTES);
    }

    /**
     * Checks that a dense {@code rows × cols} matrix of doubles fits in one Java array and in the heap.
     *
     * @param what names where the matrix comes from, e.g. {@code "file.libsvm (21 rows, largest index 50000000)"},
     *             or {@code null}
     */
    public static void checkMatrix(String what, long rows, long cols) {
        long entries = times(rows, cols);
        if (activeGuards > 0) {
            long[] g = GUARD.get();
            if (g != null && entries > g[0]) {
                throw new IllegalStateException((what == null ? "" : what + ": ") + "a " + rows + " x " + cols
                        + " matrix exceeds the guard's " + g[0] + " entries");
            }
        }
        if (entries <= MAX_ARRAY_LENGTH && matrixBytes(rows, cols) < UNCHECKED_BYTES) {
            return; // the common case (every Matrix.zeros): no message is built
        }
        String matrix = (what == null ? "" : what + ": ") + "a " + rows + " x " + cols + " matrix";
        if (entries > MAX_ARRAY_LENGTH) {
            long bytes = times(entries, DOUBLE_BYTES);
            throw new InsufficientMemoryException(matrix + " has " + (entries == Long.MAX_VALUE ? "too many"
                    : Long.toString(entries)) + " entries, more than a Java array holds (" + MAX_ARRAY_LENGTH + ")"
                    + (bytes == Long.MAX_VALUE ? "" : " and would need ~" + gib(bytes) + " GB"),
                    bytes, Runtime.getRuntime().maxMemory());
        }
        check(matrix, matrixBytes(rows, cols));
    }

    /**
     * Throws {@link InsufficientMemoryException} if {@code bytes} exceed the JVM's maximum heap. The message reads
     * "WHAT needs ~X GB, the JVM has Y GB (raise its -Xmx, e.g. -XmxZg)".
     */
    public static void check(String what, long bytes) {
        if (bytes < UNCHECKED_BYTES) {
            return;
        }
        long max = Runtime.getRuntime().maxMemory();
        if (bytes > max) {
            InsufficientMemoryException probe = new InsufficientMemoryException("", bytes, max);
            String xmx = probe.suggestedXmx();
            throw new InsufficientMemoryException(what + " needs ~" + gib(bytes) + " GB, the JVM has " + gib(max)
                    + " GB" + (xmx == null ? " (no heap size would do)" : " (raise its -Xmx, e.g. " + xmx + ")"),
                    bytes, max);
        }
    }

    /** Bytes as GiB with two significant decimals, e.g. "8.4", "0.31", "2.4e+03". */
    static String gib(long bytes) {
        if (bytes == Long.MAX_VALUE) {
            return "more than 8e+09";
        }
        double g = bytes / GIB;
        if (g >= 1000) {
            return String.format(Locale.ROOT, "%.2g", g).replace("e+0", "e+");
        }
        return g >= 10 ? String.format(Locale.ROOT, "%.0f", g) : String.format(Locale.ROOT, "%.2g", g);
    }
}
