package org.psdkit.examples.spark;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.spark.ml.Pipeline;
import org.apache.spark.ml.PipelineModel;
import org.apache.spark.ml.PipelineStage;
import org.apache.spark.ml.evaluation.RegressionEvaluator;
import org.apache.spark.ml.feature.VectorAssembler;
import org.apache.spark.ml.param.ParamMap;
import org.apache.spark.ml.tuning.CrossValidator;
import org.apache.spark.ml.tuning.CrossValidatorModel;
import org.apache.spark.ml.tuning.ParamGridBuilder;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.psdkit.spark.ml.NystromKrrRegressionModel;
import org.psdkit.spark.ml.NystromKrrRegressor;

/**
 * psdkit in a spark.ml program: VectorAssembler → Nyström KRR ({@link NystromKrrRegressor}) in a Pipeline,
 * CrossValidator over the kernel width σ, λ and the number of anchors, the best pipeline saved, loaded back and
 * applied to held-out rows. The same shape takes {@code PsdDensityEstimator} and {@code QuantileRegressor}, and
 * {@code PsdkitModelTransformer.fromFile(path)} scores a model file fitted by {@code psdkit fit}.
 */
public final class SparkMlExample {
    private SparkMlExample() {
    }

    /** What the example produced. */
    public record Result(CrossValidatorModel cv, PipelineModel best, PipelineModel loaded, Dataset<Row> scored,
                         double testRmse) {
    }

    /** Runs the example on {@code spark}, saving under {@code dir} and printing to {@code out}. */
    public static Result run(SparkSession spark, Path dir, PrintStream out) {
        // y = sin(2a) + sin(2b) + noise on [-1, 1]²: 400 training rows, 200 held out
        StructType schema = new StructType().add("a", DataTypes.DoubleType).add("b", DataTypes.DoubleType)
                .add("y", DataTypes.DoubleType);
        Dataset<Row> train = spark.createDataFrame(rows(400, 1), schema);
        Dataset<Row> test = spark.createDataFrame(rows(200, 2), schema);

        VectorAssembler assembler = new VectorAssembler().setInputCols(new String[] {"a", "b"})
                .setOutputCol("features");
        // storage "gram": K_nm'K_nm summed in one pass, then CG in one to three passes. On Spark every pass over the
        // data is a job, so on small data the Gram route's few jobs beat the plain CG's one job per iteration
        NystromKrrRegressor krr = new NystromKrrRegressor().setLabelCol("y").setSeed(42).setStorage("gram");
        Pipeline pipeline = new Pipeline().setStages(new PipelineStage[] {assembler, krr});

        ParamMap[] grid = new ParamGridBuilder()
                .addGrid(krr.sigma(), new double[] {0.05, 1.0})
                .addGrid(krr.lambda(), new double[] {1e-3, 10.0})
                .addGrid(krr.anchors(), new int[] {10, 40})
                .build();
        RegressionEvaluator rmse = new RegressionEvaluator().setLabelCol("y").setMetricName("rmse");
        CrossValidator cv = new CrossValidator().setEstimator(pipeline).setEstimatorParamMaps(grid)
                .setEvaluator(rmse).setNumFolds(2).setSeed(7).setParallelism(2);
        CrossValidatorModel cvModel = cv.fit(train);
        PipelineModel best = (PipelineModel) cvModel.bestModel();
        NystromKrrRegressionModel bestKrr = (NystromKrrRegressionModel) best.stages()[1];
        out.printf("spark.ml: best of %d grid points: %s, %d anchors (cross-validated rmse %.4f)%n", grid.length,
                bestKrr.psdkitModel().inner().kernel().spec(), bestKrr.psdkitModel().inner().alpha().length,
                java.util.Arrays.stream(cvModel.avgMetrics()).min().orElseThrow());

        String path = dir.resolve("krr-pipeline").toString();
        try {
            best.write().overwrite().save(path);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        PipelineModel loaded = PipelineModel.load(path);
        Dataset<Row> scored = loaded.transform(test);
        double testRmse = rmse.evaluate(scored);
        out.printf("spark.ml: saved to %s, loaded, held-out rmse %.4f%n", path, testRmse);
        return new Result(cvModel, best, loaded, scored, testRmse);
    }

    private static List<Row> rows(int n, long seed) {
        Random r = new Random(seed);
        List<Row> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            double a = 2 * r.nextDouble() - 1;
            double b = 2 * r.nextDouble() - 1;
            out.add(RowFactory.create(a, b, Math.sin(2 * a) + Math.sin(2 * b) + 0.1 * r.nextGaussian()));
        }
        return out;
    }

    public static void main(String[] args) throws Exception {
        SparkSession spark = SparkSession.builder().master("local[2]").appName("psdkit spark.ml example")
                .getOrCreate();
        try {
            run(spark, Files.createTempDirectory("psdkit-spark-example"), System.out);
        } finally {
            spark.stop();
        }
    }
}
