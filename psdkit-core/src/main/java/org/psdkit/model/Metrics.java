package org.psdkit.model;

/** Prediction-quality metrics. All take the truth first and throw on length mismatch or empty input. */
public final class Metrics {
    private Metrics() {
    }

    private static void check(int a, int b) {
        if (a != b) {
            throw new IllegalArgumentException("metrics: " + a + " true values but " + b + " predictions");
        }
        if (a == 0) {
            throw new IllegalArgumentException("metrics: no values");
        }
    }

    /**
     * Root mean squared error √(mean (y − ŷ)²), summed relative to the largest |y − ŷ| so that neither tiny nor huge
     * values underflow or overflow in the squares.
     */
    public static double rmse(double[] y, double[] p) {
        check(y.length, p.length);
        double m = 0;
        for (int i = 0; i < y.length; i++) {
            m = Math.max(m, Math.abs(y[i] - p[i]));
        }
        if (m == 0 || !Double.isFinite(m)) {
            return m;
        }
        double s = 0;
        for (int i = 0; i < y.length; i++) {
            double d = (y[i] - p[i]) / m;
            s += d * d;
        }
        return m * Math.sqrt(s / y.length);
    }

    /** Mean absolute error. */
    public static double mae(double[] y, double[] p) {
        check(y.length, p.length);
        double s = 0;
        for (int i = 0; i < y.length; i++) {
            s += Math.abs(y[i] - p[i]);
        }
        return s / y.length;
    }

    /**
     * Coefficient of determination 1 − SS_res/SS_tot (scikit-learn's r2_score). With a constant truth SS_tot = 0:
     * 1 if the predictions are exact, else 0, as scikit-learn does.
     */
    public static double r2(double[] y, double[] p) {
        check(y.length, p.length);
        double mean = 0;
        for (double v : y) {
            mean += v;
        }
        mean /= y.length;
        // both sums relative to the largest deviation, so that tiny or huge targets neither underflow nor overflow
        double c = 0;
        for (int i = 0; i < y.length; i++) {
            c = Math.max(c, Math.max(Math.abs(y[i] - p[i]), Math.abs(y[i] - mean)));
        }
        if (!(c > 0) || !Double.isFinite(c)) {
            c = 1;
        }
        double res = 0;
        double tot = 0;
        for (int i = 0; i < y.length; i++) {
            double r = (y[i] - p[i]) / c;
            double t = (y[i] - mean) / c;
            res += r * r;
            tot += t * t;
        }
        if (tot == 0) {
            return res == 0 ? 1.0 : 0.0;
        }
        return 1 - res / tot;
    }

    /** Fraction of equal labels. */
    public static double accuracy(String[] y, String[] p) {
        check(y.length, p.length);
        int ok = 0;
        for (int i = 0; i < y.length; i++) {
            if (y[i].equals(p[i])) {
                ok++;
            }
        }
        return (double) ok / y.length;
    }

    /** Fraction of equal numeric labels (exact comparison, for ±1 or class codes). */
    public static double accuracy(double[] y, double[] p) {
        check(y.length, p.length);
        int ok = 0;
        for (int i = 0; i < y.length; i++) {
            if (y[i] == p[i]) {
                ok++;
            }
        }
        return (double) ok / y.length;
    }

    /**
     * Weighted root mean squared error √(Σ w_i (y_i − ŷ_i)² / Σ w_i), scikit-learn's
     * {@code mean_squared_error(sample_weight=w)} under a square root; {@code w == null} is {@link #rmse(double[],
     * double[])}. Weights are ≥ 0 and finite, not all 0.
     */
    public static double rmse(double[] y, double[] p, double[] w) {
        if (w == null) {
            return rmse(y, p);
        }
        check(y.length, p.length);
        double sw = weightSum(w, y.length);
        double m = 0;
        for (int i = 0; i < y.length; i++) {
            if (w[i] > 0) {
                m = Math.max(m, Math.abs(y[i] - p[i]));
            }
        }
        if (m == 0 || !Double.isFinite(m)) {
            return m;
        }
        double s = 0;
        for (int i = 0; i < y.length; i++) {
            if (w[i] > 0) {
                double d = (y[i] - p[i]) / m;
                s += w[i] * d * d;
            }
        }
        return m * Math.sqrt(s / sw);
    }

    /** Weighted mean absolute error Σ w_i |y_i − ŷ_i| / Σ w_i (scikit-learn's {@code sample_weight}). */
    public static double mae(double[] y, double[] p, double[] w) {
        if (w == null) {
            return mae(y, p);
        }
        check(y.length, p.length);
        double sw = weightSum(w, y.length);
        double s = 0;
        for (int i = 0; i < y.length; i++) {
            if (w[i] > 0) {
                s += w[i] * Math.abs(y[i] - p[i]);
            }
        }
        return s / sw;
    }

    /**
     * Weighted coefficient of determination 1 − Σ w_i (y_i − ŷ_i)² / Σ w_i (y_i − ȳ_w)², ȳ_w = Σ w_i y_i / Σ w_i
     * (scikit-learn's {@code r2_score(sample_weight=w)}); a constant truth as {@link #r2(double[], double[])}.
     */
    public static double r2(double[] y, double[] p, double[] w) {
        if (w == null) {
            return r2(y, p);
        }
        check(y.length, p.length);
        double sw = weightSum(w, y.length);
        double mean = 0;
        for (int i = 0; i < y.length; i++) {
            if (w[i] > 0) {
                mean += w[i] * y[i];
            }
        }
        mean /= sw;
        double c = 0;
        for (int i = 0; i < y.length; i++) {
            if (w[i] > 0) {
                c = Math.max(c, Math.max(Math.abs(y[i] - p[i]), Math.abs(y[i] - mean)));
            }
        }
        if (!(c > 0) || !Double.isFinite(c)) {
            c = 1;
        }
        double res = 0;
        double tot = 0;
        for (int i = 0; i < y.length; i++) {
            if (w[i] > 0) {
                double r = (y[i] - p[i]) / c;
                double t = (y[i] - mean) / c;
                res += w[i] * r * r;
                tot += w[i] * t * t;
            }
        }
        if (tot == 0) {
            return res == 0 ? 1.0 : 0.0;
        }
        return 1 - res / tot;
    }

    private static double weightSum(double[] w, int n) {
        if (w.length != n) {
            throw new IllegalArgumentException("metrics: " + n + " values but " + w.length + " weights");
        }
        double s = 0;
        for (double v : w) {
            if (!(v >= 0) || Double.isInfinite(v)) {
                throw new IllegalArgumentException("metrics: weights must be >= 0 and finite, got " + v);
            }
            s += v;
        }
        if (!(s > 0)) {
            throw new IllegalArgumentException("metrics: the weights are all 0");
        }
        return s;
    }

    /** {@code rmse, mae, r2} weighted by {@code w} (null: unweighted, {@link #regression(double[], double[])}). */
    public static java.util.LinkedHashMap<String, Double> regression(double[] y, double[] p, double[] w) {
        if (w == null) {
            return regression(y, p);
        }
        java.util.LinkedHashMap<String, Double> m = new java.util.LinkedHashMap<>();
        m.put("rmse", rmse(y, p, w));
        m.put("mae", mae(y, p, w));
        m.put("r2", r2(y, p, w));
        return m;
    }

    /** {@code rmse, mae, r2} in that order, in an insertion-ordered map. */
    public static java.util.LinkedHashMap<String, Double> regression(double[] y, double[] p) {
        java.util.LinkedHashMap<String, Double> m = new java.util.LinkedHashMap<>();
        m.put("rmse", rmse(y, p));
        m.put("mae", mae(y, p));
        m.put("r2", r2(y, p));
        return m;
    }
}
