package org.psdkit.cli.bench;

import org.psdkit.cli.Progress;
import org.psdkit.optim.ProgressListener;

/**
 * The CLI display of a benchmark's progress: one line on stderr when a measurement starts
 * ({@code bench krr: n=2000: eigen-route baseline ...}), silenced like every {@link Progress} display.
 */
final class BenchProgress implements ProgressListener {
    private final String prefix;
    private String last;

    /** Lines start with {@code prefix} ({@code "bench krr: "}). */
    BenchProgress(String prefix) {
        this.prefix = prefix;
    }

    @Override
    public void onProgress(Event e) {
        if (!e.task().equals(last)) {
            last = e.task();
            Progress.info(prefix + e.task() + " ...");
        }
    }
}
