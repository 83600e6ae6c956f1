package org.psdkit.density;

import java.util.SplittableRandom;
import org.psdkit.linalg.Matrix;

/**
 * Seeded data generators and true densities of the density experiments of Marteau-Ferey, Bach and Rudi 2020.
 *
 * <ul>
 *   <li>{@link #fig1}: ½N(−1, 0.3) + ½N(1, 0.3) in 1-D (Sec. 6, Fig. 1 top). The paper does not say whether 0.3 is
 *   a variance or a standard deviation; following the App. E notation N(m, s) with s a scale, it is taken as the
 *   <b>standard deviation</b> here (the two bumps at ±1 are then clearly separated, as in the figure).</li>
 *   <li>{@link #appE}: ½N(−2e₁, I/√(2π)) + ½N(2e₁, I/√(2π)) in 10-D (App. E), with 1/√(2π) read as the per-coordinate
 *   <b>standard deviation</b>.</li>
 * </ul>
 */
public final class Mixtures {
    /** Fig. 1 component standard deviation (see the class comment for the reading). */
    public static final double FIG1_SD = 0.3;
    /** App. E component standard deviation 1/√(2π) per coordinate. */
    public static final double APPE_SD = 1.0 / Math.sqrt(2 * Math.PI);

    private Mixtures() {
    }

    /** An equal-weight mixture of two isotropic normals N(±shift·e₁, sd² I) in dimension d. */
    public record TwoBumps(int d, double shift, double sd) {
        public Matrix sample(int n, long seed) {
            SplittableRandom r = new SplittableRandom(seed);
            Matrix x = Matrix.zeros(n, d);
            for (int i = 0; i < n; i++) {
                double sign = r.nextBoolean() ? 1 : -1;
                for (int t = 0; t < d; t++) {
                    x.set(i, t, (t == 0 ? sign * shift : 0) + sd * r.nextGaussian());
                }
            }
            return x;
        }

        public double logDensity(double[] x) {
            double common = 0;
            for (int t = 1; t < d; t++) {
                common += SpecialFunctions.normalLogPdf(x[t], 0, sd * sd);
            }
            double a = SpecialFunctions.normalLogPdf(x[0], -shift, sd * sd);
            double b = SpecialFunctions.normalLogPdf(x[0], shift, sd * sd);
            double mx = Math.max(a, b);
            return common + mx + Math.log(0.5 * Math.exp(a - mx) + 0.5 * Math.exp(b - mx));
        }

        public double[] density(Matrix x) {
            double[] out = new double[x.rows()];
            for (int i = 0; i < out.length; i++) {
                out[i] = Math.exp(logDensity(x.row(i)));
            }
            return out;
        }

        public double meanLogLikelihood(Matrix x) {
            double s = 0;
            for (int i = 0; i < x.rows(); i++) {
                s += logDensity(x.row(i));
            }
            return s / x.rows();
        }
    }

    public static TwoBumps fig1() {
        return new TwoBumps(1, 1.0, FIG1_SD);
    }

    public static TwoBumps appE() {
        return new TwoBumps(10, 2.0, APPE_SD);
    }
}
