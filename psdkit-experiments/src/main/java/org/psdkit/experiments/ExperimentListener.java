package org.psdkit.experiments;

import org.psdkit.optim.ProgressListener;

/**
 * What an experiment reports while it runs: progress events (a {@link ProgressListener}) and one-line notes on
 * finished steps (a split's accuracy, a size's timing). The experiments never print.
 */
@FunctionalInterface
public interface ExperimentListener extends ProgressListener {

    /** One finished step, as a line of text. */
    default void note(String message) {
    }

    /** A listener that ignores everything. */
    ExperimentListener NONE = e -> { };

    /** {@code listener}, or {@link #NONE} for {@code null}. */
    static ExperimentListener orNone(ExperimentListener listener) {
        return listener == null ? NONE : listener;
    }

    /** Reports the start ({@code step} 0) or progress of a task of {@code total} steps. */
    default void step(String task, long step, long total, long startNanos) {
        onProgress(Event.of(task, step, total, (System.nanoTime() - startNanos) * 1e-9));
    }
}
