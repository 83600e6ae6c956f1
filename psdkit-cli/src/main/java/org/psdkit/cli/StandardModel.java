package org.psdkit.cli;

import java.util.LinkedHashMap;
import java.util.Map;
import org.psdkit.data.Dataset;
import org.psdkit.linalg.Matrix;
import org.psdkit.model.Metrics;
import org.psdkit.model.Predictor;

/**
 * A {@link LoadedModel} made of a model-file {@link ModelDocs.Header} and a {@link Predictor} working in the scaled
 * input space. Evaluation is regression on output column 0 ({@code rmse, mae, r2}); override {@link #evaluate} for
 * other tasks.
 */
public class StandardModel implements LoadedModel {
    protected final ModelDocs.Header header;
    protected final Predictor predictor;

    public StandardModel(ModelDocs.Header header, Predictor predictor) {
        this.header = header;
        this.predictor = predictor;
    }

    public ModelDocs.Header header() {
        return header;
    }

    public Predictor predictor() {
        return predictor;
    }

    @Override
    public String type() {
        return header.type();
    }

    @Override
    public String[] featureNames() {
        return header.featureNames().clone();
    }

    @Override
    public String targetName() {
        return header.targetName();
    }

    @Override
    public String[] outputColumns() {
        return predictor.outputColumns();
    }

    @Override
    public Matrix predict(Matrix rawX) {
        if (rawX.cols() != header.featureNames().length) {
            throw new IllegalArgumentException("the model takes " + header.featureNames().length + " features, got "
                    + rawX.cols());
        }
        return predictor.predict(header.scaler().apply(rawX));
    }

    @Override
    public Map<String, Object> evaluate(Dataset raw) {
        if (raw.y() == null) {
            throw new IllegalArgumentException(raw.source() + ": no numeric target column to evaluate against");
        }
        double[] p = predict(raw.x()).col(0);
        Map<String, Object> m = new LinkedHashMap<>();
        m.putAll(Metrics.regression(raw.y(), p));
        return m;
    }
}
