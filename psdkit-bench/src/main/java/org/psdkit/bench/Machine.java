package org.psdkit.bench;

import org.psdkit.kernel.ParallelColumns;
import org.psdkit.linalg.Linalg;

/**
 * The threads a benchmark runs with, reported next to its times.
 *
 * @param blasThreads   OpenBLAS threads ({@link Linalg#threads()})
 * @param kernelThreads threads of psdkit's own parallel loops (Gram matrices, {@link ParallelColumns#threads()})
 * @param cores         available processors
 */
public record Machine(int blasThreads, int kernelThreads, int cores) {

    /** Loads the native library (so that no timing pays for it) and returns the thread counts. */
    public static Machine warmUp() {
        Linalg.warmUp();
        return new Machine(Linalg.threads(), ParallelColumns.threads(), Runtime.getRuntime().availableProcessors());
    }
}
