package org.psdkit.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.psdkit.data.Dataset;
import org.psdkit.kernel.Kernels;
import org.psdkit.linalg.Linalg;
import org.psdkit.linalg.Matrix;
import org.psdkit.optim.ProgressListener;

class KrrBenchmarkTest {

    static Dataset data(int n, int d, long seed) {
        Random r = new Random(seed);
        Matrix x = Matrix.zeros(n, d);
        double[] y = new double[n];
        for (int i = 0; i < n; i++) {
            double s = 0;
            for (int j = 0; j < d; j++) {
                double v = r.nextGaussian();
                x.set(i, j, v);
                s += v;
            }
            y[i] = Math.sin(s) + 0.1 * r.nextGaussian();
        }
        return Dataset.of(x, y);
    }

    @Test
    void baselinesAgreeWithTheFitAndThePlainJavaOneStopsAtItsLimit() {
        List<ProgressListener.Event> events = new ArrayList<>();
        KrrBenchmark.Result res = KrrBenchmark.run(new KrrBenchmark.Options(data(80, 3, 4), new int[] {30, 60},
                Kernels.gaussian(1), 0.01, 2, 30, 1), events::add);
        assertEquals(2, res.rows().size());
        assertEquals(0.01, res.lambda());
        assertTrue(res.kernel().startsWith("gaussian"), res.kernel());
        KrrBenchmark.Row small = res.rows().get(0);
        KrrBenchmark.Row big = res.rows().get(1);
        assertEquals(30, small.n());
        assertEquals(3, small.d());
        assertTrue(small.hasPlainJava() && small.maxRelDiffVsPlainJava() < 1e-8, small.toString());
        assertTrue(small.maxRelDiffVsEigenRoute() < 1e-6, small.toString());
        assertTrue(small.maxRelDiffVsPreviousRoute() < 1e-10 && small.speedupVsPreviousRoute() > 0, small.toString());
        assertTrue(small.psdkitSeconds() > 0 && small.speedupVsEigenRoute() > 0 && small.speedupVsPlainJava() > 0);
        assertTrue(!big.hasPlainJava() && Double.isNaN(big.maxRelDiffVsPlainJava()), "plain Java skipped above javaMaxN");
        assertTrue(big.maxRelDiffVsEigenRoute() < 1e-6, big.toString());
        // phases: fit, eigen route, plain Java (n = 30); fit, eigen route (n = 60)
        assertEquals("n=30: psdkit fit x2", events.get(0).task());
        assertEquals(5, events.get(events.size() - 1).step());
        assertEquals(5, events.get(events.size() - 1).total());
    }

    @Test
    void plainJavaCholeskyBaselineSolvesTheSystem() {
        Random r = new Random(3);
        int n = 30;
        Matrix g = Matrix.zeros(n, n);
        for (int k = 0; k < n * n; k++) {
            g.data()[k] = r.nextGaussian();
        }
        Matrix a = Linalg.syrk(g, true);
        double[] y = new double[n];
        for (int i = 0; i < n; i++) {
            y[i] = r.nextGaussian();
        }
        double[] x = KrrBenchmark.plainJavaCholeskySolve(a, 0.5, y);
        Matrix shifted = a.copy();
        shifted.addToDiagonal(0.5);
        double[] back = shifted.times(x);
        for (int i = 0; i < n; i++) {
            assertEquals(y[i], back[i], 1e-9);
        }
    }

    @Test
    void badOptionsAreRejectedNamingTheParameter() {
        Dataset d = data(10, 2, 1);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new KrrBenchmark.Options(d,
                new int[] {11}, Kernels.gaussian(1), 0.01, 1, 10, 1));
        assertEquals("sizes: 11 is not in [2, 10]", e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> new KrrBenchmark.Options(d, new int[] {5},
                Kernels.gaussian(1), 0, 1, 10, 1));
        assertTrue(e.getMessage().startsWith("lambda must be > 0"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new KrrBenchmark.Options(d, new int[] {5},
                Kernels.gaussian(1), 0.1, 0, 10, 1));
    }
}
