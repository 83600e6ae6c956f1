package org.psdkit.spark.ml;

import java.util.List;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.ml.param.BooleanParam;
import org.apache.spark.ml.param.Param;
import org.apache.spark.ml.util.DefaultParamsReader;
import org.apache.spark.ml.util.Identifiable$;
import org.apache.spark.ml.util.MLReader;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.storage.StorageLevel;
import org.psdkit.data.Scaler;
import org.psdkit.psd.Anchors;
import org.psdkit.psd.Nystrom;
import org.psdkit.regression.nystrom.NystromKrr;
import org.psdkit.regression.nystrom.NystromKrrTrainer;
import org.psdkit.regression.nystrom.Storage;
import org.psdkit.spark.SparkFits;
import org.psdkit.spark.SparkNystromKrr;

/**
 * Nyström kernel ridge regression as a spark.ml estimator: the distributed Falkon fit of {@link SparkNystromKrr}
 * (Rudi, Carratino &amp; Rosasco 2017, Alg. 1; the objective of {@link NystromKrrTrainer}) over a DataFrame's vector
 * column {@code featuresCol} and numeric {@code labelCol}, with the anchors the single-machine trainer takes for the
 * same seed, so the model equals {@code new NystromKrrTrainer(options()).fit(...)} on the same rows up to the order of
 * the sums. Features are used as given (put a {@code StandardScaler} before it in a {@code Pipeline} to scale them).
 * The same code fits {@code psdkit fit krr --engine spark} ({@link SparkFits#krr}).
 *
 * <pre>{@code
 * NystromKrrRegressor krr = new NystromKrrRegressor().setKernel("gaussian(sigma=1)").setLambda(1e-3).setAnchors(500);
 * NystromKrrRegressionModel model = krr.fit(df);            // df: "features" (vector), "label" (double)
 * Dataset<Row> scored = model.transform(df);                // + "prediction"
 * }</pre>
 *
 * <p>Params: {@code featuresCol} ("features"), {@code labelCol} ("label"), {@code predictionCol} ("prediction"),
 * {@code kernel} ({@value MlParams#DEFAULT_KERNEL}), {@code sigma} (unset: the kernel string's), {@code lambda}
 * (1e-3), {@code anchors} (100), {@code seed} (42), {@code center} (false), {@code tol} (CG relative residual, 1e-6),
 * {@code maxIter} (CG iterations, 200), {@code storage} ("auto": the Gram route when cheaper, "gram", "recompute"),
 * {@code weightCol} (unset: equal weights). With sample weights the fit minimises Σ_i w_i (y_i − f(x_i))² +
 * λ αᵀK_mm α on the normal equations (K_nmᵀWK_nm + λK_mm)α = K_nmᵀW(y − offset), summed over the partitions and
 * solved on the driver, as {@link NystromKrrTrainer} fits a weighted data set ({@code NystromDirect}); the CG settings
 * and {@code storage} are then not used. Weights must be &gt;= 0 and finite (an error names the column and the row).
 */
public final class NystromKrrRegressor extends PsdkitEstimator<NystromKrrRegressor, NystromKrrRegressionModel> {

    private static final long serialVersionUID = 1L;

    private static final Shared SHARED = new Shared("ridge lambda of (K_nm'K_nm + lambda K_mm) alpha = K_nm'y",
            p -> MlParams.tol(p, "relative residual at which the conjugate gradient stops"),
            "cap on conjugate-gradient iterations", MlParams::anchors, true, true);

    private final Param<String> predictionCol;
    private final BooleanParam center;
    private final Param<String> storage;

    public NystromKrrRegressor() {
        this(Identifiable$.MODULE$.randomUID("psdkitNystromKrr"));
    }

    public NystromKrrRegressor(String uid) {
        super(uid, SHARED);
        predictionCol = MlParams.predictionCol(this);
        center = MlParams.center(this);
        storage = new Param<>(this, "storage", "the solve's route: auto (the Gram route when the cost model prefers "
                + "it), gram (K_nm'K_nm summed once, then one to three CG passes) or recompute (the plain CG)");
        setDefault(predictionCol, "prediction");
        setDefault(lambda(), 1e-3);
        setDefault(anchors(), 100);
        setDefault(center, false);
        setDefault(tol(), NystromKrr.DEFAULT_TOLERANCE);
        setDefault(maxIter(), NystromKrr.DEFAULT_MAX_ITERATIONS);
        setDefault(storage, "auto");
    }

    public Param<String> labelCol() {
        return labelCol;
    }

    public Param<String> weightCol() {
        return weightCol;
    }

    public Param<String> predictionCol() {
        return predictionCol;
    }

    public BooleanParam center() {
        return center;
    }

    public Param<String> storage() {
        return storage;
    }

    public NystromKrrRegressor setLabelCol(String v) {
        set(labelCol, v);
        return this;
    }

    public NystromKrrRegressor setWeightCol(String v) {
        set(weightCol, v);
        return this;
    }

    public NystromKrrRegressor setPredictionCol(String v) {
        set(predictionCol, v);
        return this;
    }

    public NystromKrrRegressor setCenter(boolean v) {
        set(center, v);
        return this;
    }

    public NystromKrrRegressor setStorage(String v) {
        set(storage, v);
        return this;
    }

    /** The single-machine trainer's options these params stand for ({@link NystromKrrTrainer.Options}). */
    public NystromKrrTrainer.Options options() {
        Storage st;
        try {
            st = Storage.parse(getOrDefault(storage));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("storage: " + e.getMessage(), e);
        }
        return new NystromKrrTrainer.Options(MlParams.kernel(this, kernel(), sigma()), Scaler.Kind.NONE,
                Nystrom.of((Integer) getOrDefault(anchors()), Anchors.Method.UNIFORM, (Long) getOrDefault(seed())),
                (Double) getOrDefault(lambda()), (Boolean) getOrDefault(center), (Double) getOrDefault(tol()),
                (Integer) getOrDefault(maxIter()), st);
    }

    @Override
    void validateParams() {
        options(); // a bad kernel, sigma or storage is named before any job runs
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
    NystromKrrRegressionModel fitChecked(Dataset<?> dataset, StructType schema) {
        NystromKrrTrainer.Options o = options();
        String f = features();
        String l = label();
        String w = weight();
        JavaRDD<double[]> rows = Columns.rows(dataset, f, l, w).persist(StorageLevel.MEMORY_AND_DISK());
        try {
            List<String> names = Columns.featureNames(schema, f);
            SparkNystromKrr.Fit fit = w == null ? SparkFits.krr(rows, o, names, l, "spark.ml DataFrame")
                    : SparkFits.weightedKrr(rows, o, names, l, "spark.ml DataFrame");
            return new NystromKrrRegressionModel(uid(), fit.pipeline(), fit.rows(), fit.trainMetrics());
        } finally {
            SparkNystromKrr.release(rows);
        }
    }

    /** The reader spark.ml's {@code Pipeline.load} and {@code CrossValidator.load} find by reflection. */
    public static MLReader<NystromKrrRegressor> read() {
        return new DefaultParamsReader<>();
    }

    public static NystromKrrRegressor load(String path) {
        return read().load(path);
    }
}
