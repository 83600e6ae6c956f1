package org.psdkit.spark.ml;

import java.util.List;
import java.util.Map;
import org.apache.spark.ml.Model;
import org.apache.spark.ml.param.Param;
import org.apache.spark.ml.param.ParamMap;
import org.apache.spark.ml.util.MLReader;
import org.apache.spark.ml.util.MLWritable;
import org.apache.spark.ml.util.MLWriter;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.types.StructType;
import org.psdkit.model.Pipeline;
import org.psdkit.regression.KernelRidge;
import org.psdkit.regression.KrrTrainer;

/**
 * A fitted {@link NystromKrrRegressor}: an ordinary psdkit {@code krr} model (points = anchors; {@link
 * #psdkitModel()}), scored on a DataFrame in parallel (broadcast once, a block of rows at a time per partition, see
 * {@link PsdkitModelTransformer}); {@code transform} appends {@code predictionCol}. Saved with spark.ml's writer
 * ({@code model.write().save(dir)}; the psdkit model file is {@code dir/data/psdkit-model.json}) and read back with
 * {@link #load} or inside a {@code PipelineModel}.
 */
public final class NystromKrrRegressionModel extends Model<NystromKrrRegressionModel> implements MLWritable {

    private static final long serialVersionUID = 1L;

    private final String uid;
    private final transient Pipeline<KernelRidge> model;
    private final long numRows;
    private final Map<String, Double> trainingMetrics;
    private final Param<String> featuresCol;
    private final Param<String> labelCol;
    private final Param<String> predictionCol;

    NystromKrrRegressionModel(String uid, Pipeline<KernelRidge> model, long numRows,
                              Map<String, Double> trainingMetrics) {
        this.uid = uid;
        this.model = model;
        this.numRows = numRows;
        this.trainingMetrics = trainingMetrics == null ? Map.of() : Map.copyOf(trainingMetrics);
        featuresCol = MlParams.featuresCol(this);
        labelCol = MlParams.labelCol(this);
        predictionCol = MlParams.predictionCol(this);
        setDefault(featuresCol, "features");
        setDefault(labelCol, "label");
        setDefault(predictionCol, "prediction");
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

    public Param<String> predictionCol() {
        return predictionCol;
    }

    public NystromKrrRegressionModel setFeaturesCol(String v) {
        set(featuresCol, v);
        return this;
    }

    public NystromKrrRegressionModel setPredictionCol(String v) {
        set(predictionCol, v);
        return this;
    }

    /** The fitted psdkit model (saved and loaded by {@link org.psdkit.io.ModelIO} as any krr model file). */
    public Pipeline<KernelRidge> psdkitModel() {
        return model;
    }

    /** The number of features the model takes. */
    public int numFeatures() {
        return model.featureNames().size();
    }

    /** Training rows (0 for a model read back). */
    public long numRows() {
        return numRows;
    }

    /** rmse, mae and r2 on the training rows (empty for a model read back). */
    public Map<String, Double> trainingMetrics() {
        return trainingMetrics;
    }

    @Override
    public Dataset<Row> transform(Dataset<?> dataset) {
        transformSchema(dataset.schema());
        return Scoring.transform(dataset, model, getOrDefault(featuresCol), "predictionCol",
                new String[] {getOrDefault(predictionCol)}, Scoring.indices(model, List.of("prediction")));
    }

    @Override
    public StructType transformSchema(StructType schema) {
        Columns.requireVectorSize(schema, "featuresCol", getOrDefault(featuresCol), model.featureNames().size(),
                model.featureNames());
        return Columns.withDoubles(schema, "predictionCol", getOrDefault(predictionCol));
    }

    @Override
    public NystromKrrRegressionModel copy(ParamMap extra) {
        NystromKrrRegressionModel c = new NystromKrrRegressionModel(uid, model, numRows, trainingMetrics);
        return copyValues(c, extra).setParent(parent());
    }

    @Override
    public MLWriter write() {
        return new Persistence.Writer(this, model);
    }

    @SuppressWarnings("unchecked")
    public static MLReader<NystromKrrRegressionModel> read() {
        return new Persistence.Reader<>(NystromKrrRegressionModel.class, KrrTrainer.TYPE,
                (uid, m) -> new NystromKrrRegressionModel(uid, (Pipeline<KernelRidge>) m, 0, Map.of()));
    }

    public static NystromKrrRegressionModel load(String path) {
        return read().load(path);
    }
}
