package org.psdkit.optim;

/**
 * Outcome of {@link Fista#minimize}.
 *
 * @param x          the last iterate (after the proximal step)
 * @param iterations iterations done
 * @param seconds    wall-clock time
 * @param restarts   adaptive restarts
 * @param lipschitz  the Lipschitz estimate in use at the end
 * @param status     why the run ended
 */
public record FistaResult(double[] x, int iterations, double seconds, int restarts, double lipschitz,
                          Status status) {

    public enum Status {
        /** The {@link StopRule} said so. */
        CONVERGED,
        /** The iteration budget ran out. */
        MAX_ITERATIONS,
        /** The time budget ran out. */
        TIME_LIMIT,
        /** The smooth part returned a non-finite value or gradient. */
        NUMERICAL_FAILURE
    }
}
