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
 * model's own to 1e-12 (relative to the magnitude of the sum's terms).
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
            NystromKrrRegressionModel loaded = (NystromKrrRegressionModel) r.loaded().stages()[1];
            // the model's own predictions on the same rows, as psdkit predict scores a file (one matrix). A
            // prediction f(x) = Σ_j α_j k(x, c_j) + offset is a sum whose rounding is bounded relative to
            // Σ_j |α_j k(x, c_j)| + |offset| (Higham, Accuracy and Stability of Numerical Algorithms, 2002, eq. 4.3),
            // and the kernel block's rounding depends on how many rows are scored at once (the BLAS product's
            // blocking): the two agree to 1e-12 on that scale, whatever the conditioning of the chosen model
            double[][] x = new double[scored.size()][];
            for (int i = 0; i < x.length; i++) {
                x[i] = ((Vector) scored.get(i).get(0)).toArray();
            }
            org.psdkit.regression.KernelRidge inner = loaded.psdkitModel().inner();
            double[][] want = loaded.psdkitModel().predict(x);
            double[][] k = inner.kernel().cross(org.psdkit.linalg.Matrix.of(x), inner.points()).toRowArrays();
            double worst = 0;
            for (int i = 0; i < scored.size(); i++) {
                double p = scored.get(i).getDouble(1);
                assertEquals(fitted.get(i).getDouble(0), p, 0.0, "the loaded pipeline predicts as the fitted one");
                double scale = Math.abs(inner.offset());
                for (int j = 0; j < inner.alpha().length; j++) {
                    scale += Math.abs(inner.alpha()[j] * k[i][j]);
                }
                worst = Math.max(worst, Math.abs(p - want[i][0]) / Math.max(1, scale));
            }
            assertTrue(worst <= 1e-12, "distributed predictions differ from the model's by " + worst
                    + " of the terms' magnitude");
        } finally {
            spark.stop();
        }
    }
}
