package org.psdkit.kernel;

import java.util.Locale;
import org.psdkit.linalg.Matrix;

/**
 * One member of the SimpleMKL Gaussian/polynomial library (Rakotomamonjy, Bach, Canu &amp; Grandvalet 2008, Sec. 5;
 * Colbert &amp; Peet 2020, Sec. VIII b): a Gaussian exp(−‖u−v‖²/(2σ²)) (sigma &gt; 0) or a polynomial
 * (1 + uᵀv)^degree (degree &gt; 0), on one feature or all (−1), times {@code traceScale} (the library normalises
 * every member to unit trace on its training points), on standardised features u = (x − center)/scale when
 * {@code std} is not null.
 */
public record LibraryKernel(double sigma, int degree, int feature, double traceScale, Standardization std)
        implements Kernel {

    public LibraryKernel {
        if (!(sigma > 0) && !(degree >= 1)) {
            throw new IllegalArgumentException("library kernel: need sigma > 0 (Gaussian) or degree >= 1 "
                    + "(polynomial), got sigma=" + sigma + ", degree=" + degree);
        }
        if (sigma > 0 && degree != 0) {
            throw new IllegalArgumentException("library kernel: a Gaussian member has degree 0, got " + degree);
        }
        if (!(traceScale > 0) || Double.isInfinite(traceScale)) {
            throw new IllegalArgumentException("library kernel: traceScale must be > 0 and finite, got "
                    + traceScale);
        }
        if (feature < -1) {
            throw new IllegalArgumentException("library kernel: feature must be >= -1 (-1: all), got " + feature);
        }
        if (std != null && feature >= std.center().length) {
            throw new IllegalArgumentException("library kernel: feature " + feature + " but the standardisation "
                    + "has " + std.center().length + " features");
        }
    }

    /** A member on the features as given. */
    public LibraryKernel(double sigma, int degree, int feature, double traceScale) {
        this(sigma, degree, feature, traceScale, null);
    }

    @Override
    public double eval(double[] x, double[] y) {
        double v;
        if (sigma > 0) {
            double s = 0;
            if (feature >= 0) {
                double d = diff(x, y, feature);
                s = d * d;
            } else {
                for (int j = 0; j < x.length; j++) {
                    double d = diff(x, y, j);
                    s += d * d;
                }
            }
            v = Math.exp(-s / (2 * sigma * sigma));
        } else {
            double s = 0;
            if (feature >= 0) {
                s = prod(x, y, feature);
            } else {
                for (int j = 0; j < x.length; j++) {
                    s += prod(x, y, j);
                }
            }
            double base = 1 + s;
            v = base;
            for (int e = 1; e < degree; e++) {
                v *= base;
            }
        }
        return v * traceScale;
    }

    private double diff(double[] x, double[] y, int j) {
        return std == null ? x[j] - y[j] : (x[j] - y[j]) / std.scale()[j];
    }

    private double prod(double[] x, double[] y, int j) {
        return std == null ? x[j] * y[j] : std.apply(x[j], j) * std.apply(y[j], j);
    }

    /**
     * The kernel string: {@code gaussian(sigma=S, feature=J, traceScale=T[, center=[..], scale=[..]])} or
     * {@code polynomial(degree=P, feature=J, traceScale=T[, ...])}, J the 0-based feature index or −1 for all
     * features; every real number in Java's exact decimal form, so {@link Kernels#parse} gives the same kernel.
     */
    @Override
    public String spec() {
        StringBuilder sb = new StringBuilder();
        if (sigma > 0) {
            sb.append("gaussian(sigma=").append(sigma);
        } else {
            sb.append("polynomial(degree=").append(degree);
        }
        sb.append(", feature=").append(feature).append(", traceScale=").append(traceScale);
        if (std != null) {
            sb.append(", center=").append(KernelFormat.vector(std.center()));
            sb.append(", scale=").append(KernelFormat.vector(std.scale()));
        }
        return sb.append(')').toString();
    }

    /** A short description for reports: {@code gaussian(sigma=0.5) on feature 1, standardised}. */
    public String describe() {
        String on = (feature >= 0 ? "feature " + (feature + 1) : "all features")
                + (std == null ? "" : ", standardised");
        return sigma > 0 ? String.format(Locale.ROOT, "gaussian(sigma=%s) on %s", sigma, on)
                : String.format(Locale.ROOT, "polynomial(degree=%d) on %s", degree, on);
    }

    /**
     * Per-feature standardisation u_j = (x_j − center_j) / scale_j applied to both arguments of a member.
     *
     * @param center per-feature shift (the training part's mean)
     * @param scale  per-feature positive divisor (the training part's standard deviation; 1 for a constant feature)
     */
    public record Standardization(double[] center, double[] scale) {
        public Standardization {
            if (center.length != scale.length) {
                throw new IllegalArgumentException("standardisation: " + center.length + " centres but "
                        + scale.length + " scales");
            }
            for (int j = 0; j < scale.length; j++) {
                if (!Double.isFinite(center[j]) || !(scale[j] > 0) || Double.isInfinite(scale[j])) {
                    throw new IllegalArgumentException("standardisation of feature " + (j + 1) + ": centre "
                            + center[j] + ", scale " + scale[j] + " (need finite centre and finite scale > 0)");
                }
            }
            center = center.clone();
            scale = scale.clone();
        }

        /**
         * A column whose standard deviation is below 1e-12 × (1 + |mean|) is constant up to the rounding of the
         * mean (about 1e-16 relative per value): dividing by it would blow rounding up into O(1) values.
         */
        static final double CONSTANT_RELATIVE_SD = 1e-12;

        /** Mean and sample standard deviation of every column of x (scale 1 for a constant column). */
        public static Standardization of(Matrix x) {
            int m = x.rows();
            int n = x.cols();
            if (m < 2) {
                throw new IllegalArgumentException("standardisation needs at least 2 rows, got " + m);
            }
            double[] c = new double[n];
            double[] sc = new double[n];
            for (int j = 0; j < n; j++) {
                double mean = 0;
                for (int i = 0; i < m; i++) {
                    mean += x.get(i, j);
                }
                mean /= m;
                double ss = 0;
                for (int i = 0; i < m; i++) {
                    double d = x.get(i, j) - mean;
                    ss += d * d;
                }
                double sd = Math.sqrt(ss / (m - 1));
                c[j] = mean;
                sc[j] = sd > CONSTANT_RELATIVE_SD * (1 + Math.abs(mean)) ? sd : 1;
            }
            return new Standardization(c, sc);
        }

        double apply(double v, int j) {
            return (v - center[j]) / scale[j];
        }
    }
}
