package org.psdkit.data.toy;

import java.util.Random;
import org.psdkit.data.Dataset;
import org.psdkit.linalg.Matrix;

/**
 * Test-local copy of the generator of the quantile-regression data of Marteau-Ferey, Bach &amp; Rudi (2020, App. E):
 * X ~ ½ U(0, 1/3) + ½ U(2/3, 1), Y | x ~ N(0, σ(x)²). The documented generator lives in psdkit-experiments
 * ({@code org.psdkit.experiments.toy.QuantileToy}), which core tests cannot depend on.
 */
public final class QuantileToy {

    private QuantileToy() {
    }

    public static Dataset sample(int n, long seed) {
        Random rnd = new Random(seed);
        Matrix x = Matrix.zeros(n, 1);
        double[] y = new double[n];
        for (int i = 0; i < n; i++) {
            double u = rnd.nextDouble() / 3;
            double xi = rnd.nextBoolean() ? u : 2.0 / 3 + u;
            x.set(i, 0, xi);
            y[i] = (xi <= 1.0 / 3 ? 1.0 / 3 - xi : xi - 2.0 / 3) * rnd.nextGaussian();
        }
        return new Dataset(x, y, null, new String[] {"x"}, "y", "quantile-toy");
    }
}
