package org.psdkit.optim;

/** Observes the iterations of {@link Fista}; progress bars and logs are built on it. */
@FunctionalInterface
public interface FistaListener {

    /**
     * Called once per iteration after the gradient step.
     *
     * @param iteration    1-based iteration number
     * @param smoothValue  h at the extrapolated point where the gradient was taken
     * @param step         the step 1/L used
     * @param restarts     adaptive restarts so far
     * @param seconds      elapsed wall-clock time
     */
    void onIteration(int iteration, double smoothValue, double step, int restarts, double seconds);

    FistaListener NONE = (i, v, s, r, t) -> { };
}
