package org.psdkit.optim;

/**
 * The one progress callback of every iterative computation in psdkit: FISTA, the interior-point SDP solver, SMO,
 * Frank–Wolfe, SimpleMKL, every cross-validation loop and sampling. Progress bars and logs are built on it (the CLI
 * draws one on stderr); the library itself never prints.
 *
 * <p>Listeners are called on the computing thread and must be cheap; a listener may throw to cancel the run.
 */
@FunctionalInterface
public interface ProgressListener {

    /** Receives one progress report. */
    void onProgress(Event event);

    /** A listener that ignores every report. */
    ProgressListener NONE = e -> { };

    /** {@code listener}, or {@link #NONE} for {@code null}. */
    static ProgressListener orNone(ProgressListener listener) {
        return listener == null ? NONE : listener;
    }

    /**
     * One progress report.
     *
     * @param task    what is running ({@code "fista"}, {@code "sdp"}, {@code "cv"}, …)
     * @param step    iterations or work units done (1-based once the first is finished)
     * @param total   the number of steps when known in advance (CV fits, samples), else 0 (iterative solvers
     *                that stop on a tolerance)
     * @param measure name of {@link #value()} ({@code "gap"}, {@code "rmse"}, {@code "objective"}, …) or null
     * @param value   the current gap or score, NaN when there is none
     * @param seconds wall-clock seconds since the computation started
     */
    record Event(String task, long step, long total, String measure, double value, double seconds) {

        /** A report without a measured value. */
        public static Event of(String task, long step, long total, double seconds) {
            return new Event(task, step, total, null, Double.NaN, seconds);
        }

        /** step/total in [0, 1], or NaN when the total is unknown. */
        public double fraction() {
            return total > 0 ? Math.min(1.0, (double) step / total) : Double.NaN;
        }

        /** Seconds left by linear extrapolation, or NaN when the total is unknown or nothing is done yet. */
        public double etaSeconds() {
            return total > 0 && step > 0 && step < total ? seconds * (total - step) / step : Double.NaN;
        }
    }
}
