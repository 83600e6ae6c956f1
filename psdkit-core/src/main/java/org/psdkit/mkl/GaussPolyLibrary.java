package org.psdkit.mkl;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.psdkit.kernel.Kernel;
import org.psdkit.linalg.Matrix;

/**
 * The standard SimpleMKL library: Gaussian kernels exp(−‖x−y‖²/(2σ²)) for the given bandwidths σ and polynomial
 * kernels (1 + xᵀy)^p for the given degrees, each on all features and on every single feature:
 * (|σ| + |p|)(n + 1) kernels. Colbert &amp; Peet (Sec. VIII b) use bandwidths between 0.5 and 10 and degrees 1–3,
 * "approximately 13(n+1) kernels"; the default {@link #PAPER_BANDWIDTHS} has 10 bandwidths (SimpleMKL's own list
 * truncated to [0.5, 10] and filled in) and degrees 1, 2, 3, giving exactly 13(n+1). Gram matrices are stored in
 * single precision (m² floats per kernel).
 *
 * <p>With {@link Standardization} the members see every feature standardised (minus its mean on the training part,
 * divided by its standard deviation there), as SimpleMKL's own examples prepare the data before building this
 * library; the transformation is part of each member, so training and test points go through the same function.
 */
public final class GaussPolyLibrary implements KernelLibrary {

    /** Ten bandwidths spread over [0.5, 10] (Colbert &amp; Peet: "arbitrarily chosen between .5 and 10"). */
    public static final double[] PAPER_BANDWIDTHS = {0.5, 0.75, 1, 1.5, 2, 3, 4, 5, 7, 10};
    /** σ = 1/√(2β): the widths for which exp(−‖x−y‖²/(2σ²)) = exp(−β‖x−y‖²). */
    public static double[] sigmasOfBetas(double[] betas) {
        double[] s = new double[betas.length];
        for (int i = 0; i < betas.length; i++) {
            if (!(betas[i] > 0)) {
                throw new IllegalArgumentException("bandwidth must be positive, got " + betas[i]);
            }
            s[i] = 1 / Math.sqrt(2 * betas[i]);
        }
        return s;
    }

    /** Polynomial degrees 1–3. */
    public static final int[] PAPER_DEGREES = {1, 2, 3};

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

    /**
     * One library member: Gaussian (sigma &gt; 0) or polynomial (degree &gt; 0), on one feature or all (−1), on
     * standardised features when {@code std} is not null.
     */
    public record Member(double sigma, int degree, int feature, double traceScale, Standardization std)
            implements Kernel {

        /** A member on the features as given. */
        public Member(double sigma, int degree, int feature, double traceScale) {
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

        @Override
        public String spec() {
            String on = (feature >= 0 ? "feature " + (feature + 1) : "all features")
                    + (std == null ? "" : ", standardised");
            return sigma > 0 ? String.format(Locale.ROOT, "gaussian(sigma=%s) on %s", sigma, on)
                    : String.format(Locale.ROOT, "polynomial(degree=%d) on %s", degree, on);
        }
    }

    private final List<Member> members = new ArrayList<>();
    private final Standardization std;
    private final float[][] grams;
    private final List<double[]> diags = new ArrayList<>();
    private final int m;

    public GaussPolyLibrary(Matrix x, double[] bandwidths, int[] degrees) {
        this(x, bandwidths, degrees, null);
    }

    /**
     * The library on x, its members on the features standardised by {@code std} (null: as given; see
     * {@link Standardization#of} for the training part's own).
     */
    public GaussPolyLibrary(Matrix x, double[] bandwidths, int[] degrees, Standardization std) {
        this.m = x.rows();
        this.std = std;
        if (std != null && std.center().length != x.cols()) {
            throw new IllegalArgumentException("standardisation of " + std.center().length + " features for data with "
                    + x.cols());
        }
        int n = x.cols();
        double[][] pts = x.toRowArrays();
        List<float[]> gs = new ArrayList<>();
        for (int f = -1; f < n; f++) {
            for (double s : bandwidths) {
                if (!(s > 0)) {
                    throw new IllegalArgumentException("bandwidth must be positive, got " + s);
                }
                add(new Member(s, 0, f, 1.0, std), pts, gs);
            }
            for (int d : degrees) {
                if (d < 1) {
                    throw new IllegalArgumentException("polynomial degree must be >= 1, got " + d);
                }
                add(new Member(0, d, f, 1.0, std), pts, gs);
            }
        }
        grams = gs.toArray(new float[0][]);
    }

    private void add(Member raw, double[][] pts, List<float[]> gs) {
        double tr = 0;
        for (double[] p : pts) {
            tr += raw.eval(p, p);
        }
        Member mem = new Member(raw.sigma(), raw.degree(), raw.feature(), 1.0 / tr, raw.std());
        float[] g = new float[m * m];
        double[] dg = new double[m];
        for (int i = 0; i < m; i++) {
            dg[i] = mem.eval(pts[i], pts[i]);
        }
        diags.add(dg);
        for (int j = 0; j < m; j++) {
            for (int i = j; i < m; i++) {
                float v = (float) mem.eval(pts[i], pts[j]);
                g[i + j * m] = v;
                g[j + i * m] = v;
            }
        }
        members.add(mem);
        gs.add(g);
    }

    @Override
    public int size() {
        return members.size();
    }

    @Override
    public int points() {
        return m;
    }

    @Override
    public String describe(int k) {
        return members.get(k).spec();
    }

    @Override
    public double[] quadForms(double[] beta) {
        double[] out = new double[grams.length];
        int[] nz = nonZero(beta);
        for (int k = 0; k < grams.length; k++) {
            float[] g = grams[k];
            double s = 0;
            for (int jj : nz) {
                double r = 0;
                int base = jj * m;
                for (int ii : nz) {
                    r += g[base + ii] * beta[ii];
                }
                s += r * beta[jj];
            }
            out[k] = s;
        }
        return out;
    }

    static int[] nonZero(double[] beta) {
        int c = 0;
        for (double b : beta) {
            if (b != 0) {
                c++;
            }
        }
        int[] idx = new int[c];
        c = 0;
        for (int i = 0; i < beta.length; i++) {
            if (beta[i] != 0) {
                idx[c++] = i;
            }
        }
        return idx;
    }

    @Override
    public void addCombination(double[] w, double[] out) {
        for (int k = 0; k < grams.length; k++) {
            double wk = w[k];
            if (wk == 0) {
                continue;
            }
            float[] g = grams[k];
            for (int i = 0; i < g.length; i++) {
                out[i] += wk * g[i];
            }
        }
    }

    @Override
    public Kernel combined(double[] w) {
        List<Kernel> parts = new ArrayList<>();
        List<Double> ws = new ArrayList<>();
        for (int k = 0; k < members.size(); k++) {
            if (w[k] != 0) {
                parts.add(members.get(k));
                ws.add(w[k]);
            }
        }
        return new WeightedSumKernel(parts, ws.stream().mapToDouble(Double::doubleValue).toArray());
    }

    /** Gram matrix of kernel k (unit trace, single precision, m×m column-major); not to be modified. */
    float[] gram(int k) {
        return grams[k];
    }

    /** Diagonal of kernel k's (unit-trace) Gram matrix in double precision. */
    double[] diagonal(int k) {
        return diags.get(k).clone();
    }

    public Member member(int k) {
        return members.get(k);
    }
}
