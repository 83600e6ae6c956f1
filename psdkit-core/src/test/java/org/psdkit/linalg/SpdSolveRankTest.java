package org.psdkit.linalg;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The rank SpdSolve reports is the numerical rank, also when Cholesky succeeded only with a jitter (issue 17). */
class SpdSolveRankTest {

    @Test
    void jitteredCholeskyReportsTheNumericalRank() {
        int n = 60;
        Matrix ones = Matrix.zeros(n, n); // the Gaussian Gram matrix of 60 identical rows: rank 1
        Matrix twoBlocks = Matrix.zeros(n, n); // two groups of identical rows: rank 2
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                ones.set(i, j, 1.0);
                twoBlocks.set(i, j, (i < n / 2) == (j < n / 2) ? 1.0 : 0.5);
            }
        }
        Matrix b = Matrix.zeros(n, 1);
        SpdSolve.Diagnostics d1 = SpdSolve.solve(ones, 0, b).diagnostics();
        if (d1.route().equals("cholesky")) {
            assertEquals(true, d1.jitter() > 0);
        }
        assertEquals(1, d1.rank(), d1.toString());
        assertEquals(2, SpdSolve.solve(twoBlocks, 0, b).diagnostics().rank());
        // a well-conditioned system: full rank, no jitter
        SpdSolve.Diagnostics d = SpdSolve.solve(ones, 1.0, b).diagnostics();
        assertEquals(0.0, d.jitter());
        assertEquals(n, d.rank());
    }
}
