package org.psdkit.density;

import org.psdkit.linalg.Matrix;
import org.psdkit.model.Predictor;

/**
 * A fitted density p(x) = f(x)·ν(x) on ℝ^d. {@link #density} is always the density with respect to Lebesgue
 * measure (so log-likelihoods of different models and base measures compare directly); {@link #integral} is
 * ∫ f dν, which should be 1. As a {@link Predictor} it has one output column, {@code density}, in its own (scaled)
 * input space; {@link DensityPipeline} is the model of raw inputs.
 */
public interface DensityModel extends Predictor {

    /** Model type as written in model files ("psd-density", "ncm-density", ...). */
    String type();

    int dimension();

    BaseMeasure base();

    /** p(x) at every row of x (may be negative for models that do not guarantee non-negativity, e.g. PNM). */
    double[] density(Matrix x);

    /** log p(x) at every row; −∞ where p(x) ≤ 0. */
    default double[] logDensity(Matrix x) {
        double[] p = density(x);
        for (int i = 0; i < p.length; i++) {
            p[i] = p[i] > 0 ? Math.log(p[i]) : Double.NEGATIVE_INFINITY;
        }
        return p;
    }

    /** The one output column: {@code density}. */
    @Override
    default String[] outputColumns() {
        return new String[] {"density"};
    }

    /** The density at every row of x, as an n × 1 matrix. */
    @Override
    default Matrix predict(Matrix x) {
        double[] p = density(x);
        return Matrix.wrap(p.length, 1, p);
    }

    /** ∫ f dν: closed form where the model has one, otherwise an estimate (see the implementation). */
    double integral();

    /** Mean log-likelihood (1/m) Σ log p(x_i) of the rows of x (−∞ if any p(x_i) ≤ 0). */
    default double meanLogLikelihood(Matrix x) {
        double s = 0;
        for (double l : logDensity(x)) {
            s += l;
        }
        return s / x.rows();
    }
}
