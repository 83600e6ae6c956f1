package org.psdkit.spark;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.apache.spark.ml.Pipeline;
import org.apache.spark.ml.PipelineModel;
import org.apache.spark.ml.PipelineStage;
import org.apache.spark.ml.feature.VectorAssembler;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.ml.linalg.Vectors;
import org.apache.spark.ml.linalg.SQLDataTypes;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.psdkit.cone.quantile.QuantilePipeline;
import org.psdkit.cone.quantile.QuantileTrainer;
import org.psdkit.data.Scaler;
import org.psdkit.density.DensityPipeline;
import org.psdkit.density.PsdDensityTrainer;
import org.psdkit.io.ModelIO;
import org.psdkit.linalg.Matrix;
import org.psdkit.model.Model;
import org.psdkit.spark.ml.PsdDensityEstimator;
import org.psdkit.spark.ml.PsdDensityModel;
import org.psdkit.spark.ml.PsdkitModelTransformer;
import org.psdkit.spark.ml.QuantileRegressionModel;
import org.psdkit.spark.ml.QuantileRegressor;

/**
 * The spark.ml PSD density and quantile estimators (each the single-machine trainer's model on the same rows; the
 * density's {@code transform} and {@code sample}, the quantiles' columns that never cross) and {@link
 * PsdkitModelTransformer} on every golden model file of psdkit-core (every family there): predictions equal the
 * model's own to 1e-12, and the transformer saves and loads inside a {@code PipelineModel}.
 */
class SparkMlFamiliesTest {

    @TempDir
    static Path dir;

    /** The collected (features, label) rows of {@code df} in its order, as a psdkit data set. */
    private static org.psdkit.data.Dataset collect(Dataset<Row> df, boolean label) {
        List<Row> rows = label ? df.select("features", "label").collectAsList() : df.select("features")
                .collectAsList();
        double[][] x = new double[rows.size()][];
        double[] y = label ? new double[rows.size()] : null;
        for (int i = 0; i < x.length; i++) {
            x[i] = ((Vector) rows.get(i).get(0)).toArray();
            if (label) {
                y[i] = rows.get(i).getDouble(1);
            }
        }
        return org.psdkit.data.Dataset.of(Matrix.of(x), y);
    }

    @Test
    void theDensityEstimatorFitsTheLocalModelScoresAndSamples() throws IOException {
        Dataset<Row> df = new VectorAssembler().setInputCols(new String[] {"u", "v"}).setOutputCol("features")
                .transform(SparkMlKrrTest.frame(SparkDensityRowsTest.gaussianRows(300, 2, 42), "u", "v"))
                .repartition(3);
        // both fits take the same 10 L-BFGS steps on the same anchors (each step is a few Spark jobs)
        PsdDensityEstimator est = new PsdDensityEstimator().setSigma(0.7).setLambda(1e-3).setFroRatio(0.01)
                .setAnchors(20).setSeed(5).setTol(1e-12).setMaxIter(10);
        PsdDensityModel m = est.fit(df);
        assertEquals(List.of("u", "v"), m.psdkitModel().featureNames());
        assertEquals(300, m.numRows());
        assertTrue(Double.isFinite(m.trainingLogLikelihood()));
        DensityPipeline local = new PsdDensityTrainer(new PsdDensityTrainer.Options(est.kernelValue(),
                est.baseMeasure(2), est.options(), est.nystrom(), Scaler.Kind.NONE)).fit(collect(df, false));
        EngineParityTest.assertSameNumbers(local, m.psdkitModel(), 20 * 2);

        Dataset<Row> scored = m.transform(df);
        assertEquals(300, SparkMlKrrTest.assertPredictionsAreTheModels(m.psdkitModel(), scored, "density", 0));
        assertTrue(scored.filter("density < 0").count() == 0, "a PSD density is non-negative");

        Dataset<Row> s1 = m.sample(50, 7);
        assertEquals(List.of("features"), List.of(s1.columns()));
        List<Row> a = s1.collectAsList();
        assertEquals(a, m.sample(50, 7).collectAsList(), "the same seed draws the same rows");
        double[][] want = m.psdkitModel().sample(50, 7).toRowArrays();
        for (int i = 0; i < 50; i++) {
            assertArrayEquals(want[i], ((Vector) a.get(i).get(0)).toArray());
        }
        assertTrue(m.transform(s1).count() == 50);

        String p = dir.resolve("density").toString();
        m.write().overwrite().save(p);
        PsdDensityModel back = PsdDensityModel.load(p);
        assertEquals(ModelIO.toJson(m.psdkitModel()).toString(), ModelIO.toJson(back.psdkitModel()).toString());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> org.psdkit.spark.ml.NystromKrrRegressionModel.load(p));
        assertTrue(e.getMessage().contains("Expected class name org.psdkit.spark.ml.NystromKrrRegressionModel but "
                + "found class name org.psdkit.spark.ml.PsdDensityModel"), e.getMessage());
    }

    @Test
    void quantileColumnsAreTheLocalModelsAndNeverCross() {
        Random r = new Random(3);
        double[][] rows = new double[80][2];
        for (double[] row : rows) {
            row[0] = r.nextDouble();
            row[1] = Math.sin(6 * row[0]) + (0.1 + 0.5 * row[0]) * r.nextGaussian();
        }
        Dataset<Row> df = new VectorAssembler().setInputCols(new String[] {"x"}).setOutputCol("features")
                .transform(SparkMlKrrTest.frame(rows, "x", "label"));
        QuantileRegressor q = new QuantileRegressor().setTaus(0.1, 0.5, 0.9).setSigma(0.1).setLambda(1e-2)
                .setAnchors(15);
        QuantileRegressionModel m = q.fit(df);
        assertArrayEquals(new String[] {"q0_1", "q0_5", "q0_9"}, m.outputCols());
        QuantilePipeline local = new QuantileTrainer(q.options()).fit(collect(df, true));
        assertEquals(ModelIO.toJson(local).get("numbers"), ModelIO.toJson(m.psdkitModel()).get("numbers"),
                "the same fit on the same rows");

        // on the training rows and on a grid beyond them
        double[][] grid = new double[201][1];
        for (int i = 0; i < grid.length; i++) {
            grid[i][0] = -0.5 + 2.0 * i / (grid.length - 1);
        }
        List<Row> gridRows = new ArrayList<>();
        for (double[] g : grid) {
            gridRows.add(RowFactory.create(Vectors.dense(g)));
        }
        Dataset<Row> dense = SharedSpark.session().createDataFrame(gridRows,
                new StructType().add("features", SQLDataTypes.VectorType()));
        for (Dataset<Row> in : List.of(df, dense)) {
            Dataset<Row> out = m.transform(in).cache();
            SparkMlKrrTest.assertPredictionsAreTheModels(m.psdkitModel(), out, m.outputCols(), new int[] {0, 1, 2});
            assertEquals(0, out.filter("q0_1 > q0_5 OR q0_5 > q0_9").count(), "crossing quantiles");
            out.unpersist(true);
        }
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> q.copy(new org.apache.spark.ml.param.ParamMap()).setMaxRows(60).fit(df));
        assertTrue(e.getMessage().startsWith("maxRows: the DataFrame has more than 60 rows"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> q.copy(new org.apache.spark.ml.param.ParamMap())
                .setQuantileCols("a", "b").transformSchema(df.schema()));
        assertEquals("quantileCols: 2 names for 3 levels (taus)", e.getMessage());
    }

    @Test
    void theTransformerScoresEveryGoldenModelFileAsItPredicts() throws IOException {
        Path golden = Path.of(System.getProperty("basedir", "."), "..", "psdkit-core", "src", "test", "resources",
                "golden");
        List<Path> files;
        try (Stream<Path> s = Files.list(golden)) {
            files = s.filter(f -> f.toString().endsWith(".json")).sorted().toList();
        }
        assertTrue(files.size() >= 9, "golden files: " + files);
        List<String> types = new ArrayList<>();
        for (Path f : files) {
            Model model = ModelIO.load(f);
            types.add(model.type());
            int d = model.featureNames().size();
            Random r = new Random(11);
            List<Row> rows = new ArrayList<>();
            for (int i = 0; i < 40; i++) {
                double[] x = new double[d];
                for (int j = 0; j < d; j++) {
                    x[j] = r.nextGaussian();
                }
                rows.add(RowFactory.create(Vectors.dense(x)));
            }
            Dataset<Row> df = SharedSpark.session().createDataFrame(rows,
                    new StructType().add("features", SQLDataTypes.VectorType()));
            PsdkitModelTransformer t = PsdkitModelTransformer.fromFile(f.toString());
            Dataset<Row> out = t.transform(df);
            String[] cols = t.getOrDefault(t.outputCols());
            assertEquals(model.outputColumns().size(), cols.length);
            int[] all = java.util.stream.IntStream.range(0, cols.length).toArray();
            assertEquals(40, SparkMlKrrTest.assertPredictionsAreTheModels(model, out, cols, all), f.toString());
        }
        assertTrue(types.containsAll(List.of("krr", "psd-density", "quantile", "hetero", "svr", "ridge")), types
                .toString());
    }

    @Test
    void theTransformerSavesAndLoadsInAPipelineModel() throws IOException {
        Path krr = Path.of(System.getProperty("basedir", "."), "..", "psdkit-core", "src", "test", "resources",
                "golden", "krr-v1.json");
        Model model = ModelIO.load(krr);
        int d = model.featureNames().size();
        String[] names = model.featureNames().toArray(new String[0]);
        double[][] rows = new double[30][d];
        Random r = new Random(2);
        for (double[] row : rows) {
            for (int j = 0; j < d; j++) {
                row[j] = r.nextGaussian();
            }
        }
        Dataset<Row> df = SparkMlKrrTest.frame(rows, names);
        PsdkitModelTransformer t = new PsdkitModelTransformer(model).setOutputCols("yhat");
        PipelineModel pm = new Pipeline().setStages(new PipelineStage[] {
                new VectorAssembler().setInputCols(names).setOutputCol("features"), t}).fit(df);
        String p = dir.resolve("transformer").toString();
        pm.write().overwrite().save(p);
        PipelineModel back = PipelineModel.load(p);
        assertEquals(pm.transform(df).select("yhat").collectAsList(),
                back.transform(df).select("yhat").collectAsList());
        PsdkitModelTransformer tBack = (PsdkitModelTransformer) back.stages()[1];
        assertArrayEquals(new String[] {"yhat"}, tBack.getOrDefault(tBack.outputCols()));
        Dataset<Row> assembled = pm.stages()[0].transform(df);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> t.copy(new org.apache.spark.ml.param.ParamMap()).setOutputCols("a", "b").transform(assembled));
        assertTrue(e.getMessage().startsWith("outputCols: 2 names [a, b] for 1 model outputs [prediction]"),
                e.getMessage());
    }
}
