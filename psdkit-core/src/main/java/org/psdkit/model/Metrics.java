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

    /** {@code rmse, mae, r2} in that order, in an insertion-ordered map. */
    public static java.util.LinkedHashMap<String, Double> regression(double[] y, double[] p) {
        java.util.LinkedHashMap<String, Double> m = new java.util.LinkedHashMap<>();
        m.put("rmse", rmse(y, p));
        m.put("mae", mae(y, p));
        m.put("r2", r2(y, p));
        return m;
    }
}
