package org.psdkit.cli.reproduce;

import org.psdkit.cli.Progress;
import org.psdkit.experiments.ExperimentListener;

/**
 * Drives the CLI's {@link Progress} display from an experiment's reports: one display per task (a new task closes
 * the previous one), notes as information lines on stderr.
 */
final class ReproProgress implements ExperimentListener, AutoCloseable {
    private Progress current;
    private String task;

    @Override
    public void onProgress(Event e) {
        if (current == null || !e.task().equals(task)) {
            close();
            task = e.task();
            current = Progress.start(task, e.total());
        }
        if (e.step() > 0) {
            current.set(e.step());
        }
    }

    @Override
    public void note(String message) {
        Progress.info(message);
    }

    @Override
    public void close() {
        if (current != null) {
            current.close();
            current = null;
        }
    }
}
