package org.psdkit.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;
import org.psdkit.optim.ProgressListener;
import org.psdkit.optim.ProgressListener.Event;

/** The progress line and the library listener behind it. */
class ProgressTest {

    @Test
    void lineShowsStepTotalEtaAndMeasure() {
        assertEquals("sdp: 12/40 (30%) 3.0 s, ~7.0 s left, gap 1.23e-05",
                Progress.line("sdp", 12, 40, 3.0, Progress.status(new Event("sdp", 12, 40, "gap", 1.2345e-5, 3.0))));
        assertEquals("fista: 7 0.5 s", Progress.line("fista", 7, 0, 0.5, null));
        assertNull(Progress.status(Event.of("sample", 1, 10, 0.1)));
    }

    @Test
    void aSolverBudgetIsNeitherAPercentageNorATimeLeft() {
        assertEquals("density primal-lbfgs: iteration 10 of at most 20000, 22.7 s, gap 0.439",
                Progress.solverLine("density primal-lbfgs", 10, 20000, 22.7,
                        Progress.status(new Event("density", 10, 0, "gap", 0.4389947, 22.7))));
        assertEquals("sdp: iteration 3, 0.2 s", Progress.solverLine("sdp", 3, 0, 0.2, null));
    }

    @Test
    void listenerTakesTheStepAndAKnownTotal() {
        Progress.setQuiet(true);
        try (Progress p = Progress.start("psd", 500)) {
            ProgressListener l = p.listener();
            l.onProgress(new Event("psd", 3, 0, "gap", 0.5, 0.1));
            assertEquals(3, p.done());
            assertEquals(500, p.total()); // an unknown total keeps the one given at start
            l.onProgress(Event.of("cv", 4, 25, 0.2));
            assertEquals(4, p.done());
            assertEquals(25, p.total());
        }
    }
}
