package org.psdkit.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

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

    /** Issue 30: a run that fails (a memory estimate refused, exit 2) is not reported as done. */
    @Test
    void aFailedRunPrintsNoDoneLine() {
        PrintStream saved = System.err;
        boolean wasQuiet = Progress.quiet();
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        try {
            System.setErr(new PrintStream(buf, true, StandardCharsets.UTF_8));
            Progress.setQuiet(false);
            try (Progress p = Progress.startSolver("fails", 10)) {
                assertThrows(IllegalArgumentException.class, () -> p.run(() -> {
                    throw new IllegalArgumentException("needs ~2 GB");
                }));
            }
            assertFalse(buf.toString(StandardCharsets.UTF_8).contains("done in"), buf.toString(StandardCharsets.UTF_8));
            try (Progress p = Progress.startSolver("works", 10)) {
                assertEquals(Integer.valueOf(3), p.run(() -> 3));
            }
            assertTrue(buf.toString(StandardCharsets.UTF_8).contains("works: done in "),
                    buf.toString(StandardCharsets.UTF_8));
        } finally {
            Progress.setQuiet(wasQuiet);
            System.setErr(saved);
        }
    }
}
