package org.psdkit.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.ml.Pipeline;
import org.apache.spark.ml.PipelineModel;
import org.apache.spark.ml.PipelineStage;
import org.apache.spark.ml.feature.VectorAssembler;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.ml.param.ParamMap;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.psdkit.linalg.Matrix;
import org.psdkit.model.Model;
import org.psdkit.regression.KernelRidge;
import org.psdkit.regression.nystrom.NystromKrrTrainer;
import org.psdkit.spark.ml.NystromKrrRegressionModel;
import org.psdkit.spark.ml.NystromKrrRegressor;

/**
 * The spark.ml Nyström KRR estimator: the same model as the single-machine trainer on the same rows (the anchors are
 * the same rows, the sums differ in order), predictions equal to the model's own {@link Model#predict} to 1e-12,
 * schema errors naming the param and the column, and spark.ml's machinery around it: {@code copy(ParamMap)},
 * {@code Pipeline} and {@code PipelineModel} save and load. (The {@code CrossValidator} over σ, λ and anchors is
 * the spark.ml example's, run by the examples' tests.)
 */
class SparkMlKrrTest {

    /** Distributed predictions against the model's own, relative to max(1, |p|). */
    static final double PREDICTION_TOL = 1e-12;

    @TempDir
    static Path dir;

    /** A DataFrame of the rows under {@code names} (double columns), in the rows' order. */
    static Dataset<Row> frame(double[][] rows, String... names) {
        List<StructField> fields = new ArrayList<>();
        for (String n : names) {
            fields.add(DataTypes.createStructField(n, DataTypes.DoubleType, false));
        }
        List<Row> out = new ArrayList<>();
        for (double[] r : rows) {
            Object[] v = new Object[r.length];
            for (int j = 0; j < r.length; j++) {
                v[j] = r[j];
            }
            out.add(RowFactory.create(v));
        }
        return SharedSpark.session().createDataFrame(out, DataTypes.createStructType(fields));
    }

    static Dataset<Row> assembled(double[][] rows, String... names) {
        String[] features = java.util.Arrays.copyOf(names, names.length - 1);
        return new VectorAssembler().setInputCols(features).setOutputCol("features")
                .transform(frame(rows, names)).withColumnRenamed(names[names.length - 1], "label");
    }

    /** Every row's prediction equals the psdkit model's own on the collected features, to {@link #PREDICTION_TOL}. */
    static int assertPredictionsAreTheModels(Model model, Dataset<Row> scored, String col, int output) {
        return assertPredictionsAreTheModels(model, scored, new String[] {col}, new int[] {output});
    }

    /**
     * Every row's columns {@code cols} equal the psdkit model's outputs {@code outputs} on the collected features, to
     * {@link #PREDICTION_TOL} relative to max(1, |p|); one job collects them all.
     */
    static int assertPredictionsAreTheModels(Model model, Dataset<Row> scored, String[] cols, int[] outputs) {
        org.apache.spark.sql.Column[] sel = new org.apache.spark.sql.Column[cols.length + 1];
        sel[0] = org.apache.spark.sql.functions.col("features");
        for (int k = 0; k < cols.length; k++) {
            sel[k + 1] = org.apache.spark.sql.functions.col(cols[k]);
        }
        List<Row> got = scored.select(sel).collectAsList();
        double[][] x = new double[got.size()][];
        for (int i = 0; i < x.length; i++) {
            x[i] = ((Vector) got.get(i).get(0)).toArray();
        }
        double[][] want = model.predict(x);
        for (int i = 0; i < x.length; i++) {
            for (int k = 0; k < cols.length; k++) {
                double p = got.get(i).getDouble(k + 1);
                double w = want[i][outputs[k]];
                assertTrue(Math.abs(p - w) <= PREDICTION_TOL * Math.max(1, Math.abs(w)),
                        "row " + i + ", " + cols[k] + ": " + p + " vs the model's " + w);
            }
        }
        return x.length;
    }

    @Test
    void theEstimatorFitsTheLocalModelAndScoresAsItPredicts() {
        double[][] rows = SparkNystromKrrTest.data(600, 3, 41);
        Dataset<Row> df = assembled(rows, "a", "b", "c", "y").repartition(3);
        // the Gram route: a fit in a handful of Spark jobs (the plain CG's passes are one job each; both routes'
        // parity with the single machine is SparkNystromKrrTest's)
        NystromKrrRegressor krr = new NystromKrrRegressor().setKernel("gaussian(sigma=1)").setSigma(0.3)
                .setLambda(1.0).setAnchors(40).setSeed(3).setTol(1e-10).setStorage("gram");
        NystromKrrRegressionModel m = krr.fit(df);
        assertEquals(List.of("a", "b", "c"), m.psdkitModel().featureNames(), "VectorAssembler's input names");
        assertEquals("label", m.psdkitModel().targetName());
        assertEquals(600, m.numRows());
        // the single-machine trainer on the rows in the order the DataFrame holds them (its anchors' numbering)
        List<Row> ordered = df.select("features", "label").collectAsList();
        double[][] x = new double[ordered.size()][];
        double[] y = new double[ordered.size()];
        for (int i = 0; i < x.length; i++) {
            x[i] = ((Vector) ordered.get(i).get(0)).toArray();
            y[i] = ordered.get(i).getDouble(1);
        }
        org.psdkit.model.Pipeline<KernelRidge> local = new NystromKrrTrainer(krr.options())
                .fit(org.psdkit.data.Dataset.of(Matrix.of(x), y));
        EngineParityTest.assertSameNumbers(local, m.psdkitModel(), 40 * 3 + 40);
        assertEquals(600, assertPredictionsAreTheModels(m.psdkitModel(), m.transform(df), "prediction", 0));
    }

    @Test
    void transformSchemaNamesTheParamAndTheColumn() {
        Dataset<Row> df = assembled(SparkNystromKrrTest.data(50, 2, 1), "a", "b", "y");
        NystromKrrRegressor krr = new NystromKrrRegressor().setAnchors(10);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> krr.copy(ParamMap.empty()).setFeaturesCol("a").fit(df));
        assertTrue(e.getMessage().startsWith("featuresCol: column 'a' must be a vector column"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> krr.copy(ParamMap.empty()).setLabelCol("z").fit(df));
        assertTrue(e.getMessage().startsWith("labelCol: no column 'z'"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> krr.copy(ParamMap.empty()).setPredictionCol("a").transformSchema(df.schema()));
        assertTrue(e.getMessage().startsWith("predictionCol: the DataFrame already has a column 'a'"),
                e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> krr.copy(ParamMap.empty()).setKernel("gaussian(sigma=-1)").transformSchema(df.schema()));
        assertTrue(e.getMessage().startsWith("kernel "), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> krr.copy(ParamMap.empty()).setAnchors(51).fit(df));
        assertTrue(e.getMessage().startsWith("anchors must be at most the number of points 50"), e.getMessage());
        NystromKrrRegressionModel m = krr.fit(df);
        Dataset<Row> wide = assembled(SparkNystromKrrTest.data(5, 3, 1), "a", "b", "c", "y");
        e = assertThrows(IllegalArgumentException.class, () -> m.transform(wide));
        assertEquals("featuresCol: column 'features' holds vectors of size 3; the model takes 2 features (a, b)",
                e.getMessage());
        // a vector column without recorded sizes: found by the tasks, named the same way
        Dataset<Row> bare = SharedSpark.session().createDataFrame(List.of(RowFactory.create(
                org.apache.spark.ml.linalg.Vectors.dense(1, 2, 3))), new StructType().add("features",
                org.apache.spark.ml.linalg.SQLDataTypes.VectorType()));
        Exception inTask = assertThrows(Exception.class, () -> m.transform(bare).collectAsList());
        assertEquals("featuresCol: column 'features' holds a vector of size 3; the model takes 2 features (a, b)",
                SparkEngine.translate(inTask).getMessage());
    }

    @Test
    void copyHonoursTheParamMapAndLeavesTheOriginal() {
        NystromKrrRegressor krr = new NystromKrrRegressor().setLambda(0.5);
        NystromKrrRegressor c = krr.copy(new ParamMap().put(krr.lambda().w(2.0)).put(krr.anchors().w(7)));
        assertEquals(2.0, c.getOrDefault(c.lambda()));
        assertEquals(7, c.getOrDefault(c.anchors()));
        assertEquals(0.5, krr.getOrDefault(krr.lambda()));
        assertEquals(krr.uid(), c.uid());
        assertEquals(2.0, c.options().lambda());
        assertEquals(7, c.options().anchors());
    }

    @Test
    void aPipelineSavesAndLoadsWithThePsdkitModelFileInside() throws IOException {
        Dataset<Row> df = frame(SparkNystromKrrTest.data(300, 2, 7), "a", "b", "label");
        VectorAssembler va = new VectorAssembler().setInputCols(new String[] {"a", "b"}).setOutputCol("features");
        NystromKrrRegressor krr = new NystromKrrRegressor().setSeed(5).setSigma(0.5).setAnchors(30)
                .setStorage("gram");
        Pipeline pipeline = new Pipeline().setStages(new PipelineStage[] {va, krr});
        PipelineModel fitted = pipeline.fit(df);
        NystromKrrRegressionModel m = (NystromKrrRegressionModel) fitted.stages()[1];

        String p = dir.resolve("pipeline-model").toString();
        fitted.write().overwrite().save(p);
        PipelineModel back = PipelineModel.load(p);
        NystromKrrRegressionModel mBack = (NystromKrrRegressionModel) back.stages()[1];
        assertEquals(m.uid(), mBack.uid());
        assertEquals(org.psdkit.io.ModelIO.toJson(m.psdkitModel()).toString(),
                org.psdkit.io.ModelIO.toJson(mBack.psdkitModel()).toString());
        List<Row> a = fitted.transform(df).select("prediction").collectAsList();
        assertEquals(a, back.transform(df).select("prediction").collectAsList(), "the loaded pipeline predicts the "
                + "same numbers");
        // the model file under the stage's directory is a psdkit model file
        try (var files = Files.walk(Path.of(p))) {
            Path file = files.filter(f -> f.endsWith("psdkit-model.json")).findFirst().orElseThrow();
            Model loaded = org.psdkit.io.ModelIO.load(file);
            assertEquals(m.psdkitModel().predict(new double[] {0.1, 0.2})[0], loaded.predict(new double[] {0.1,
                    0.2})[0]);
        }
        // params set on the model survive (copy and persistence)
        m.setPredictionCol("yhat");
        String single = dir.resolve("krr-model").toString();
        m.write().overwrite().save(single);
        assertEquals("yhat", NystromKrrRegressionModel.load(single).getOrDefault(mBack.predictionCol()));

        String est = dir.resolve("pipeline").toString();
        pipeline.write().overwrite().save(est);
        Pipeline estBack = Pipeline.load(est);
        NystromKrrRegressor krrBack = (NystromKrrRegressor) estBack.getStages()[1];
        assertEquals(krr.uid(), krrBack.uid());
        assertEquals(5L, krrBack.getOrDefault(krrBack.seed()));
        assertEquals(0.5, krrBack.getOrDefault(krrBack.sigma()));
        assertEquals(krr.options().kernel().spec(), krrBack.options().kernel().spec());
    }
}
