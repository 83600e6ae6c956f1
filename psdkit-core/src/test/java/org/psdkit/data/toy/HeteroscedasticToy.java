package org.psdkit.data.toy;

import java.util.Random;
import org.psdkit.data.Dataset;
import org.psdkit.linalg.Matrix;

/**
 * Test-local copy of the generator of the heteroscedastic toy problem (Le, Smola &amp; Canu 2005, Sec. 5): x ~ U(0, 1),
 * y | x ~ N(μ(x), v(x)). The documented generator lives in psdkit-experiments
 * ({@code org.psdkit.experiments.toy.HeteroscedasticToy}), which core tests cannot depend on.
 */
public final class HeteroscedasticToy {

    private HeteroscedasticToy() {
    }

    static double mean(double x) {
        return 2 * (Math.exp(-30 * (x - 0.25) * (x - 0.25)) + Math.sin(Math.PI * x * x)) - 2;
    }

    public static double variance(double x) {
        return Math.exp(Math.sin(2 * Math.PI * x));
    }

    public static Dataset sample(int n, long seed) {
        Random rnd = new Random(seed);
        Matrix x = Matrix.zeros(n, 1);
        double[] y = new double[n];
        for (int i = 0; i < n; i++) {
            double xi = rnd.nextDouble();
            x.set(i, 0, xi);
            y[i] = mean(xi) + Math.sqrt(variance(xi)) * rnd.nextGaussian();
        }
        return new Dataset(x, y, null, new String[] {"x"}, "y", "hetero-toy");
    }
}
