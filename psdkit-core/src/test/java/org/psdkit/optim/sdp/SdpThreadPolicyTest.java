package org.psdkit.optim.sdp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.psdkit.linalg.Threads;

/** The thread policy of {@link SdpSolver#solve}: one BLAS thread except for the products of the largest blocks. */
class SdpThreadPolicyTest {

    @Test
    void onlyTheProductsOfTheLargestBlocksRunOnAllThreads() {
        // SDPLIB block orders: mcp124/gpp124 (124), theta4 (200), mcp250/gpp250 (250), ss30 (294), mcp500/gpp500
        // (500) and maxG11 (800) stay on one thread
        for (int n : new int[] {124, 200, 250, 294, 500, 800, 999}) {
            assertFalse(SdpSolver.parallelBlas(2.0 * n * n * n), "n = " + n);
        }
        // maxG51 (n = 1000) and larger: their products run on all threads
        for (int n : new int[] {1000, 2000}) {
            assertTrue(SdpSolver.parallelBlas(2.0 * n * n * n), "n = " + n);
        }
    }

    @Test
    void aSmallProblemRunsOnOneBlasThreadAndTheLibrarySettingIsRestored() throws IOException {
        SdpProblem p = SdpSolverTest.resource("mcp100");
        int before = Threads.get();
        List<Integer> seen = new ArrayList<>();
        try {
            Threads.set(2);
            SdpResult r = SdpSolver.solve(p, SdpOptions.defaults().withListener(e -> seen.add(Threads.blasThreads())));
            assertEquals(SdpStatus.OPTIMAL, r.status(), r.message());
            assertEquals(2, Threads.blasThreads(), "restored after the solve");
            assertEquals(2, Threads.get());
        } finally {
            Threads.set(before);
        }
        assertFalse(seen.isEmpty());
        assertTrue(seen.stream().allMatch(t -> t == 1), "BLAS threads seen during the solve: " + seen);
    }

    /**
     * Under the policy a small problem takes the same route at two threads as at one: the same answer (before it,
     * two BLAS threads changed the rounding and with it the iterations: control4 92 against 56).
     */
    @Test
    void aSmallProblemGivesTheOneThreadAnswerAtTwoThreads() throws IOException {
        for (String name : new String[] {"theta1", "gpp100"}) {
            SdpProblem p = SdpSolverTest.resource(name);
            int before = Threads.get();
            SdpResult[] r = new SdpResult[2];
            try {
                for (int t = 0; t < 2; t++) {
                    Threads.set(t + 1);
                    r[t] = SdpSolver.solve(p);
                }
            } finally {
                Threads.set(before);
            }
            assertEquals(r[0].status(), r[1].status(), name);
            assertEquals(r[0].iterations(), r[1].iterations(), name);
            assertEquals(r[0].primalObjective(), r[1].primalObjective(), 1e-8 * Math.abs(r[0].primalObjective()), name);
            double dy = 0;
            double ny = 0;
            for (int i = 0; i < r[0].y().length; i++) {
                dy = Math.max(dy, Math.abs(r[0].y()[i] - r[1].y()[i]));
                ny = Math.max(ny, Math.abs(r[0].y()[i]));
            }
            assertTrue(dy <= 1e-8 * ny, name + ": y differs by " + dy + " (max |y| " + ny + ")");
            // no block reaches the order of the parallel products: every BLAS call ran on one thread both times
            assertTrue(java.util.Arrays.equals(r[0].y(), r[1].y()), name + ": y bit for bit");
        }
    }
}
