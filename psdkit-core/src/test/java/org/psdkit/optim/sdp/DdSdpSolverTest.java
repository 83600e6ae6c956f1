package org.psdkit.optim.sdp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.psdkit.linalg.Linalg;
import org.psdkit.linalg.Matrix;

class DdSdpSolverTest {

    /** Certification thresholds for an SDPLIB value (relative gap and infeasibilities, as in issue 6's note). */
    static final double CERTIFIED_GAP = 1e-6;
    static final double CERTIFIED_INFEASIBILITY = 1e-7;

    /** The 2×2 problem without interior point described below (one block, index 0). */
    static SdpProblem noInterior() {
        SdpProblem.Builder b = SdpProblem.builder(2);
        int blk = b.addBlock(2);
        b.addC(blk, 0, 0, 1).addC(blk, 0, 1, 1).addC(blk, 1, 1, 1);
        b.addA(0, blk, 0, 0, 1).addA(1, blk, 1, 1, 1);
        b.setB(0, 0).setB(1, 1);
        return b.build();
    }

    /**
     * min ⟨C, X⟩ s.t. X₁₁ = 0, X₂₂ = 1 with C = [[1, 1], [1, 1]]: X₁₁ = 0 forces X₁₂ = 0, so X = diag(0, 1) and the
     * value is 1; the primal has no interior point and the dual optimum (y₂ → 1 as y₁ → −∞) is not attained.
     */
    /** The restart's slow-progress stop acts only once the best score was near-optimal a window ago. */
    @Test
    void slowProgressStopsOnlyOnceNearOptimal() {
        int w = IpmSettings.DEFAULT.stagnationIterations();
        double[] h = new double[w + 1];
        // best score 3.0 a window ago (near-optimal), 2.5 now: less than 2-fold, no measure halved since → stop
        int iter = 40;
        h[(iter - w) % h.length] = 3.0;
        h[iter % h.length] = 2.5;
        assertTrue(IterateMonitor.slowNearOptimal(iter, 2.5, h, 0, IpmSettings.DEFAULT));
        // 2-fold progress is convergence, not a stall
        assertFalse(IterateMonitor.slowNearOptimal(iter, 1.4, h, 0, IpmSettings.DEFAULT));
        // a measure above its tolerance halved within the window (qap6's ⟨X, Z⟩ while its gap floats)
        assertFalse(IterateMonitor.slowNearOptimal(iter, 2.5, h, iter - w + 1, IpmSettings.DEFAULT));
        // far from the tolerances a window ago (hinf13 creeping from 113 to 89): the run goes on
        h[(iter - w) % h.length] = 113;
        assertFalse(IterateMonitor.slowNearOptimal(iter, 89, h, 0, IpmSettings.DEFAULT));
        // fewer iterations than the window
        assertFalse(IterateMonitor.slowNearOptimal(w, 1, new double[w + 1], 0, IpmSettings.DEFAULT));
    }

    @Test
    void problemWithoutInteriorIsSolvedToTheClosedFormValue() {
        // without an interior the value error is ~√(infeasibility): X₁₂² ≤ X₁₁ X₂₂ lets X₁₂ ≈ −√ε when X₁₁ = ε.
        // Double-double reaches tolerances far below double's, and with them the value.
        SdpProblem p = noInterior();
        SdpResult r = DdSdpSolver.solve(p, SdpOptions.defaults().withTolerance(1e-16), 0, 0);
        assertEquals(SdpStatus.OPTIMAL, r.status(), r.message());
        assertEquals(1.0, r.primalObjective(), 1e-7);
        assertEquals(1.0, r.dualObjective(), 1e-7);
        assertTrue(r.primalInfeasibility() < 1e-16 && r.dualInfeasibility() < 1e-16);
    }

    /**
     * hinf1 (SDPLIB): the double-precision run stalls at a relative gap ~1e-5; the double-double restart reaches the
     * tolerance. The certificate is recomputed here from the returned point and the problem data (A(X) = b,
     * C − Σ y_i A_i = Z, X ⪰ 0, Z ⪰ 0, objective gap) rather than read from the result, and the value is compared
     * with the published 2.0326 (five digits).
     */
    @Test
    void hinf1IsCertifiedToOneInAMillion() throws IOException {
        SdpProblem p = SdpSolverTest.resource("hinf1");
        SdpResult r = SdpSolver.solve(p);
        assertEquals(SdpStatus.OPTIMAL, r.status(), r.message());
        int m = p.constraints();
        double[] ax = new double[m];
        double pobj = 0;
        double normR = 0;
        double normC = 0;
        for (int blk = 0; blk < p.blocks(); blk++) {
            Matrix x = r.x()[blk];
            Matrix c = p.c(blk) == null ? Matrix.zeros(x.rows(), x.rows()) : p.c(blk).toDense();
            Matrix rd = c.minus(r.z()[blk]);
            for (int i = 0; i < m; i++) {
                Coefficient a = p.a(i, blk);
                if (a != null) {
                    Matrix ad = a.toDense();
                    ax[i] += inner(ad, x);
                    rd = rd.minus(ad.scale(r.y()[i]));
                }
            }
            pobj += inner(c, x);
            normR += Math.pow(rd.normF(), 2);
            normC += Math.pow(c.normF(), 2);
            assertTrue(Linalg.eigvalsh(x)[0] >= -1e-12 * x.normF(), "X is PSD");
            assertTrue(Linalg.eigvalsh(r.z()[blk])[0] >= -1e-12 * r.z()[blk].normF(), "Z is PSD");
        }
        double normB = 0;
        double pinf = 0;
        double dobj = 0;
        for (int i = 0; i < m; i++) {
            normB += p.bAt(i) * p.bAt(i);
            pinf += Math.pow(p.bAt(i) - ax[i], 2);
            dobj += p.bAt(i) * r.y()[i];
        }
        assertTrue(Math.sqrt(pinf) / (1 + Math.sqrt(normB)) <= CERTIFIED_INFEASIBILITY, "primal infeasibility");
        assertTrue(Math.sqrt(normR) / (1 + Math.sqrt(normC)) <= CERTIFIED_INFEASIBILITY, "dual infeasibility");
        assertTrue(Math.abs(pobj - dobj) / (1 + Math.abs(pobj) + Math.abs(dobj)) <= CERTIFIED_GAP, "gap");
        double value = SdpaFormat.sdpaView(r).objective();
        assertEquals(2.0326, value, 1e-4 * 2.0326, "published value to its 5 digits");
    }

    /**
     * The double-double solver on qap5 (m = 136 ≥ {@link DoubleDouble#PARALLEL_MIN_ORDER}: Schur assembly and
     * Cholesky on the pool) gives bit for bit the same X, y, Z and iteration count with 1 and with 2 threads.
     */
    @Test
    void qap5OnTwoThreadsIsBitIdenticalToOneThread() throws IOException {
        SdpProblem p = SdpSolverTest.resource("qap5");
        assertTrue(p.constraints() >= DoubleDouble.PARALLEL_MIN_ORDER, "the parallel path is taken");
        int before = org.psdkit.linalg.Threads.get();
        SdpResult[] r = new SdpResult[2];
        try {
            for (int t = 0; t < 2; t++) {
                org.psdkit.linalg.Threads.set(t + 1);
                r[t] = DdSdpSolver.solve(p, SdpOptions.defaults(), 0, 0);
            }
        } finally {
            org.psdkit.linalg.Threads.set(before);
        }
        assertEquals(SdpStatus.OPTIMAL, r[0].status(), r[0].message());
        assertEquals(r[0].status(), r[1].status());
        assertEquals(r[0].iterations(), r[1].iterations());
        assertTrue(java.util.Arrays.equals(r[0].y(), r[1].y()), "y");
        for (int blk = 0; blk < p.blocks(); blk++) {
            assertTrue(java.util.Arrays.equals(r[0].x()[blk].data(), r[1].x()[blk].data()), "X block " + blk);
            assertTrue(java.util.Arrays.equals(r[0].z()[blk].data(), r[1].z()[blk].data()), "Z block " + blk);
        }
        assertEquals(Double.doubleToLongBits(r[0].primalObjective()), Double.doubleToLongBits(r[1].primalObjective()));
    }

    /**
     * Reusing the Cholesky factors of the step tests (for the neighbourhood test and the next iteration), forming
     * A(S) four constraints at a time and the Schur inner products four terms at a time give the same iterates bit for
     * bit as factoring anew and summing term by term: same iterations, X, y, Z and objective.
     */
    @Test
    void reusedFactorsAndInterleavedOperatorGiveBitIdenticalIterates() throws IOException {
        for (String name : new String[] {"hinf1", "control1", "truss4"}) {
            SdpProblem p = SdpSolverTest.resource(name);
            SdpResult[] r = new SdpResult[2];
            for (int t = 0; t < 2; t++) {
                DdSdpSolver s = DdSdpSolver.of(p);
                s.reuseFactors = t == 0;
                s.interleavedOpA = t == 0;
                s.schurAssembly.interleavedInnerProducts = t == 0;
                r[t] = s.solveFromStandardStart();
            }
            assertEquals(r[1].status(), r[0].status(), name);
            assertEquals(r[1].iterations(), r[0].iterations(), name);
            assertTrue(r[0].iterations() > 5, name + ": " + r[0].iterations());
            assertTrue(java.util.Arrays.equals(r[0].y(), r[1].y()), name + ": y");
            for (int blk = 0; blk < p.blocks(); blk++) {
                assertTrue(java.util.Arrays.equals(r[0].x()[blk].data(), r[1].x()[blk].data()), name + ": X " + blk);
                assertTrue(java.util.Arrays.equals(r[0].z()[blk].data(), r[1].z()[blk].data()), name + ": Z " + blk);
            }
            assertEquals(Double.doubleToLongBits(r[1].primalObjective()),
                    Double.doubleToLongBits(r[0].primalObjective()), name);
        }
    }

    /** A(S) four constraints at a time is bit-identical to the term-by-term sum, on random dense S. */
    @Test
    void interleavedOperatorIsBitIdenticalToTheTermByTermOne() throws IOException {
        for (String name : new String[] {"hinf1", "hinf12", "control1", "truss4", "theta1", "infp1"}) {
            SdpProblem p = SdpSolverTest.resource(name);
            DdSdpSolver solver = DdSdpSolver.of(p);
            java.util.Random rnd = new java.util.Random(7);
            DoubleDouble.Mat[] s = new DoubleDouble.Mat[p.blocks()];
            for (int b = 0; b < p.blocks(); b++) {
                int size = p.blockSize(b);
                s[b] = p.isDiagonal(b) ? new DoubleDouble.Mat(size, 1) : new DoubleDouble.Mat(size, size);
                for (int k = 0; k < s[b].h.length; k++) {
                    s[b].h[k] = rnd.nextGaussian() * Math.pow(10, rnd.nextInt(7) - 3);
                    s[b].l[k] = s[b].h[k] * 1e-17 * rnd.nextGaussian();
                }
            }
            int m = p.constraints();
            double[][] out = new double[4][m];
            solver.opA(s, out[0], out[1]);
            solver.opAPlain(s, out[2], out[3]);
            assertTrue(java.util.Arrays.equals(out[0], out[2]) && java.util.Arrays.equals(out[1], out[3]), name);
        }
    }

    /**
     * The restart from a double-precision iterate (the problem without interior above, after 6 double iterations)
     * reaches the same closed-form value 1 as the restart from the standard start, in fewer double-double
     * iterations.
     */
    @Test
    void restartFromADoubleIterateReachesTheClosedFormValueInFewerIterations() {
        SdpProblem p = noInterior();
        int blk = 0;
        SdpResult early = SdpSolver.solve(p, SdpOptions.defaults().withMaxIterations(6));
        assertEquals(SdpStatus.ITERATION_LIMIT, early.status(), early.message());
        SdpOptions tight = SdpOptions.defaults().withTolerance(1e-16);
        SdpResult warm = DdSdpSolver.solve(p, tight, 0, 0, new double[][] {early.x()[blk].data()}, early.y(),
                new double[][] {early.z()[blk].data()});
        SdpResult cold = DdSdpSolver.solve(p, tight, 0, 0);
        assertEquals(SdpStatus.OPTIMAL, warm.status(), warm.message());
        assertEquals(1.0, warm.primalObjective(), 1e-7);
        assertEquals(1.0, warm.dualObjective(), 1e-7);
        assertTrue(warm.iterations() < cold.iterations(), warm.iterations() + " vs " + cold.iterations());
    }

    /**
     * hinf1's double run stalls at a relative gap ~1e-5 from iteration ~25 on, where the Schur complement first needs
     * jitter and the primal step collapses. The run hands over to the double-double restart there
     * ({@link SdpSolver#HANDOVER_STEP}): 26 double iterations, against 67 before the rule (the double run then went
     * on until three steps below 1e-10), and the value is still certified. With a limit of 10 iterations the run is
     * still converging at the limit and is not continued.
     */
    @Test
    void aSingularSchurComplementWithAShortPrimalStepHandsOverEarly() throws IOException {
        SdpProblem p = SdpSolverTest.resource("hinf1");
        SdpResult r = SdpSolver.solve(p);
        assertEquals(SdpStatus.OPTIMAL, r.status(), r.message());
        assertTrue(r.message().contains("Schur complement singular (jitter) with a primal step below"), r.message());
        assertTrue(r.message().contains("double-double restart from iteration"), r.message());
        assertTrue(r.profile().ddRestart(), r.message());
        assertTrue(r.profile().doubleIterations() <= 30, r.profile().doubleIterations() + " double iterations");
        assertTrue(r.relativeGap() <= CERTIFIED_GAP && r.primalInfeasibility() <= CERTIFIED_INFEASIBILITY
                && r.dualInfeasibility() <= CERTIFIED_INFEASIBILITY, r.message());
        assertEquals(2.0326, SdpaFormat.sdpaView(r).objective(), 1e-4 * 2.0326, "published value to its 5 digits");
        SdpResult converging = SdpSolver.solve(p, SdpOptions.defaults().withMaxIterations(10));
        assertEquals(SdpStatus.ITERATION_LIMIT, converging.status(), converging.message());
        assertEquals(10, converging.iterations());
        assertTrue(!converging.message().contains("double-double"), converging.message());
    }

    /**
     * With the double-double restart switched off ({@link SdpOptions#doubleDouble} false) hinf1's solve is the
     * default solve's double phase: the same double iterations, ending at the hand-over, and the double run's best
     * point returned uncertified (hinf1's double run stalls near a relative gap of 1e-5), with a message that says
     * the restart is off. Problems that never restart are bit-identical either way.
     */
    @Test
    void withoutTheDoubleDoubleRestartTheDoublePhaseIsReturnedUncertified() throws IOException {
        SdpProblem p = SdpSolverTest.resource("hinf1");
        SdpResult full = SdpSolver.solve(p);
        SdpResult dbl = SdpSolver.solve(p, SdpOptions.defaults().withDoubleDouble(false));
        assertTrue(full.profile().ddRestart(), full.message());
        assertFalse(dbl.profile().ddRestart(), dbl.message());
        assertEquals(0.0, dbl.profile().ddSeconds());
        assertEquals(full.profile().doubleIterations(), dbl.profile().doubleIterations(), dbl.message());
        assertEquals(dbl.profile().doubleIterations(), dbl.iterations());
        assertFalse(dbl.status() == SdpStatus.OPTIMAL, dbl.status() + ": " + dbl.message());
        assertTrue(dbl.message().contains("the double-double restart that would follow is switched off"),
                dbl.message());
        assertTrue(dbl.relativeGap() > CERTIFIED_GAP && dbl.relativeGap() < 1e-3, dbl.message());
        assertEquals(2.0326, SdpaFormat.sdpaView(dbl).objective(), 1e-3 * 2.0326, dbl.message());
        for (String name : new String[] {"truss4", "theta1", "control1"}) {
            SdpProblem q = SdpSolverTest.resource(name);
            SdpResult a = SdpSolver.solve(q);
            SdpResult b = SdpSolver.solve(q, SdpOptions.defaults().withDoubleDouble(false));
            assertFalse(a.profile().ddRestart(), name + ": " + a.message());
            assertEquals(a.status(), b.status(), name);
            assertEquals(a.iterations(), b.iterations(), name);
            assertEquals(Double.doubleToLongBits(a.primalObjective()), Double.doubleToLongBits(b.primalObjective()),
                    name);
            assertEquals(Double.doubleToLongBits(a.dualObjective()), Double.doubleToLongBits(b.dualObjective()), name);
        }
    }

    private static double inner(Matrix a, Matrix b) {
        double s = 0;
        for (int k = 0; k < a.data().length; k++) {
            s += a.data()[k] * b.data()[k];
        }
        return s;
    }

    /**
     * The double-double Schur complement that forms G_j = X A_j Z⁻¹ only where the later constraints read it equals,
     * bit for bit, the one that forms G_j in full; the problem mimics qap (a dense constraint between one-entry ones,
     * diagonal ones first), and both agree with the plain tr(A_i X A_j Z⁻¹) to 1e-12.
     */
    @Test
    void schurFromTheNeededEntriesOfGIsBitIdenticalToTheFullOne() {
        Random rnd = new Random(11);
        int n = 9;
        int m = 30;
        SdpProblem.Builder b = SdpProblem.builder(m);
        int blk = b.addBlock(n);
        for (int i = 0; i < m; i++) {
            if (i < 3) {
                for (int k = 0; k < n; k++) {
                    b.addA(i, blk, k, k, rnd.nextGaussian());
                }
            } else if (i == 12) {
                for (int q = 0; q < n; q++) {
                    for (int p = 0; p <= q; p++) {
                        b.addA(i, blk, p, q, rnd.nextGaussian());
                    }
                }
            } else {
                int p = rnd.nextInt(n - 1);
                b.addA(i, blk, p, p + 1 + rnd.nextInt(n - 1 - p), 1.0);
            }
        }
        SdpProblem p = b.build();
        Matrix x = SdpSolverTest.spd(n, 21);
        Matrix zi = SdpSolverTest.spd(n, 22);
        DoubleDouble.Mat[] xs = {DoubleDouble.Mat.of(n, n, x.data())};
        DoubleDouble.Mat[] zis = {DoubleDouble.Mat.of(n, n, zi.data())};
        DdSdpSolver solver = DdSdpSolver.of(p);
        DoubleDouble.Mat lazy = solver.schur(xs, zis, true);
        DoubleDouble.Mat full = solver.schur(xs, zis, false);
        assertTrue(java.util.Arrays.equals(lazy.h, full.h) && java.util.Arrays.equals(lazy.l, full.l));
        // ⟨A_i, G_j⟩ four terms at a time (the solver's choice) against one at a time
        solver.schurAssembly.interleavedInnerProducts = false;
        DoubleDouble.Mat single = solver.schur(xs, zis, true);
        solver.schurAssembly.interleavedInnerProducts = true;
        assertTrue(java.util.Arrays.equals(lazy.h, single.h) && java.util.Arrays.equals(lazy.l, single.l), "4-way");
        for (int i = 0; i < m; i++) {
            for (int j = 0; j < m; j++) {
                double ref = p.a(i, blk).toDense().times(x).times(p.a(j, blk).toDense()).times(zi).trace();
                assertEquals(ref, lazy.h[i + j * m], 1e-12 * (1 + Math.abs(ref)), "M(" + i + "," + j + ")");
            }
        }
    }

    /**
     * Constraints whose entries lie on the rows and columns of one or two indices (control's A_i = Σ_k e_k v_kᵀ + v_k
     * e_kᵀ) take the cross route G = Σ_k (X e_k)(Z⁻¹ v_k)ᵀ + (X v_k)(Z⁻¹ e_k)ᵀ; its Schur complement agrees with the
     * support route to double-double accuracy (1e-28 of the largest entry).
     */
    @Test
    void crossShapedConstraintsGiveTheSupportRoutesSchurComplement() {
        Random rnd = new Random(12);
        int n = 34;
        int m = 14;
        SdpProblem.Builder b = SdpProblem.builder(m);
        int blk = b.addBlock(n);
        for (int i = 0; i < m; i++) {
            int k2 = 1 + rnd.nextInt(n - 1);
            for (int q = 0; q < n; q++) {
                b.addA(i, blk, 0, q, rnd.nextGaussian()); // row and column 0, with the diagonal entry
                if (i % 2 == 1 && q != 0) {
                    b.addA(i, blk, Math.min(k2, q), Math.max(k2, q), rnd.nextGaussian()); // and those of k2
                }
            }
        }
        SdpProblem p = b.build();
        Matrix x = SdpSolverTest.spd(n, 31);
        Matrix zi = SdpSolverTest.spd(n, 32);
        DoubleDouble.Mat[] xs = {DoubleDouble.Mat.of(n, n, x.data())};
        DoubleDouble.Mat[] zis = {DoubleDouble.Mat.of(n, n, zi.data())};
        DdSdpSolver solver = DdSdpSolver.of(p);
        DoubleDouble.Mat cross = solver.schur(xs, zis, true);
        solver.schurAssembly.crossRoute = false;
        DoubleDouble.Mat support = solver.schur(xs, zis, true);
        double scale = 0;
        for (double v : support.h) {
            scale = Math.max(scale, Math.abs(v));
        }
        for (int k = 0; k < m * m; k++) {
            double diff = (cross.h[k] - support.h[k]) + (cross.l[k] - support.l[k]);
            assertTrue(Math.abs(diff) <= 1e-28 * scale, "entry " + k + ": " + diff);
        }
        assertTrue(!java.util.Arrays.equals(cross.h, support.h) || !java.util.Arrays.equals(cross.l, support.l),
                "the cross route was not taken");
    }
}
