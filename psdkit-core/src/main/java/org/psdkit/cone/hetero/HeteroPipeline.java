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
        super(header, inner, org.psdkit.model.HyperParameters.typed(header.hyperParameters(),
                HeteroHyperParameters::of), diagnostics, points, rangeMin, rangeMax, selection);
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
    public Scores evaluate(Dataset raw) {
        if (raw.y() == null) {
            throw new IllegalArgumentException(raw.source() + ": no numeric target column");
        }
        Matrix pred = predict(raw.x());
        return new Scores(HeteroModel.nll(pred, raw.y()), Metrics.rmse(raw.y(), pred.col(0)), minVariance(pred),
                minVariance(predict(densePoints())));
    }

    /**
     * The metrics of {@link #metrics} and the smallest variance over {@link #densePoints()}.
     *
     * @param nll              mean negative Gaussian log-likelihood of the rows
     * @param rmse             of the mean
     * @param minVariance      the smallest predicted variance at a row
     * @param minVarianceGrid  the smallest predicted variance on the dense grid over the training box
     */
    public record Scores(double nll, double rmse, double minVariance, double minVarianceGrid)
            implements org.psdkit.model.Evaluation {
        @Override
        public Map<String, Object> toMap() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("nll", nll);
            m.put("rmse", rmse);
            m.put("min_variance", minVariance);
            m.put("min_variance_grid", minVarianceGrid);
            return m;
        }

        @Override
        public String toString() {
            return toMap().toString();
        }
    }
}
