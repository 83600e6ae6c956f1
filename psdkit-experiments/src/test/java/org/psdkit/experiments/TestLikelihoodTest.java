package org.psdkit.experiments;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.psdkit.density.BaseMeasure;
import org.psdkit.density.DensityModel;
import org.psdkit.linalg.Matrix;

class TestLikelihoodTest {

    /** p(x) = x on the rows of a one-column matrix: negative or zero where x ≤ 0. */
    private static DensityModel identity() {
        return new DensityModel() {
            @Override
            public String type() {
                return "test";
            }

            @Override
            public int dimension() {
                return 1;
            }

            @Override
            public BaseMeasure base() {
                return null;
            }

            @Override
            public double[] density(Matrix x) {
                double[] p = new double[x.rows()];
                for (int i = 0; i < p.length; i++) {
                    p[i] = x.get(i, 0);
                }
                return p;
            }

            @Override
            public double integral() {
                return 1;
            }
        };
    }

    @Test
    void aModelPositiveAtEveryTestPointHasItsMeanLogLikelihood() {
        Map<String, Object> row = new LinkedHashMap<>();
        Matrix test = Matrix.wrap(2, 1, new double[] {1, Math.E});
        assertTrue(TestLikelihood.put(row, "test_loglik", identity(), test, 0));
        assertEquals(0.5, (double) row.get("test_loglik"), 1e-15);
        assertFalse(row.containsKey("test_nonpositive"));
        Map<String, Object> shifted = new LinkedHashMap<>();
        TestLikelihood.put(shifted, "renormalised", identity(), test, Math.log(2));
        assertEquals(0.5 - Math.log(2), (double) shifted.get("renormalised"), 1e-15);
    }

    @Test
    void aModelNotPositiveAtSomeTestPointsHasTheirCountInsteadOfMinusInfinity() {
        Map<String, Object> row = new LinkedHashMap<>();
        Matrix test = Matrix.wrap(4, 1, new double[] {1, -0.5, 0, 2});
        assertFalse(TestLikelihood.put(row, "test_loglik", identity(), test, 0));
        assertFalse(row.containsKey("test_loglik"), row.toString());
        assertEquals(2, row.get("test_nonpositive"));
    }
}
