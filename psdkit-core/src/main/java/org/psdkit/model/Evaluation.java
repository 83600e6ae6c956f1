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

    /**
     * Regression on several targets (a model fitted with {@code targetName} {@code y1,y2,…}): one {@link Regression}
     * per target, output column k against target k. {@link #toMap()} has the shape of the fit report: the names
     * ({@code targets}) and one metrics object per name ({@code metrics}).
     *
     * @param names   the target names, in the order of the output columns
     * @param metrics the metrics of each target, in the same order
     */
    record Targets(java.util.List<String> names, java.util.List<Regression> metrics) implements Evaluation {
        public Targets {
            names = java.util.List.copyOf(names);
            metrics = java.util.List.copyOf(metrics);
            if (names.size() != metrics.size()) {
                throw new IllegalArgumentException(names.size() + " target names for " + metrics.size()
                        + " metrics");
            }
        }

        /** The metrics of the columns of {@code p} against those of {@code y} (n × t each). */
        public static Targets of(String[] names, org.psdkit.linalg.Matrix y, org.psdkit.linalg.Matrix p) {
            if (y.cols() != names.length || p.cols() != names.length || y.rows() != p.rows()) {
                throw new IllegalArgumentException(names.length + " targets, but the data have " + y.rows() + "×"
                        + y.cols() + " targets and the predictions " + p.rows() + "×" + p.cols());
            }
            java.util.List<Regression> m = new java.util.ArrayList<>();
            for (int k = 0; k < names.length; k++) {
                m.add(Regression.of(y.col(k), p.col(k)));
            }
            return new Targets(java.util.List.of(names), m);
        }

        /** The metrics of one target, by name; throws {@link IllegalArgumentException} for an unknown name. */
        public Regression of(String name) {
            int k = names.indexOf(name);
            if (k < 0) {
                throw new IllegalArgumentException("no target named '" + name + "'; the targets are " + names);
            }
            return metrics.get(k);
        }

        @Override
        public Map<String, Object> toMap() {
            Map<String, Object> per = new LinkedHashMap<>();
            for (int k = 0; k < names.size(); k++) {
                per.put(names.get(k), metrics.get(k).toMap());
            }
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("targets", names);
            m.put("metrics", per);
            return m;
        }

        @Override
        public String toString() {
            return toMap().toString();
        }
    }
}
