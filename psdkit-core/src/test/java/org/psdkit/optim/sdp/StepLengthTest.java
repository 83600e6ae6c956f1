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
}
