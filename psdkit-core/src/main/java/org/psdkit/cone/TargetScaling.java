package org.psdkit.cone;

/**
 * Affine standardisation of the target, y' = (y − center)/scale, applied before fitting so that λ and the solver
 * tolerances mean the same on every data set; predictions are mapped back.
 */
public record TargetScaling(double center, double scale) {

    public TargetScaling {
        if (!(scale > 0) || !Double.isFinite(center)) {
            throw new IllegalArgumentException("invalid target scaling center=" + center + " scale=" + scale);
        }
    }

    /** Center at the median (quantiles) or mean, scale by the standard deviation (1 if the target is constant). */
    public static TargetScaling of(double[] y, boolean median) {
        int n = y.length;
        double mean = 0;
        for (double v : y) {
            mean += v;
        }
        mean /= n;
        double var = 0;
        for (double v : y) {
            var += (v - mean) * (v - mean);
        }
        double sd = n > 1 ? Math.sqrt(var / (n - 1)) : 0;
        double c = mean;
        if (median) {
            double[] s = y.clone();
            java.util.Arrays.sort(s);
            c = n % 2 == 1 ? s[n / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]);
        }
        return new TargetScaling(c, sd > 0 ? sd : 1.0);
    }

    public double[] apply(double[] y) {
        double[] out = new double[y.length];
        for (int i = 0; i < y.length; i++) {
            out[i] = (y[i] - center) / scale;
        }
        return out;
    }
}
