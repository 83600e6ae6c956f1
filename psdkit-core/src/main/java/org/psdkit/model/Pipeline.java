package org.psdkit.model;

import java.util.List;
import java.util.Map;
import org.psdkit.data.Dataset;
import org.psdkit.linalg.Matrix;

/**
 * A fitted {@link Model} made of a {@link ModelHeader} (feature names, scaler, kernel, hyper-parameters) and an
 * inner {@link Predictor} that works in the scaled input space: {@code predict(raw) = inner.predict(scaler(raw))}.
 * Evaluation is regression on output column 0 ({@code rmse, mae, r2}); subclasses override {@link #evaluate} for other
 * tasks.
 *
 * @param <P> the family's inner model
 */
public class Pipeline<P extends Predictor> implements Model {
    private final ModelHeader header;
    private final P inner;
    private final HyperParameters hyperParameters;
    private final Diagnostics diagnostics;

    /**
     * @param header          what the model file's common fields hold
     * @param inner           the fitted model in the scaled space
     * @param hyperParameters the family's typed view of the header's hyper-parameters (its {@code toMap()} must be
     *                        exactly {@code header.hyperParameters()}, in order); null: held as
     *                        {@link HyperParameters.Recorded}
     * @param diagnostics     what the fit reported (the family's record, or {@link Diagnostics#NONE})
     */
    public Pipeline(ModelHeader header, P inner, HyperParameters hyperParameters, Diagnostics diagnostics) {
        this.header = header;
        this.inner = inner;
        Map<String, Object> stored = header == null ? Map.of() : header.hyperParameters();
        if (hyperParameters != null && !HyperParameters.sameInOrder(hyperParameters.toMap(), stored)) {
            throw new IllegalArgumentException("hyper-parameters " + hyperParameters.toMap()
                    + " differ from the header's " + stored);
        }
        this.hyperParameters = hyperParameters != null ? hyperParameters : HyperParameters.of(stored);
        this.diagnostics = diagnostics == null ? Diagnostics.NONE : diagnostics;
    }

    /**
     * @param header      what the model file's common fields hold
     * @param inner       the fitted model in the scaled space
     * @param diagnostics what the fit reported (the family's record, or {@link Diagnostics#NONE})
     */
    public Pipeline(ModelHeader header, P inner, Diagnostics diagnostics) {
        this(header, inner, null, diagnostics);
    }

    /**
     * @param header      what the model file's common fields hold
     * @param inner       the fitted model in the scaled space
     * @param diagnostics what the fit reported, in a stable order (may be empty), held as {@link Diagnostics.Recorded}
     */
    public Pipeline(ModelHeader header, P inner, Map<String, Object> diagnostics) {
        this(header, inner, Diagnostics.recorded(diagnostics));
    }

    public ModelHeader header() {
        return header;
    }

    /** The family's model in the scaled input space. */
    public P inner() {
        return inner;
    }

    @Override
    public String type() {
        return header.type();
    }

    @Override
    public List<String> featureNames() {
        return header.featureNames();
    }

    @Override
    public String targetName() {
        return header.targetName();
    }

    @Override
    public List<String> outputColumns() {
        return List.of(inner.outputColumns());
    }

    @Override
    public Matrix predict(Matrix rawX) {
        return inner.predict(header.scale(rawX));
    }

    @Override
    public HyperParameters hyperParameters() {
        return hyperParameters;
    }

    @Override
    public Diagnostics diagnostics() {
        return diagnostics;
    }

    @Override
    public Evaluation evaluate(Dataset raw) {
        if (raw.y() == null) {
            throw new IllegalArgumentException(raw.source() + ": no numeric target column to evaluate against");
        }
        Matrix out = predict(raw.x());
        if (raw.targets() != null) {
            if (out.cols() != raw.targetCount()) {
                throw new IllegalArgumentException(raw.source() + ": " + raw.targetCount() + " targets ("
                        + raw.targetName() + "), but the model predicts " + out.cols() + " output column(s)");
            }
            return Evaluation.Targets.of(raw.targetNames(), raw.targets(), out);
        }
        double[] p = out.col(0);
        return Evaluation.Regression.of(raw.y(), p);
    }

    @Override
    public String toString() {
        return type() + " on " + featureNames() + " " + hyperParameters();
    }
}
