package org.psdkit.density;

/**
 * erf, erfc and the normal distribution to full double precision, written out here because the JDK has none.
 *
 * <p>erf(x) for |x| &lt; {@link #SERIES_LIMIT} uses the everywhere-positive series
 * erf(x) = (2/√π) x e^{−x²} Σ_k (2x²)^k / (1·3·…·(2k+1)) (no cancellation); erfc(x) for x ≥ {@link #SERIES_LIMIT}
 * uses the Laplace continued fraction erfc(x) = e^{−x²}/√π · 1/(x + ½/(x + 1/(x + 3/2/(x + …)))) evaluated by the
 * modified Lentz method. Differences erf(b) − erf(a) are formed from erfc on the side where both points lie, so a
 * tail mass keeps its relative precision.
 */
public final class SpecialFunctions {
    /**
     * Switch point between the series and the continued fraction: at 2 the series needs ~45 terms and the
     * fraction ~60, and 1 − erf(2) = 4.7e-3 keeps 1e-14 relative precision when erfc is formed from erf below it.
     */
    static final double SERIES_LIMIT = 2.0;
    /** Stopping rule of both expansions: relative change below one unit roundoff (2^-53 ≈ 1.1e-16). */
    private static final double EPS = 0x1p-53;
    /** Lentz's guard against a zero denominator (any tiny positive number far below the values met). */
    private static final double TINY = 1e-300;
    /** Hard cap on expansion terms; at the switch point 2 both converge in fewer than 200. */
    private static final int MAX_TERMS = 500;
    private static final double TWO_OVER_SQRT_PI = 2.0 / Math.sqrt(Math.PI);
    private static final double INV_SQRT_PI = 1.0 / Math.sqrt(Math.PI);
    static final double SQRT2 = Math.sqrt(2.0);
    static final double LOG_SQRT_2PI = 0.5 * Math.log(2 * Math.PI);

    private SpecialFunctions() {
    }

    /** The error function. */
    public static double erf(double x) {
        if (Double.isNaN(x)) {
            return x;
        }
        double ax = Math.abs(x);
        if (ax < SERIES_LIMIT) {
            return erfSeries(x);
        }
        double r = 1.0 - erfcFraction(ax);
        return x < 0 ? -r : r;
    }

    /** The complementary error function 1 − erf(x), accurate in the upper tail. */
    public static double erfc(double x) {
        if (Double.isNaN(x)) {
            return x;
        }
        if (x >= SERIES_LIMIT) {
            return erfcFraction(x);
        }
        if (x > -SERIES_LIMIT) {
            return 1.0 - erfSeries(x);
        }
        return 2.0 - erfcFraction(-x);
    }

    /** erf(b) − erf(a) without losing the relative precision of a tail mass; infinite ends allowed. */
    public static double erfDiff(double a, double b) {
        if (a >= 0 && b >= 0) {
            return erfcOrZero(a) - erfcOrZero(b);
        }
        if (a <= 0 && b <= 0) {
            return erfcOrZero(-b) - erfcOrZero(-a);
        }
        return erf(b) - erf(a);
    }

    private static double erfcOrZero(double x) {
        return x == Double.POSITIVE_INFINITY ? 0.0 : erfc(x);
    }

    /** Standard normal CDF Φ(z). */
    public static double normalCdf(double z) {
        return 0.5 * erfc(-z / SQRT2);
    }

    /** Φ(b) − Φ(a), tail-accurate, infinite ends allowed. */
    public static double normalMass(double a, double b) {
        return 0.5 * erfDiff(a / SQRT2, b / SQRT2);
    }

    /** log of the N(mean, var) density at x. */
    public static double normalLogPdf(double x, double mean, double var) {
        double d = x - mean;
        return -0.5 * d * d / var - 0.5 * Math.log(var) - LOG_SQRT_2PI;
    }

    /**
     * A draw from N(m, s²) truncated to [lo, hi] by inverting the CDF by bisection on the side of the mean where
     * the interval lies (tail-accurate). Exact up to the bisection tolerance.
     */
    public static double truncatedNormal(java.util.random.RandomGenerator rng, double m, double s, double lo,
                                         double hi) {
        double a = (lo - m) / s;
        double b = (hi - m) / s;
        if (!(a < b)) {
            throw new IllegalArgumentException("truncated normal: empty interval [" + lo + ", " + hi + "]");
        }
        boolean flip = a > 0; // work in the lower tail: Φ(t) accurate for t <= 0
        if (flip) {
            double t = a;
            a = -b;
            b = -t;
        }
        double fa = normalCdf(a);
        double fb = normalCdf(b);
        double u = fa + rng.nextDouble() * (fb - fa);
        double left = Double.isInfinite(a) ? Math.min(b, -40.0) : a;
        double right = Double.isInfinite(b) ? Math.max(a, 40.0) : b;
        for (int it = 0; it < 200 && right - left > 1e-14 * (1 + Math.abs(left)); it++) {
            double mid = 0.5 * (left + right);
            if (normalCdf(mid) < u) {
                left = mid;
            } else {
                right = mid;
            }
        }
        double t = 0.5 * (left + right);
        return m + s * (flip ? -t : t);
    }

    private static double erfSeries(double x) {
        double x2 = x * x;
        double term = 1.0;
        double sum = 1.0;
        for (int k = 1; k < MAX_TERMS; k++) {
            term *= 2 * x2 / (2 * k + 1);
            sum += term;
            if (term < EPS * sum) {
                break;
            }
        }
        return TWO_OVER_SQRT_PI * x * Math.exp(-x2) * sum;
    }

    /** erfc(x) for x ≥ SERIES_LIMIT by the continued fraction (modified Lentz). */
    private static double erfcFraction(double x) {
        if (x > 27.3) {
            return 0.0; // erfc(27.3) < 1e-325: below the smallest subnormal
        }
        // K = x + a1/(x + a2/(x + ...)), a_k = k/2
        double f = x;
        double c = x;
        double d = 0.0;
        for (int k = 1; k < MAX_TERMS; k++) {
            double ak = 0.5 * k;
            d = x + ak * d;
            if (Math.abs(d) < TINY) {
                d = TINY;
            }
            c = x + ak / c;
            if (Math.abs(c) < TINY) {
                c = TINY;
            }
            d = 1.0 / d;
            double delta = c * d;
            f *= delta;
            if (Math.abs(delta - 1.0) < EPS) {
                break;
            }
        }
        return INV_SQRT_PI * Math.exp(-x * x) / f;
    }
}
