package org.psdkit.classify;

import org.psdkit.kernel.Kernel;
import org.psdkit.linalg.Matrix;
import org.psdkit.model.ParameterException;
import org.psdkit.optim.ProgressListener;
import org.psdkit.optim.smo.Smo;

/**
 * The binary ν-SVC problem (Schölkopf, Smola, Williamson &amp; Bartlett 2000, eq. 24-26), solved in the scaled form of
 * Chang &amp; Lin (2001, eq. 2.4 and Theorem 2) on {@link Smo#solveNu}:
 * <pre>  min ½ αᵀQα   s.t.  yᵀα = 0,  eᵀα = νm,  0 ≤ α_i ≤ 1,</pre>
 * after which α/r and b/r (r = (r₊ + r₋)/2 the multiplier of eᵀα = νm) are the C-SVC solution with C = 1/r, so the
 * decision function f(x) = Σ α_i y_i k(x_i, x)/r + b/r is that of {@link SvmDecision}. ν is an upper bound on the
 * fraction of margin errors and a lower bound on the fraction of support vectors.
 *
 * <p>The one binary sub-problem every ν-SVC fit solves: a multi-class fit calls {@link #solve} once per pair of
 * classes on that pair's rows.
 */
public final class NuSvc {
    private NuSvc() {
    }

    /**
     * Refuses a ν the constraints cannot meet: Σ_{y=+1} α = Σ_{y=−1} α = νm/2 with α ≤ 1 needs νm/2 ≤ min(m₊, m₋)
     * (Chang &amp; Lin 2001, Sec. 3), i.e. ν ≤ 2 min(m₊, m₋)/m.
     *
     * @throws ParameterException naming {@code nu}, the class sizes and the largest feasible ν
     */
    public static void checkFeasible(double[] y, double nu) {
        ParameterException.unitHalfOpen("nu", nu);
        int pos = 0;
        for (double v : y) {
            pos += v > 0 ? 1 : 0;
        }
        int neg = y.length - pos;
        double most = 2.0 * Math.min(pos, neg) / y.length;
        if (nu * y.length / 2 > Math.min(pos, neg)) {
            throw new ParameterException("nu", "is infeasible for these classes: nu = " + nu + " needs at least "
                    + "nu*m/2 = " + (nu * y.length / 2) + " rows in each class, the smaller class has "
                    + Math.min(pos, neg) + " of m = " + y.length + " (nu must be <= 2*min(m+, m-)/m = " + most
                    + ")");
        }
    }

    /**
     * Solves the binary ν-SVC on scaled points. The start puts νm/2 on each class, each α_i = min(1, what is left)
     * in row order. The returned α and bias are rescaled by 1/r and the dual objective by 1/r², so that
     * {@link SvmDecision#of} builds the decision function from them as from a C-SVC solution.
     *
     * @param y          labels ±1 (both classes)
     * @param nu         ν in (0, 1], feasible ({@link #checkFeasible})
     * @param cacheBytes memory for kernel values (LIBSVM's {@code -m}, in bytes)
     * @return the rescaled solution, and r (C = 1/r)
     */
    public static Smo.NuResult solve(Kernel kernel, Matrix x, double[] y, double nu, Smo.Options o, long cacheBytes,
                                     ProgressListener listener) {
        checkFeasible(y, nu);
        int m = y.length;
        double[] start = new double[m];
        double leftPos = nu * m / 2;
        double leftNeg = nu * m / 2;
        for (int i = 0; i < m; i++) {
            if (y[i] > 0) {
                start[i] = Math.min(1, leftPos);
                leftPos -= start[i];
            } else {
                start[i] = Math.min(1, leftNeg);
                leftNeg -= start[i];
            }
        }
        Smo.NuResult nr = Smo.solveNu(kernel, x, y, null, 1, o, cacheBytes, start, listener);
        Smo.Result r = nr.result();
        double s = nr.r();
        if (!(s > 0) || Double.isInfinite(s)) {
            throw new IllegalArgumentException("nu-SVC: the margin multiplier r = " + s + " is not positive; the "
                    + "classes cannot be separated with nu = " + nu + " (try a smaller nu or another kernel)");
        }
        double[] alpha = r.alpha().clone();
        for (int i = 0; i < m; i++) {
            alpha[i] /= s;
        }
        // the gradient of the ν dual (p = 0) is Qα; scaled as α, it stays Qα of the returned α
        double[] grad = r.gradient() == null ? null : r.gradient().clone();
        if (grad != null) {
            for (int i = 0; i < m; i++) {
                grad[i] /= s;
            }
        }
        return new Smo.NuResult(new Smo.Result(alpha, r.bias() / s, r.dual() / (s * s), r.iterations(),
                r.violation(), r.converged(), r.seconds(), r.cachePeakBytes(), r.kernelEntries(), grad,
                r.singlePrecision()), s);
    }
}
