package org.psdkit.optim;

import java.util.function.DoubleSupplier;

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
     * This listener, receiving the events of an inner solver re-issued under {@code task} with {@code measure} and
     * the value {@code value} holds when the event arrives: a caller that computes a duality gap in the stop rule
     * of a generic solver ({@link Fista}) reports that gap instead of the solver's own measure.
     */
    default ProgressListener relabelled(String task, String measure, DoubleSupplier value) {
        if (this == NONE) {
            return NONE;
        }
        ProgressListener inner = this;
        return e -> inner.onProgress(new Event(task, e.step(), e.total(), measure, value.getAsDouble(), e.seconds()));
    }

    /**
     * This listener, passed at most one event per {@code minSeconds} of the events' own clock
     * ({@link Event#seconds()}), plus the first event and every event that completes its total. For solvers that
     * report once per cheap iteration (SMO makes millions) when the receiver does real work per event.
     */
    default ProgressListener throttled(double minSeconds) {
        if (!(minSeconds >= 0)) {
            throw new IllegalArgumentException("minSeconds must be >= 0, got " + minSeconds);
        }
        if (this == NONE) {
            return NONE;
        }
        ProgressListener inner = this;
        return new ProgressListener() {
            private double last = Double.NEGATIVE_INFINITY;

            @Override
            public void onProgress(Event e) {
                if (e.seconds() - last >= minSeconds || (e.total() > 0 && e.step() >= e.total())) {
                    last = e.seconds();
                    inner.onProgress(e);
                }
            }
        };
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
