package org.psdkit.data;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.psdkit.linalg.Matrix;

class ScalerSplitsTest {

    static Matrix random(int n, int d, long seed) {
        Random r = new Random(seed);
        Matrix m = Matrix.zeros(n, d);
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < d; j++) {
                m.set(i, j, 3 + 5 * r.nextGaussian() * (j + 1));
            }
        }
        return m;
    }

    @Test
    void zscoreGivesMeanZeroUnitVariance() {
        Matrix x = random(50, 3, 1);
        Matrix z = Scaler.fit(Scaler.Kind.ZSCORE, x).apply(x);
        for (int j = 0; j < 3; j++) {
            double m = Arrays.stream(z.col(j)).average().orElseThrow();
            double v = Arrays.stream(z.col(j)).map(a -> (a - m) * (a - m)).sum() / 50;
            assertEquals(0, m, 1e-12);
            assertEquals(1, v, 1e-12);
        }
    }

    @Test
    void minmaxMapsTrainingOntoUnitInterval() {
        Matrix x = random(40, 2, 2);
        Matrix z = Scaler.fit(Scaler.Kind.MINMAX, x).apply(x);
        for (int j = 0; j < 2; j++) {
            assertEquals(0, Arrays.stream(z.col(j)).min().orElseThrow(), 0);
            assertEquals(1, Arrays.stream(z.col(j)).max().orElseThrow(), 1e-15);
        }
    }

    @Test
    void constantColumnMapsToZeroAndJsonRoundTrips() {
        Matrix x = Matrix.of(new double[][] {{1, 7}, {2, 7}, {4, 7}});
        Scaler s = Scaler.fit(Scaler.Kind.ZSCORE, x);
        assertArrayEquals(new double[] {0, 0, 0}, s.apply(x).col(1));
        Scaler back = Scaler.fromJson(s.toJson(), "test");
        assertEquals(s, back);
        assertThrows(IllegalArgumentException.class, () -> Scaler.Kind.parse("robust"));
        assertThrows(IllegalArgumentException.class, () -> s.apply(Matrix.zeros(2, 3)));
    }

    @Test
    void kFoldPartitionsEveryRowOnceAndIsSeeded() {
        Splits.TrainTest[] f = Splits.kFold(23, 5, 7);
        int[] seen = new int[23];
        for (Splits.TrainTest t : f) {
            assertEquals(23, t.train().length + t.test().length);
            assertEquals(true, t.test().length == 4 || t.test().length == 5);
            for (int i : t.test()) {
                seen[i]++;
            }
            int[] all = new int[23];
            for (int i : t.train()) {
                all[i]++;
            }
            for (int i : t.test()) {
                all[i]++;
            }
            assertEquals(23, Arrays.stream(all).filter(c -> c == 1).count());
        }
        assertEquals(23, Arrays.stream(seen).filter(c -> c == 1).count());
        assertArrayEquals(Splits.kFold(23, 5, 7)[2].test(), f[2].test());
        assertNotEquals(Arrays.toString(Splits.kFold(23, 5, 8)[0].test()), Arrays.toString(f[0].test()));
        assertThrows(IllegalArgumentException.class, () -> Splits.kFold(3, 5, 1));
    }

    @Test
    void trainTestSplitSizes() {
        Splits.TrainTest t = Splits.trainTest(506, 0.2, 3);
        assertEquals(101, t.test().length);
        assertEquals(405, t.train().length);
        Dataset d = Dataset.of(Matrix.of(new double[][] {{1}, {2}, {3}}), new double[] {10, 20, 30});
        Dataset s = Splits.subset(d, new int[] {2, 0});
        assertArrayEquals(new double[] {30, 10}, s.y());
        assertArrayEquals(new double[] {3, 1}, s.x().col(0));
    }
}
