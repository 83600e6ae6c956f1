package org.psdkit.optim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.psdkit.optim.ProgressListener.Event;

/** The listener helpers, and FISTA's events: one per iteration, and a throwing listener stops the run. */
class ProgressListenerTest {

    /** h(x) = ½ Σ q_i (x_i − c_i)². */
    static SmoothFunction quadratic(double[] q, double[] c) {
        return new SmoothFunction() {
            @Override
            public int dimension() {
                return q.length;
            }

            @Override
            public double valueAndGradient(double[] x, double[] grad) {
                double v = 0;
                for (int i = 0; i < q.length; i++) {
                    double d = x[i] - c[i];
                    grad[i] = q[i] * d;
                    v += 0.5 * q[i] * d * d;
                }
                return v;
            }
        };
    }

    @Test
    void fistaReportsEveryIteration() {
        RecordingListener rec = RecordingListener.recording();
        FistaResult r = Fista.minimize(quadratic(new double[] {1, 10, 100}, new double[] {1, -2, 3}),
                ProxFunction.zero(), new double[3], FistaOptions.withLipschitz(100, 50), null, rec);
        rec.assertProgress(Fista.TASK, Fista.MEASURE, true);
        assertEquals(r.iterations(), rec.events.size());
        assertEquals(r.iterations(), rec.lastStep());
        assertEquals(1, rec.events.get(0).step());
    }

    @Test
    void aThrowingListenerStopsFista() {
        RecordingListener rec = RecordingListener.cancellingAt(3);
        assertThrows(RecordingListener.Cancelled.class, () -> Fista.minimize(
                quadratic(new double[] {1, 10}, new double[] {1, 1}), ProxFunction.zero(), new double[2],
                FistaOptions.withLipschitz(10, 1000), null, rec));
        assertEquals(3, rec.events.size());
    }

    @Test
    void relabelledReportsTheCallersMeasure() {
        List<Event> got = new ArrayList<>();
        double[] gap = {0.5};
        ProgressListener l = ((ProgressListener) got::add).relabelled("psd", "gap", () -> gap[0]);
        l.onProgress(new Event("fista", 4, 0, "objective", 12.0, 0.25));
        gap[0] = 0.125;
        l.onProgress(new Event("fista", 5, 0, "objective", 11.0, 0.5));
        assertEquals(new Event("psd", 4, 0, "gap", 0.5, 0.25), got.get(0));
        assertEquals(new Event("psd", 5, 0, "gap", 0.125, 0.5), got.get(1));
        assertSame(ProgressListener.NONE, ProgressListener.NONE.relabelled("psd", "gap", () -> 1.0));
    }

    @Test
    void throttledPassesTheFirstTheSpacedAndTheLastEvent() {
        List<Event> got = new ArrayList<>();
        ProgressListener l = ((ProgressListener) got::add).throttled(1.0);
        double[] seconds = {0.0, 0.3, 0.9, 1.1, 1.5, 2.2, 2.3};
        for (int i = 0; i < seconds.length; i++) {
            l.onProgress(Event.of("cv", i + 1, seconds.length, seconds[i]));
        }
        List<Long> steps = got.stream().map(Event::step).toList();
        assertEquals(List.of(1L, 4L, 6L, 7L), steps);
        assertSame(ProgressListener.NONE, ProgressListener.NONE.throttled(1.0));
        assertThrows(IllegalArgumentException.class, () -> l.throttled(Double.NaN));
    }
}
