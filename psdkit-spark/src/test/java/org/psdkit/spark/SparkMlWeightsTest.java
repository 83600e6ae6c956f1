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
import org.psdkit.density.LocalDensityRows;
import org.psdkit.density.PsdDensity;
import org.psdkit.density.PsdDensityTrainer;
import org.psdkit.data.Scaler;
import org.psdkit.io.ModelIO;
import org.psdkit.linalg.Matrix;
import org.psdkit.model.Pipeline;
import org.psdkit.regression.KernelRidge;
import org.psdkit.regression.nystrom.NystromKrrTrainer;
import org.psdkit.spark.ml.NystromKrrRegressionModel;
import org.psdkit.spark.ml.NystromKrrRegressor;
import org.psdkit.spark.ml.PsdDensityEstimator;
import org.psdkit.spark.ml.PsdDensityModel;
import org.psdkit.psd.Anchors;

/**
 * {@code weightCol} of the spark.ml Nyström KRR estimator: the weighted distributed fit is the single-machine
 * trainer's weighted fit ({@link NystromKrrTrainer} on a data set with weights: the normal equations
 * (K_nmᵀWK_nm + λK_mm)α = K_nmᵀW(y − offset)) on the same anchors to 1e-8; an unset weight column leaves the
 * unweighted fit bit for bit as it was; bad weights are named with their column and row. The same for the PSD
 * density's {@code weightCol}: the distributed weighted primal fit is core's weighted primal fit
 * ({@link LocalDensityRows#weighted}) on the rows of positive weight and their anchors to 1e-8, and weights of 1 are
 * the unweighted distributed fit bit for bit.
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
        // σ = 0.2, so that 1e-8 measures the weights' path and not the conditioning of the 30-anchor system: Spark
        // adds the three partitions' partial sums in the order their tasks finish, and at σ = 0.4 the distributed α
        // differed from the local one by 5e-9 to 1.1e-8 from run to run (7e-8 with two partitions) from that
        // rounding alone; at σ = 0.2 they differ by about 7e-13.
        NystromKrrRegressor krr = new NystromKrrRegressor().setSigma(0.2).setLambda(1e-2).setAnchors(30).setSeed(9)
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
    /** 240 rows of (u, v, w): two features, w in [0.2, 2.2) with every ninth row 0. */
    private static Dataset<Row> densityFrame(double[] weightOf) {
        double[][] x = SparkDensityRowsTest.gaussianRows(240, 2, 21);
        Random r = new Random(8);
        double[][] out = new double[x.length][];
        for (int i = 0; i < x.length; i++) {
            out[i] = new double[] {x[i][0], x[i][1], weightOf != null ? weightOf[i]
                    : i % 9 == 0 ? 0 : 0.2 + 2 * r.nextDouble()};
        }
        return new org.apache.spark.ml.feature.VectorAssembler().setInputCols(new String[] {"u", "v"})
                .setOutputCol("features").transform(SparkMlKrrTest.frame(out, "u", "v", "w"));
    }

    /** The density estimator of these tests: 16 anchors, the same 8 L-BFGS steps on both engines. */
    private static PsdDensityEstimator densityEstimator() {
        return new PsdDensityEstimator().setSigma(0.8).setLambda(1e-3).setAnchors(16).setSeed(3).setTol(1e-12)
                .setMaxIter(8);
    }

    @Test
    void aWeightedDensityFitIsCoresWeightedPrimalFit() {
        Dataset<Row> df = densityFrame(null).repartition(3).cache();
        PsdDensityEstimator est = densityEstimator().setWeightCol("w");
        PsdDensityModel m = est.fit(df);
        // core: the rows of positive weight in the DataFrame's order, the trainer's anchors on them, the weighted
        // primal solve (PsdDensityTrainer's own weighted fit runs the dual solver)
        List<Row> ordered = df.select("features", "w").collectAsList();
        List<double[]> kept = new java.util.ArrayList<>();
        List<Double> wk = new java.util.ArrayList<>();
        for (Row row : ordered) {
            if (row.getDouble(1) > 0) {
                kept.add(((Vector) row.get(0)).toArray());
                wk.add(row.getDouble(1));
            }
        }
        assertEquals(kept.size(), m.numRows(), "rows of weight 0 are left out");
        assertTrue(kept.size() < ordered.size());
        Matrix x = Matrix.of(kept.toArray(new double[0][]));
        double[] w = wk.stream().mapToDouble(Double::doubleValue).toArray();
        PsdDensityTrainer.Options o = new PsdDensityTrainer.Options(est.kernelValue(), est.baseMeasure(2),
                est.options(), est.nystrom(), Scaler.Kind.NONE);
        Matrix anchors = x.selectRows(Anchors.select(o.kernel(), x, 16, Anchors.Method.UNIFORM, 3));
        PsdDensity local = org.psdkit.density.PsdDensityEstimator.fitRows(anchors,
                t -> LocalDensityRows.nystrom(o.kernel(), anchors, t, x).weighted(w), o, null);
        PsdDensity spark = (PsdDensity) m.psdkitModel().inner();
        assertEquals(0.0, Diffs.maxRelDiff(spark.points().data(), local.points().data()), "the same anchors");
        assertEquals(local.diagnostics().iterations(), spark.diagnostics().iterations());
        double[] pl = local.density(x);
        double[] ps = spark.density(x);
        assertTrue(Diffs.maxRelDiff(ps, pl) <= 1e-8, "densities differ by " + Diffs.maxRelDiff(ps, pl));
        assertTrue(Diffs.maxRelDiff(spark.factor().data(), local.factor().data()) <= 1e-8, "factors differ by "
                + Diffs.maxRelDiff(spark.factor().data(), local.factor().data()));
        double ll = 0;
        double sw = 0;
        for (int i = 0; i < w.length; i++) {
            ll += w[i] * Math.log(pl[i]);
            sw += w[i];
        }
        assertEquals(ll / sw, m.trainingLogLikelihood(), 1e-8 * Math.abs(ll / sw), "the weighted mean log-density");

        // the weights matter: the unweighted fit on the same rows is another density
        PsdDensityModel u = est.copy(new org.apache.spark.ml.param.ParamMap()).setWeightCol("").fit(df);
        assertTrue(Diffs.maxRelDiff(((PsdDensity) u.psdkitModel().inner()).density(x), ps) > 1e-3);
        df.unpersist(true);
    }

    @Test
    void densityWeightsOfOneAreTheUnweightedFitBitForBit() {
        double[] ones = new double[240];
        java.util.Arrays.fill(ones, 1.0);
        // one partition: the partial sums are combined in a fixed order (with several, in the order tasks finish)
        Dataset<Row> df = densityFrame(ones).coalesce(1).cache();
        PsdDensityModel weighted = densityEstimator().setWeightCol("w").fit(df);
        PsdDensityModel plain = densityEstimator().fit(df);
        assertEquals(ModelIO.toJson(plain.psdkitModel()).get("numbers"),
                ModelIO.toJson(weighted.psdkitModel()).get("numbers"));
        assertEquals(plain.trainingLogLikelihood(), weighted.trainingLogLikelihood(), 0.0);
        df.unpersist(true);
    }

    @Test
    void badDensityWeightsAreNamedWithTheirColumnAndRow() {
        for (double bad : new double[] {-0.5, Double.NaN}) {
            double[] w = new double[240];
            java.util.Arrays.fill(w, 1.0);
            w[17] = bad;
            Dataset<Row> df = densityFrame(w);
            Vector v = (Vector) df.select("features").collectAsList().get(17).get(0);
            Exception e = assertThrows(Exception.class, () -> densityEstimator().setWeightCol("w").fit(df));
            String msg = SparkEngine.translate(e).getMessage();
            assertTrue(msg.startsWith("weightCol: column 'w': " + bad + " in the row with features = " + v
                    + "; weights must be >= 0 and finite"), msg);
        }
        IllegalArgumentException missing = assertThrows(IllegalArgumentException.class,
                () -> densityEstimator().setWeightCol("v2").transformSchema(densityFrame(null).schema()));
        assertTrue(missing.getMessage().startsWith("weightCol: no column 'v2'"), missing.getMessage());
    }
}
