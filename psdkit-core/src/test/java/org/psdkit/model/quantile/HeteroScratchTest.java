package org.psdkit.model.quantile;

import org.junit.jupiter.api.Test;
import org.psdkit.data.Dataset;
import org.psdkit.data.toy.HeteroscedasticToy;
import org.psdkit.linalg.Matrix;
import org.psdkit.model.hetero.HeteroModel;
import org.psdkit.model.hetero.HeteroscedasticRegression;

class HeteroScratchTest {
    @Test
    void scratch() {
        Dataset d = HeteroscedasticToy.sample(80, 1);
        Dataset te = HeteroscedasticToy.sample(2000, 2);
        for (HeteroscedasticRegression.Method m : HeteroscedasticRegression.Method.values()) {
            for (double s : new double[] {0.1, 0.2}) {
            for (double lam : new double[] {1e-2, 1e-3}) {
                long t0 = System.nanoTime();
                HeteroModel q = HeteroscedasticRegression.fit(d.x(), d.y(),
                        HeteroscedasticRegression.Options.of(s, lam, m));
                System.err.printf("%s s=%g lam=%g time %.2fs testnll=%.4f %s%n", m, s, lam, (System.nanoTime() - t0) * 1e-9,
                        HeteroModel.nll(q.predict(te.x()), te.y()), q.diagnostics());
            }
            }
        }
    }
}
