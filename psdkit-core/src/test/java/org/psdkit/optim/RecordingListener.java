package org.psdkit.optim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

/**
 * Test helper: records every {@link ProgressListener.Event}, and throws {@link Cancelled} at the event number
 * {@code cancelAt} (1-based; 0: never) to check that a throwing listener stops a computation.
 */
public final class RecordingListener implements ProgressListener {

    /** What a cancelling listener throws. */
    public static final class Cancelled extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Cancelled() {
            super("cancelled by the listener");
        }
    }

    public final List<Event> events = new ArrayList<>();
    private final int cancelAt;

    private RecordingListener(int cancelAt) {
        this.cancelAt = cancelAt;
    }

    /** Records without ever cancelling. */
    public static RecordingListener recording() {
        return new RecordingListener(0);
    }

    /** Throws at the {@code n}-th event. */
    public static RecordingListener cancellingAt(int n) {
        return new RecordingListener(n);
    }

    @Override
    public void onProgress(Event event) {
        events.add(event);
        if (events.size() == cancelAt) {
            throw new Cancelled();
        }
    }

    /**
     * At least one event, all of task {@code task} with measure {@code measure}, strictly increasing steps,
     * non-decreasing non-negative seconds and (when {@code finite}) finite values.
     */
    public void assertProgress(String task, String measure, boolean finite) {
        assertFalse(events.isEmpty(), "no progress event");
        long lastStep = Long.MIN_VALUE;
        double lastSeconds = 0;
        for (Event e : events) {
            assertEquals(task, e.task());
            assertEquals(measure, e.measure());
            assertTrue(e.step() > lastStep, "steps must increase: " + e.step() + " after " + lastStep);
            assertTrue(e.seconds() >= lastSeconds, "the clock went back: " + e.seconds() + " after " + lastSeconds);
            if (finite) {
                assertTrue(Double.isFinite(e.value()), e.measure() + " is not finite at step " + e.step());
            }
            lastStep = e.step();
            lastSeconds = e.seconds();
        }
    }

    /** The step of the last event. */
    public long lastStep() {
        return events.get(events.size() - 1).step();
    }
}
