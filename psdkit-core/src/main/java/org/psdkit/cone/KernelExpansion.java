package org.psdkit.cone;

import org.psdkit.kernel.Kernel;
import org.psdkit.kernel.KernelProducts;
import org.psdkit.linalg.Matrix;

/**
 * f(x) = Σ_i c_i (k(x, x_i) + offset) + intercept: a linear kernel model (the offset is the dual form of a penalised
 * intercept, {@code intercept} its primal form). With {@code link = EXP} the function is exp of that expansion
 * (generalised linear model).
 */
public record KernelExpansion(Kernel kernel, double offset, Matrix points, double[] coefficients, double intercept,
                              Link link)
        implements ScalarFunction {

    /** Output link of the expansion. */
    public enum Link { IDENTITY, EXP }

    public KernelExpansion {
        if (coefficients.length != points.rows()) {
            throw new IllegalArgumentException("kernel expansion has " + coefficients.length
                    + " coefficients for " + points.rows() + " points");
        }
    }

    @Override
    public double[] eval(Matrix x) {
        // rows in blocks, without the full cross matrix beyond 2^17 entries (KernelProducts)
        double[] f = KernelProducts.times(kernel, x, points, coefficients);
        double sum = 0;
        for (double c : coefficients) {
            sum += c;
        }
        for (int i = 0; i < f.length; i++) {
            f[i] += offset * sum + intercept;
            if (link == Link.EXP) {
                f[i] = Math.exp(f[i]);
            }
        }
        return f;
    }
}
