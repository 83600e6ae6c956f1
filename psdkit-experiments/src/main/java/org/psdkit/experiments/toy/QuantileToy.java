package org.psdkit.experiments.toy;

import java.util.Random;
import org.psdkit.data.Dataset;
import org.psdkit.linalg.Matrix;

/**
 * The quantile-regression data of Marteau-Ferey, Bach &amp; Rudi 2020 App. E:
 * <pre>
 *   X ~ ½ U(0, 1/3) + ½ U(2/3, 1)
 *   Y | x ~ N(0, σ(x)),  σ(x) = 1/3 − x on [0, 1/3],  x − 2/3 on [2/3, 1],  0 otherwise
 * </pre>
 * σ(x) is used as the standard deviation (the paper writes N(0, σ(x)) without saying which; the symbol σ is read as
 * a standard deviation, as the seed README does for App. E's other Gaussian). The true τ-quantile is σ(x) Φ⁻¹(τ). The gap (1/3, 2/3) holds no data, which is where models that
 * order quantiles only at the training points can cross.
 */
public final class QuantileToy {

    private QuantileToy() {
    }

    /** The number of points of the experiment (Marteau-Ferey, Bach &amp; Rudi 2020, App. E). */
    public static final int PAPER_N = 500;

    public static double sd(double x) {
        if (x >= 0 && x <= 1.0 / 3) {
            return 1.0 / 3 - x;
        }
        if (x >= 2.0 / 3 && x <= 1) {
            return x - 2.0 / 3;
        }
        return 0;
    }

    /** The true τ-quantile σ(x) Φ⁻¹(τ). */
    public static double quantile(double x, double tau) {
        return sd(x) * NormalQuantile.inverse(tau);
    }

    public static Dataset sample(int n, long seed) {
        if (n < 1) {
            throw new IllegalArgumentException("n must be >= 1, got " + n);
        }
        Random rnd = new Random(seed);
        Matrix x = Matrix.zeros(n, 1);
        double[] y = new double[n];
        for (int i = 0; i < n; i++) {
            double u = rnd.nextDouble() / 3;
            double xi = rnd.nextBoolean() ? u : 2.0 / 3 + u;
            x.set(i, 0, xi);
            y[i] = sd(xi) * rnd.nextGaussian();
        }
        return new Dataset(x, y, null, new String[] {"x"}, "y", "quantile-toy(n=" + n + ", seed=" + seed + ")");
    }
}
