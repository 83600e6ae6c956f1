package org.psdkit.spark.ml;

import java.util.List;
import org.apache.spark.ml.param.Param;
import org.apache.spark.ml.param.StringArrayParam;
import org.apache.spark.ml.util.MLReader;
import org.psdkit.cone.quantile.QuantileModel;
import org.psdkit.cone.quantile.QuantilePipeline;

/**
 * A fitted {@link QuantileRegressor}: an ordinary psdkit {@code quantile} model ({@link #psdkitModel()}) whose
 * {@code transform} appends one double column per level (named by {@code quantileCols}, default q0_25, q0_5, ...),
 * scored in parallel as {@link PsdkitModelTransformer} scores; with the psd method the columns never cross. Saved
 * and loaded with spark.ml's writer and reader (the psdkit model file is {@code dir/data/psdkit-model.json}).
 */
public final class QuantileRegressionModel extends PsdkitModel<QuantileRegressionModel> {

    private static final long serialVersionUID = 1L;

    private final Param<String> labelCol;
    private final StringArrayParam quantileCols;

    QuantileRegressionModel(String uid, QuantilePipeline model) {
        super(uid, model);
        labelCol = MlParams.labelCol(this);
        quantileCols = MlParams.quantileCols(this);
        setDefault(labelCol, "label");
    }

    public Param<String> labelCol() {
        return labelCol;
    }

    public StringArrayParam quantileCols() {
        return quantileCols;
    }

    public QuantileRegressionModel setQuantileCols(String... v) {
        set(quantileCols, v);
        return this;
    }

    /** The fitted psdkit model. */
    public QuantilePipeline psdkitModel() {
        return (QuantilePipeline) model();
    }

    /** The levels τ, increasing. */
    public double[] taus() {
        return psdkitModel().inner().taus().clone();
    }

    /** The output columns, one per level. */
    @Override
    public String[] outputCols() {
        return QuantileRegressor.columns(psdkitModel().inner().taus(),
                isDefined(quantileCols) ? getOrDefault(quantileCols) : null);
    }

    @Override
    String outputParam() {
        return "quantileCols";
    }

    @Override
    List<String> modelOutputs() {
        return List.copyOf(model().outputColumns());
    }

    @Override
    QuantileRegressionModel newInstance() {
        return new QuantileRegressionModel(uid(), psdkitModel());
    }

    public static MLReader<QuantileRegressionModel> read() {
        return new Persistence.Reader<>(QuantileRegressionModel.class, QuantileModel.TYPE,
                (uid, m) -> new QuantileRegressionModel(uid, (QuantilePipeline) m));
    }

    public static QuantileRegressionModel load(String path) {
        return read().load(path);
    }
}
