package org.psdkit.svm;

import org.psdkit.kernel.Kernel;
import org.psdkit.linalg.Matrix;
import org.psdkit.model.Predictor;

/**
 * A fitted binary soft-margin SVM: f(x) = Σ_i c_i k(s_i, x) + b over the support vectors s_i (c_i = α_i y_i),
 * label = positive class when f(x) ≥ 0. Inputs are raw features; the model applies its own scaler (when it has
 * one) before the kernel. Immutable.
 *
 * @param kernel         the kernel (on scaled features)
 * @param supportVectors support vectors, scaled (rows)
 * @param coef           α_i y_i per support vector
 * @param bias           b
 * @param labels         class label mapping
 * @param scaler         feature scaler fitted on the training data, or {@code null}
 * @param c              penalty C used
 * @param diagnostics    solver diagnostics
 */
public record Svm(Kernel kernel, Matrix supportVectors, double[] coef, double bias, BinaryLabels labels,
                  MinMaxScaler scaler, double c, Diagnostics diagnostics) implements Predictor {

    /**
     * Solver diagnostics.
     *
     * @param iterations SMO iterations (or outer iterations of a kernel-learning method)
     * @param violation  final KKT violation or gap
     * @param dual       dual objective value
     * @param seconds    training time
     */
    public record Diagnostics(long iterations, double violation, double dual, double seconds) {
    }

    /** Builds the model from a dual solution on scaled training data. */
    public static Svm of(Kernel kernel, Matrix xScaled, double[] y, Smo.Result r, BinaryLabels labels,
                         MinMaxScaler scaler, double c, Diagnostics diag) {
        int count = 0;
        for (double a : r.alpha()) {
            if (a > 0) {
                count++;
            }
        }
        int[] idx = new int[count];
        double[] coef = new double[count];
        int t = 0;
        for (int i = 0; i < y.length; i++) {
            if (r.alpha()[i] > 0) {
                idx[t] = i;
                coef[t] = r.alpha()[i] * y[i];
                t++;
            }
        }
        return new Svm(kernel, xScaled.selectRows(idx), coef, r.bias(), labels, scaler, c, diag);
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
    public Matrix predict(Matrix x) {
        return Matrix.column(decision(x));
    }

    /** Decision values f(x) for raw (unscaled) points. */
    public double[] decision(Matrix x) {
        Matrix xs = scaler == null ? x : scaler.apply(x);
        if (supportVectors.rows() == 0) {
            double[] f = new double[x.rows()];
            java.util.Arrays.fill(f, bias);
            return f;
        }
        Matrix k = kernel.cross(xs, supportVectors);
        double[] f = k.times(coef);
        for (int i = 0; i < f.length; i++) {
            f[i] += bias;
        }
        return f;
    }

    /** Predicted class labels for raw points. */
    public String[] predictLabels(Matrix x) {
        double[] f = decision(x);
        String[] out = new String[f.length];
        for (int i = 0; i < f.length; i++) {
            out[i] = labels.decode(f[i]);
        }
        return out;
    }

    /** Fraction of raw points whose predicted ±1 sign matches y (±1). */
    public double accuracy(Matrix x, double[] y) {
        double[] f = decision(x);
        int ok = 0;
        for (int i = 0; i < f.length; i++) {
            if ((f[i] >= 0 ? 1 : -1) == y[i]) {
                ok++;
            }
        }
        return f.length == 0 ? Double.NaN : (double) ok / f.length;
    }
}
