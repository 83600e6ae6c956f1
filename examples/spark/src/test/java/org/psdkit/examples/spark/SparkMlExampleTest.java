package org.psdkit.examples.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.apache.spark.ml.Pipeline;
import org.psdkit.spark.ml.NystromKrrRegressionModel;
import org.psdkit.spark.ml.NystromKrrRegressor;

/**
 * Runs the spark.ml example on {@code local[2]}: the cross-validation picks the grid point the data call for, the
 * saved and loaded pipeline predicts what the fitted one predicts, and the distributed predictions equal the psdkit
 * model's own to 1e-12 relative to the prediction.
 */
class SparkMlExampleTest {

    @TempDir
    Path dir;

    @Test
    void theExampleCrossValidatesSavesLoadsAndScores() throws Exception {
        SparkSession spark = SparkSession.builder().master("local[2]").appName("psdkit-examples-spark")
                .config("spark.ui.enabled", "false").config("spark.driver.host", "127.0.0.1")
                .config("spark.driver.bindAddress", "127.0.0.1").config("spark.sql.shuffle.partitions", "2")
                .getOrCreate();
        spark.sparkContext().setLogLevel("ERROR");
        try {
            ByteArrayOutputStream buf = new ByteArrayOutputStream();
            SparkMlExample.Result r = SparkMlExample.run(spark, dir, new PrintStream(buf, true,
                    StandardCharsets.UTF_8));
            String out = buf.toString(StandardCharsets.UTF_8);
            assertTrue(out.contains("best of 8 grid points"), out);
            assertEquals(8, r.cv().avgMetrics().length);
            double[] m = r.cv().avgMetrics();
            assertTrue(Arrays.stream(m).max().orElseThrow() > 2 * Arrays.stream(m).min().orElseThrow(),
                    "the grid's points differ: " + Arrays.toString(m));
            // smooth data of scale 1: the wide kernel, the small lambda and the most anchors win
            NystromKrrRegressionModel best = (NystromKrrRegressionModel) r.best().stages()[1];
            assertEquals("gaussian(sigma=1)", best.psdkitModel().inner().kernel().spec());
            assertEquals(40, best.psdkitModel().inner().alpha().length);
            int argmin = 0;
            for (int i = 1; i < m.length; i++) {
                argmin = m[i] < m[argmin] ? i : argmin;
            }
            NystromKrrRegressor krr = (NystromKrrRegressor) ((Pipeline) r.cv().getEstimator()).getStages()[1];
            assertEquals(1e-3, (Double) r.cv().getEstimatorParamMaps()[argmin].apply(krr.lambda()));
            assertTrue(r.testRmse() < 0.15, "held-out rmse " + r.testRmse());
            assertTrue(Files.exists(dir.resolve("krr-pipeline").resolve("stages")));

            List<Row> fitted = r.best().transform(r.scored().select("a", "b", "y")).select("prediction")
                    .collectAsList();
            List<Row> scored = r.scored().select("features", "prediction").collectAsList();
            assertEquals(200, scored.size());
            for (int i = 0; i < scored.size(); i++) {
                assertEquals(fitted.get(i).getDouble(0), scored.get(i).getDouble(1), 0.0,
                        "the loaded pipeline predicts as the fitted one");
            }
            // the model's own predictions on the same rows: the transformer scores a partition with one
            // Model.predict call (PsdkitModelTransformer's blockRows), so each partition's predictions are the
            // model's predict on that partition's rows, to 1e-12 relative to the prediction itself
            NystromKrrRegressionModel loaded = (NystromKrrRegressionModel) r.loaded().stages()[1];
            List<List<Row>> partitions = r.scored().select("features", "prediction").javaRDD().glom().collect();
            assertTrue(partitions.stream().filter(p -> !p.isEmpty()).count() >= 2, "scored on several partitions");
            double worst = 0;
            int rows = 0;
            for (List<Row> part : partitions) {
                if (part.isEmpty()) {
                    continue;
                }
                double[][] x = new double[part.size()][];
                for (int i = 0; i < x.length; i++) {
                    x[i] = ((Vector) part.get(i).get(0)).toArray();
                }
                double[][] want = loaded.psdkitModel().predict(x);
                for (int i = 0; i < x.length; i++) {
                    double diff = Math.abs(part.get(i).getDouble(1) - want[i][0]);
                    worst = Math.max(worst, diff == 0 ? 0 : diff / Math.abs(want[i][0]));
                }
                rows += x.length;
            }
            assertEquals(200, rows);
            assertTrue(worst <= 1e-12, "distributed predictions differ from the model's by " + worst
                    + " of the prediction");
        } finally {
            spark.stop();
        }
    }
}
