package org.psdkit.spark.ml;

import java.util.ArrayList;
import java.util.List;
import org.apache.spark.ml.param.DoubleArrayParam;
import org.apache.spark.ml.param.DoubleParam;
import org.apache.spark.ml.param.IntParam;
import org.apache.spark.ml.param.Param;
import org.apache.spark.ml.param.ParamValidators;
import org.apache.spark.ml.param.StringArrayParam;
import org.apache.spark.ml.util.DefaultParamsReader;
import org.apache.spark.ml.util.Identifiable$;
import org.apache.spark.ml.util.MLReader;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.types.StructType;
import org.psdkit.cone.ConeDualSolver;
import org.psdkit.cone.quantile.QuantileRegression;
import org.psdkit.cone.quantile.QuantileTrainer;
import org.psdkit.linalg.Matrix;
import org.psdkit.model.ParameterException;
import org.psdkit.psd.Anchors;
import org.psdkit.psd.Nystrom;

/**
 * Multiple quantile regression without crossing (the PSD model of the "non-negative models" paper, Marteau-Ferey,
 * Bach &amp; Rudi 2020, App. E: the median plus cumulative PSD gaps, so q_τ1(x) ≤ q_τ2(x) ≤ ... for every x) as a
 * spark.ml estimator: {@code transform} appends one double column per level τ. The fit is the single-machine
 * {@link QuantileTrainer} (its dual solver is not distributed): the rows of {@code featuresCol} and {@code labelCol}
 * are collected on the driver (at most {@code maxRows}, an error beyond), while {@code transform} scores in
 * parallel. The model equals {@code new QuantileTrainer(options()).fit(...)} on the collected rows.
 *
 * <p>Params: {@code featuresCol} ("features"), {@code labelCol} ("label"), {@code taus} (0.25, 0.5, 0.75: strictly
 * increasing levels in (0, 1)), {@code quantileCols} (unset: "q" and the level with '_' for '.', e.g. q0_25),
 * {@code kernel} ({@value MlParams#DEFAULT_KERNEL}), {@code sigma}, {@code lambda} (1e-2), {@code frobeniusWeight}
 * (0.05, App. E), {@code method} ("psd"; "pnm", "ncm", "glm", "independent": the paper's baselines, which may cross),
 * {@code anchors} (0: the exact model; m ≥ 1: m uniform Nyström anchors, psd only), {@code seed} (42),
 * {@code tol} (relative duality gap, 1e-4), {@code maxIter} (20000), {@code maxRows} (100000). These are the command
 * line's defaults where it has one. No sample weights: no {@code weightCol}.
 */
public final class QuantileRegressor extends PsdkitEstimator<QuantileRegressor, QuantileRegressionModel> {

    private static final long serialVersionUID = 1L;

    private static final Shared SHARED = new Shared("lambda of lambda(|A|_* + frobeniusWeight |A|_F^2)",
            p -> MlParams.tol(p, "relative duality gap at which the dual solver stops"),
            "cap on the dual solver's iterations",
            p -> new IntParam(p, "anchors", "Nystrom anchors of the psd method (uniform rows, seeded); 0: the "
                    + "exact model", ParamValidators.gtEq(0)), true, false);

    private final DoubleArrayParam taus;
    private final StringArrayParam quantileCols;
    private final DoubleParam frobeniusWeight;
    private final Param<String> method;
    private final IntParam maxRows;

    public QuantileRegressor() {
        this(Identifiable$.MODULE$.randomUID("psdkitQuantile"));
    }

    public QuantileRegressor(String uid) {
        super(uid, SHARED);
        taus = MlParams.taus(this);
        quantileCols = MlParams.quantileCols(this);
        frobeniusWeight = new DoubleParam(this, "frobeniusWeight", "gamma of lambda(|A|_* + gamma |A|_F^2); > 0",
                ParamValidators.gt(0));
        method = new Param<>(this, "method", "psd (no crossing), or a baseline: pnm, ncm, glm, independent");
        maxRows = new IntParam(this, "maxRows", "most rows collected on the driver for the fit; >= 1",
                ParamValidators.gtEq(1));
        setDefault(taus, new double[] {0.25, 0.5, 0.75});
        setDefault(lambda(), 1e-2);
        setDefault(frobeniusWeight, QuantileRegression.APPENDIX_E_FROBENIUS_WEIGHT);
        setDefault(method, "psd");
        setDefault(anchors(), 0);
        setDefault(tol(), ConeDualSolver.Options.defaults().gapTolerance());
        setDefault(maxIter(), ConeDualSolver.Options.defaults().maxIterations());
        setDefault(maxRows, 100_000);
    }

    public Param<String> labelCol() {
        return labelCol;
    }

    public DoubleArrayParam taus() {
        return taus;
    }

    public StringArrayParam quantileCols() {
        return quantileCols;
    }

    public DoubleParam frobeniusWeight() {
        return frobeniusWeight;
    }

    public Param<String> method() {
        return method;
    }

    public IntParam maxRows() {
        return maxRows;
    }

    public QuantileRegressor setLabelCol(String v) {
        set(labelCol, v);
        return this;
    }

    public QuantileRegressor setTaus(double... v) {
        set(taus, v);
        return this;
    }

    public QuantileRegressor setQuantileCols(String... v) {
        set(quantileCols, v);
        return this;
    }

    public QuantileRegressor setFrobeniusWeight(double v) {
        set(frobeniusWeight, v);
        return this;
    }

    public QuantileRegressor setMethod(String v) {
        set(method, v);
        return this;
    }

    public QuantileRegressor setMaxRows(int v) {
        set(maxRows, v);
        return this;
    }

    /** The single-machine trainer's options these params stand for ({@link QuantileRegression.Options}). */
    public QuantileRegression.Options options() {
        QuantileRegression.Method m;
        try {
            m = QuantileRegression.Method.parse(getOrDefault(method));
        } catch (IllegalArgumentException e) {
            throw new ParameterException("method", "must be psd, pnm, ncm, glm or independent, got "
                    + getOrDefault(method));
        }
        int a = (Integer) getOrDefault(anchors());
        long s = (Long) getOrDefault(seed());
        Nystrom ny = a == 0 ? Nystrom.exact() : Nystrom.of(a, Anchors.Method.UNIFORM, s);
        ConeDualSolver.Options solver = ConeDualSolver.Options.defaults()
                .withGapTolerance((Double) getOrDefault(tol())).withMaxIterations((Integer) getOrDefault(maxIter()));
        return new QuantileRegression.Options(getOrDefault(taus), MlParams.kernel(this, kernel(), sigma()),
                (Double) getOrDefault(lambda()), (Double) getOrDefault(frobeniusWeight), m, false,
                QuantileRegression.Options.DEFAULT_RESTARTS, s, solver, ny);
    }

    @Override
    void validateParams() {
        options();
    }

    @Override
    String outputParam() {
        return "quantileCols";
    }

    @Override
    String[] outputCols() {
        return columns(getOrDefault(taus), isDefined(quantileCols) ? getOrDefault(quantileCols) : null);
    }

    @Override
    QuantileRegressionModel fitChecked(Dataset<?> dataset, StructType schema) {
        QuantileRegression.Options o = options();
        String f = features();
        String l = label();
        int cap = (Integer) getOrDefault(maxRows);
        List<double[]> rows = Columns.rows(dataset, f, l, null).take(cap + 1);
        if (rows.size() > cap) {
            throw new IllegalArgumentException("maxRows: the DataFrame has more than " + cap + " rows; quantile "
                    + "regression fits on the driver (raise maxRows, or sample the DataFrame)");
        }
        if (rows.isEmpty()) {
            throw new IllegalArgumentException("featuresCol: column '" + f + "' has no rows");
        }
        int d = rows.get(0).length - 1;
        double[][] x = new double[rows.size()][];
        double[] y = new double[rows.size()];
        for (int i = 0; i < x.length; i++) {
            double[] r = rows.get(i);
            if (r.length != d + 1) {
                throw new IllegalArgumentException("featuresCol: column '" + f + "' holds vectors of sizes " + d
                        + " and " + (r.length - 1));
            }
            x[i] = java.util.Arrays.copyOf(r, d);
            y[i] = r[d];
        }
        List<String> names = Columns.orGeneric(Columns.featureNames(schema, f), d);
        org.psdkit.data.Dataset train = new org.psdkit.data.Dataset(Matrix.of(x), y, null,
                names.toArray(new String[0]), l, "spark.ml DataFrame");
        return new QuantileRegressionModel(uid(), new QuantileTrainer(o).fit(train));
    }

    /** The output columns: {@code quantileCols} if set, else q and each level. */
    static String[] columns(double[] taus, String[] given) {
        if (given != null) {
            if (given.length != taus.length) {
                throw new IllegalArgumentException("quantileCols: " + given.length + " names for " + taus.length
                        + " levels (taus)");
            }
            return given;
        }
        List<String> out = new ArrayList<>();
        for (double t : taus) {
            out.add(Columns.columnName(org.psdkit.cone.quantile.QuantileModel.column(t)));
        }
        return out.toArray(new String[0]);
    }

    /** The reader spark.ml's {@code Pipeline.load} finds by reflection. */
    public static MLReader<QuantileRegressor> read() {
        return new DefaultParamsReader<>();
    }

    public static QuantileRegressor load(String path) {
        return read().load(path);
    }
}
