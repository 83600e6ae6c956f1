package org.psdkit.linalg.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.psdkit.density.BaseMeasure;
import org.psdkit.density.PsdDensity;
import org.psdkit.kernel.GaussianKernel;
import org.psdkit.linalg.Matrix;

/** Row blocks cover every row once, in order, and a model evaluated in blocks gives what one block gives. */
class RowBlocksTest {

    @Test
    void blocksCoverTheRowsInOrderAndBoundTheCrossMatrix() {
        int n = 5000;
        Matrix x = Matrix.zeros(n, 1);
        for (int i = 0; i < n; i++) {
            x.set(i, 0, i);
        }
        int width = (int) (RowBlocks.blockEntries() / 1000); // ~1000 rows a block
        List<Integer> sizes = new ArrayList<>();
        double[] out = RowBlocks.apply(x, width, xb -> {
            sizes.add(xb.rows());
            return xb.col(0);
        });
        assertTrue(sizes.size() > 1, sizes.toString());
        for (int s : sizes) {
            assertTrue((long) s * width <= Math.max(RowBlocks.blockEntries(), width), s + " rows");
        }
        assertEquals(n, sizes.stream().mapToInt(Integer::intValue).sum());
        assertArrayEquals(x.col(0), out, 0.0);
        // a set within one block is passed whole
        List<Matrix> whole = new ArrayList<>();
        RowBlocks.apply(x, 1, xb -> {
            whole.add(xb);
            return new double[xb.rows()];
        });
        assertEquals(1, whole.size());
        assertTrue(whole.get(0) == x);
    }

    @Test
    void aDensityEvaluatedInBlocksEqualsItsRowByRowValues() {
        java.util.SplittableRandom r = new java.util.SplittableRandom(1);
        int m = 2000;
        Matrix pts = Matrix.zeros(m, 2);
        Matrix factor = Matrix.zeros(m, 3);
        for (int i = 0; i < m; i++) {
            pts.set(i, 0, r.nextGaussian());
            pts.set(i, 1, r.nextGaussian());
            for (int k = 0; k < 3; k++) {
                factor.set(i, k, r.nextGaussian() * 1e-3);
            }
        }
        PsdDensity p = new PsdDensity(new GaussianKernel(0.5), pts, factor, new BaseMeasure.Lebesgue(), null);
        int n = (int) (3 * RowBlocks.blockEntries() / m) + 7; // several blocks
        Matrix x = Matrix.zeros(n, 2);
        for (int i = 0; i < n; i++) {
            x.set(i, 0, r.nextGaussian());
            x.set(i, 1, r.nextGaussian());
        }
        double[] all = p.f(x);
        for (int i = 0; i < n; i += 97) {
            double one = p.f(x.selectRows(new int[] {i}))[0];
            assertEquals(one, all[i], 1e-12 * Math.max(1, Math.abs(one)), "row " + i);
        }
    }
}
