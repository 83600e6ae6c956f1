package org.psdkit.optim;

/**
 * Strong-Wolfe line search (Nocedal &amp; Wright 2006, Alg. 3.5, with a zoom by secant steps on φ' kept inside the
 * bracket and bisection otherwise, Alg. 3.6): finds t &gt; 0 with
 * <pre>  φ(t) ≤ φ(0) + c₁ t φ'(0)   and   |φ'(t)| ≤ c₂ |φ'(0)|</pre>
 * for a descent direction (φ'(0) &lt; 0), doubling the trial step until the minimum is bracketed. If the budget of
 * trial steps runs out, the best step seen (lowest φ below φ(0)) is returned, and 0 when none decreased φ.
 */
public final class WolfeLineSearch {

    /** Sufficient-decrease constant c₁ of Nocedal &amp; Wright 2006 (their suggested 1e-4). */
    public static final double DEFAULT_C1 = 1e-4;

    /** Curvature constant c₂ for quasi-Newton directions (Nocedal &amp; Wright 2006, Sec. 3.1: 0.9). */
    public static final double DEFAULT_C2 = 0.9;

    /** Trial steps per phase (expansion, then zoom). */
    public static final int DEFAULT_MAX_STEPS = 40;

    /**
     * φ along the line: {φ(t), φ'(t)}; φ(t) = +∞ (slope NaN) where the function is undefined (outside its domain).
     */
    @FunctionalInterface
    public interface Line {
        double[] at(double t);
    }

    private final double c1;
    private final double c2;
    private final int maxSteps;

    /**
     * @param c1       sufficient-decrease constant, 0 &lt; c₁ &lt; c₂
     * @param c2       curvature constant, c₂ &lt; 1
     * @param maxSteps trial steps per phase, ≥ 1
     */
    public WolfeLineSearch(double c1, double c2, int maxSteps) {
        if (!(c1 > 0 && c1 < c2 && c2 < 1)) {
            throw new IllegalArgumentException("Wolfe constants must satisfy 0 < c1 < c2 < 1, got c1 = " + c1
                    + ", c2 = " + c2);
        }
        if (maxSteps < 1) {
            throw new IllegalArgumentException("line search steps must be >= 1, got " + maxSteps);
        }
        this.c1 = c1;
        this.c2 = c2;
        this.maxSteps = maxSteps;
    }

    /** c₁ = 1e-4, c₂ = 0.9, 40 steps per phase. */
    public static WolfeLineSearch defaults() {
        return new WolfeLineSearch(DEFAULT_C1, DEFAULT_C2, DEFAULT_MAX_STEPS);
    }

    /**
     * The step along the line, or 0 when no trial step decreased φ.
     *
     * @param phi0   φ(0)
     * @param slope0 φ'(0) &lt; 0
     * @param first  the first trial step, &gt; 0
     */
    public double search(Line line, double phi0, double slope0, double first) {
        double prevT = 0;
        double prevV = phi0;
        double prevD = slope0;
        double t = first;
        double bestT = 0;
        double bestV = phi0;
        for (int k = 0; k < maxSteps; k++) {
            double[] vd = line.at(t);
            if (vd[0] < bestV) {
                bestV = vd[0];
                bestT = t;
            }
            if (!(vd[0] <= phi0 + c1 * t * slope0) || (k > 0 && vd[0] >= prevV)) {
                return zoom(line, phi0, slope0, prevT, prevV, prevD, t, vd[0], vd[1], bestT, bestV);
            }
            if (Math.abs(vd[1]) <= -c2 * slope0) {
                return t;
            }
            if (vd[1] >= 0) {
                return zoom(line, phi0, slope0, t, vd[0], vd[1], prevT, prevV, prevD, bestT, bestV);
            }
            prevT = t;
            prevV = vd[0];
            prevD = vd[1];
            t *= 2;
        }
        return bestT;
    }

    /** Alg. 3.6 of Nocedal &amp; Wright 2006: lo satisfies sufficient decrease, the minimum lies between lo and hi. */
    private double zoom(Line line, double phi0, double slope0, double lo, double vLo, double dLo,
                        double hi, double vHi, double dHi, double bestT, double bestV) {
        for (int k = 0; k < maxSteps; k++) {
            double t;
            // secant on φ' when both ends have finite slopes of opposite sign, else bisection
            if (Double.isFinite(dLo) && Double.isFinite(dHi) && dLo * dHi < 0) {
                t = lo - dLo * (hi - lo) / (dHi - dLo);
                double lower = Math.min(lo, hi);
                double width = Math.abs(hi - lo);
                if (!(t > lower + 0.1 * width && t < lower + 0.9 * width)) {
                    t = 0.5 * (lo + hi);
                }
            } else {
                t = 0.5 * (lo + hi);
            }
            double[] vd = line.at(t);
            if (vd[0] < bestV) {
                bestV = vd[0];
                bestT = t;
            }
            if (!(vd[0] <= phi0 + c1 * t * slope0) || vd[0] >= vLo) {
                hi = t;
                vHi = vd[0];
                dHi = vd[1];
            } else {
                if (Math.abs(vd[1]) <= -c2 * slope0) {
                    return t;
                }
                if (vd[1] * (hi - lo) >= 0) {
                    hi = lo;
                    vHi = vLo;
                    dHi = dLo;
                }
                lo = t;
                vLo = vd[0];
                dLo = vd[1];
            }
        }
        return bestT;
    }
}
