package org.psdkit.psd;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.psdkit.kernel.GaussianKernel;
import org.psdkit.linalg.Matrix;

/** Anchor choice (seeded, distinct, all points when m ≥ n) and the Nyström map with every point an anchor. */
class AnchorsTest {

    static Matrix data(int n, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        Matrix x = Matrix.zeros(n, 2);
        for (int i = 0; i < n; i++) {
            x.set(i, 0, r.nextDouble() * 4 - 2);
            x.set(i, 1, r.nextDouble() < 0.8 ? r.nextDouble() * 0.2 : r.nextDouble() * 4 - 2); // dense strip
        }
        return x;
    }

    @Test
    void everyMethodIsSeededAndPicksDistinctPoints() {
        Matrix x = data(200, 1);
        GaussianKernel k = new GaussianKernel(0.5);
        for (Anchors.Method m : Anchors.Method.values()) {
            int[] a = Anchors.select(k, x, 30, m, 7);
            assertArrayEquals(a, Anchors.select(k, x, 30, m, 7), m.id());
            assertEquals(30, Arrays.stream(a).distinct().count(), m.id());
            assertTrue(Arrays.stream(a).allMatch(i -> i >= 0 && i < 200), m.id());
            assertTrue(!Arrays.equals(a, Anchors.select(k, x, 30, m, 8)), m.id());
            assertEquals(m, Anchors.Method.parse(m.id()));
        }
        assertArrayEquals(new int[] {0, 1, 2, 3, 4}, Anchors.select(k, data(5, 2), 9, Anchors.Method.LEVERAGE, 1));
        assertThrows(IllegalArgumentException.class, () -> Anchors.Method.parse("random"));
    }

    @Test
    void spreadingMethodsCoverTheDataBetterThanUniform() {
        // fraction of the data explained by the anchors' span: Tr(K − K_{·a} K_aa⁺ K_{a·}) / Tr K, averaged over seeds
        Matrix x = data(300, 3);
        GaussianKernel k = new GaussianKernel(0.3);
        double uni = 0;
        double lev = 0;
        for (long s = 1; s <= 3; s++) {
            uni += residual(k, x, Anchors.select(k, x, 25, Anchors.Method.UNIFORM, s));
            lev += residual(k, x, Anchors.select(k, x, 25, Anchors.Method.LEVERAGE, s));
        }
        assertTrue(lev < uni, lev + " vs " + uni);
    }

    private static double residual(GaussianKernel k, Matrix x, int[] a) {
        EmpiricalFeatureMap map = EmpiricalFeatureMap.nystrom(k, x.selectRows(a), x, 1e-10);
        Matrix v = map.trainingFeatures();
        double res = 0;
        for (int i = 0; i < x.rows(); i++) {
            double s = 0;
            for (int t = 0; t < v.rows(); t++) {
                s += v.get(t, i) * v.get(t, i);
            }
            res += 1 - s; // k(x,x) = 1
        }
        return res / x.rows();
    }
}
