package org.psdkit.optim.sdp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The data's scale in the message when it explains the outcome (non-finite iterates, magnitudes beyond 1e±100). */
class SdpDataScaleTest {

    /** min c·X s.t. a·X = b, X ⪰ 0 (one 1×1 block): the optimum is c·b/a. */
    private static SdpProblem scalar(double c, double a, double b) {
        SdpProblem.Builder pb = SdpProblem.builder(1);
        int blk = pb.addBlock(1);
        pb.addC(blk, 0, 0, c);
        pb.addA(0, blk, 0, 0, a);
        pb.setB(0, b);
        return pb.build();
    }

    @Test
    void iteratesThatOverflowAreExplainedByTheDataScale() {
        SdpResult r = SdpSolver.solve(scalar(1e308, 1e-308, 1e308));
        assertNotEquals(SdpStatus.OPTIMAL, r.status());
        assertFalse(Double.isFinite(r.relativeGap()), r.toString());
        assertTrue(r.message().contains("the objectives or residuals are not finite"), r.message());
        assertTrue(r.message().contains("from 1.00e-308 to 1.00e+308"), r.message());
        assertTrue(r.message().contains("rescale b, C and the A_i"), r.message());
    }

    /** The optimum 1e120 · 1e120 / 1e-120 = 1e360 is not a double: whatever the method reports gets the warning. */
    @Test
    void magnitudesBeyond1e100GetAWarningWhateverTheOutcome() {
        SdpResult r = SdpSolver.solve(scalar(1e120, 1e-120, 1e120));
        assertTrue(r.message().contains("this outcome is not reliable"), r.message());
    }

    @Test
    void ordinaryDataLeavesTheMessageAlone() {
        SdpResult r = SdpSolver.solve(scalar(2.0, 1.0, 3.0));
        assertEquals(SdpStatus.OPTIMAL, r.status(), r.message());
        assertEquals(6.0, r.primalObjective(), 1e-6);
        assertFalse(r.message().contains("data scale"), r.message());
    }
}
