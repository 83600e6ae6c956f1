package org.psdkit.classify;

import org.psdkit.kernel.Kernel;
import org.psdkit.kernel.KernelProducts;
import org.psdkit.linalg.Matrix;
import org.psdkit.model.Predictor;

/**
 * The decision function of a binary soft-margin SVM, f(x) = Σ_i c_i k(s_i, x) + b over the support vectors s_i with
 * c_i = α_i y_i (Cortes &amp; Vapnik 1995; Schölkopf &amp; Smola 2002, eq. 7.25), on scaled inputs. The one SVM decision
 * function of psdkit: fixed, tessellated and SimpleMKL kernels all use it.
 *
 * @param kernel         the kernel (on scaled features)
 * @param supportVectors support vectors, scaled (rows)
 * @param coef           α_i y_i per support vector
 * @param bias           b
 */
public record SvmDecision(Kernel kernel, Matrix supportVectors, double[] coef, double bias) implements Predictor {

    public SvmDecision {
        if (supportVectors.rows() != coef.length) {
            throw new IllegalArgumentException(supportVectors.rows() + " support vectors but " + coef.length
                    + " coefficients");
        }
        coef = coef.clone();
    }

    /** The decision function of a dual solution α on the scaled training points (labels ±1): rows with α_i > 0. */
    public static SvmDecision of(Kernel kernel, Matrix xScaled, double[] y, double[] alpha, double bias) {
        int count = 0;
        for (double a : alpha) {
            if (a > 0) {
                count++;
            }
        }
        int[] idx = new int[count];
        double[] coef = new double[count];
        int t = 0;
        for (int i = 0; i < alpha.length; i++) {
            if (alpha[i] > 0) {
                idx[t] = i;
                coef[t] = alpha[i] * y[i];
                t++;
            }
        }
        return new SvmDecision(kernel, xScaled.selectRows(idx), coef, bias);
    }

    @Override
    public double[] coef() {
        return coef.clone();
    }

    @Override
    public String type() {
        return "svm";
    }

    @Override
    public String[] outputColumns() {
        return new String[] {"decision"};
    }

    @Override
    public Matrix predict(Matrix xScaled) {
        return Matrix.column(decision(xScaled));
    }

    /** f(x) for scaled points. */
    public double[] decision(Matrix xScaled) {
        double[] f = new double[xScaled.rows()];
        if (supportVectors.rows() > 0) {
            // in row blocks, without the full cross matrix beyond 2^17 entries (KernelProducts)
            f = KernelProducts.times(kernel, xScaled, supportVectors, coef);
        }
        for (int i = 0; i < f.length; i++) {
            f[i] += bias;
        }
        return f;
    }

    /** Number of decision values whose sign (f ≥ 0: +1) matches the ±1 label. */
    public static int correct(double[] decision, double[] y) {
        int ok = 0;
        for (int i = 0; i < decision.length; i++) {
            if ((decision[i] >= 0 ? 1 : -1) == y[i]) {
                ok++;
            }
        }
        return ok;
    }
}
