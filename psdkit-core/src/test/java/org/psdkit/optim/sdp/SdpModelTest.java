package org.psdkit.optim.sdp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.psdkit.linalg.Linalg;
import org.psdkit.linalg.Matrix;

class SdpModelTest {

    @Test
    void largestEigenvalueThroughAnLmiInAScalar() {
        // min t s.t. t I − W ⪰ 0  →  λ_max(W)
        Matrix w = SdpSolverTest.randomSymmetric(6, 5);
        SdpModel model = new SdpModel();
        SdpModel.Var t = model.scalar("t");
        SdpModel.Lmi lmi = model.lmi(6);
        lmi.addConstant(w.scale(-1));
        lmi.addMatrix(t, Matrix.identity(6));
        SdpModel.Solution s = model.minimize(LinExpr.of(t));
        double[] ev = Linalg.eigvalsh(w);
        assertTrue(s.isOptimal());
        assertEquals(ev[5], s.value(t), 1e-7);
        assertEquals(ev[5], s.objective(), 1e-7);
        // the multiplier is a unit-trace PSD matrix on the top eigenvector
        assertEquals(1.0, s.multiplier(lmi).trace(), 1e-6);
    }

    @Test
    void psdMatrixVariableWithAnEqualityGivesTheSmallestEigenvalue() {
        // min ⟨W, P⟩ s.t. trace P = 1, P ⪰ 0  →  λ_min(W); the equality is eliminated before solving
        Matrix w = SdpSolverTest.randomSymmetric(5, 8);
        SdpModel model = new SdpModel();
        SdpModel.MatrixVar p = model.psdMatrix("P", 5);
        model.equal(p.inner(Matrix.identity(5)), 1.0);
        SdpModel.Solution s = model.minimize(p.inner(w));
        assertTrue(s.isOptimal(), s.result().message());
        assertEquals(Linalg.eigvalsh(w)[0], s.objective(), 1e-7);
        Matrix pv = s.value(p);
        assertEquals(1.0, pv.trace(), 1e-9);
        assertTrue(Linalg.eigvalsh(pv)[0] > -1e-7);
    }

    @Test
    void linearInequalitiesAndMaximisation() {
        // max x + y s.t. x ≤ 1, y ≤ 2, x + y ≤ 2.5, [[1, x], [x, 4]] ⪰ 0 (|x| ≤ 2): optimum 2.5
        SdpModel model = new SdpModel();
        SdpModel.Var x = model.scalar("x");
        SdpModel.Var y = model.scalar("y");
        model.lessEqual(LinExpr.of(x), 1).lessEqual(LinExpr.of(y), 2)
                .lessEqual(LinExpr.of(x).plus(y), 2.5);
        model.lmi(2).constant(0, 0, 1).constant(1, 1, 4).add(x, 0, 1, 1.0);
        SdpModel.Solution s = model.maximize(LinExpr.of(x).plus(y));
        assertTrue(s.isOptimal());
        assertEquals(2.5, s.objective(), 1e-7);
        double[] mult = s.inequalityMultipliers();
        assertEquals(3, mult.length);
        assertEquals(1.0, mult[2], 1e-6); // only x + y ≤ 2.5 binds: its multiplier is 1
    }

    @Test
    void lowRankCoefficientsGiveTheSameAnswerAsDenseOnes() {
        // min t s.t. [[t, vᵀ], [v, I]] ⪰ 0 (t ≥ |v|²) with v = a·u, over a in [1, 2] by a ≥ 1: optimum |u|²
        double[] u = {0.3, -1.2, 0.5};
        for (boolean lowRank : new boolean[] {false, true}) {
            SdpModel model = new SdpModel();
            SdpModel.Var t = model.scalar("t");
            SdpModel.Var a = model.scalar("a");
            model.greaterEqual(LinExpr.of(a), 1);
            SdpModel.Lmi lmi = model.lmi(4);
            lmi.add(t, 0, 0, 1.0);
            for (int i = 1; i < 4; i++) {
                lmi.constant(i, i, 1.0);
            }
            Matrix e = Matrix.zeros(4, 1);
            e.set(0, 0, 1);
            Matrix w = Matrix.zeros(4, 1);
            for (int i = 0; i < 3; i++) {
                w.set(i + 1, 0, u[i]);
            }
            if (lowRank) {
                Matrix uu = Matrix.zeros(4, 2);
                uu.set(0, 0, 1);
                for (int i = 0; i < 3; i++) {
                    uu.set(i + 1, 1, u[i]);
                }
                lmi.addLowRank(a, uu, Matrix.of(new double[][] {{0, 1}, {1, 0}}));
            } else {
                lmi.addMatrix(a, e.times(w.transpose()).plus(w.times(e.transpose())));
            }
            SdpModel.Solution s = model.minimize(LinExpr.of(t));
            assertTrue(s.isOptimal());
            assertEquals(0.09 + 1.44 + 0.25, s.objective(), 1e-7, "lowRank=" + lowRank);
            assertEquals(1.0, s.value(a), 1e-6);
        }
    }

    @Test
    void infeasibleAndUnboundedModelsAreReported() {
        SdpModel bad = new SdpModel();
        SdpModel.Var x = bad.scalar("x");
        bad.greaterEqual(LinExpr.of(x), 1).lessEqual(LinExpr.of(x), 0);
        bad.lmi(1).constant(0, 0, 1);
        assertTrue(bad.minimize(LinExpr.of(x)).isInfeasible());

        SdpModel free = new SdpModel();
        SdpModel.Var y = free.scalar("y");
        free.lmi(1).add(y, 0, 0, 1.0); // y ≥ 0
        assertTrue(free.maximize(LinExpr.of(y)).isUnbounded());
    }

    @Test
    void inconsistentEqualitiesAreBadInput() {
        SdpModel model = new SdpModel();
        SdpModel.Var x = model.scalar("x");
        model.equal(LinExpr.of(x), 1).equal(LinExpr.of(2.0, x), 3);
        model.lmi(1).add(x, 0, 0, 1.0);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> model.minimize(LinExpr.of(x)));
        assertTrue(e.getMessage().contains("inconsistent"), e.getMessage());
    }
}
