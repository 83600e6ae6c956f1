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
}
