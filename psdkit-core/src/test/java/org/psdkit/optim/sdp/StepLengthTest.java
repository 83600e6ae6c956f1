package org.psdkit.optim.sdp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;
import org.psdkit.linalg.Linalg;
import org.psdkit.linalg.Matrix;

class StepLengthTest {

    /** The Lanczos estimate of λ_min(L⁻¹ dX L⁻ᵀ) agrees with the dense eigenvalue computation to its tolerance. */
    @Test
    void lanczosMatchesDenseSmallestEigenvalue() {
        for (int seed = 1; seed <= 6; seed++) {
            int n = 70 + 20 * seed;
            Matrix x = SdpSolverTest.spd(n, seed);
            Random r = new Random(100 + seed);
            Matrix dx = Matrix.zeros(n, n);
            for (int j = 0; j < n; j++) {
                for (int i = 0; i <= j; i++) {
                    double v = r.nextGaussian();
                    dx.set(i, j, v);
                    dx.set(j, i, v);
                }
            }
            if (seed % 2 == 0) { // a direction with one strongly negative direction, as near the boundary
                for (int i = 0; i < n; i++) {
                    dx.set(i, i, dx.get(i, i) + 5.0 * n);
                }
                dx.set(0, 0, -20.0 * n);
            }
            Matrix l = Linalg.choleskyStrict(x).lower();
            Matrix w = dx.copy();
            Linalg.solveLowerInPlace(l, false, w);
            Matrix wt = w.transpose();
            Linalg.solveLowerInPlace(l, false, wt);
            wt.symmetrizeInPlace();
            double exact = Linalg.eigvalsh(wt)[0];
            double est = StepLength.minEigenvalue(l.data(), dx.data(), n);
            assertFalse(Double.isNaN(est), "seed " + seed + ": Lanczos did not converge");
            // a lower estimate (up to the tolerance) within 0.2% of the exact value
            assertEquals(exact, est, 2 * StepLength.RELATIVE_TOLERANCE * Math.abs(exact), "seed " + seed);
            assertTrue(est <= exact + 1e-9 * Math.abs(exact), "seed " + seed + ": " + est + " > " + exact);
        }
    }

    /**
     * The two stopping rules on the one Lanczos recurrence: the settled Ritz value of {@code ritzMinimum} (Kernel
     * SoS) and the residual-bounded lower estimate of {@code minEigenvalue} (SdpSolver) both find λ_min(L⁻¹ D L⁻ᵀ)
     * of the same matrix, the Ritz value from above (it is a Rayleigh quotient), the estimate from below.
     */
    @Test
    void bothStoppingRulesFindTheSmallestEigenvalue() {
        int n = 90;
        Matrix x = SdpSolverTest.spd(n, 11);
        Random r = new Random(7);
        Matrix d = Matrix.zeros(n, n);
        for (int j = 0; j < n; j++) {
            for (int i = 0; i <= j; i++) {
                double v = r.nextGaussian();
                d.set(i, j, v);
                d.set(j, i, v);
            }
        }
        d.set(0, 0, -20.0 * n); // one strongly negative direction, as near the boundary
        Matrix l = Linalg.choleskyStrict(x).lower();
        Matrix w = d.copy();
        Linalg.solveLowerInPlace(l, false, w);
        Matrix wt = w.transpose();
        Linalg.solveLowerInPlace(l, false, wt);
        wt.symmetrizeInPlace();
        double exact = Linalg.eigvalsh(wt)[0];
        double ritz = StepLength.ritzMinimum(n, l.data(), d.data());
        double lower = StepLength.minEigenvalue(l.data(), d.data(), n);
        assertEquals(exact, ritz, 1e-4 * Math.abs(exact));
        assertTrue(ritz >= exact - 1e-9 * Math.abs(exact), ritz + " < " + exact);
        assertEquals(exact, lower, 2 * StepLength.RELATIVE_TOLERANCE * Math.abs(exact));
        assertTrue(lower <= ritz, lower + " > " + ritz);
    }
}
