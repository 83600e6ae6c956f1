package org.psdkit.spark.ml;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.spark.ml.Transformer;
import org.apache.spark.ml.param.IntParam;
import org.apache.spark.ml.param.Param;
import org.apache.spark.ml.param.ParamMap;
import org.apache.spark.ml.param.StringArrayParam;
import org.apache.spark.ml.util.Identifiable$;
import org.apache.spark.ml.util.MLReader;
import org.apache.spark.ml.util.MLWritable;
import org.apache.spark.ml.util.MLWriter;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.StructType;
import org.psdkit.model.Model;

/**
 * Scores any psdkit model (any family, as {@link org.psdkit.io.ModelIO} loads it) on a DataFrame in parallel, so a
 * model fitted on one machine is applied to as many rows as the cluster holds. The model is broadcast once (as its
 * model-file JSON, parsed once per executor) and every partition is scored {@code blockRows} rows (65,536 by default)
 * at a time, each chunk by one call of the model's matrix {@link Model#predict}, the path of {@code psdkit predict}:
 * a partition of at most {@code blockRows} rows gets exactly the numbers {@code model.predict} gives for its rows.
 * (Rows scored in different calls can differ in the last bits: a radial kernel's cross block is computed on points
 * centred at the block's column means, so the rounding of a row depends on the rows scored with it.) The input is the vector column {@code featuresCol} (its entries in the order of the model's feature names,
 * e.g. {@code VectorAssembler} over those columns); the output appends one double column per model output
 * ({@link Model#outputColumns()}: {@code prediction}, {@code decision}, {@code density}, {@code mean} and
 * {@code variance}, {@code q0.25}, ...) named by {@code outputCols} (default: the output names with '.' replaced by
 * '_', e.g. {@code q0_25}, since Spark reads a dot in a column name as a field access).
 *
 * <pre>{@code
 * PsdkitModelTransformer t = PsdkitModelTransformer.fromFile("hdfs:///models/krr.json").setFeaturesCol("features");
 * Dataset<Row> scored = t.transform(df);
 * }</pre>
 */
public final class PsdkitModelTransformer extends Transformer implements MLWritable {

    private static final long serialVersionUID = 1L;

    /** Default {@code blockRows}: rows of a partition scored by one {@link Model#predict} call. */
    public static final int DEFAULT_BLOCK_ROWS = Scoring.DEFAULT_BLOCK_ROWS;

    private final String uid;
    private final transient Model model;
    private final Param<String> featuresCol;
    private final StringArrayParam outputCols;
    private final IntParam blockRows;

    /** A transformer for {@code model}. */
    public PsdkitModelTransformer(Model model) {
        this(Identifiable$.MODULE$.randomUID("psdkitModel"), model);
    }

    PsdkitModelTransformer(String uid, Model model) {
        if (model == null) {
            throw new IllegalArgumentException("model must not be null");
        }
        this.uid = uid;
        this.model = model;
        featuresCol = MlParams.featuresCol(this);
        outputCols = new StringArrayParam(this, "outputCols", "names of the output columns, one per model output "
                + "(" + String.join(", ", model.outputColumns()) + ")");
        blockRows = MlParams.blockRows(this);
        setDefault(featuresCol, "features");
        setDefault(blockRows, Scoring.DEFAULT_BLOCK_ROWS);
        List<String> names = new ArrayList<>();
        for (String o : model.outputColumns()) {
            names.add(Columns.columnName(o));
        }
        setDefault(outputCols, names.toArray(new String[0]));
    }

    /**
     * A transformer for the psdkit model file at {@code path} (a Hadoop path: local, HDFS, S3, ..., read with the
     * active Spark session's Hadoop configuration).
     */
    public static PsdkitModelTransformer fromFile(String path) {
        return new PsdkitModelTransformer(Persistence.readModelFile(path,
                SparkSession.active().sparkContext().hadoopConfiguration()));
    }

    @Override
    public String uid() {
        return uid;
    }

    public Param<String> featuresCol() {
        return featuresCol;
    }

    public StringArrayParam outputCols() {
        return outputCols;
    }

    public IntParam blockRows() {
        return blockRows;
    }

    public PsdkitModelTransformer setBlockRows(int v) {
        set(blockRows, v);
        return this;
    }

    public PsdkitModelTransformer setFeaturesCol(String v) {
        set(featuresCol, v);
        return this;
    }

    public PsdkitModelTransformer setOutputCols(String... v) {
        set(outputCols, v);
        return this;
    }

    /** The psdkit model. */
    public Model model() {
        return model;
    }

    private String[] cols() {
        String[] c = getOrDefault(outputCols);
        if (c.length != model.outputColumns().size()) {
            throw new IllegalArgumentException("outputCols: " + c.length + " names " + Arrays.toString(c) + " for "
                    + model.outputColumns().size() + " model outputs " + model.outputColumns());
        }
        return c;
    }

    @Override
    public Dataset<Row> transform(Dataset<?> dataset) {
        transformSchema(dataset.schema());
        return Scoring.transform(dataset, model, getOrDefault(featuresCol), "outputCols", cols(),
                Scoring.indices(model, model.outputColumns()), (Integer) getOrDefault(blockRows));
    }

    @Override
    public StructType transformSchema(StructType schema) {
        Columns.requireVectorSize(schema, "featuresCol", getOrDefault(featuresCol), model.featureNames().size(),
                model.featureNames());
        return Columns.withDoubles(schema, "outputCols", cols());
    }

    @Override
    public PsdkitModelTransformer copy(ParamMap extra) {
        return copyValues(new PsdkitModelTransformer(uid, model), extra);
    }

    @Override
    public MLWriter write() {
        return new Persistence.Writer(this, model);
    }

    public static MLReader<PsdkitModelTransformer> read() {
        return new Persistence.Reader<>(PsdkitModelTransformer.class, null, PsdkitModelTransformer::new);
    }

    public static PsdkitModelTransformer load(String path) {
        return read().load(path);
    }
}
