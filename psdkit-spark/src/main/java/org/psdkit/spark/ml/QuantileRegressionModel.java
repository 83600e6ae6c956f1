package org.psdkit.spark.ml;

import java.util.List;
import org.apache.spark.ml.Model;
import org.apache.spark.ml.param.Param;
import org.apache.spark.ml.param.ParamMap;
import org.apache.spark.ml.param.StringArrayParam;
import org.apache.spark.ml.util.MLReader;
import org.apache.spark.ml.util.MLWritable;
import org.apache.spark.ml.util.MLWriter;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.types.StructType;
import org.psdkit.cone.quantile.QuantileModel;
import org.psdkit.cone.quantile.QuantilePipeline;

/**
 * A fitted {@link QuantileRegressor}: an ordinary psdkit {@code quantile} model ({@link #psdkitModel()}) whose
 * {@code transform} appends one double column per level (named by {@code quantileCols}, default q0_25, q0_5, ...),
 * scored in parallel as {@link PsdkitModelTransformer} scores; with the psd method the columns never cross. Saved
 * and loaded with spark.ml's writer and reader (the psdkit model file is {@code dir/data/psdkit-model.json}).
 */
public final class QuantileRegressionModel extends Model<QuantileRegressionModel> implements MLWritable {

    private static final long serialVersionUID = 1L;

    private final String uid;
    private final transient QuantilePipeline model;
    private final Param<String> featuresCol;
    private final Param<String> labelCol;
    private final StringArrayParam quantileCols;

    QuantileRegressionModel(String uid, QuantilePipeline model) {
        this.uid = uid;
        this.model = model;
        featuresCol = MlParams.featuresCol(this);
        labelCol = MlParams.labelCol(this);
        quantileCols = MlParams.quantileCols(this);
        setDefault(featuresCol, "features");
        setDefault(labelCol, "label");
    }

    @Override
    public String uid() {
        return uid;
    }

    public Param<String> featuresCol() {
        return featuresCol;
    }

    public Param<String> labelCol() {
        return labelCol;
    }

    public StringArrayParam quantileCols() {
        return quantileCols;
    }

    public QuantileRegressionModel setFeaturesCol(String v) {
        set(featuresCol, v);
        return this;
    }

    public QuantileRegressionModel setQuantileCols(String... v) {
        set(quantileCols, v);
        return this;
    }

    /** The fitted psdkit model. */
    public QuantilePipeline psdkitModel() {
        return model;
    }

    /** The levels τ, increasing. */
    public double[] taus() {
        return model.inner().taus().clone();
    }

    /** The output columns, one per level. */
    public String[] outputCols() {
        return QuantileRegressor.columns(model.inner().taus(), isDefined(quantileCols) ? getOrDefault(quantileCols)
                : null);
    }

    @Override
    public Dataset<Row> transform(Dataset<?> dataset) {
        transformSchema(dataset.schema());
        return Scoring.transform(dataset, model, getOrDefault(featuresCol), "quantileCols", outputCols(),
                Scoring.indices(model, List.copyOf(model.outputColumns())));
    }

    @Override
    public StructType transformSchema(StructType schema) {
        Columns.requireVectorSize(schema, "featuresCol", getOrDefault(featuresCol), model.featureNames().size(),
                model.featureNames());
        return Columns.withDoubles(schema, "quantileCols", outputCols());
    }

    @Override
    public QuantileRegressionModel copy(ParamMap extra) {
        return copyValues(new QuantileRegressionModel(uid, model), extra).setParent(parent());
    }

    @Override
    public MLWriter write() {
        return new Persistence.Writer(this, model);
    }

    public static MLReader<QuantileRegressionModel> read() {
        return new Persistence.Reader<>(QuantileRegressionModel.class, QuantileModel.TYPE,
                (uid, m) -> new QuantileRegressionModel(uid, (QuantilePipeline) m));
    }

    public static QuantileRegressionModel load(String path) {
        return read().load(path);
    }
}
