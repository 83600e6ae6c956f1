package org.psdkit.linalg;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * {@link Threads} loads OpenBLAS only when a class that calls it is initialised ({@link Threads#loadBlas}): reading
 * or changing the setting, or a capped section, in a JVM that has not called BLAS yet loads no native library, and
 * the first BLAS call then runs with the setting in force (the cap included). Checked in a child JVM, whose class
 * loading is this test's alone.
 */
class ThreadsLazyBlasTest {

    /** The child: prints the class-load log lines of OpenBLAS's global class between its markers. */
    public static final class Child {
        public static void main(String[] args) {
            Threads.set(1);
            Threads.get();
            int inCap = Threads.blasCapped(1, () -> 7);
            System.out.println("MARK-BEFORE-BLAS " + inCap);
            System.out.flush();
            Threads.set(2);
            int[] capped = new int[1];
            Threads.blasCapped(1, () -> {
                Linalg.gemm(1.0, Matrix.identity(3), false, Matrix.identity(3), false); // loads OpenBLAS under the cap
                capped[0] = Threads.blasThreads();
                return null;
            });
            System.out.println("MARK-AFTER-BLAS capped=" + capped[0] + " after=" + Threads.blasThreads());
        }
    }

    /**
     * The child of the background load: the setting changed while the load runs on its thread, and a cap entered
     * after it, reach OpenBLAS; a second start does nothing.
     */
    public static final class BackgroundChild {
        public static void main(String[] args) {
            Threads.set(2);
            Threads.loadBlasInBackground();
            Threads.loadBlasInBackground();
            Threads.set(1); // waits for the load if it is running, then gives OpenBLAS 1 thread
            Threads.awaitBackgroundLoad();
            int set = Threads.blasThreads();
            Threads.set(2);
            int capped = Threads.blasCapped(1, Threads::blasThreads);
            System.out.println("MARK-BACKGROUND set=" + set + " capped=" + capped + " after=" + Threads.blasThreads()
                    + " threads=" + Thread.getAllStackTraces().keySet().stream()
                            .filter(t -> t.getName().equals("psdkit-blas-load")).count());
        }
    }

    /**
     * The child of the BLAS-only run: products (Linalg.gemm, gemv, syrk and a Gaussian cross-kernel sum through the
     * dgemm tiles) map one copy of OpenBLAS, the nolapack one; the first LAPACK call (a Cholesky factorisation) maps
     * the second.
     */
    public static final class BlasOnlyChild {
        public static void main(String[] args) throws Exception {
            Matrix a = Matrix.identity(3);
            double g = Linalg.gemm(2.0, a, false, a, false).get(1, 1);
            double v = Linalg.gemv(a, false, new double[] {1, 2, 3})[2];
            double s = Linalg.syrk(a, false).get(2, 2);
            Matrix x = Matrix.zeros(400, 3);
            for (int i = 0; i < 400; i++) {
                for (int j = 0; j < 3; j++) {
                    x.set(i, j, Math.sin(i + 7 * j));
                }
            }
            double[] c = new double[400];
            java.util.Arrays.fill(c, 1.0);
            double k = org.psdkit.kernel.KernelProducts.times(new org.psdkit.kernel.GaussianKernel(1.0), x, x, c)[0];
            String blasOnly = maps();
            double l = Linalg.cholesky(Matrix.identity(4)).lower().get(3, 3);
            System.out.println("MARK-BLAS-ONLY " + blasOnly + " values=" + g + "," + v + "," + s + "," + (k > 1)
                    + " MARK-LAPACK " + maps() + " value=" + l);
        }

        /** Which OpenBLAS copies the process maps. */
        private static String maps() throws Exception {
            String m = java.nio.file.Files.readString(Path.of("/proc/self/maps"));
            return "nolapack=" + m.contains("libopenblas_nolapack.so") + " full=" + m.contains("libopenblas.so");
        }
    }

    @Test
    void blasOnlyWorkMapsOneOpenBlasCopy() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(java.nio.file.Files.isReadable(Path.of("/proc/self/maps")),
                "a /proc file system");
        String log = runChild(BlasOnlyChild.class.getName());
        String line = log.lines().filter(l -> l.startsWith("MARK-BLAS-ONLY")).findFirst().orElse(log);
        assertEquals("MARK-BLAS-ONLY nolapack=true full=false values=2.0,3.0,1.0,true"
                + " MARK-LAPACK nolapack=true full=true value=1.0", line);
    }

    /**
     * The child of the non-blocking start: while another thread holds the lock the load holds for its whole run
     * ({@code Threads.class}), starting the background load, and starting it again, return at once; the load then
     * runs once the lock is free.
     */
    public static final class NoWaitChild {
        public static void main(String[] args) throws Exception {
            java.util.concurrent.CountDownLatch held = new java.util.concurrent.CountDownLatch(1);
            java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
            Thread holder = new Thread(() -> {
                synchronized (Threads.class) {
                    held.countDown();
                    try {
                        release.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
            });
            holder.start();
            held.await();
            java.util.concurrent.ExecutorService ex = java.util.concurrent.Executors.newSingleThreadExecutor(r -> {
                Thread t = new Thread(r);
                t.setDaemon(true);
                return t;
            });
            java.util.concurrent.Future<?> starts = ex.submit(() -> {
                Threads.loadBlasInBackground();
                Threads.loadBlasInBackground();
            });
            boolean returned;
            try {
                starts.get(30, TimeUnit.SECONDS);
                returned = true;
            } catch (java.util.concurrent.TimeoutException e) {
                returned = false;
            }
            release.countDown();
            Threads.awaitBackgroundLoad();
            System.out.println("MARK-NOWAIT returned=" + returned + " threads=" + Threads.blasThreads());
            System.exit(0);
        }
    }

    @Test
    void startingTheBackgroundLoadNeverWaitsForIt() throws Exception {
        String log = runChild(NoWaitChild.class.getName());
        String line = log.lines().filter(l -> l.startsWith("MARK-NOWAIT")).findFirst().orElse(log);
        assertEquals("MARK-NOWAIT returned=true threads=" + Math.max(1, Runtime.getRuntime().availableProcessors()),
                line);
    }

    @Test
    void aBackgroundLoadKeepsTheSettingInForce() throws Exception {
        String log = runChild(BackgroundChild.class.getName());
        assertTrue(log.contains("org.bytedeco.openblas.global.openblas_nolapack "), "OpenBLAS loaded");
        String line = log.lines().filter(l -> l.startsWith("MARK-BACKGROUND")).findFirst().orElse("");
        assertEquals("MARK-BACKGROUND set=1 capped=1 after=2 threads=0", line, log.length() > 4000
                ? log.substring(log.length() - 4000) : log);
    }

    private static String runChild(String main) throws Exception {
        Path javaBin = Path.of(System.getProperty("java.home"), "bin", "java");
        String mp = System.getProperty("jdk.module.path");
        String cp = (mp == null || mp.isEmpty() ? "" : mp + java.io.File.pathSeparator)
                + System.getProperty("java.class.path");
        ProcessBuilder pb = new ProcessBuilder(List.of(javaBin.toString(), "-Xmx256m", "-Xshare:off",
                "-Xlog:class+load=info:stdout", "-cp", cp, main));
        pb.redirectErrorStream(true);
        Process p = pb.start();
        byte[] out = p.getInputStream().readAllBytes();
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "child timed out");
        String log = new String(out, StandardCharsets.UTF_8);
        assertEquals(0, p.exitValue(), log.length() > 4000 ? log.substring(log.length() - 4000) : log);
        return log;
    }

    @Test
    void openBlasIsLoadedByTheFirstClassThatCallsItWithTheSettingInForce() throws Exception {
        Path javaBin = Path.of(System.getProperty("java.home"), "bin", "java");
        // the tests run on the module path (this module) and the class path: the child takes both as its class path
        String mp = System.getProperty("jdk.module.path");
        String cp = (mp == null || mp.isEmpty() ? "" : mp + java.io.File.pathSeparator)
                + System.getProperty("java.class.path");
        ProcessBuilder pb = new ProcessBuilder(List.of(javaBin.toString(), "-Xmx256m", "-Xshare:off",
                "-Xlog:class+load=info:stdout", "-cp", cp, Child.class.getName()));
        pb.redirectErrorStream(true);
        Process p = pb.start();
        byte[] out = p.getInputStream().readAllBytes();
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "child timed out");
        String log = new String(out, StandardCharsets.UTF_8);
        assertEquals(0, p.exitValue(), log.length() > 4000 ? log.substring(log.length() - 4000) : log);
        int before = log.indexOf("MARK-BEFORE-BLAS 7");
        int after = log.indexOf("MARK-AFTER-BLAS");
        assertTrue(before > 0 && after > before, "markers in order");
        String blasClass = "org.bytedeco.openblas.global.openblas_nolapack ";
        assertFalse(log.substring(0, before).contains(blasClass), "no OpenBLAS before the first BLAS call");
        assertTrue(log.substring(before, after).contains(blasClass), "OpenBLAS loaded by the first BLAS call");
        String last = log.substring(after).lines().findFirst().orElse("");
        assertEquals("MARK-AFTER-BLAS capped=1 after=2", last, "the cap, then the setting");
    }
}
