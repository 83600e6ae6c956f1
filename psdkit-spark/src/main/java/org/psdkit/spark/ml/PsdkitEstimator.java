package org.psdkit.spark.ml;

import org.apache.spark.ml.Estimator;
import org.apache.spark.ml.param.DoubleParam;
import org.apache.spark.ml.param.IntParam;
import org.apache.spark.ml.param.LongParam;
import org.apache.spark.ml.param.Param;
import org.apache.spark.ml.param.ParamMap;
import org.apache.spark.ml.util.DefaultParamsWritable;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.types.StructType;
import org.psdkit.spark.SparkEngine;

/**
 * What the psdkit estimators share: the params every family has ({@code featuresCol}, {@code kernel}, {@code sigma},
 * {@code lambda}, {@code anchors}, {@code seed}, {@code tol}, {@code maxIter}; {@code labelCol} and {@code weightCol}
 * for the families that take them), the schema check of {@link #transformSchema} (every error names the param and
 * the column), the fit's frame (schema checked before any job, Spark's failures translated, the estimator's params
 * copied onto the model), {@link #copy} and the persistence of the params ({@code DefaultParamsWritable}; each
 * concrete class has the static {@code read()} spark.ml's {@code Pipeline.load} finds by reflection).
 *
 * @param <E> the concrete estimator (its setters return it)
 * @param <M> its model
 */
public abstract class PsdkitEstimator<E extends PsdkitEstimator<E, M>, M extends PsdkitModel<M>> extends Estimator<M>
        implements DefaultParamsWritable {

    private static final long serialVersionUID = 1L;

    private final String uid;
    private final Param<String> featuresCol;
    private final Param<String> kernel;
    private final DoubleParam sigma;
    private final DoubleParam lambda;
    private final IntParam anchors;
    private final LongParam seed;
    private final DoubleParam tol;
    private final IntParam maxIter;
    /** The label column, or null for a family without one (its public getter is the concrete class's). */
    final Param<String> labelCol;
    /** The weight column, or null for a family without sample weights (its public getter is the concrete class's). */
    final Param<String> weightCol;

    /**
     * The family's own versions of the shared params (their documentation and valid ranges differ).
     *
     * @param lambda   doc of {@code lambda}
     * @param tol      {@code tol} with its validator
     * @param maxIter  doc of {@code maxIter}
     * @param anchors  {@code anchors} with its validator
     * @param labelled whether the family reads {@code labelCol}
     * @param weighted whether the family reads {@code weightCol}
     */
    record Shared(String lambda, java.util.function.Function<PsdkitEstimator<?, ?>, DoubleParam> tol, String maxIter,
                  java.util.function.Function<PsdkitEstimator<?, ?>, IntParam> anchors, boolean labelled,
                  boolean weighted) {
    }

    PsdkitEstimator(String uid, Shared shared) {
        this.uid = uid;
        featuresCol = MlParams.featuresCol(this);
        labelCol = shared.labelled() ? MlParams.labelCol(this) : null;
        weightCol = shared.weighted() ? MlParams.weightCol(this) : null;
        kernel = MlParams.kernel(this);
        sigma = MlParams.sigma(this);
        lambda = MlParams.lambda(this, shared.lambda());
        anchors = shared.anchors().apply(this);
        seed = MlParams.seed(this);
        tol = shared.tol().apply(this);
        maxIter = MlParams.maxIter(this, shared.maxIter());
        setDefault(featuresCol, "features");
        if (labelCol != null) {
            setDefault(labelCol, "label");
        }
        setDefault(kernel, MlParams.DEFAULT_KERNEL);
        setDefault(seed, 42L);
    }

    @SuppressWarnings("unchecked")
    final E self() {
        return (E) this;
    }

    @Override
    public final String uid() {
        return uid;
    }

    public Param<String> featuresCol() {
        return featuresCol;
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

    public DoubleParam tol() {
        return tol;
    }

    public IntParam maxIter() {
        return maxIter;
    }

    public E setFeaturesCol(String v) {
        set(featuresCol, v);
        return self();
    }

    public E setKernel(String v) {
        set(kernel, v);
        return self();
    }

    public E setSigma(double v) {
        set(sigma, v);
        return self();
    }

    public E setLambda(double v) {
        set(lambda, v);
        return self();
    }

    public E setAnchors(int v) {
        set(anchors, v);
        return self();
    }

    public E setSeed(long v) {
        set(seed, v);
        return self();
    }

    public E setTol(double v) {
        set(tol, v);
        return self();
    }

    public E setMaxIter(int v) {
        set(maxIter, v);
        return self();
    }

    /** The value of {@code featuresCol}. */
    final String features() {
        return getOrDefault(featuresCol);
    }

    /** The value of {@code labelCol} (null for a family without one). */
    final String label() {
        return labelCol == null ? null : getOrDefault(labelCol);
    }

    /** The value of {@code weightCol}: null when the family takes no weights or the param is unset or empty. */
    final String weight() {
        if (weightCol == null || !isDefined(weightCol)) {
            return null;
        }
        String w = getOrDefault(weightCol);
        return w == null || w.isEmpty() ? null : w;
    }

    /** Checks the params that do not concern columns (kernel, sigma, the family's options); errors name them. */
    abstract void validateParams();

    /** The param naming the output columns ({@code predictionCol}, {@code densityCol}, {@code quantileCols}). */
    abstract String outputParam();

    /** The output columns the fitted model appends. */
    abstract String[] outputCols();

    /** The fit proper, on a DataFrame whose schema {@link #transformSchema} accepted; the params are copied after. */
    abstract M fitChecked(Dataset<?> dataset, StructType schema) throws Exception;

    @Override
    public final M fit(Dataset<?> dataset) {
        StructType schema = dataset.schema();
        transformSchema(schema);
        M m;
        try {
            m = fitChecked(dataset, schema);
        } catch (Exception e) { // Scala code throws checked exceptions (SparkException) undeclared
            throw SparkEngine.translate(e);
        }
        return copyValues(m, extractParamMap()).setParent(this);
    }

    /**
     * The params first (a bad kernel, sigma or option is named before any job runs), then {@code featuresCol} a
     * vector column, {@code labelCol} and {@code weightCol} numeric, and the output columns absent.
     */
    @Override
    public final StructType transformSchema(StructType schema) {
        validateParams();
        Columns.requireVector(schema, "featuresCol", features());
        if (labelCol != null) {
            Columns.requireNumeric(schema, "labelCol", label());
        }
        if (weight() != null) {
            Columns.requireNumeric(schema, "weightCol", weight());
        }
        return Columns.withDoubles(schema, outputParam(), outputCols());
    }

    @Override
    public E copy(ParamMap extra) {
        return defaultCopy(extra);
    }
}
