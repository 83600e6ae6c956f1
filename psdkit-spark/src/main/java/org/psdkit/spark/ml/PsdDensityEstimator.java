package org.psdkit.spark.ml;

import java.util.List;
import java.util.Locale;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.ml.param.DoubleParam;
import org.apache.spark.ml.param.Param;
import org.apache.spark.ml.param.ParamValidators;
import org.apache.spark.ml.util.DefaultParamsReader;
import org.apache.spark.ml.util.Identifiable$;
import org.apache.spark.ml.util.MLReader;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.storage.StorageLevel;
import org.psdkit.density.BaseMeasure;
import org.psdkit.density.PsdDensityOptions;
import org.psdkit.kernel.Kernel;
import org.psdkit.model.ParameterException;
import org.psdkit.psd.Anchors;
import org.psdkit.psd.Nystrom;
import org.psdkit.spark.SparkFits;
import org.psdkit.spark.SparkNystromKrr;

/**
 * The PSD density of Marteau-Ferey, Bach &amp; Rudi (2020) as a spark.ml estimator: p(x) = φ(x)ᵀAφ(x)·ν(x) with A ⪰ 0
 * over Nyström features of m anchors (App. B.5), fitted by the primal solver (eq. 8) with its data sums distributed
 * ({@link org.psdkit.spark.SparkDensityRows}), on the anchors the single-machine trainer
 * ({@link org.psdkit.density.PsdDensityTrainer}) takes for the same seed. The input is the vector column
 * {@code featuresCol}; the model's {@code transform} appends {@code densityCol} and {@link PsdDensityModel#sample}
 * draws exact samples. The same code fits {@code psdkit fit psd-density --engine spark} ({@link SparkFits#density}).
 *
 * <p>Params: {@code featuresCol} ("features"), {@code densityCol} ("density"), {@code kernel}
 * ({@value MlParams#DEFAULT_KERNEL}), {@code sigma} (unset: the kernel string's), {@code lambda} (λ₁ of the trace
 * term, 1e-3), {@code froRatio} (λ₂ = froRatio·λ₁, 0.01: Sec. 6's weight), {@code lambdaScale} ("trace", "raw",
 * "normalized"), {@code base} (the base measure ν: "lebesgue", "gaussian(mu=0,sd=5)", "box(a=-1,b=1)"),
 * {@code anchors} (100), {@code seed} (42), {@code tol} (relative duality gap, 1e-6), {@code maxIter} (L-BFGS
 * iterations, 20000), {@code weightCol} (unset: equal weights). These are the command line's defaults. With sample
 * weights the fit maximises the weighted log-likelihood Σ w_i log f(x_i) / Σ w_i (the primal solver's data sums
 * weighted, {@link org.psdkit.density.DensityRows}) on the rows of positive weight: rows of weight 0 are left out,
 * also of the anchors' draw, as {@link org.psdkit.density.PsdDensityTrainer} does. Weights must be &gt;= 0 and
 * finite (an error names the column and the row).
 */
public final class PsdDensityEstimator extends PsdkitEstimator<PsdDensityEstimator, PsdDensityModel> {

    private static final long serialVersionUID = 1L;

    private static final Shared SHARED = new Shared("lambda1, the weight of the trace of A",
            p -> new DoubleParam(p, "tol", "relative duality gap at which the solver stops; > 0",
                    ParamValidators.gt(0)),
            "cap on L-BFGS iterations", MlParams::anchors, false, true);

    private final Param<String> densityCol;
    private final DoubleParam froRatio;
    private final Param<String> lambdaScale;
    private final Param<String> base;

    public PsdDensityEstimator() {
        this(Identifiable$.MODULE$.randomUID("psdkitPsdDensity"));
    }

    public PsdDensityEstimator(String uid) {
        super(uid, SHARED);
        densityCol = MlParams.densityCol(this);
        froRatio = new DoubleParam(this, "froRatio", "lambda2 = froRatio * lambda1, the weight of |A|_F^2 / 2; > 0",
                ParamValidators.gt(0));
        lambdaScale = new Param<>(this, "lambdaScale", "which A the lambdas apply to: trace, raw or normalized");
        base = new Param<>(this, "base", "the base measure nu of p = f nu: lebesgue, gaussian(mu=M,sd=S), "
                + "gaussian(mu=M,sigma2=V) or box(a=A,b=B)");
        setDefault(densityCol, "density");
        setDefault(lambda(), 1e-3);
        setDefault(froRatio, PsdDensityOptions.SEC6_FROBENIUS_RATIO);
        setDefault(lambdaScale, "trace");
        setDefault(base, "lebesgue");
        setDefault(anchors(), 100);
        setDefault(tol(), PsdDensityOptions.DEFAULT_TOLERANCE);
        setDefault(maxIter(), PsdDensityOptions.DEFAULT_MAX_ITERATIONS);
    }

    public Param<String> densityCol() {
        return densityCol;
    }

    public Param<String> weightCol() {
        return weightCol;
    }

    public PsdDensityEstimator setWeightCol(String v) {
        set(weightCol, v);
        return this;
    }

    public DoubleParam froRatio() {
        return froRatio;
    }

    public Param<String> lambdaScale() {
        return lambdaScale;
    }

    public Param<String> base() {
        return base;
    }

    public PsdDensityEstimator setDensityCol(String v) {
        set(densityCol, v);
        return this;
    }

    public PsdDensityEstimator setFroRatio(double v) {
        set(froRatio, v);
        return this;
    }

    public PsdDensityEstimator setLambdaScale(String v) {
        set(lambdaScale, v);
        return this;
    }

    public PsdDensityEstimator setBase(String v) {
        set(base, v);
        return this;
    }

    /** The kernel these params give. */
    public Kernel kernelValue() {
        return MlParams.kernel(this, kernel(), sigma());
    }

    /** The solver's options these params stand for (the primal solver, whose data sums distribute). */
    public PsdDensityOptions options() {
        double l1 = (Double) getOrDefault(lambda());
        PsdDensityOptions.LambdaScale sc = switch (getOrDefault(lambdaScale).trim().toLowerCase(Locale.ROOT)) {
            case "raw" -> PsdDensityOptions.LambdaScale.RAW;
            case "normalized", "normalised" -> PsdDensityOptions.LambdaScale.NORMALIZED;
            case "trace" -> PsdDensityOptions.LambdaScale.TRACE;
            default -> throw new ParameterException("lambdaScale", "must be trace, raw or normalized, got "
                    + getOrDefault(lambdaScale));
        };
        return new PsdDensityOptions(l1, (Double) getOrDefault(froRatio) * l1, sc, (Double) getOrDefault(tol()),
                (Integer) getOrDefault(maxIter()), Double.POSITIVE_INFINITY, PsdDensityOptions.DEFAULT_RANK_THRESHOLD,
                PsdDensityOptions.Solver.PRIMAL_LBFGS);
    }

    /** The anchors: number, uniform method, seed. */
    public Nystrom nystrom() {
        return Nystrom.of((Integer) getOrDefault(anchors()), Anchors.Method.UNIFORM, (Long) getOrDefault(seed()));
    }

    /** The base measure for d features. */
    public BaseMeasure baseMeasure(int d) {
        try {
            return BaseMeasure.parse(getOrDefault(base), d);
        } catch (IllegalArgumentException e) {
            throw new ParameterException("base", "is not a base measure: " + e.getMessage());
        }
    }

    @Override
    void validateParams() {
        kernelValue();
        options();
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
    PsdDensityModel fitChecked(Dataset<?> dataset, StructType schema) {
        String f = features();
        String w = weight();
        JavaRDD<double[]> rows = Columns.rows(dataset, f, null, w).persist(StorageLevel.MEMORY_AND_DISK());
        try {
            List<double[]> first = rows.take(1);
            if (first.isEmpty()) {
                throw new IllegalArgumentException("featuresCol: column '" + f + "' has no rows");
            }
            int d = first.get(0).length - (w == null ? 0 : 1);
            List<String> names = Columns.orGeneric(Columns.featureNames(schema, f), d);
            SparkFits.Density fit = SparkFits.density(rows, kernelValue(), baseMeasure(d), options(), nystrom(),
                    names, "spark.ml DataFrame", w != null);
            return new PsdDensityModel(uid(), fit.model(), fit.n(), fit.trainLoglik());
        } finally {
            SparkNystromKrr.release(rows);
        }
    }

    /** The reader spark.ml's {@code Pipeline.load} finds by reflection. */
    public static MLReader<PsdDensityEstimator> read() {
        return new DefaultParamsReader<>();
    }

    public static PsdDensityEstimator load(String path) {
        return read().load(path);
    }
}
