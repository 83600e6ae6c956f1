package org.psdkit.spark.ml;

import java.util.List;
import java.util.Map;
import org.apache.spark.ml.param.Param;
import org.apache.spark.ml.util.MLReader;
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
public final class NystromKrrRegressionModel extends PsdkitModel<NystromKrrRegressionModel> {

    private static final long serialVersionUID = 1L;

    private final long numRows;
    private final Map<String, Double> trainingMetrics;
    private final Param<String> labelCol;
    private final Param<String> predictionCol;

    NystromKrrRegressionModel(String uid, Pipeline<KernelRidge> model, long numRows,
                              Map<String, Double> trainingMetrics) {
        super(uid, model);
        this.numRows = numRows;
        this.trainingMetrics = trainingMetrics == null ? Map.of() : Map.copyOf(trainingMetrics);
        labelCol = MlParams.labelCol(this);
        predictionCol = MlParams.predictionCol(this);
        setDefault(labelCol, "label");
        setDefault(predictionCol, "prediction");
    }

    public Param<String> labelCol() {
        return labelCol;
    }

    public Param<String> predictionCol() {
        return predictionCol;
    }

    public NystromKrrRegressionModel setPredictionCol(String v) {
        set(predictionCol, v);
        return this;
    }

    /** The fitted psdkit model (saved and loaded by {@link org.psdkit.io.ModelIO} as any krr model file). */
    @SuppressWarnings("unchecked")
    public Pipeline<KernelRidge> psdkitModel() {
        return (Pipeline<KernelRidge>) model();
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
    String outputParam() {
        return "predictionCol";
    }

    @Override
    String[] outputCols() {
        return new String[] {getOrDefault(predictionCol)};
    }

    @Override
    List<String> modelOutputs() {
        return List.of("prediction");
    }

    @Override
    NystromKrrRegressionModel newInstance() {
        return new NystromKrrRegressionModel(uid(), psdkitModel(), numRows, trainingMetrics);
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
