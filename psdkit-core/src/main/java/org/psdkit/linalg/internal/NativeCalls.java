package org.psdkit.linalg.internal;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * Keeps the JVM's exit from pulling native memory out from under a running BLAS/LAPACK call.
 *
 * <p>When the JVM exits (SIGTERM, SIGINT, {@code System.exit}) it runs the shutdown hooks and then the C library's
 * {@code exit()}, whose destructors include OpenBLAS's {@code gotoblas_quit}: it unmaps OpenBLAS's internal buffers.
 * Threads inside native code are not stopped by the JVM, so a thread still in {@code dgemm_kernel} then touched
 * unmapped memory and the process died with SIGSEGV and an {@code hs_err_pid*.log} (issue 17). Every native call of
 * psdkit therefore runs inside {@link #enter()} … {@code close()}, and a shutdown hook first stops new calls (a thread
 * that tries one parks until the process ends: the computation stops) and then waits until the calls in flight have
 * returned; only then may the JVM go on to {@code exit()}. Nothing native is freed in the hook.
 */
public final class NativeCalls {

    /**
     * How long the shutdown hook waits for native calls in flight: longer than any single call psdkit makes on a
     * problem that fits in memory (an n = 20,000 eigen-decomposition, the largest, takes minutes single-threaded), and
     * short enough that an exit never hangs for good. Schedulers that send SIGKILL after a grace period end it sooner.
     */
    static final long DRAIN_TIMEOUT_SECONDS = 600;

    /** Polling interval of the shutdown hook while it waits (well below a typical BLAS call). */
    private static final long DRAIN_POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

    private static final AtomicInteger IN_FLIGHT = new AtomicInteger();
    private static volatile boolean closing;

    /** Ends one native call (returned by {@link #enter()}; allocation-free). */
    public static final class Call implements AutoCloseable {
        @Override
        public void close() {
            IN_FLIGHT.decrementAndGet();
        }
    }

    private static final Call CALL = new Call();

    static {
        try {
            Runtime.getRuntime().addShutdownHook(new Thread(NativeCalls::drain, "psdkit-native-drain"));
        } catch (IllegalStateException e) {
            closing = true; // the JVM is already shutting down: no new native calls
        }
    }

    private NativeCalls() {
    }

    /**
     * Starts a native call: {@code try (NativeCalls.Call c = NativeCalls.enter()) { openblas.… }}. During shutdown it
     * never returns (the thread parks until the process ends).
     */
    public static Call enter() {
        if (closing) {
            parkForever();
        }
        IN_FLIGHT.incrementAndGet();
        // the hook sets closing, then reads IN_FLIGHT; we increment, then read closing: one of us sees the other
        if (closing) {
            IN_FLIGHT.decrementAndGet();
            parkForever();
        }
        return CALL;
    }

    /** Native calls running now (for tests). */
    static int inFlight() {
        return IN_FLIGHT.get();
    }

    private static void drain() {
        closing = true;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(DRAIN_TIMEOUT_SECONDS);
        while (IN_FLIGHT.get() > 0 && System.nanoTime() < deadline) {
            LockSupport.parkNanos(DRAIN_POLL_NANOS);
        }
    }

    private static void parkForever() {
        while (true) {
            LockSupport.park(NativeCalls.class);
        }
    }
}
