package org.psdkit.regression.psd;

import java.util.Map;
import org.psdkit.data.Dataset;
import org.psdkit.model.ModelHeader;
import org.psdkit.model.Pipeline;
import org.psdkit.model.Predictor;

/**
 * A fitted model of the non-negative regression task (the PSD model and its NCM, PNM and GLM baselines,
 * Marteau-Ferey, Bach &amp; Rudi 2020, Sec. 6 and App. D): its evaluation adds {@code min_prediction}, the smallest
 * prediction over the evaluated rows, to {@code rmse, mae, r2}, since non-negativity away from the training points is
 * what tells the models apart.
 *
 * @param <P> the family's model in the scaled input space
 */
public final class NonNegativeRegressionModel<P extends Predictor> extends Pipeline<P> {

    /**
     * @param diagnostics what the fit reported ({@link org.psdkit.psd.SolverDiagnostics}, or the values of a model
     *                    file)
     */
    public NonNegativeRegressionModel(ModelHeader header, P inner, org.psdkit.model.Diagnostics diagnostics) {
        super(header, inner, org.psdkit.model.HyperParameters.typed(header.hyperParameters(),
                org.psdkit.psd.PsdModel.TYPE.equals(header.type()) ? PsdRegressionHyperParameters::of
                        : BaselineHyperParameters::of), diagnostics);
    }

    /** Diagnostics held as {@link org.psdkit.model.Diagnostics#recorded}. */
    public NonNegativeRegressionModel(ModelHeader header, P inner, Map<String, Object> diagnostics) {
        this(header, inner, org.psdkit.model.Diagnostics.recorded(diagnostics));
    }

    @Override
    public Scores evaluate(Dataset raw) {
        org.psdkit.model.Evaluation.Regression r = (org.psdkit.model.Evaluation.Regression) super.evaluate(raw);
        return new Scores(r.rmse(), r.mae(), r.r2(), minimum(predict(raw.x()).col(0)));
    }

    /**
     * The regression metrics and the smallest prediction over the evaluated rows.
     *
     * @param minPrediction {@code min_prediction}: negative where the model is not non-negative
     */
    public record Scores(double rmse, double mae, double r2, double minPrediction)
            implements org.psdkit.model.Evaluation {
        @Override
        public Map<String, Object> toMap() {
            Map<String, Object> m = new java.util.LinkedHashMap<>();
            m.put("rmse", rmse);
            m.put("mae", mae);
            m.put("r2", r2);
            m.put("min_prediction", minPrediction);
            return m;
        }

        @Override
        public String toString() {
            return toMap().toString();
        }
    }

    /** The smallest entry of {@code v} (+∞ for none). */
    public static double minimum(double[] v) {
        double m = Double.POSITIVE_INFINITY;
        for (double d : v) {
            m = Math.min(m, d);
        }
        return m;
    }
}
