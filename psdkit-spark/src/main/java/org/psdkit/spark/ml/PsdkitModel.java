package org.psdkit.spark.ml;

import java.util.List;
import org.apache.spark.ml.Model;
import org.apache.spark.ml.param.IntParam;
import org.apache.spark.ml.param.Param;
import org.apache.spark.ml.param.ParamMap;
import org.apache.spark.ml.util.MLWritable;
import org.apache.spark.ml.util.MLWriter;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.types.StructType;

/**
 * What the fitted psdkit models share: an ordinary psdkit model inside ({@code psdkitModel()}), {@code featuresCol}
 * (a vector column of the model's features, checked against the size its ML attributes record), {@code blockRows}
 * (rows per {@code Model.predict} call, {@link PsdkitModelTransformer}'s), a {@code transform} that scores in
 * parallel ({@link Scoring}) and appends the family's output columns, {@link #copy} (params carried, parent kept)
 * and spark.ml persistence: {@code write()} saves the params' metadata and the psdkit model file
 * {@code dir/data/psdkit-model.json} ({@link Persistence}); each concrete class has the static {@code read()}
 * spark.ml finds by reflection.
 *
 * @param <M> the concrete model
 */
public abstract class PsdkitModel<M extends PsdkitModel<M>> extends Model<M> implements MLWritable {

    private static final long serialVersionUID = 1L;

    private final String uid;
    private final transient org.psdkit.model.Model model;
    private final Param<String> featuresCol;
    private final IntParam blockRows;

    PsdkitModel(String uid, org.psdkit.model.Model model) {
        this.uid = uid;
        this.model = model;
        featuresCol = MlParams.featuresCol(this);
        blockRows = MlParams.blockRows(this);
        setDefault(featuresCol, "features");
        setDefault(blockRows, Scoring.DEFAULT_BLOCK_ROWS);
    }

    @SuppressWarnings("unchecked")
    final M self() {
        return (M) this;
    }

    @Override
    public final String uid() {
        return uid;
    }

    public Param<String> featuresCol() {
        return featuresCol;
    }

    public IntParam blockRows() {
        return blockRows;
    }

    public M setFeaturesCol(String v) {
        set(featuresCol, v);
        return self();
    }

    public M setBlockRows(int v) {
        set(blockRows, v);
        return self();
    }

    /** The number of features the model takes. */
    public int numFeatures() {
        return model.featureNames().size();
    }

    /** The psdkit model, as the family's class. */
    final org.psdkit.model.Model model() {
        return model;
    }

    /** The param naming the output columns ({@code predictionCol}, {@code densityCol}, {@code quantileCols}). */
    abstract String outputParam();

    /** The output columns {@code transform} appends, one per {@link #modelOutputs()}. */
    abstract String[] outputCols();

    /** The model's outputs ({@link org.psdkit.model.Model#outputColumns()} names) the output columns hold. */
    abstract List<String> modelOutputs();

    /** A new instance of the same uid and psdkit model (with its training figures), params at their defaults. */
    abstract M newInstance();

    @Override
    public final Dataset<Row> transform(Dataset<?> dataset) {
        transformSchema(dataset.schema());
        return Scoring.transform(dataset, model, getOrDefault(featuresCol), outputParam(), outputCols(),
                Scoring.indices(model, modelOutputs()), (Integer) getOrDefault(blockRows));
    }

    @Override
    public final StructType transformSchema(StructType schema) {
        Columns.requireVectorSize(schema, "featuresCol", getOrDefault(featuresCol), model.featureNames().size(),
                model.featureNames());
        return Columns.withDoubles(schema, outputParam(), outputCols());
    }

    @Override
    public final M copy(ParamMap extra) {
        return copyValues(newInstance(), extra).setParent(parent());
    }

    @Override
    public final MLWriter write() {
        return new Persistence.Writer(this, model);
    }
}
