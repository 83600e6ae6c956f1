package org.psdkit.cone.quantile;

import java.util.List;
import org.psdkit.cone.ConeDualSolver;
import org.psdkit.cone.Diagnostics;
import org.psdkit.cone.ScalarFunction;
import org.psdkit.cone.TargetScaling;
import org.psdkit.kernel.Kernel;
import org.psdkit.linalg.Matrix;
import org.psdkit.model.Predictor;

/**
 * A fitted multiple-quantile model: q_τ(x) = center + scale · Σ_b D_{τ,b} f_b(x). For the PSD, NCM and GLM methods
 * every increment f_b is non-negative for every x, so the columns are ordered everywhere (up to rounding in the final
 * affine map, which is monotone).
 */
public record QuantileModel(double[] taus, QuantileRegression.Method method, Kernel kernel, double lambda,
                            double frobeniusWeight, List<ScalarFunction> functions, double[][] directions,
                            TargetScaling scaling, Diagnostics diagnostics) implements Predictor {

    public static final String TYPE = "quantile";

    @Override
    public String type() {
        return TYPE;
    }

    /** Column name of level τ: {@code q} followed by τ in shortest decimal form ({@code q0.25}). */
    public static String column(double tau) {
        String s = java.math.BigDecimal.valueOf(tau).stripTrailingZeros().toPlainString();
        return "q" + s;
    }

    @Override
    public String[] outputColumns() {
        String[] c = new String[taus.length];
        for (int t = 0; t < taus.length; t++) {
            c[t] = column(taus[t]);
        }
        return c;
    }

    @Override
    public Matrix predict(Matrix x) {
        Matrix z = ConeDualSolver.combine(functions, directions, x);
        double[] d = z.data();
        for (int i = 0; i < d.length; i++) {
            d[i] = scaling.center() + scaling.scale() * d[i];
        }
        return z;
    }

    /** Number of (row, pair s &lt; t of levels) with q_{τ_s}(x) &gt; q_{τ_t}(x): crossed ordered pairs. */
    public static long crossings(Matrix q) {
        long c = 0;
        for (int i = 0; i < q.rows(); i++) {
            for (int s = 0; s < q.cols(); s++) {
                for (int t = s + 1; t < q.cols(); t++) {
                    if (q.get(i, s) > q.get(i, t)) {
                        c++;
                    }
                }
            }
        }
        return c;
    }
}
