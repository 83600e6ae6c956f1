package org.psdkit.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.junit.jupiter.api.Test;

class ParallelColumnsTest {

    /**
     * A loop started from inside a block of another loop runs on the block's thread. Handed to the pool it could
     * deadlock: with one pool thread (two cores), that thread would wait for the nested task queued behind itself.
     */
    @Test
    void aNestedLoopRunsEveryColumnOnceAndDoesNotDeadlock() {
        int outer = 64;
        int inner = 256;
        AtomicIntegerArray hits = new AtomicIntegerArray(outer * inner);
        Set<String> threads = ConcurrentHashMap.newKeySet();
        int before = ParallelColumns.swapOverride(2); // the suite runs with psdkit.threads=1
        try {
            assertTimeoutPreemptively(Duration.ofSeconds(60), () -> nested(outer, inner, hits, threads));
        } finally {
            ParallelColumns.swapOverride(before);
        }
        for (int k = 0; k < hits.length(); k++) {
            assertEquals(1, hits.get(k), "column pair " + k);
        }
        if (Runtime.getRuntime().availableProcessors() > 1) {
            assertTrue(threads.contains("psdkit-kernel"), "the pool took part: " + threads);
        }
    }

    private static void nested(int outer, int inner, AtomicIntegerArray hits, Set<String> threads) {
        ParallelColumns.forColumns(outer, Long.MAX_VALUE / 4, (from, to) -> {
                threads.add(Thread.currentThread().getName());
                for (int j = from; j < to; j++) {
                    int col = j;
                    ParallelColumns.forColumns(inner, Long.MAX_VALUE / 4, (a, b) -> {
                        for (int i = a; i < b; i++) {
                            double s = 0; // enough work per column that the pool thread takes outer blocks
                            for (int k = 1; k < 2000; k++) {
                                s += Math.sqrt(k + i);
                            }
                            if (s > 0) {
                                hits.incrementAndGet(col * inner + i);
                            }
                        }
                    });
                }
            });
    }
}
