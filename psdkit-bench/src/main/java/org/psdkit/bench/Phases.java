package org.psdkit.bench;

import org.psdkit.optim.ProgressListener;

/**
 * The progress reports of a benchmark: one event when a phase (a measurement) starts, with the number of phases
 * finished so far and their total, and one when it ends. Phases are coarse on purpose: the timed computations get no
 * listener, so that reporting cannot change what is measured.
 */
final class Phases {
    private final ProgressListener listener;
    private final long total;
    private final long start = System.nanoTime();
    private long done;
    private String current;

    Phases(ProgressListener listener, long total) {
        this.listener = ProgressListener.orNone(listener);
        this.total = total;
    }

    /** Reports that the phase {@code task} starts. */
    void start(String task) {
        current = task;
        listener.onProgress(ProgressListener.Event.of(task, done, total, seconds()));
    }

    /** Reports that the current phase is finished. */
    void end() {
        done++;
        listener.onProgress(ProgressListener.Event.of(current, done, total, seconds()));
    }

    private double seconds() {
        return (System.nanoTime() - start) * 1e-9;
    }
}
