package org.psdkit.model;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The metrics of a model on a data set, as {@link Model#evaluate} returns them: each kind of model has its record
 * with typed accessors ({@link Regression}; {@code SvmClassifier.Scores}, {@code DensityPipeline.Scores},
 * {@code HeteroPipeline.Scores}, {@code QuantilePipeline.Scores}, {@code NonNegativeRegressionModel.Scores});
 * {@link #toMap()} is the ordered view that {@code psdkit eval} reports.
 */
public interface Evaluation {

    /** The metrics in the order of the report. */
    Map<String, Object> toMap();

    /** One value of {@link #toMap()}, or null. */
    default Object get(String name) {
        return toMap().get(name);
    }

    /**
     * Regression on output column 0: root mean squared error, mean absolute error, coefficient of determination
     * ({@link Metrics#rmse}, {@link Metrics#mae}, {@link Metrics#r2}).
     */
    record Regression(double rmse, double mae, double r2) implements Evaluation {

        /** The metrics of predictions {@code p} against targets {@code y}. */
        public static Regression of(double[] y, double[] p) {
            return new Regression(Metrics.rmse(y, p), Metrics.mae(y, p), Metrics.r2(y, p));
        }

        @Override
        public Map<String, Object> toMap() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("rmse", rmse);
            m.put("mae", mae);
            m.put("r2", r2);
            return m;
        }

        @Override
        public String toString() {
            return toMap().toString();
        }
    }
}
