package org.psdkit.sos;

import java.util.Random;
import org.psdkit.linalg.Matrix;

/**
 * Test-local copy of the data of Bagnell &amp; Farahmand (2015, Sec. 4): f_c(x) = sin x + cos 3x − (x/2)² + 3 at
 * points uniform on [−5, 5], with Gaussian noise. The documented generator lives in psdkit-experiments
 * ({@code org.psdkit.experiments.toy.KernelSosExample}), which core tests cannot depend on.
 */
final class KernelSosExample {

    private KernelSosExample() {
    }

    static Sample sample(int n, double noiseSd, long seed) {
        Random r = new Random(seed);
        Matrix x = Matrix.zeros(n, 1);
        double[] y = new double[n];
        for (int i = 0; i < n; i++) {
            double xi = -5 + 10 * r.nextDouble();
            x.set(i, 0, xi);
            y[i] = Math.sin(xi) + Math.cos(3 * xi) - (xi / 2) * (xi / 2) + 3 + noiseSd * r.nextGaussian();
        }
        return new Sample(x, y);
    }

    record Sample(Matrix x, double[] y) {
    }
}
