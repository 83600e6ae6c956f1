package org.psdkit.optim.sdp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.StringReader;
import org.junit.jupiter.api.Test;

/** Problems without a strictly feasible point: the ILL_POSED status and the verified lower bound. */
class IllPosedSdpTest {

    /**
     * (P) min 2·X₁₂ s.t. X₁₁ = 1, X₂₂ = 0, X ⪰ 0: the only feasible X is e₁e₁ᵀ (no interior), optimum 0.
     * (D) max y₁ s.t. [[−y₁, 1], [1, −y₂]] ⪰ 0: y₁ ≤ −1/y₂ → sup 0, approached only as y₂ → −∞ (not attained).
     * In SDPA terms: min x₁ s.t. [[x₁, 1], [1, x₂]] ⪰ 0.
     */
    static SdpProblem notAttained() {
        SdpProblem.Builder b = SdpProblem.builder(2);
        int blk = b.addBlock(2);
        b.addC(blk, 0, 1, 1.0);
        b.addA(0, blk, 0, 0, 1.0);
        b.addA(1, blk, 1, 1, 1.0);
        b.setB(0, 1.0);
        b.setB(1, 0.0);
        return b.build();
    }

    /** Tolerance the toy cannot meet within the iteration limit below: the run must stop unconverged. */
    static final double UNREACHABLE_TOLERANCE = 1e-14;
    /** 25 iterations: ‖y‖ has grown to ~1e8 by then (measured), well past IpmSettings.illPosedRatio. */
    static final int TOY_ITERATIONS = 25;

    @Test
    void divergingDualIsReportedIllPosedWithAValidBound() {
        SdpResult r = SdpSolver.solve(notAttained(),
                SdpOptions.defaults().withTolerance(UNREACHABLE_TOLERANCE).withMaxIterations(TOY_ITERATIONS));
        assertEquals(SdpStatus.ILL_POSED, r.status(), r.message());
        assertTrue(r.message().contains("(P) has no strictly feasible point"), r.message());
        assertTrue(Math.abs(r.y()[1]) > IpmSettings.DEFAULT.illPosedRatio(), "y = " + r.y()[1]);
        // the optimum of (P) is 0 (closed form above): a lower bound must not exceed it, and it should be close
        assertTrue(r.lowerBound() <= 0, "bound " + r.lowerBound());
        assertTrue(r.lowerBound() > -1e-6, "bound " + r.lowerBound());
        assertEquals("ill_posed", SdpaFormat.sdpaView(r).status());
    }

    @Test
    void wellPosedRunStoppedByTheIterationLimitKeepsItsStatusAndGetsAValidBound() throws IOException {
        // SDPLIB README example: min 10 x1 + 20 x2, optimum 30 at x = (1, 1); our (P) optimum is −30
        String text = "\"A sample problem.\n2 =mdim\n2 =nblocks\n{2, 2}\n10.0 20.0\n0 1 1 1 1.0\n0 1 2 2 2.0\n"
                + "0 2 1 1 3.0\n0 2 2 2 4.0\n1 1 1 1 1.0\n1 1 2 2 1.0\n2 1 2 2 1.0\n2 2 1 1 5.0\n2 2 1 2 2.0\n"
                + "2 2 2 2 6.0\n";
        SdpProblem p = SdpaFormat.read(new StringReader(text), "example");
        SdpResult r = SdpSolver.solve(p, SdpOptions.defaults().withMaxIterations(4));
        assertEquals(SdpStatus.ITERATION_LIMIT, r.status(), r.message());
        assertTrue(r.lowerBound() <= -30.0, "bound " + r.lowerBound());
        assertTrue(r.lowerBound() > -40.0, "bound " + r.lowerBound());
        SdpResult full = SdpSolver.solve(p);
        assertEquals(SdpStatus.OPTIMAL, full.status());
        assertTrue(Double.isNaN(full.lowerBound()), "no bound work on an optimal result");
    }

    @Test
    void verifiedDualFeasibilityNeedsAStrictlyDefiniteSlack() {
        SdpProblem p = notAttained();
        // Z = C − y₁A₁ − y₂A₂ = [[−y₁, 1], [1, −y₂]]
        assertTrue(Diagnosis.verifiedDualFeasible(p, new double[] {-1, -2}));     // [[1,1],[1,2]] ≻ 0
        assertFalse(Diagnosis.verifiedDualFeasible(p, new double[] {-1, -0.5}));  // det −0.5
        assertFalse(Diagnosis.verifiedDualFeasible(p, new double[] {-1, -1}));    // singular: inside the margin
    }

    /**
     * SDPLIB hinf12: the double run used to stop at iteration 41 at the value 22.49 (status numerical_problems).
     * Independent facts, checked here from the file: Y = e₆e₆ᵀ in the first block satisfies ⟨F_i, Y⟩ = c_i
     * exactly with ⟨F_0, Y⟩ = 0, so the SDPLIB optimum is ≥ 0 (weak duality); in our form that X is feasible with
     * ⟨C, X⟩ = 0, so every valid lower bound on (P) is ≤ 0.
     */
    @Test
    void hinf12IsIllPosedAndBracketedNearZero() throws IOException {
        SdpProblem p = SdpSolverTest.resource("hinf12");
        assertEquals(6, p.blockSize(0));
        int last = 5;
        for (int i = 0; i < p.constraints(); i++) {
            Coefficient a = p.a(i, 0);
            double v = a == null ? 0 : a.toDense().get(last, last);
            assertEquals(p.b()[i], v, 0.0, "constraint " + i);
        }
        Coefficient c0 = p.c(0);
        assertEquals(0.0, c0 == null ? 0 : c0.toDense().get(last, last), 0.0);

        SdpResult r = SdpSolver.solve(p);
        assertEquals(SdpStatus.ILL_POSED, r.status(), r.message());
        assertNotEquals(SdpStatus.NEAR_OPTIMAL, r.status());
        double sdplibUpper = -r.lowerBound();
        assertTrue(sdplibUpper >= 0 && sdplibUpper < 1e-2, "SDPLIB value ≤ " + sdplibUpper);
        double value = SdpaFormat.sdpaView(r).objective();
        assertTrue(value > -1e-6 && value <= sdplibUpper, "value " + value);
        // the iterates diverged: a double-double restart, where the double phase ends in one, runs once (from the
        // warm double iterate), never a second time from the standard start, which cannot make an ill-posed
        // problem's value certified. Whether the double phase stalls before its iteration limit (and so restarts)
        // depends on the BLAS kernels' rounding: on AVX-512 Xeons it reaches the limit still moving, without one.
        if (r.message().contains("double-double")) {
            assertTrue(r.message().contains("not again from the standard start: the iterates diverged"),
                    r.message());
        } else {
            assertTrue(r.message().contains("iteration limit"), r.message());
        }
        assertFalse(r.message().contains("so again from the standard start"), r.message());
    }
}
