package org.psdkit.linalg;

import org.psdkit.linalg.internal.NativeCalls;

/**
 * The one library setting for the number of threads: OpenBLAS's thread count and the threads that compute kernel
 * matrices ({@code org.psdkit.kernel.ParallelColumns}). Default: all available processors, or the system property
 * {@code psdkit.threads}.
 *
 * <p>Why all cores by default: on an idle machine a second core can nearly halve a Cholesky factorisation. The price
 * is paid on a machine whose other cores are busy: there two BLAS threads make dsyevd and kernel ridge regression
 * several times slower than one (docs/benchmarks/linalg.md, docs/benchmarks/krr.md), because OpenBLAS's threads wait
 * for each other at every panel. On a shared machine set 1 thread ({@code --threads 1} on the command line,
 * {@code -Dpsdkit.threads=1} or {@link #set(int)}). Results agree up to rounding whatever the count: the blocked
 * BLAS/LAPACK kernels change only the summation order.
 *
 * <p>Solvers made of many small BLAS/LAPACK calls cap OpenBLAS at one thread themselves, whatever the setting
 * ({@link #blasCapped}): {@code SdpSolver} and its double-double restart (only the products of blocks of order
 * ≥ 1000 get all threads back, {@link #blasUncapped}), {@code KernelSosSolver} below n = 500, and the density
 * estimator's overlapped sections: on SDPLIB, two BLAS threads for every call of the SDP solver made it slower than
 * one even on an idle machine (docs/benchmarks/sdp.md).
 */
public final class Threads {
    private static volatile int threads;
    // guarded by Threads.class: nesting depth of blasCapped calls (all threads), the cap they keep, and whether a
    // blasUncapped section has lifted it
    private static int capDepth;
    private static int capValue;
    private static boolean lifted;
    // written under Threads.class: whether OpenBLAS has been loaded and given the setting ({@link #loadBlas});
    // volatile for loadBlasInBackground, which reads it without that lock
    private static volatile boolean blasLoaded;
    /** Nesting depth of the calling thread's own blasCapped calls. */
    private static final ThreadLocal<int[]> OWN_DEPTH = ThreadLocal.withInitial(() -> new int[1]);

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
        apply(n); // records the setting; OpenBLAS gets it when a class that calls it is initialised (loadBlas)
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
        threads = n;
        if (capDepth == 0 || lifted) {
            setBlas(n);
        }
    }

    /**
     * Runs {@code body} with OpenBLAS limited to at most {@code cap} threads, then restores the library setting.
     * For solvers whose dense blocks are small (order of a few hundred): there a second BLAS thread gains little on
     * an idle machine and, on a busy one, spins at every barrier of a blocked factorisation (several times the
     * wall time: docs/benchmarks/kernel-sos.md). The cap is process-wide while {@code body} runs (OpenBLAS
     * has one thread setting), so a concurrent caller's BLAS calls run capped too; results agree up to rounding.
     * Nested or concurrent calls keep the first cap until the last of them returns. {@link #get()} is unchanged.
     * Inside, {@link #blasUncapped} gives single large calls all threads again.
     */
    public static <T> T blasCapped(int cap, java.util.function.Supplier<T> body) {
        if (cap < 1) {
            throw new IllegalArgumentException("cap must be >= 1, got " + cap);
        }
        int[] own = OWN_DEPTH.get();
        synchronized (Threads.class) {
            if (capDepth++ == 0) {
                capValue = cap;
                if (threads > cap) {
                    setBlas(cap);
                }
            } else if (lifted) { // another thread's single large call: the new section runs capped from now on
                lifted = false;
                setBlas(Math.min(capValue, threads));
            }
            own[0]++;
        }
        try {
            return body.get();
        } finally {
            synchronized (Threads.class) {
                own[0]--;
                if (--capDepth == 0) {
                    lifted = false;
                    setBlas(threads);
                }
            }
        }
    }

    /**
     * Runs {@code body} with OpenBLAS at the library setting {@link #get()} although the calling thread is inside a
     * {@link #blasCapped} section: for the few large calls (an n³ product of order ~1000 and more) of a solver that
     * otherwise runs capped, where a second thread still pays on an idle machine. The cap is lifted
     * only when the caller's own single section is the only one in force: under a cap of an enclosing caller or of
     * another thread, {@code body} runs capped (a {@link #blasCapped} entered by another thread meanwhile re-applies
     * the cap at once). Outside any cap it simply runs. Results agree up to rounding.
     */
    public static <T> T blasUncapped(java.util.function.Supplier<T> body) {
        boolean lift;
        synchronized (Threads.class) {
            lift = capDepth == 1 && OWN_DEPTH.get()[0] == 1 && !lifted && threads > capValue;
            if (lift) {
                lifted = true;
                setBlas(threads);
            }
        }
        try {
            return body.get();
        } finally {
            if (lift) {
                synchronized (Threads.class) {
                    if (lifted) {
                        lifted = false;
                        setBlas(capDepth > 0 ? Math.min(capValue, threads) : threads);
                    }
                }
            }
        }
    }

    /**
     * Loads OpenBLAS (through JavaCPP) and gives it the thread setting now in force. Every class that calls
     * BLAS/LAPACK calls this in its static initialiser, so the setting holds from the first native call, while a
     * command that never calls BLAS (a kernel matrix computed in Java reads {@link #get()} only) does not load the
     * native library at all. Later calls do nothing. With the system property {@code psdkit.blas.load=direct} (set
     * by the command line) the BLAS libraries are loaded by their file names ({@link OpenBlasFiles}), JavaCPP's
     * load being the fallback.
     */
    public static synchronized void loadBlas() {
        if (!blasLoaded) {
            blasLoaded = true;
            if (OpenBlasFiles.wanted()) {
                org.bytedeco.javacpp.Pointer f = OpenBlasFiles.load();
                if (f != null) {
                    blasSetter = BlasSetter.at(f);
                    directLoad = true;
                }
            }
            setBlas(capDepth > 0 && !lifted ? Math.min(capValue, threads) : threads);
        }
    }

    /** Whether {@link #loadBlas} loaded OpenBLAS through {@link OpenBlasFiles} (for tests). */
    private static boolean directLoad;

    /** Whether OpenBLAS was loaded from JavaCPP's cached files without JavaCPP's search ({@link OpenBlasFiles}). */
    static synchronized boolean loadedDirectly() {
        return directLoad;
    }

    /** The thread started by {@link #loadBlasInBackground}, or null. */
    private static volatile Thread backgroundLoad;
    /** Guards the start of {@link #backgroundLoad}. */
    private static final Object BACKGROUND_START = new Object();

    /**
     * Starts {@link #loadBlas} on a daemon thread and returns at once, for a caller that knows it will call BLAS
     * soon and has other work to do first (the command line: parsing its options, reading its data); JavaCPP's load
     * of the two OpenBLAS libraries then overlaps that work. The caller must call {@link #awaitBackgroundLoad} before
     * its first BLAS call, so that no two threads ever run JavaCPP's loader or class initialisers at once. A failed
     * load is not reported here: the first BLAS call fails as it would have without this thread. Does nothing when
     * OpenBLAS is loaded or a load was started already.
     */
    public static void loadBlasInBackground() {
        // not under Threads.class, which the loading thread holds for the whole load (loadBlas): a second call while
        // the load runs (predict's, after the model file is read) returns at once instead of waiting for it
        synchronized (BACKGROUND_START) {
            if (blasLoaded || backgroundLoad != null) {
                return;
            }
            Thread t = new Thread(() -> {
                try {
                    loadBlas();
                } catch (Throwable e) { // reported by the first BLAS call
                }
            }, "psdkit-blas-load");
            t.setDaemon(true);
            backgroundLoad = t;
            t.start();
        }
    }

    /** Waits until a load started by {@link #loadBlasInBackground} has finished (at once if none was started). */
    public static void awaitBackgroundLoad() {
        Thread t = backgroundLoad;
        if (t == null) {
            return;
        }
        boolean interrupted = false;
        while (true) {
            try {
                t.join();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** The OpenBLAS thread count now in force (below {@link #get()} inside {@link #blasCapped}). */
    public static synchronized int blasThreads() {
        loadBlas();
        if (blasSetter != null) {
            return blasSet;
        }
        try (NativeCalls.Call nc = NativeCalls.enter()) {
            return org.bytedeco.openblas.presets.openblas_nolapack.blas_get_num_threads();
        }
    }

    // guarded by Threads.class: OpenBLAS's openblas_set_num_threads as a JavaCPP function pointer, once found, and
    // the count last given to it
    private static BlasSetter blasSetter;
    private static int blasSet;

    /**
     * The presets' function-pointer type of {@code void openblas_set_num_threads(int)}, whose constructor is
     * protected: an instance of it holds the address found by {@code Loader.addressof}.
     */
    private static final class BlasSetter extends org.bytedeco.openblas.presets.openblas_nolapack.SetNumThreads {
        /** The setter at OpenBLAS's {@code openblas_set_num_threads}, found at {@code f}. */
        static BlasSetter at(org.bytedeco.javacpp.Pointer f) {
            BlasSetter s = new BlasSetter();
            s.put(f);
            return s;
        }
    }

    /**
     * Gives OpenBLAS {@code n} threads once it is loaded; before that {@link #loadBlas} applies the setting.
     *
     * <p>The first call goes through the presets' {@code blas_set_num_threads}, which loads the library and finds
     * which BLAS answers (OpenBLAS, or MKL when the user chose it through the presets' {@code org.bytedeco.openblas.load}
     * property). That method runs JavaCPP's {@code Loader.load} and four symbol look-ups on every call (0.2–0.4 ms
     * warm, 1–4 ms in a fresh JVM: docs/benchmarks/cold.md), and {@link #blasCapped} calls it twice per section
     * (six sections in a 5,000-row KRR predict). So, when the answer is OpenBLAS, later calls go straight to its
     * {@code openblas_set_num_threads} through a function pointer made once from the same look-up the presets
     * use: the effect on OpenBLAS is the presets' call's.
     */
    private static void setBlas(int n) {
        if (!blasLoaded) {
            return;
        }
        if (blasSetter != null) {
            try (NativeCalls.Call nc = NativeCalls.enter()) {
                blasSetter.call(n);
            }
            blasSet = n;
            return;
        }
        try (NativeCalls.Call nc = NativeCalls.enter()) {
            org.bytedeco.openblas.presets.openblas_nolapack.blas_set_num_threads(n);
            if (org.bytedeco.openblas.presets.openblas_nolapack.blas_get_vendor() == OPENBLAS_VENDOR) {
                org.bytedeco.javacpp.Pointer f = org.bytedeco.javacpp.Loader.addressof("openblas_set_num_threads");
                if (f != null) {
                    blasSetter = BlasSetter.at(f);
                    blasSet = n;
                }
            }
        }
    }

    /** {@code blas_get_vendor()}'s answer for OpenBLAS (the presets' numbering: 2 OpenBLAS, 3 MKL). */
    private static final int OPENBLAS_VENDOR = 2;

    /** The current thread count. */
    public static int get() {
        return threads;
    }

    /**
     * The pool of data-sized parallel passes (row blocks of a kernel matrix): one daemon worker per available
     * processor. A parallel stream started from an ordinary thread would run in the common pool, whose parallelism
     * is processors − 1 while the caller only waits, i.e. on one core of two.
     */
    public static java.util.concurrent.ForkJoinPool dataPool() {
        return DataPool.POOL;
    }

    /** Holder: the pool is created on first use. */
    private static final class DataPool {
        static final java.util.concurrent.ForkJoinPool POOL = new java.util.concurrent.ForkJoinPool(available(),
                pool -> {
                    java.util.concurrent.ForkJoinWorkerThread t =
                            java.util.concurrent.ForkJoinPool.defaultForkJoinWorkerThreadFactory.newThread(pool);
                    t.setDaemon(true);
                    t.setName("psdkit-data-" + t.getPoolIndex());
                    return t;
                }, null, false);
    }
}
