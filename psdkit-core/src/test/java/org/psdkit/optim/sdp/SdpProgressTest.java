package org.psdkit.optim.sdp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import org.junit.jupiter.api.Test;
import org.psdkit.optim.RecordingListener;

/** The interior-point solver reports its relative gap per iteration, through a double-double restart too. */
class SdpProgressTest {

    @Test
    void everyIterationIsReportedWithItsGap() throws IOException {
        RecordingListener rec = RecordingListener.recording();
        SdpResult r = SdpSolver.solve(SdpSolverTest.resource("control1"),
                SdpOptions.defaults().withListener(rec));
        assertEquals(SdpStatus.OPTIMAL, r.status(), r.message());
        rec.assertProgress(SdpSolver.TASK, "gap", true);
        assertEquals(r.iterations(), rec.lastStep());
        assertEquals(r.iterations(), rec.events.size());
        assertTrue(rec.events.get(rec.events.size() - 1).value() <= SdpOptions.DEFAULT_TOLERANCE * 10);
    }

    /**
     * hinf1's double run stalls and is finished in double-double (see {@link DdSdpSolverTest}): those iterations
     * continue the step count and the clock of the double run.
     */
    @Test
    void theDoubleDoubleRestartContinuesTheStepsAndTheClock() throws IOException {
        RecordingListener rec = RecordingListener.recording();
        SdpResult r = SdpSolver.solve(SdpSolverTest.resource("hinf1"),
                SdpOptions.defaults().withMaxIterations(45).withListener(rec));
        assertTrue(r.message().contains("double-double restart"), r.message());
        rec.assertProgress(SdpSolver.TASK, "gap", true);
        assertTrue(rec.lastStep() > 45, "double-double steps follow the 45 double ones");
        assertEquals(r.iterations(), rec.lastStep());
    }

    @Test
    void aThrowingListenerStopsTheSolver() throws IOException {
        RecordingListener rec = RecordingListener.cancellingAt(2);
        assertThrows(RecordingListener.Cancelled.class, () -> SdpSolver.solve(SdpSolverTest.resource("control1"),
                SdpOptions.defaults().withListener(rec)));
        assertEquals(2, rec.events.size());
    }
}
