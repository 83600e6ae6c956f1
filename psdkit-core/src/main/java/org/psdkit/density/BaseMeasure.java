package org.psdkit.density;

import java.util.Arrays;
import java.util.Locale;
import java.util.random.RandomGenerator;
import org.psdkit.linalg.Cholesky;
import org.psdkit.linalg.Linalg;
import org.psdkit.linalg.Matrix;

/**
 * The base measure ν of a density model p(x) = f(x)·ν(x): the learned f is a density with respect to ν, and the
 * density with respect to Lebesgue measure reported everywhere (value, log-likelihood) is f(x)·ν(x).
 *
 * <ul>
 *   <li>{@link Lebesgue}: ν ≡ 1 on ℝ^d.</li>
 *   <li>{@link Gaussian}: ν = N(μ, Σ) with Σ diagonal (the CLI form) or full (library only; box integrals then
 *   need Σ diagonal).</li>
 *   <li>{@link Box}: ν = the uniform <em>probability</em> on [a, b] (density 1/vol on the box, 0 outside).</li>
 * </ul>
 *
 * <p>Kernel strings: {@code lebesgue}, {@code gaussian(mu=0,sigma2=5)} (per-coordinate <em>variance</em> 5),
 * {@code gaussian(mu=0,sd=5)} (per-coordinate <em>standard deviation</em> 5, i.e. variance 25), {@code box(a=-4,b=4)}.
 * Scalars broadcast to every coordinate; a list separated by {@code ;} gives one value per coordinate.
 */
public sealed interface BaseMeasure permits BaseMeasure.Lebesgue, BaseMeasure.Gaussian, BaseMeasure.Box {

    /** log ν(x) (−∞ outside a box). */
    double logDensity(double[] x);

    /** The text that {@link #parse(String, int)} turns back into this measure. */
    String spec();

    /** True when ν is a probability measure (so that it can be sampled from). */
    boolean isProbability();

    /** One draw from ν (probability measures only). */
    double[] sample(RandomGenerator rng);

    /** Dimension this measure lives in, or −1 when it fits any dimension (Lebesgue). */
    int dimension();

    /** ν ≡ 1 on ℝ^d. */
    record Lebesgue() implements BaseMeasure {
        @Override
        public double logDensity(double[] x) {
            return 0.0;
        }

        @Override
        public String spec() {
            return "lebesgue";
        }

        @Override
        public boolean isProbability() {
            return false;
        }

        @Override
        public double[] sample(RandomGenerator rng) {
            throw new IllegalArgumentException("cannot sample from Lebesgue measure (it is not a probability)");
        }

        @Override
        public int dimension() {
            return -1;
        }
    }

    /**
     * N(μ, Σ). {@code variances} holds diag(Σ) when {@code covariance} is null (diagonal case); otherwise
     * {@code covariance} is the full d×d matrix and {@code variances} its diagonal.
     */
    record Gaussian(double[] mean, double[] variances, Matrix covariance) implements BaseMeasure {
        public Gaussian {
            if (mean.length != variances.length) {
                throw new IllegalArgumentException("gaussian base measure: mean has " + mean.length
                        + " coordinates but " + variances.length + " variances were given");
            }
            for (int t = 0; t < mean.length; t++) {
                if (!Double.isFinite(mean[t])) {
                    throw new IllegalArgumentException("gaussian base measure: mean[" + t + "] = " + mean[t]);
                }
                if (!(variances[t] > 0) || !Double.isFinite(variances[t])) {
                    throw new IllegalArgumentException("gaussian base measure: variance[" + t + "] must be > 0, got "
                            + variances[t]);
                }
            }
            if (covariance != null && (covariance.rows() != mean.length || covariance.cols() != mean.length)) {
                throw new IllegalArgumentException("gaussian base measure: covariance must be " + mean.length + "x"
                        + mean.length);
            }
            mean = mean.clone();
            variances = variances.clone();
        }

        /** N(μ, diag(variances)). */
        public static Gaussian diagonal(double[] mean, double[] variances) {
            return new Gaussian(mean, variances, null);
        }

        /** N(μ, Σ) with a full covariance (checked positive definite). */
        public static Gaussian full(double[] mean, Matrix covariance) {
            Linalg.choleskyStrict(covariance); // throws if not positive definite
            return new Gaussian(mean, covariance.diagonal(), covariance.copy());
        }

        /** N(m·1, v·I) in dimension d. */
        public static Gaussian isotropic(int d, double m, double variance) {
            double[] mu = new double[d];
            double[] v = new double[d];
            Arrays.fill(mu, m);
            Arrays.fill(v, variance);
            return diagonal(mu, v);
        }

        public boolean isDiagonal() {
            return covariance == null;
        }

        @Override
        public double logDensity(double[] x) {
            if (isDiagonal()) {
                double s = 0;
                for (int t = 0; t < mean.length; t++) {
                    s += SpecialFunctions.normalLogPdf(x[t], mean[t], variances[t]);
                }
                return s;
            }
            Cholesky ch = Linalg.choleskyStrict(covariance);
            double[] r = new double[x.length];
            for (int t = 0; t < x.length; t++) {
                r[t] = x[t] - mean[t];
            }
            double[] z = Linalg.solveLower(ch.lower(), false, r);
            return -0.5 * Linalg.dot(z, z) - 0.5 * ch.logDet() - mean.length * SpecialFunctions.LOG_SQRT_2PI;
        }

        @Override
        public String spec() {
            if (!isDiagonal()) {
                return "gaussian(mu=" + list(mean) + ",covariance=full)";
            }
            return "gaussian(mu=" + list(mean) + ",sigma2=" + list(variances) + ")";
        }

        @Override
        public boolean isProbability() {
            return true;
        }

        @Override
        public double[] sample(RandomGenerator rng) {
            int d = mean.length;
            double[] z = new double[d];
            for (int t = 0; t < d; t++) {
                z[t] = rng.nextGaussian();
            }
            if (isDiagonal()) {
                for (int t = 0; t < d; t++) {
                    z[t] = mean[t] + Math.sqrt(variances[t]) * z[t];
                }
                return z;
            }
            Matrix l = Linalg.choleskyStrict(covariance).lower();
            double[] y = l.times(z);
            for (int t = 0; t < d; t++) {
                y[t] += mean[t];
            }
            return y;
        }

        @Override
        public int dimension() {
            return mean.length;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Gaussian g && Arrays.equals(mean, g.mean) && Arrays.equals(variances, g.variances)
                    && (covariance == null ? g.covariance == null
                    : g.covariance != null && Arrays.equals(covariance.data(), g.covariance.data()));
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(mean) * 31 + Arrays.hashCode(variances);
        }

        @Override
        public String toString() {
            return spec();
        }
    }

    /** The uniform probability on the box [lo, hi] (density 1/Π(hi_t − lo_t) inside, 0 outside). */
    record Box(double[] lo, double[] hi) implements BaseMeasure {
        public Box {
            if (lo.length != hi.length) {
                throw new IllegalArgumentException("box base measure: a has " + lo.length + " coordinates, b has "
                        + hi.length);
            }
            for (int t = 0; t < lo.length; t++) {
                if (!Double.isFinite(lo[t]) || !Double.isFinite(hi[t]) || !(lo[t] < hi[t])) {
                    throw new IllegalArgumentException("box base measure: need finite a < b in coordinate " + t
                            + ", got a=" + lo[t] + ", b=" + hi[t]);
                }
            }
            lo = lo.clone();
            hi = hi.clone();
        }

        public static Box cube(int d, double a, double b) {
            double[] lo = new double[d];
            double[] hi = new double[d];
            Arrays.fill(lo, a);
            Arrays.fill(hi, b);
            return new Box(lo, hi);
        }

        public double logVolume() {
            double s = 0;
            for (int t = 0; t < lo.length; t++) {
                s += Math.log(hi[t] - lo[t]);
            }
            return s;
        }

        public boolean contains(double[] x) {
            for (int t = 0; t < lo.length; t++) {
                if (x[t] < lo[t] || x[t] > hi[t]) {
                    return false;
                }
            }
            return true;
        }

        @Override
        public double logDensity(double[] x) {
            return contains(x) ? -logVolume() : Double.NEGATIVE_INFINITY;
        }

        @Override
        public String spec() {
            return "box(a=" + list(lo) + ",b=" + list(hi) + ")";
        }

        @Override
        public boolean isProbability() {
            return true;
        }

        @Override
        public double[] sample(RandomGenerator rng) {
            double[] x = new double[lo.length];
            for (int t = 0; t < x.length; t++) {
                x[t] = lo[t] + (hi[t] - lo[t]) * rng.nextDouble();
            }
            return x;
        }

        @Override
        public int dimension() {
            return lo.length;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Box b && Arrays.equals(lo, b.lo) && Arrays.equals(hi, b.hi);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(lo) * 31 + Arrays.hashCode(hi);
        }

        @Override
        public String toString() {
            return spec();
        }
    }

    /** log ν at every row of x. */
    default double[] logDensity(Matrix x) {
        double[] out = new double[x.rows()];
        for (int i = 0; i < out.length; i++) {
            out[i] = logDensity(x.row(i));
        }
        return out;
    }

    /** Checks that this measure fits points of dimension d. */
    default void requireDimension(int d) {
        int own = dimension();
        if (own >= 0 && own != d) {
            throw new IllegalArgumentException("base measure " + spec() + " has dimension " + own
                    + " but the data have " + d + " columns");
        }
    }

    /**
     * Parses {@code lebesgue}, {@code gaussian(mu=M,sigma2=V)}, {@code gaussian(mu=M,sd=S)} or
     * {@code box(a=A,b=B)} for dimension d. Exactly one of {@code sigma2} (variance) and {@code sd} (standard
     * deviation) must be given for a Gaussian: the two readings of "N(0, 5I)" differ by a square.
     */
    static BaseMeasure parse(String text, int d) {
        if (text == null || text.isBlank()) {
            throw new IllegalArgumentException("base measure: empty specification");
        }
        String s = text.trim().toLowerCase(Locale.ROOT).replace(" ", "");
        if (s.equals("lebesgue")) {
            return new Lebesgue();
        }
        int open = s.indexOf('(');
        if (open < 0 || !s.endsWith(")")) {
            throw new IllegalArgumentException("base measure '" + text + "': expected lebesgue, "
                    + "gaussian(mu=..,sigma2=..|sd=..) or box(a=..,b=..)");
        }
        String name = s.substring(0, open);
        java.util.Map<String, double[]> args = new java.util.LinkedHashMap<>();
        String body = s.substring(open + 1, s.length() - 1);
        if (!body.isEmpty()) {
            for (String part : body.split(",")) {
                int eq = part.indexOf('=');
                if (eq <= 0) {
                    throw new IllegalArgumentException("base measure '" + text + "': argument '" + part
                            + "' is not name=value");
                }
                String key = part.substring(0, eq);
                String[] vals = part.substring(eq + 1).split(";");
                double[] v = new double[vals.length];
                for (int k = 0; k < vals.length; k++) {
                    try {
                        v[k] = Double.parseDouble(vals[k]);
                    } catch (NumberFormatException e) {
                        throw new IllegalArgumentException("base measure '" + text + "': " + key + " = '" + vals[k]
                                + "' is not a number");
                    }
                    if (!Double.isFinite(v[k])) {
                        throw new IllegalArgumentException("base measure '" + text + "': " + key + " must be finite");
                    }
                }
                if (args.put(key, broadcast(v, d, key, text)) != null) {
                    throw new IllegalArgumentException("base measure '" + text + "': " + key + " given twice");
                }
            }
        }
        switch (name) {
            case "gaussian", "normal" -> {
                allowOnly(args, text, "mu", "sigma2", "sd");
                double[] mu = args.getOrDefault("mu", new double[d]);
                boolean hasVar = args.containsKey("sigma2");
                boolean hasSd = args.containsKey("sd");
                if (hasVar == hasSd) {
                    throw new IllegalArgumentException("base measure '" + text + "': give exactly one of sigma2= "
                            + "(variance) or sd= (standard deviation)");
                }
                double[] var = hasVar ? args.get("sigma2") : args.get("sd").clone();
                if (hasSd) {
                    for (int t = 0; t < d; t++) {
                        if (!(var[t] > 0)) {
                            throw new IllegalArgumentException("base measure '" + text + "': sd must be > 0");
                        }
                        var[t] = var[t] * var[t];
                    }
                }
                return Gaussian.diagonal(mu, var);
            }
            case "box", "uniform" -> {
                allowOnly(args, text, "a", "b");
                if (!args.containsKey("a") || !args.containsKey("b")) {
                    throw new IllegalArgumentException("base measure '" + text + "': box needs a= and b=");
                }
                return new Box(args.get("a"), args.get("b"));
            }
            default -> throw new IllegalArgumentException("base measure '" + text + "': unknown kind '" + name
                    + "' (use lebesgue, gaussian(...) or box(...))");
        }
    }

    private static void allowOnly(java.util.Map<String, double[]> args, String text, String... keys) {
        for (String k : args.keySet()) {
            if (!Arrays.asList(keys).contains(k)) {
                throw new IllegalArgumentException("base measure '" + text + "': unknown argument '" + k
                        + "' (allowed: " + String.join(", ", keys) + ")");
            }
        }
    }

    private static double[] broadcast(double[] v, int d, String key, String text) {
        if (v.length == d) {
            return v;
        }
        if (v.length == 1) {
            double[] out = new double[d];
            Arrays.fill(out, v[0]);
            return out;
        }
        throw new IllegalArgumentException("base measure '" + text + "': " + key + " has " + v.length
                + " values but the data have " + d + " dimensions");
    }

    private static String list(double[] v) {
        boolean same = true;
        for (double x : v) {
            same &= x == v[0];
        }
        if (same && v.length > 0) {
            return org.psdkit.kernel.KernelFormat.num(v[0]);
        }
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < v.length; i++) {
            if (i > 0) {
                sb.append(';');
            }
            sb.append(org.psdkit.kernel.KernelFormat.num(v[i]));
        }
        return sb.toString();
    }
}
