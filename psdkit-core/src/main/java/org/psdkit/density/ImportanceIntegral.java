package org.psdkit.density;

import java.util.SplittableRandom;
import java.util.function.Function;
import org.psdkit.kernel.SquaredDistances;
import org.psdkit.linalg.Matrix;

/**
 * ∫ g dν by defensive importance sampling from q = ½ν + ½·(1/m)Σ_i N(c_i, w² I) over centres c_i (the data or
 * expansion points), w = median nearest-neighbour distance of the centres; weights ν/q. Plain Monte Carlo from ν
 * never visits the data region of a 10-D mixture under a wide base measure (and would report ≈ 0 or ≈ 1 whatever the
 * truth); the mixture proposal puts half its draws where the model's mass is. Work in log space so that an
 * astronomically unnormalised model (GLM) gives +∞ rather than NaN.
 */
public final class ImportanceIntegral {
    private ImportanceIntegral() {
    }

    /**
     * An importance-sampling estimate of ∫ g dν.
     *
     * @param value                  the estimate, (1/N) Σ_j g(ξ_j) ν(ξ_j)/q(ξ_j) (+∞ when it overflows a double)
     * @param log                    its natural logarithm, computed in log space: finite whenever the estimate is
     *                               positive, even when {@code value} overflows (−∞ when every term is 0)
     * @param relativeStandardError  the sample standard deviation of the N terms over √N, relative to the estimate
     *                               (the usual Monte-Carlo standard error; NaN when the estimate is 0 or N = 1)
     * @param draws                  N
     */
    public record Estimate(double value, double log, double relativeStandardError, int draws) {
    }

    /**
     * @param centres  proposal centres, one per row
     * @param base     ν (must be a probability measure)
     * @param logAbsG  log |g(x)| for each row of its argument (g with respect to ν)
     * @param draws    number of draws
     */
    public static double integrate(Matrix centres, BaseMeasure base, Function<Matrix, double[]> logAbsG, long seed,
                                   int draws) {
        return estimate(centres, base, logAbsG, seed, draws).value();
    }

    /**
     * {@link #integrate} with the logarithm and the relative standard error of the estimate (the same draws, the same
     * value).
     */
    public static Estimate estimate(Matrix centres, BaseMeasure base, Function<Matrix, double[]> logAbsG, long seed,
                                    int draws) {
        if (!base.isProbability()) {
            throw new IllegalArgumentException("importance sampling needs a probability base measure, got "
                    + base.spec());
        }
        int d = centres.cols();
        int np = centres.rows();
        SplittableRandom rng = new SplittableRandom(seed);
        double width = medianNearestNeighbour(centres);
        Matrix xi = Matrix.zeros(draws, d);
        for (int j = 0; j < draws; j++) {
            if (rng.nextBoolean()) {
                double[] z = base.sample(rng);
                for (int t = 0; t < d; t++) {
                    xi.set(j, t, z[t]);
                }
            } else {
                int i = rng.nextInt(np);
                for (int t = 0; t < d; t++) {
                    xi.set(j, t, centres.get(i, t) + width * rng.nextGaussian());
                }
            }
        }
        double[] lg = logAbsG.apply(xi);
        double[] lnu = base.logDensity(xi);
        Matrix d2 = SquaredDistances.cross(xi, centres);
        double inv = 1.0 / (2 * width * width);
        double logNorm = -0.5 * d * Math.log(2 * Math.PI * width * width) - Math.log(np);
        double s = 0;
        double[] logTerm = new double[draws];
        double maxLog = Double.NEGATIVE_INFINITY;
        for (int j = 0; j < draws; j++) {
            double mx = Double.NEGATIVE_INFINITY;
            for (int i = 0; i < np; i++) {
                mx = Math.max(mx, -d2.get(j, i) * inv);
            }
            double acc = 0;
            for (int i = 0; i < np; i++) {
                acc += Math.exp(-d2.get(j, i) * inv - mx);
            }
            double lmix = logNorm + mx + Math.log(acc);
            double a = Math.max(lnu[j], lmix);
            double lq = a + Math.log(0.5 * Math.exp(lnu[j] - a) + 0.5 * Math.exp(lmix - a));
            logTerm[j] = Double.NEGATIVE_INFINITY;
            if (lg[j] != Double.NEGATIVE_INFINITY && lnu[j] != Double.NEGATIVE_INFINITY) {
                logTerm[j] = lg[j] + lnu[j] - lq;
                s += Math.exp(logTerm[j]);
                maxLog = Math.max(maxLog, logTerm[j]);
            }
        }
        // mean and variance of the terms relative to the largest, so that neither overflows
        double s1 = 0;
        double s2 = 0;
        if (maxLog != Double.NEGATIVE_INFINITY) {
            for (int j = 0; j < draws; j++) {
                double t = Math.exp(logTerm[j] - maxLog);
                s1 += t;
                s2 += t * t;
            }
        }
        double mean = s1 / draws;
        double var = draws > 1 ? Math.max(0, s2 / draws - mean * mean) * draws / (draws - 1.0) : Double.NaN;
        double rse = mean > 0 ? Math.sqrt(var / draws) / mean : Double.NaN;
        double log = mean > 0 ? maxLog + Math.log(mean) : Double.NEGATIVE_INFINITY;
        return new Estimate(s / draws, log, rse, draws);
    }

    static double medianNearestNeighbour(Matrix points) {
        Matrix d2 = SquaredDistances.cross(points, points);
        int np = points.rows();
        if (np < 2) {
            return 1.0;
        }
        double[] nn = new double[np];
        for (int i = 0; i < np; i++) {
            double b = Double.POSITIVE_INFINITY;
            for (int j = 0; j < np; j++) {
                if (j != i) {
                    b = Math.min(b, d2.get(i, j));
                }
            }
            nn[i] = Math.sqrt(b);
        }
        java.util.Arrays.sort(nn);
        double med = nn[np / 2];
        return med > 0 ? med : 1.0;
    }
}
