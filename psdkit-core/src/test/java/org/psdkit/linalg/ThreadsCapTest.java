package org.psdkit.linalg;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class ThreadsCapTest {

    @Test
    void capLowersBlasThreadsOnlyWhileTheBodyRunsAndNests() {
        int before = Threads.get();
        try {
            Threads.set(2);
            assertEquals(2, Threads.blasThreads());
            int inside = Threads.blasCapped(1, () -> {
                int nested = Threads.blasCapped(1, Threads::blasThreads);
                assertEquals(1, nested);
                assertEquals(2, Threads.get(), "the library setting is unchanged");
                return Threads.blasThreads();
            });
            assertEquals(1, inside);
            assertEquals(2, Threads.blasThreads(), "restored after the outermost call");
        } finally {
            Threads.set(before);
        }
    }

    @Test
    void setInsideACapTakesEffectAfterIt() {
        int before = Threads.get();
        try {
            Threads.set(2);
            Threads.blasCapped(1, () -> {
                Threads.set(2);
                assertEquals(1, Threads.blasThreads());
                return null;
            });
            assertEquals(2, Threads.blasThreads());
            assertThrows(IllegalArgumentException.class, () -> Threads.blasCapped(0, () -> null));
        } finally {
            Threads.set(before);
        }
    }

    @Test
    void uncappedLiftsTheCallersOwnCapForTheBodyOnly() {
        int before = Threads.get();
        try {
            Threads.set(2);
            assertEquals(2, Threads.blasUncapped(Threads::blasThreads), "outside a cap: the setting");
            assertEquals(2, Threads.blasThreads());
            Threads.blasCapped(1, () -> {
                assertEquals(2, (int) Threads.blasUncapped(Threads::blasThreads), "own cap lifted");
                assertEquals(1, Threads.blasThreads(), "and restored");
                int nested = Threads.blasCapped(1, () -> Threads.blasUncapped(Threads::blasThreads));
                assertEquals(1, nested, "an enclosing cap is kept");
                int inner = Threads.blasUncapped(() -> Threads.blasCapped(1, Threads::blasThreads));
                assertEquals(1, inner, "a cap inside the lifted call applies");
                assertEquals(1, Threads.blasThreads());
                return null;
            });
            assertEquals(2, Threads.blasThreads());
        } finally {
            Threads.set(before);
        }
    }

    @Test
    void anotherThreadsCapIsKeptAndReappliedDuringAnUncappedCall() throws Exception {
        int before = Threads.get();
        try {
            Threads.set(2);
            java.util.concurrent.CountDownLatch capped = new java.util.concurrent.CountDownLatch(1);
            java.util.concurrent.CountDownLatch done = new java.util.concurrent.CountDownLatch(1);
            Thread other = new Thread(() -> Threads.blasCapped(1, () -> {
                capped.countDown();
                try {
                    done.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                return null;
            }));
            Threads.blasCapped(1, () -> {
                // the other thread's cap is in force too: not lifted
                other.start();
                try {
                    capped.await();
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
                assertEquals(1, (int) Threads.blasUncapped(Threads::blasThreads));
                done.countDown();
                return null;
            });
            other.join();
            assertEquals(2, Threads.blasThreads());
            // lifted first, then another thread enters a cap: it is re-applied at once
            Thread late = new Thread(() -> Threads.blasCapped(1, () -> null));
            Threads.blasCapped(1, () -> Threads.blasUncapped(() -> {
                assertEquals(2, Threads.blasThreads());
                late.start();
                try {
                    late.join();
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
                assertEquals(1, Threads.blasThreads(), "re-capped by the other thread's section");
                return null;
            }));
            assertEquals(2, Threads.blasThreads());
        } finally {
            Threads.set(before);
        }
    }
    /**
     * OpenBLAS's own count ({@code openblas_get_num_threads}, found as the presets find the setter) follows every
     * setting, cap and restore, the repeated ones included: blasThreads() reports what OpenBLAS was given, not only
     * what psdkit asked.
     */
    @Test
    void openBlasItselfGetsEverySetting() {
        Threads.loadBlas();
        org.junit.jupiter.api.Assumptions.assumeTrue(
                org.bytedeco.openblas.presets.openblas_nolapack.blas_get_vendor() == 2, "OpenBLAS answers");
        int before = Threads.get();
        try {
            for (int round = 0; round < 3; round++) {
                Threads.set(2);
                assertEquals(2, openblasThreads());
                assertEquals(2, Threads.blasThreads());
                int inside = Threads.blasCapped(1, ThreadsCapTest::openblasThreads);
                assertEquals(1, inside);
                assertEquals(2, openblasThreads(), "restored");
                Threads.set(1);
                assertEquals(1, openblasThreads());
                assertEquals(1, Threads.blasThreads());
            }
        } finally {
            Threads.set(before);
        }
    }

    /**
     * {@code int openblas_get_num_threads(void)} through the presets' function-pointer type of {@code int f(int)}
     * (the presets bind no getter): on x86-64 and AArch64 the unused argument only fills a register the callee
     * never reads (System V and AAPCS64 calling conventions).
     */
    private static int openblasThreads() {
        org.bytedeco.javacpp.Pointer f = org.bytedeco.javacpp.Loader.addressof("openblas_get_num_threads");
        org.junit.jupiter.api.Assertions.assertNotNull(f, "openblas_get_num_threads");
        IntGetter g = new IntGetter();
        g.put(f);
        return g.call(0);
    }

    private static final class IntGetter
            extends org.bytedeco.openblas.presets.openblas_nolapack.MklSetNumThreadsLocal {
    }
}
