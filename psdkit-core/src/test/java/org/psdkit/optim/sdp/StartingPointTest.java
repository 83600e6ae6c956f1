package org.psdkit.optim.sdp;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class StartingPointTest {

    /**
     * DdSdpSolverTest.noInterior: C = [[1,1],[1,1]] (‖C‖_F = 2), A_1 = e₁e₁ᵀ, A_2 = e₂e₂ᵀ (norm 1), b = (0, 1), n = 2:
     * max (1+|b_i|)/(1+‖A_i‖) = 1, so ξ = 10·2·1 = 20 and η = 10·(1 + 2)/√2.
     */
    @Test
    void scalesOfASmallProblemByHand() {
        double[] s = StartingPoint.scales(DdSdpSolverTest.noInterior());
        assertEquals(20.0, s[0], 1e-12);
        assertEquals(30.0 / Math.sqrt(2), s[1], 1e-12);
    }

    /** From the norms alone: the floor 1/n on the ratio, and ‖C‖ as the norm when it is the largest. */
    @Test
    void scalesFromNorms() {
        IpmSettings d = IpmSettings.DEFAULT;
        // ratios 1/(1+19), 1/(1+9) below 1/n = 0.25: ξ = 10·4·0.25; the largest norm is ‖C‖ = 20 (not 19 or 9)
        double[] s = StartingPoint.scales(20, new double[] {0, 0}, new double[] {19 * 19, 9 * 9}, 4, d);
        assertEquals(10.0, s[0], 1e-12);
        assertEquals(10.0 * 21 / 2, s[1], 1e-12);
    }

    @Test
    void fillSetsScaledIdentitiesInBlockStorage() {
        double[][] x = {new double[4], new double[3]};
        double[][] z = {new double[4], new double[3]};
        StartingPoint.fill(x, z, new int[] {2, 3}, new boolean[] {false, true}, new double[] {2, 5});
        assertArrayEquals(new double[] {2, 0, 0, 2}, x[0]);
        assertArrayEquals(new double[] {2, 2, 2}, x[1]);
        assertArrayEquals(new double[] {5, 0, 0, 5}, z[0]);
        assertArrayEquals(new double[] {5, 5, 5}, z[1]);
    }
}
