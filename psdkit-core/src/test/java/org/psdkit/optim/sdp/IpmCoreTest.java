package org.psdkit.optim.sdp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import org.junit.jupiter.api.Test;
import org.psdkit.linalg.Linalg;
import org.psdkit.linalg.Matrix;

/**
 * The one interior-point loop ({@link IpmCore}) in both arithmetics: the same first step in double and in
 * double-double, and tiny SDPs with a known optimum solved by each.
 */
class IpmCoreTest {

    /** min ⟨C, X⟩ s.t. tr X = 1, X ⪰ 0: the optimum is λ_min(C), here (5 − √5)/2 for C = [[2, 1], [1, 3]]. */
    static SdpProblem smallestEigenvalue() {
        SdpProblem.Builder b = SdpProblem.builder(1);
        int blk = b.addBlock(2);
        b.addC(blk, 0, 0, 2).addC(blk, 0, 1, 1).addC(blk, 1, 1, 3);
        b.addA(0, blk, 0, 0, 1).addA(0, blk, 1, 1, 1);
        b.setB(0, 1);
        return b.build();
    }

    /**
     * Max-cut of one edge as an SDP: min ⟨C, X⟩ s.t. X₁₁ = X₂₂ = 1 with C = [[0, 1], [1, 0]] is min 2X₁₂ over
     * |X₁₂| ≤ 1, i.e. −2; plus an LP block min x₁ + 2x₂ s.t. x₁ + x₂ = 1, x ≥ 0 (value 1). Optimum −1.
     */
    static SdpProblem cutPlusLp() {
        SdpProblem.Builder b = SdpProblem.builder(3);
        int blk = b.addBlock(2);
        int lp = b.addDiagonalBlock(2);
        b.addC(blk, 0, 1, 1);
        b.addA(0, blk, 0, 0, 1).addA(1, blk, 1, 1, 1);
        b.setB(0, 1).setB(1, 1);
        b.addC(lp, 0, 0, 1).addC(lp, 1, 1, 2);
        b.addA(2, lp, 0, 0, 1).addA(2, lp, 1, 1, 1);
        b.setB(2, 1);
        return b.build();
    }

    /**
     * The first step of the double iteration and of the double-double one agree to double rounding. Both start from
     * the same point (CSDP's X₀ = ξI, Z₀ = ηI, y₀ = 0) and run the same core (measures, predictor, σ, corrector, step
     * fraction); only the arithmetic of the operations differs. The double direction solves the Schur system
     * M dy = r by Cholesky, whose forward error is at most ~m·u·κ(M)·‖dy‖ (u = 2⁻⁵³ ≈ 1.1e-16; Higham 2002, Thm 10.4
     * with the usual normwise bound); dX and dZ inherit it through products of O(1) condition. The double-double
     * direction is ~1e-16 times closer to exact, so the difference is the double error: the test allows
     * 100·m·u·κ(M) relative to the largest entry (κ(M) of the start's Schur complement, computed here), and
     * 100·m·u·κ(M) absolute on the step lengths (each is min(1, 0.95·α_max), α_max a smooth function of the
     * direction).
     */
    @Test
    void doubleAndDoubleDoubleTakeTheSameFirstStep() throws IOException {
        for (SdpProblem p : new SdpProblem[] {smallestEigenvalue(), cutPlusLp(), SdpSolverTest.resource("truss1"),
            SdpSolverTest.resource("hinf1")}) {
            IpmCore.Probe<double[][][]> dbl = SdpSolver.probe(p);
            IpmCore.Probe<double[][][]> dd = DdSdpSolver.probe(p);
            double tol = 100 * p.constraints() * 0x1p-53 * schurCondition(p);
            assertTrue(tol < 1e-6, p + ": κ(M) too large for a meaningful test, tolerance " + tol);
            String[] part = {"dX", "dZ", "dy"};
            for (int k = 0; k < 3; k++) {
                double scale = 0;
                double diff = 0;
                for (int b = 0; b < dd.direction()[k].length; b++) {
                    double[] e = dd.direction()[k][b];
                    double[] a = dbl.direction()[k][b];
                    assertEquals(e.length, a.length);
                    for (int i = 0; i < e.length; i++) {
                        scale = Math.max(scale, Math.abs(e[i]));
                        diff = Math.max(diff, Math.abs(a[i] - e[i]));
                    }
                }
                assertTrue(scale > 0, p + " " + part[k] + " is zero");
                assertTrue(diff <= tol * scale, p + " " + part[k] + ": max difference " + diff
                        + " > " + tol + " × " + scale);
            }
            assertEquals(dd.ap(), dbl.ap(), tol, p + " primal step");
            assertEquals(dd.ad(), dbl.ad(), tol, p + " dual step");
            // not a degenerate comparison: the first step moves both iterates
            assertTrue(dbl.ap() > 0.1 && dbl.ad() > 0.1, p + ": steps " + dbl.ap() + ", " + dbl.ad());
        }
    }

    /** κ₂ of the Schur complement at the starting point, from its eigenvalues. */
    private static double schurCondition(SdpProblem p) {
        double[] scales = StartingPoint.scales(p);
        double[][] x = new double[p.blocks()][];
        double[][] zi = new double[p.blocks()][];
        for (int b = 0; b < p.blocks(); b++) {
            int s = p.blockSize(b);
            boolean diag = p.isDiagonal(b);
            x[b] = new double[diag ? s : s * s];
            zi[b] = new double[diag ? s : s * s];
            for (int k = 0; k < s; k++) {
                x[b][diag ? k : k + k * s] = scales[0];
                zi[b][diag ? k : k + k * s] = 1 / scales[1];
            }
        }
        Matrix m = SdpSolver.schurMatrix(p, x, zi, true);
        double[] ev = Linalg.eigvalsh(m);
        return ev[ev.length - 1] / ev[0];
    }

    @Test
    void smallestEigenvalueIsFoundInBothArithmetics() {
        double exact = (5 - Math.sqrt(5)) / 2;
        SdpResult d = SdpSolver.solve(smallestEigenvalue(), SdpOptions.defaults().withDoubleDouble(false));
        assertEquals(SdpStatus.OPTIMAL, d.status(), d.message());
        assertEquals(exact, d.primalObjective(), 1e-7);
        assertEquals(exact, d.dualObjective(), 1e-7);
        SdpResult dd = DdSdpSolver.solve(smallestEigenvalue(), SdpOptions.defaults().withTolerance(1e-14), 0, 0);
        assertEquals(SdpStatus.OPTIMAL, dd.status(), dd.message());
        assertEquals(exact, dd.primalObjective(), 1e-13);
        assertEquals(exact, dd.dualObjective(), 1e-13);
    }

    @Test
    void cutWithAnLpBlockIsSolvedInBothArithmetics() {
        SdpResult d = SdpSolver.solve(cutPlusLp(), SdpOptions.defaults().withDoubleDouble(false));
        assertEquals(SdpStatus.OPTIMAL, d.status(), d.message());
        assertEquals(-1.0, d.primalObjective(), 1e-7);
        assertEquals(-1.0, d.dualObjective(), 1e-7);
        // the optimal X: X₁₂ = −1 in the SDP block, x = (1, 0) in the LP block
        assertEquals(-1.0, d.x()[0].get(0, 1), 1e-4);
        assertEquals(1.0, d.x()[1].data()[0], 1e-4);
        SdpResult dd = DdSdpSolver.solve(cutPlusLp(), SdpOptions.defaults().withTolerance(1e-14), 0, 0);
        assertEquals(SdpStatus.OPTIMAL, dd.status(), dd.message());
        assertEquals(-1.0, dd.primalObjective(), 1e-13);
        assertEquals(-1.0, dd.dualObjective(), 1e-13);
    }

    /** The core's iteration limit: the run stops at exactly the limit and returns its best iterate. */
    @Test
    void iterationLimitStopsAtTheLimit() {
        SdpResult r = SdpSolver.solve(cutPlusLp(), SdpOptions.defaults().withDoubleDouble(false).withMaxIterations(3));
        assertEquals(SdpStatus.ITERATION_LIMIT, r.status(), r.message());
        assertEquals(3, r.iterations());
        assertTrue(r.message().contains("iteration limit 3 reached"), r.message());
        SdpResult dd = DdSdpSolver.solve(cutPlusLp(), SdpOptions.defaults().withMaxIterations(3), 0, 0);
        assertEquals(SdpStatus.ITERATION_LIMIT, dd.status(), dd.message());
        assertEquals(3, dd.iterations());
    }

    /** The measures: the gaps relative to 1 + |pobj| + |dobj|, the infeasibilities to 1 + the data norm, μ = ⟨X, Z⟩/n. */
    @Test
    void measuresFollowTheirDefinitions() {
        IpmCore.Measures m = IpmCore.Measures.of(3, 1, 0.5, 4, 6, 1, 2, 5);
        assertEquals(2.0 / 5, m.gap(), 0);
        assertEquals(0.5 / 5, m.gapXz(), 0);
        assertEquals(2.0, m.pinf(), 0);
        assertEquals(2.0, m.dinf(), 0);
        assertEquals(0.1, m.mu(), 1e-17);
        assertEquals(5, m.stats().length);
    }
}
