package org.psdkit.density;

import java.util.Arrays;
import java.util.function.DoubleUnaryOperator;

/** One-sample Kolmogorov–Smirnov test against a continuous CDF. */
public final class GoodnessOfFit {
    /** Terms of the Kolmogorov series; the terms decay like exp(−2k²λ²) and 100 is ample for λ ≥ 0.1. */
    static final int SERIES_TERMS = 100;

    private GoodnessOfFit() {
    }

    public record Ks(double statistic, double pValue, int n) {
    }

    /** KS statistic sup|F_n − F| and its asymptotic p-value (Stephens' small-sample correction). */
    public static Ks kolmogorovSmirnov(double[] sample, DoubleUnaryOperator cdf) {
        double[] s = sample.clone();
        Arrays.sort(s);
        int n = s.length;
        if (n == 0) {
            throw new IllegalArgumentException("KS test: empty sample");
        }
        double dMax = 0;
        for (int i = 0; i < n; i++) {
            double f = cdf.applyAsDouble(s[i]);
            dMax = Math.max(dMax, Math.max((i + 1.0) / n - f, f - (double) i / n));
        }
        double sq = Math.sqrt(n);
        double lam = (sq + 0.12 + 0.11 / sq) * dMax;
        return new Ks(dMax, kolmogorovTail(lam), n);
    }

    /** P(K > λ) = 2 Σ_{k≥1} (−1)^{k−1} exp(−2k²λ²). */
    static double kolmogorovTail(double lam) {
        if (lam < 0.2) {
            return 1.0;
        }
        double s = 0;
        for (int k = 1; k <= SERIES_TERMS; k++) {
            double term = Math.exp(-2.0 * k * k * lam * lam);
            s += (k % 2 == 1 ? term : -term);
            if (term < 1e-18) {
                break;
            }
        }
        return Math.max(0, Math.min(1, 2 * s));
    }
}
