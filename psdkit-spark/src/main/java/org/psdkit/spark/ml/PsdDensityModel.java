package org.psdkit.spark.ml;

import java.util.ArrayList;
import java.util.List;
import org.apache.spark.ml.linalg.SQLDataTypes;
import org.apache.spark.ml.linalg.Vectors;
import org.apache.spark.ml.param.Param;
import org.apache.spark.ml.util.MLReader;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.StructType;
import org.psdkit.density.DensityPipeline;
import org.psdkit.density.PsdDensity;
import org.psdkit.linalg.Matrix;

/**
 * A fitted {@link PsdDensityEstimator}: an ordinary psdkit {@code psd-density} model ({@link #psdkitModel()}),
 * whose {@code transform} appends {@code densityCol} (the density p(x), scored in parallel as {@link
 * PsdkitModelTransformer} scores) and whose {@link #sample} draws exact samples (the model's own sampler,
 * Marteau-Ferey, Bach &amp; Rudi 2020, Sec. 5). Saved and loaded with spark.ml's writer and reader (the psdkit model
 * file is {@code dir/data/psdkit-model.json}).
 */
public final class PsdDensityModel extends PsdkitModel<PsdDensityModel> {

    private static final long serialVersionUID = 1L;

    private final long numRows;
    private final double trainingLogLikelihood;
    private final Param<String> densityCol;

    PsdDensityModel(String uid, DensityPipeline model, long numRows, double trainingLogLikelihood) {
        super(uid, model);
        this.numRows = numRows;
        this.trainingLogLikelihood = trainingLogLikelihood;
        densityCol = MlParams.densityCol(this);
        setDefault(densityCol, "density");
    }

    public Param<String> densityCol() {
        return densityCol;
    }

    public PsdDensityModel setDensityCol(String v) {
        set(densityCol, v);
        return this;
    }

    /** The fitted psdkit model. */
    public DensityPipeline psdkitModel() {
        return (DensityPipeline) model();
    }

    /** Training rows (0 for a model read back). */
    public long numRows() {
        return numRows;
    }

    /** Mean log-density over the training rows (NaN for a model read back). */
    public double trainingLogLikelihood() {
        return trainingLogLikelihood;
    }

    /**
     * {@code n} exact, seeded draws from the density ({@link DensityPipeline#sample}) as a DataFrame of one vector
     * column named {@code featuresCol}, on the active Spark session; the same seed gives the same rows.
     */
    public Dataset<Row> sample(int n, long seed) {
        Matrix z = psdkitModel().sample(n, seed);
        List<Row> rows = new ArrayList<>(n);
        for (double[] r : z.toRowArrays()) {
            rows.add(RowFactory.create(Vectors.dense(r)));
        }
        StructType schema = new StructType().add(getOrDefault(featuresCol()), SQLDataTypes.VectorType(), false);
        return SparkSession.active().createDataFrame(rows, schema);
    }

    @Override
    String outputParam() {
        return "densityCol";
    }

    @Override
    String[] outputCols() {
        return new String[] {getOrDefault(densityCol)};
    }

    @Override
    List<String> modelOutputs() {
        return List.of("density");
    }

    @Override
    PsdDensityModel newInstance() {
        return new PsdDensityModel(uid(), psdkitModel(), numRows, trainingLogLikelihood);
    }

    public static MLReader<PsdDensityModel> read() {
        return new Persistence.Reader<>(PsdDensityModel.class, PsdDensity.TYPE,
                (uid, m) -> new PsdDensityModel(uid, (DensityPipeline) m, 0, Double.NaN));
    }

    public static PsdDensityModel load(String path) {
        return read().load(path);
    }
}
