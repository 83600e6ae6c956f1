package org.psdkit.model.quantile;

import org.junit.jupiter.api.Test;
import org.psdkit.data.Dataset;
import org.psdkit.data.toy.QuantileToy;
import org.psdkit.linalg.Matrix;

class QuantileScratchTest {
    @Test
    void scratch() {
        Dataset d = QuantileToy.sample(500, 1);
        for (QuantileRegression.Method m : QuantileRegression.Method.values()) {
            for (double lam : new double[] {1e-2, 1e-3}) {
                long t0 = System.nanoTime();
                QuantileModel q = QuantileRegression.fit(d.x(), d.y(),
                        QuantileRegression.Options.of(new double[] {0.25, 0.5, 0.75}, 0.1, lam, m));
                Matrix grid = Matrix.zeros(201, 1);
                for (int i = 0; i <= 200; i++) {
                    grid.set(i, 0, -0.5 + 2.0 * i / 200);
                }
                System.err.printf("%s lam=%g time %.2fs %s crossings=%d%n", m, lam, (System.nanoTime() - t0) * 1e-9,
                        q.diagnostics(), QuantileModel.crossings(q.predict(grid)));
            }
        }
    }
}
