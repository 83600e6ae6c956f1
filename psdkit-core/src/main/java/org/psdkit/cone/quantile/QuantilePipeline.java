package org.psdkit.cone.quantile;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.psdkit.cone.ConeGrid;
import org.psdkit.cone.ConePipeline;
import org.psdkit.cone.Pinball;
import org.psdkit.data.Dataset;
import org.psdkit.linalg.Matrix;
import org.psdkit.model.ModelHeader;

/**
 * A fitted multiple-quantile regression on raw features ({@link QuantileTrainer}, or {@code ModelIO.load}): one
 * output column per level ({@code q0.25}, …); {@link #evaluate} reports the pinball loss and the coverage per level
 * and the crossings on the rows and on a dense grid over the training box.
 */
public final class QuantilePipeline extends ConePipeline<QuantileModel> {

    public QuantilePipeline(ModelHeader header, QuantileModel inner, org.psdkit.model.Diagnostics diagnostics,
                            Matrix points,
                            double[] rangeMin, double[] rangeMax, ConeGrid.Outcome selection) {
        super(header, inner, org.psdkit.model.HyperParameters.typed(header.hyperParameters(),
                QuantileHyperParameters::of), diagnostics, points, rangeMin, rangeMax, selection);
    }

    /** The quantile levels. */
    public double[] taus() {
        return inner().taus().clone();
    }

    /**
     * {@code pinball} (per level, mean over rows), {@code pinball_total}, {@code coverage} (per level, the fraction
     * of targets at or below the quantile) and {@code crossings} ({@code rows}, and {@code grid}/{@code grid_points}
     * when {@code gridQ} is given).
     *
     * @param q     predicted quantiles, one column per level
     * @param gridQ predicted quantiles on check points, or null
     */
    public static Map<String, Object> metrics(Matrix q, double[] y, double[] taus, Matrix gridQ) {
        return scores(q, y, taus, gridQ).toMap();
    }

    /** {@link #metrics} as a record. */
    public static Scores scores(Matrix q, double[] y, double[] taus, Matrix gridQ) {
        Map<String, Double> pin = new LinkedHashMap<>();
        Map<String, Double> cov = new LinkedHashMap<>();
        double total = 0;
        for (int t = 0; t < taus.length; t++) {
            double s = 0;
            int below = 0;
            for (int i = 0; i < y.length; i++) {
                s += Pinball.loss(taus[t], y[i] - q.get(i, t));
                if (y[i] <= q.get(i, t)) {
                    below++;
                }
            }
            pin.put(QuantileModel.column(taus[t]), s / y.length);
            cov.put(QuantileModel.column(taus[t]), (double) below / y.length);
            total += s / y.length;
        }
        return new Scores(pin, total, cov, QuantileModel.crossings(q),
                gridQ == null ? -1 : QuantileModel.crossings(gridQ), gridQ == null ? -1 : gridQ.rows());
    }

    /**
     * A quantile model's metrics.
     *
     * @param pinball       per level (column name {@code q0.25}, …), the mean pinball loss over the rows
     * @param pinballTotal  their sum
     * @param coverage      per level, the fraction of targets at or below the quantile
     * @param crossings     rows where two levels' quantiles cross
     * @param gridCrossings check points where they cross (-1: no check points)
     * @param gridPoints    the check points (-1: none)
     */
    public record Scores(Map<String, Double> pinball, double pinballTotal, Map<String, Double> coverage,
                         long crossings, long gridCrossings, int gridPoints) implements org.psdkit.model.Evaluation {
        public Scores {
            pinball = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(pinball));
            coverage = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(coverage));
        }

        @Override
        public Map<String, Object> toMap() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("pinball", new LinkedHashMap<String, Object>(pinball));
            m.put("pinball_total", pinballTotal);
            m.put("coverage", new LinkedHashMap<String, Object>(coverage));
            Map<String, Object> cr = new LinkedHashMap<>();
            cr.put("rows", crossings);
            if (gridPoints >= 0) {
                cr.put("grid", gridCrossings);
                cr.put("grid_points", gridPoints);
            }
            m.put("crossings", cr);
            return m;
        }

        @Override
        public String toString() {
            return toMap().toString();
        }
    }

    /** {@link #metrics} on the rows, with the crossings over {@link #densePoints()}. */
    @Override
    public Scores evaluate(Dataset raw) {
        if (raw.y() == null) {
            throw new IllegalArgumentException(raw.source() + ": no numeric target column");
        }
        return scores(predict(raw.x()), raw.y(), inner().taus(), predict(densePoints()));
    }

    /** The levels as written in model files' {@code options.taus}. */
    static List<Double> tauList(double[] taus) {
        Double[] t = new Double[taus.length];
        for (int i = 0; i < taus.length; i++) {
            t[i] = taus[i];
        }
        return List.of(t);
    }
}
