package org.psdkit.spark.ml;

import java.util.List;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.ml.Estimator;
import org.apache.spark.ml.param.BooleanParam;
import org.apache.spark.ml.param.DoubleParam;
import org.apache.spark.ml.param.IntParam;
import org.apache.spark.ml.param.LongParam;
import org.apache.spark.ml.param.Param;
import org.apache.spark.ml.param.ParamMap;
import org.apache.spark.ml.util.DefaultParamsReader;
import org.apache.spark.ml.util.DefaultParamsWritable;
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
import org.psdkit.spark.SparkEngine;
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
 * {@code maxIter} (CG iterations, 200), {@code storage} ("auto": the Gram route when cheaper, "gram", "recompute").
 * The family takes no sample weights, so there is no {@code weightCol}.
 */
public final class NystromKrrRegressor extends Estimator<NystromKrrRegressionModel> implements DefaultParamsWritable {

    private static final long serialVersionUID = 1L;

    private final String uid;
    private final Param<String> featuresCol;
    private final Param<String> labelCol;
    private final Param<String> predictionCol;
    private final Param<String> kernel;
    private final DoubleParam sigma;
    private final DoubleParam lambda;
    private final IntParam anchors;
    private final LongParam seed;
    private final BooleanParam center;
    private final DoubleParam tol;
    private final IntParam maxIter;
    private final Param<String> storage;

    public NystromKrrRegressor() {
        this(Identifiable$.MODULE$.randomUID("psdkitNystromKrr"));
    }

    public NystromKrrRegressor(String uid) {
        this.uid = uid;
        featuresCol = MlParams.featuresCol(this);
        labelCol = MlParams.labelCol(this);
        predictionCol = MlParams.predictionCol(this);
        kernel = MlParams.kernel(this);
        sigma = MlParams.sigma(this);
        lambda = MlParams.lambda(this, "ridge lambda of (K_nm'K_nm + lambda K_mm) alpha = K_nm'y");
        anchors = MlParams.anchors(this);
        seed = MlParams.seed(this);
        center = MlParams.center(this);
        tol = MlParams.tol(this, "relative residual at which the conjugate gradient stops");
        maxIter = MlParams.maxIter(this, "cap on conjugate-gradient iterations");
        storage = new Param<>(this, "storage", "the solve's route: auto (the Gram route when the cost model prefers "
                + "it), gram (K_nm'K_nm summed once, then one to three CG passes) or recompute (the plain CG)");
        setDefault(featuresCol, "features");
        setDefault(labelCol, "label");
        setDefault(predictionCol, "prediction");
        setDefault(kernel, MlParams.DEFAULT_KERNEL);
        setDefault(lambda, 1e-3);
        setDefault(anchors, 100);
        setDefault(seed, 42L);
        setDefault(center, false);
        setDefault(tol, NystromKrr.DEFAULT_TOLERANCE);
        setDefault(maxIter, NystromKrr.DEFAULT_MAX_ITERATIONS);
        setDefault(storage, "auto");
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

    public Param<String> kernel() {
        return kernel;
    }

    public DoubleParam sigma() {
        return sigma;
    }

    public DoubleParam lambda() {
        return lambda;
    }

    public IntParam anchors() {
        return anchors;
    }

    public LongParam seed() {
        return seed;
    }

    public BooleanParam center() {
        return center;
    }

    public DoubleParam tol() {
        return tol;
    }

    public IntParam maxIter() {
        return maxIter;
    }

    public Param<String> storage() {
        return storage;
    }

    public NystromKrrRegressor setFeaturesCol(String v) {
        set(featuresCol, v);
        return this;
    }

    public NystromKrrRegressor setLabelCol(String v) {
        set(labelCol, v);
        return this;
    }

    public NystromKrrRegressor setPredictionCol(String v) {
        set(predictionCol, v);
        return this;
    }

    public NystromKrrRegressor setKernel(String v) {
        set(kernel, v);
        return this;
    }

    public NystromKrrRegressor setSigma(double v) {
        set(sigma, v);
        return this;
    }

    public NystromKrrRegressor setLambda(double v) {
        set(lambda, v);
        return this;
    }

    public NystromKrrRegressor setAnchors(int v) {
        set(anchors, v);
        return this;
    }

    public NystromKrrRegressor setSeed(long v) {
        set(seed, v);
        return this;
    }

    public NystromKrrRegressor setCenter(boolean v) {
        set(center, v);
        return this;
    }

    public NystromKrrRegressor setTol(double v) {
        set(tol, v);
        return this;
    }

    public NystromKrrRegressor setMaxIter(int v) {
        set(maxIter, v);
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
        return new NystromKrrTrainer.Options(MlParams.kernel(this, kernel, sigma), Scaler.Kind.NONE,
                Nystrom.of((Integer) getOrDefault(anchors), Anchors.Method.UNIFORM, (Long) getOrDefault(seed)),
                (Double) getOrDefault(lambda), (Boolean) getOrDefault(center), (Double) getOrDefault(tol),
                (Integer) getOrDefault(maxIter), st);
    }

    @Override
    public NystromKrrRegressionModel fit(Dataset<?> dataset) {
        StructType schema = dataset.schema();
        transformSchema(schema);
        NystromKrrTrainer.Options o = options();
        String f = getOrDefault(featuresCol);
        String l = getOrDefault(labelCol);
        JavaRDD<double[]> rows = Columns.rows(dataset, f, l).persist(StorageLevel.MEMORY_AND_DISK());
        try {
            List<String> names = Columns.featureNames(schema, f);
            SparkNystromKrr.Fit fit = SparkFits.krr(rows, o, names, l, "spark.ml DataFrame");
            NystromKrrRegressionModel m = new NystromKrrRegressionModel(uid, fit.pipeline(), fit.rows(),
                    fit.trainMetrics());
            return copyValues(m, extractParamMap()).setParent(this);
        } catch (Exception e) { // Scala code throws checked exceptions (SparkException) undeclared
            throw SparkEngine.translate(e);
        } finally {
            SparkNystromKrr.release(rows);
        }
    }

    @Override
    public StructType transformSchema(StructType schema) {
        options(); // a bad kernel, sigma or storage is named before any job runs
        Columns.requireVector(schema, "featuresCol", getOrDefault(featuresCol));
        Columns.requireNumeric(schema, "labelCol", getOrDefault(labelCol));
        return Columns.withDoubles(schema, "predictionCol", getOrDefault(predictionCol));
    }

    @Override
    public NystromKrrRegressor copy(ParamMap extra) {
        return defaultCopy(extra);
    }

    /** The reader spark.ml's {@code Pipeline.load} and {@code CrossValidator.load} find by reflection. */
    public static MLReader<NystromKrrRegressor> read() {
        return new DefaultParamsReader<>();
    }

    public static NystromKrrRegressor load(String path) {
        return read().load(path);
    }
}
