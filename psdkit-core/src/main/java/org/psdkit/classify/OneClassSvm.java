package org.psdkit.classify;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.psdkit.data.Dataset;
import org.psdkit.linalg.Matrix;
import org.psdkit.model.Diagnostics;
import org.psdkit.model.ModelHeader;
import org.psdkit.model.Pipeline;

/**
 * A fitted one-class SVM (model type {@value OneClassSvmTrainer#TYPE}; Schölkopf, Platt, Shawe-Taylor, Smola &amp;
 * Williamson 2001): the scaler and the decision function f(x) = Σ_i α_i k(x_i, x) − ρ ({@link SvmDecision} with
 * coefficients α_i and bias −ρ). Its outputs are {@code decision} = f(x) and {@code inlier} = +1 where f(x) &gt; 0,
 * −1 elsewhere (LIBSVM's and scikit-learn's {@code OneClassSVM.predict}, which call a point on the boundary an
 * outlier). It has no target: every column of the training data was a feature.
 */
public final class OneClassSvm extends Pipeline<SvmDecision> {

    /** The output columns. */
    public static final List<String> OUTPUTS = List.of("decision", "inlier");

    /** Its header's options are held as {@link OneClassSvmHyperParameters} (as recorded when they lack its keys). */
    public OneClassSvm(ModelHeader header, SvmDecision decision, Diagnostics diagnostics) {
        super(header, decision, org.psdkit.model.HyperParameters.typed(header.hyperParameters(),
                OneClassSvmHyperParameters::of), diagnostics);
    }

    /** ρ: the offset of the decision function, f(x) = Σ α_i k(x_i, x) − ρ. */
    public double rho() {
        return -inner().bias();
    }

    @Override
    public String targetName() {
        return null;
    }

    @Override
    public boolean unsupervised() {
        return true;
    }

    @Override
    public List<String> outputColumns() {
        return OUTPUTS;
    }

    @Override
    public Matrix predict(Matrix rawX) {
        double[] f = decision(rawX);
        Matrix out = Matrix.zeros(f.length, 2);
        for (int i = 0; i < f.length; i++) {
            out.set(i, 0, f[i]);
            out.set(i, 1, f[i] > 0 ? 1 : -1);
        }
        return out;
    }

    /** f(x) for raw rows. */
    public double[] decision(Matrix rawX) {
        return inner().decision(header().scale(rawX));
    }

    /** +1 (inlier) where f(x) &gt; 0, −1 (outlier) elsewhere. */
    public int[] inliers(Matrix rawX) {
        double[] f = decision(rawX);
        int[] s = new int[f.length];
        for (int i = 0; i < f.length; i++) {
            s[i] = f[i] > 0 ? 1 : -1;
        }
        return s;
    }

    /**
     * {@code n}, {@code inlierFraction} (rows with f &gt; 0 over all rows; about 1 − ν on the training rows, Schölkopf
     * et al. 2001, Proposition 4) and {@code meanDecision}.
     */
    @Override
    public Scores evaluate(Dataset raw) {
        double[] f = decision(raw.x());
        int in = 0;
        double sum = 0;
        for (double v : f) {
            in += v > 0 ? 1 : 0;
            sum += v;
        }
        return new Scores(f.length, f.length == 0 ? Double.NaN : (double) in / f.length,
                f.length == 0 ? Double.NaN : sum / f.length);
    }

    /**
     * The metrics of {@code psdkit eval} for a one-class SVM.
     *
     * @param n              rows
     * @param inlierFraction rows with f &gt; 0 over all rows
     * @param meanDecision   the mean of f
     */
    public record Scores(int n, double inlierFraction, double meanDecision) implements org.psdkit.model.Evaluation {
        @Override
        public Map<String, Object> toMap() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("n", n);
            m.put("inlierFraction", inlierFraction);
            m.put("meanDecision", meanDecision);
            return m;
        }

        @Override
        public String toString() {
            return toMap().toString();
        }
    }
}
