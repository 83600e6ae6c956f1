package org.psdkit.experiments.toy;

import java.util.Random;
import org.psdkit.linalg.Matrix;

/**
 * The illustration of Bagnell &amp; Farahmand (OPT 2015, Sec. 4): f_c(x) = sin x + cos 3x − (x/2)² + 3 on [−5, 5],
 * which takes both signs, observed at points drawn uniformly on [−5, 5] with Gaussian noise.
 */
public final class KernelSosExample {
    /** Domain [−5, 5] of the paper. */
    public static final double LOW = -5;
    public static final double HIGH = 5;

    private KernelSosExample() {
    }

    /** f_c(x) = sin x + cos 3x − (x/2)² + 3. */
    public static double target(double x) {
        return Math.sin(x) + Math.cos(3 * x) - (x / 2) * (x / 2) + 3;
    }

    /** n points uniform on [−5, 5] (one per row) with y = f_c(x) + N(0, noiseSd²). */
    public static Sample sample(int n, double noiseSd, long seed) {
        if (n < 1 || !(noiseSd >= 0)) {
            throw new IllegalArgumentException("need n >= 1 and noise sd >= 0, got n=" + n + ", sd=" + noiseSd);
        }
        Random r = new Random(seed);
        Matrix x = Matrix.zeros(n, 1);
        double[] y = new double[n];
        for (int i = 0; i < n; i++) {
            double xi = LOW + (HIGH - LOW) * r.nextDouble();
            x.set(i, 0, xi);
            y[i] = target(xi) + noiseSd * r.nextGaussian();
        }
        return new Sample(x, y);
    }

    /** Points x (n×1) and noisy targets y. */
    public record Sample(Matrix x, double[] y) {
    }
}
