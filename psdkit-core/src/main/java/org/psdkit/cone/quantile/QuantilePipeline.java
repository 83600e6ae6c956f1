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
        super(header, inner, diagnostics, points, rangeMin, rangeMax, selection);
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
        Map<String, Object> m = new LinkedHashMap<>();
        Map<String, Object> pin = new LinkedHashMap<>();
        Map<String, Object> cov = new LinkedHashMap<>();
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
        m.put("pinball", pin);
        m.put("pinball_total", total);
        m.put("coverage", cov);
        Map<String, Object> cr = new LinkedHashMap<>();
        cr.put("rows", QuantileModel.crossings(q));
        if (gridQ != null) {
            cr.put("grid", QuantileModel.crossings(gridQ));
            cr.put("grid_points", gridQ.rows());
        }
        m.put("crossings", cr);
        return m;
    }

    /** {@link #metrics} on the rows, with the crossings over {@link #densePoints()}. */
    @Override
    public Map<String, Object> evaluate(Dataset raw) {
        if (raw.y() == null) {
            throw new IllegalArgumentException(raw.source() + ": no numeric target column");
        }
        return metrics(predict(raw.x()), raw.y(), inner().taus(), predict(densePoints()));
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
