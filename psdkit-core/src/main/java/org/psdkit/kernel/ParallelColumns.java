package org.psdkit.kernel;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.psdkit.linalg.Threads;

/**
 * Runs an elementwise loop over the columns of a matrix on a small fixed pool of daemon threads (threads used:
 * {@link #setThreads(int)} or the system property {@code psdkit.kernel.threads} if given, otherwise the library's
 * setting {@link Threads#get()}, all cores by default). The calling thread
 * takes part, and columns are handed out in blocks from a shared counter so that triangular work (a Gram matrix's
 * lower triangle) balances itself.
 */
public final class ParallelColumns {

    /**
     * Below this many elementwise operations a loop runs on the calling thread: handing a block to another
     * thread costs some microseconds, which is the time of roughly 1e5 exponentials (docs/benchmarks/linalg.md), so
     * smaller loops gain nothing.
     */
    public static final long SEQUENTIAL_BELOW = 1L << 17;

    /** Blocks per thread: enough for the shared counter to even out triangular work without much overhead. */
    private static final int BLOCKS_PER_THREAD = 8;

    /** Pool size: the number of available processors (threads beyond the cores would only compete). */
    private static final int MAX_THREADS = Math.max(1, Runtime.getRuntime().availableProcessors());

    /** Own override (0: follow {@link Threads#get()}). */
    private static volatile int threads = Math.max(0, Math.min(MAX_THREADS,
            Integer.getInteger("psdkit.kernel.threads", 0)));

    private static final ExecutorService POOL = MAX_THREADS <= 1 ? null
            : Executors.newFixedThreadPool(MAX_THREADS - 1, r -> {
                Thread t = new Thread(r, "psdkit-kernel");
                t.setDaemon(true);
                return t;
            });

    /**
     * Set while a thread runs a block of a parallel loop. A loop started from inside a block runs on its own
     * thread: handing it to the pool could deadlock, since a pool thread would wait for work queued behind itself.
     */
    private static final ThreadLocal<Boolean> IN_BLOCK = ThreadLocal.withInitial(() -> Boolean.FALSE);

    /** Body of a loop over the columns {@code from <= j < to}. */
    @FunctionalInterface
    public interface ColumnRange {
        void run(int from, int to);
    }

    private ParallelColumns() {
    }

    /** Number of threads (including the caller) that loops may use. */
    public static int threads() {
        int t = threads;
        return t > 0 ? t : Math.max(1, Math.min(MAX_THREADS, Threads.get()));
    }

    /**
     * Sets the number of threads (including the caller) for kernel-matrix loops, 1 to the number of available
     * processors (larger values are capped). Default: system property {@code psdkit.kernel.threads}, otherwise
     * {@link Threads#get()}.
     */
    public static void setThreads(int n) {
        if (n < 1) {
            throw new IllegalArgumentException("kernel threads must be >= 1, got " + n);
        }
        threads = Math.min(n, MAX_THREADS);
    }

    /** For tests: sets the own override (0: follow {@link Threads#get()}), capped, and returns the previous one. */
    static int swapOverride(int n) {
        int old = threads;
        threads = Math.max(0, Math.min(n, MAX_THREADS));
        return old;
    }

    /**
     * Whether {@link #forColumns} called now from this thread with these arguments would hand blocks to other
     * threads.
     */
    static boolean parallel(int cols, long work) {
        return POOL != null && threads() > 1 && work >= SEQUENTIAL_BELOW && cols > 1 && !IN_BLOCK.get();
    }

    /**
     * Runs {@code body} over the columns {@code 0 <= j < cols} in blocks. {@code work} is the total number of
     * elementwise operations (used to decide whether threading pays). Blocks must write disjoint memory. A call
     * from inside a block (a nested loop) runs on the calling thread.
     */
    public static void forColumns(int cols, long work, ColumnRange body) {
        if (cols <= 0) {
            return;
        }
        int use = threads();
        if (!parallel(cols, work)) {
            body.run(0, cols);
            return;
        }
        int blocks = Math.min(cols, use * BLOCKS_PER_THREAD);
        int size = (cols + blocks - 1) / blocks;
        int count = (cols + size - 1) / size;
        AtomicInteger next = new AtomicInteger();
        Runnable worker = () -> {
            IN_BLOCK.set(Boolean.TRUE);
            try {
                for (int b = next.getAndIncrement(); b < count; b = next.getAndIncrement()) {
                    body.run(b * size, Math.min(cols, (b + 1) * size));
                }
            } catch (Throwable t) {
                next.set(count); // the others stop after their current block
                throw t;
            } finally {
                IN_BLOCK.set(Boolean.FALSE);
            }
        };
        List<Future<?>> futures = new ArrayList<>(use - 1);
        for (int t = 0; t < use - 1; t++) {
            futures.add(POOL.submit(worker));
        }
        Throwable failure = null;
        try {
            worker.run();
        } catch (Throwable t) {
            failure = t;
        }
        // wait for every worker before returning or throwing: the caller may free (native) buffers the blocks use
        boolean interrupted = false;
        for (Future<?> f : futures) {
            while (true) {
                try {
                    f.get();
                    break;
                } catch (InterruptedException e) {
                    interrupted = true;
                    next.set(count);
                } catch (java.util.concurrent.ExecutionException e) {
                    if (failure == null) {
                        failure = e.getCause();
                    }
                    break;
                }
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
            if (failure == null) {
                failure = new IllegalStateException("interrupted while computing a kernel matrix");
            }
        }
        if (failure instanceof RuntimeException re) {
            throw re;
        }
        if (failure instanceof Error err) {
            throw err;
        }
        if (failure != null) {
            throw new IllegalStateException(failure);
        }
    }

    /** Tile edge for {@link #mirrorLower}: 64×64 doubles = 32 KiB, about one L1 data cache. */
    private static final int MIRROR_TILE = 64;

    /** Copies the strict lower triangle of a square column-major n×n array into the upper one, tile by tile. */
    static void mirrorLower(double[] a, int n) {
        for (int jb = 0; jb < n; jb += MIRROR_TILE) {
            int jEnd = Math.min(n, jb + MIRROR_TILE);
            for (int ib = jb; ib < n; ib += MIRROR_TILE) {
                int iEnd = Math.min(n, ib + MIRROR_TILE);
                for (int i = ib; i < iEnd; i++) {
                    for (int j = jb; j < Math.min(jEnd, i); j++) {
                        a[j + i * n] = a[i + j * n];
                    }
                }
            }
        }
    }
}
