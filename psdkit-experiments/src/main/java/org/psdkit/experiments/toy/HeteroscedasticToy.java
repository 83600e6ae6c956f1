package org.psdkit.experiments.toy;

import java.util.Random;
import org.psdkit.data.Dataset;
import org.psdkit.linalg.Matrix;

/**
 * The one-dimensional heteroscedastic toy problem used by Le, Smola &amp; Canu (2005, Sec. 5), taken there from
 * Yuan &amp; Wahba (2004), as used in Marteau-Ferey, Bach &amp; Rudi 2020 Fig. 1 (centre row) with n = 80. The exact generating process
 * implemented here:
 * <pre>
 *   x ~ U(0, 1)
 *   μ(x) = 2 (exp(−30 (x − ¼)²) + sin(π x²)) − 2
 *   v(x) = exp(sin(2π x))           (variance; log v(x) = sin 2πx)
 *   y | x ~ N(μ(x), v(x))
 * </pre>
 * The papers' own sample is not published; a seeded {@link Random} draws x, then y, point by point.
 */
public final class HeteroscedasticToy {

    private HeteroscedasticToy() {
    }

    /** The number of points of the experiment (Marteau-Ferey, Bach &amp; Rudi 2020, App. E). */
    public static final int PAPER_N = 80;

    public static double mean(double x) {
        return 2 * (Math.exp(-30 * (x - 0.25) * (x - 0.25)) + Math.sin(Math.PI * x * x)) - 2;
    }

    public static double variance(double x) {
        return Math.exp(Math.sin(2 * Math.PI * x));
    }

    public static Dataset sample(int n, long seed) {
        if (n < 1) {
            throw new IllegalArgumentException("n must be >= 1, got " + n);
        }
        Random rnd = new Random(seed);
        Matrix x = Matrix.zeros(n, 1);
        double[] y = new double[n];
        for (int i = 0; i < n; i++) {
            double xi = rnd.nextDouble();
            x.set(i, 0, xi);
            y[i] = mean(xi) + Math.sqrt(variance(xi)) * rnd.nextGaussian();
        }
        return new Dataset(x, y, null, new String[] {"x"}, "y", "hetero-toy(n=" + n + ", seed=" + seed + ")");
    }
}
