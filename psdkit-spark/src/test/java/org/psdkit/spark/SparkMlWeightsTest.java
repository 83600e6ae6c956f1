package org.psdkit.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Random;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.Test;
import org.psdkit.io.ModelIO;
import org.psdkit.linalg.Matrix;
import org.psdkit.model.Pipeline;
import org.psdkit.regression.KernelRidge;
import org.psdkit.regression.nystrom.NystromKrrTrainer;
import org.psdkit.spark.ml.NystromKrrRegressionModel;
import org.psdkit.spark.ml.NystromKrrRegressor;

/**
 * {@code weightCol} of the spark.ml Nyström KRR estimator: the weighted distributed fit is the single-machine
 * trainer's weighted fit ({@link NystromKrrTrainer} on a data set with weights: the normal equations
 * (K_nmᵀWK_nm + λK_mm)α = K_nmᵀW(y − offset)) on the same anchors to 1e-8; an unset weight column leaves the
 * unweighted fit bit for bit as it was; bad weights are named with their column and row.
 */
class SparkMlWeightsTest {

    /** 300 rows of (a, b, label, w): w in [0, 2) with every seventh row 0. */
    private static double[][] rows() {
        double[][] rows = SparkNystromKrrTest.data(300, 2, 17);
        Random r = new Random(5);
        double[][] out = new double[rows.length][];
        for (int i = 0; i < rows.length; i++) {
            out[i] = java.util.Arrays.copyOf(rows[i], 4);
            out[i][3] = i % 7 == 0 ? 0 : 2 * r.nextDouble();
        }
        return out;
    }

    private static Dataset<Row> frame(double[][] rows) {
        return new org.apache.spark.ml.feature.VectorAssembler().setInputCols(new String[] {"a", "b"})
                .setOutputCol("features").transform(SparkMlKrrTest.frame(rows, "a", "b", "label", "w"))
                .repartition(3);
    }

    @Test
    void aWeightedFitIsTheLocalWeightedFit() {
        Dataset<Row> df = frame(rows()).cache();
        NystromKrrRegressor krr = new NystromKrrRegressor().setSigma(0.4).setLambda(1e-2).setAnchors(30).setSeed(9)
                .setCenter(true).setWeightCol("w");
        NystromKrrRegressionModel m = krr.fit(df);
        // the single-machine trainer on the rows in the DataFrame's order (the anchors' numbering), with the weights
        List<Row> ordered = df.select("features", "label", "w").collectAsList();
        double[][] x = new double[ordered.size()][];
        double[] y = new double[x.length];
        double[] w = new double[x.length];
        for (int i = 0; i < x.length; i++) {
            x[i] = ((Vector) ordered.get(i).get(0)).toArray();
            y[i] = ordered.get(i).getDouble(1);
            w[i] = ordered.get(i).getDouble(2);
        }
        Pipeline<KernelRidge> local = new NystromKrrTrainer(krr.options()).fit(new org.psdkit.data.Dataset(
                Matrix.of(x), y, null, new String[] {"a", "b"}, "label", "local", w));
        KernelRidge a = local.inner();
        KernelRidge b = m.psdkitModel().inner();
        assertEquals(0.0, Diffs.maxRelDiff(b.points().data(), a.points().data()), "the same anchors");
        assertTrue(Diffs.maxRelDiff(b.alpha(), a.alpha()) <= 1e-8, "alpha differs by "
                + Diffs.maxRelDiff(b.alpha(), a.alpha()));
        assertEquals(a.offset(), b.offset(), 1e-12 * Math.abs(a.offset()), "the weighted mean");
        double[] pa = local.predict(Matrix.of(x)).col(0);
        double[] pb = m.psdkitModel().predict(Matrix.of(x)).col(0);
        assertTrue(Diffs.maxRelDiff(pb, pa) <= 1e-8, "predictions differ by " + Diffs.maxRelDiff(pb, pa));
        NystromKrrTrainer.FitDiagnostics diag = (NystromKrrTrainer.FitDiagnostics) m.psdkitModel().diagnostics();
        assertEquals("nystrom-direct", diag.route());
        assertEquals("spark", diag.engine());

        // the weights matter: the unweighted fit on the same rows is another model
        NystromKrrRegressionModel u = krr.copy(new org.apache.spark.ml.param.ParamMap()).setWeightCol("").fit(df);
        assertTrue(Diffs.maxRelDiff(u.psdkitModel().inner().alpha(), b.alpha()) > 1e-3);
        df.unpersist(true);
    }

    @Test
    void withoutWeightsTheFitIsBitForBitTheUnweightedOne() {
        // one partition: Spark combines the partitions' partial sums in the order their tasks finish, so two fits
        // of several partitions may differ in the last bits; on one the order is fixed and the fits are comparable
        // bit for bit
        Dataset<Row> df = frame(rows()).coalesce(1).cache();
        NystromKrrRegressor krr = new NystromKrrRegressor().setSigma(0.4).setLambda(1e-2).setAnchors(30).setSeed(9)
                .setStorage("gram");
        NystromKrrRegressionModel unset = krr.fit(df);
        NystromKrrRegressionModel empty = krr.copy(new org.apache.spark.ml.param.ParamMap()).setWeightCol("")
                .fit(df);
        // the distributed unweighted fit itself (SparkFits.krr on the same rows), as before weightCol existed
        JavaRDD<double[]> rows = df.select("features", "label").javaRDD().map(r -> {
            double[] v = ((Vector) r.get(0)).toArray();
            double[] out = java.util.Arrays.copyOf(v, v.length + 1);
            out[v.length] = r.getDouble(1);
            return out;
        }).cache();
        Pipeline<KernelRidge> direct = SparkFits.krr(rows, krr.options(), List.of("a", "b"), "label",
                "spark.ml DataFrame").pipeline();
        SparkNystromKrr.release(rows);
        for (NystromKrrRegressionModel m : List.of(unset, empty)) {
            assertEquals(ModelIO.toJson(direct).get("numbers"), ModelIO.toJson(m.psdkitModel()).get("numbers"));
        }
        df.unpersist(true);
    }

    @Test
    void badWeightsAreNamedWithTheirColumnAndRow() {
        double[][] rows = rows();
        rows[11][3] = -0.5;
        Dataset<Row> df = frame(rows);
        NystromKrrRegressor krr = new NystromKrrRegressor().setAnchors(10).setWeightCol("w");
        Exception e = assertThrows(Exception.class, () -> krr.fit(df));
        String msg = SparkEngine.translate(e).getMessage();
        assertTrue(msg.startsWith("weightCol: column 'w': -0.5 in the row with features = [" + rows[11][0] + ","
                + rows[11][1] + "] and label = " + rows[11][2] + "; weights must be >= 0 and finite"), msg);
        IllegalArgumentException missing = assertThrows(IllegalArgumentException.class,
                () -> krr.copy(new org.apache.spark.ml.param.ParamMap()).setWeightCol("v").fit(df));
        assertTrue(missing.getMessage().startsWith("weightCol: no column 'v'"), missing.getMessage());
        Dataset<Row> text = df.withColumn("s", org.apache.spark.sql.functions.lit("x"));
        IllegalArgumentException notNumeric = assertThrows(IllegalArgumentException.class,
                () -> krr.copy(new org.apache.spark.ml.param.ParamMap()).setWeightCol("s").fit(text));
        assertEquals("weightCol: column 's' must be numeric, got string", notNumeric.getMessage());
    }
}
