package org.psdkit.cone.hetero;

import java.util.LinkedHashMap;
import java.util.Map;
import org.psdkit.cone.ConeGrid;
import org.psdkit.cone.ConePipeline;
import org.psdkit.data.Dataset;
import org.psdkit.linalg.Matrix;
import org.psdkit.model.Metrics;
import org.psdkit.model.ModelHeader;

/**
 * A fitted heteroscedastic regression on raw features ({@link HeteroTrainer}, or {@code ModelIO.load}): outputs
 * {@code mean} and {@code variance}; {@link #evaluate} reports the held-out Gaussian NLL, the RMSE of the mean, the
 * smallest predicted variance on the rows and on a dense grid over the training box.
 */
public final class HeteroPipeline extends ConePipeline<HeteroModel> {

    public HeteroPipeline(ModelHeader header, HeteroModel inner, org.psdkit.model.Diagnostics diagnostics,
                          Matrix points,
                          double[] rangeMin, double[] rangeMax, ConeGrid.Outcome selection) {
        super(header, inner, diagnostics, points, rangeMin, rangeMax, selection);
    }

    /** {@code nll, rmse, min_variance} of predictions (mean, variance) against targets. */
    public static Map<String, Object> metrics(Matrix pred, double[] y) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("nll", HeteroModel.nll(pred, y));
        m.put("rmse", Metrics.rmse(y, pred.col(0)));
        m.put("min_variance", minVariance(pred));
        return m;
    }

    private static double minVariance(Matrix pred) {
        double minV = Double.POSITIVE_INFINITY;
        for (int i = 0; i < pred.rows(); i++) {
            minV = Math.min(minV, pred.get(i, 1));
        }
        return minV;
    }

    /** {@link #metrics} on the rows, then {@code min_variance_grid} over {@link #densePoints()}. */
    @Override
    public Map<String, Object> evaluate(Dataset raw) {
        if (raw.y() == null) {
            throw new IllegalArgumentException(raw.source() + ": no numeric target column");
        }
        Map<String, Object> r = metrics(predict(raw.x()), raw.y());
        r.put("min_variance_grid", minVariance(predict(densePoints())));
        return r;
    }
}
