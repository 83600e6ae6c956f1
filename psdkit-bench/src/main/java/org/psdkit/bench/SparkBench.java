package org.psdkit.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.storage.StorageLevel;
import org.psdkit.kernel.GaussianKernel;
import org.psdkit.kernel.Kernel;
import org.psdkit.linalg.Matrix;
import org.psdkit.psd.Anchors;
import org.psdkit.psd.Nystrom;
import org.psdkit.regression.nystrom.KnmBlocks;
import org.psdkit.regression.nystrom.NystromKrr;
import org.psdkit.regression.nystrom.NystromKrrTrainer;
import org.psdkit.regression.nystrom.Storage;
import org.psdkit.spark.SparkEngine;
import org.psdkit.spark.SparkNystromKrr;
import org.psdkit.spark.ml.PsdkitModelTransformer;

/**
 * {@code psdkit bench spark}: Nyström KRR over Spark ({@link SparkNystromKrr}) against the single-machine solver
 * ({@link NystromKrr#problem} + {@link NystromKrrTrainer#solve} on all cores) on the same synthetic data and the same
 * uniform anchors, both in this JVM and in every round, so that their ratio is the engine's overhead measured under
 * the same load. Data: x ~ N(0, I_d), y = Σ_j sin x_j + 0.3 ε (the krr-scale benchmark's). The Spark side's rows are
 * parallelised into {@code partitions} partitions and cached before the clock starts; it recomputes the kernel
 * block every CG iteration, so {@code storage = recompute} gives the local side the same arithmetic; with
 * {@code storage = gram} both sides take the Gram route (the local side keeps what single-precision K_nm fits its
 * heap, the Spark side recomputes its single-precision blocks in each of the few CG passes). Each round reports
 * both sides' per-pass profile ({@code KnmBlocks#timings}, {@link SparkNystromKrr.Fit#timings}).
 *
 * <p>Needs psdkit-spark and the Spark runtime on the classpath (an optional dependency of this module: the
 * command line's {@code psdkit.jar} carries this class but neither of them, and reports the missing runtime;
 * {@code bin/psdkit-spark bench spark} runs it).
 */
public final class SparkBench {

    /** Training rows at which the two fits' predictions are compared. */
    private static final int PROBE_ROWS = 1000;

    private SparkBench() {
    }

    /**
     * What {@code bench spark} asks for.
     *
     * @param n          training rows
     * @param anchors    anchors m
     * @param d          features
     * @param partitions partitions of the engine's data set
     * @param master     the Spark master
     * @param sigma      Gaussian kernel width
     * @param lambda     λ
     * @param tolerance  CG relative residual
     * @param storage    the single-machine K_nm storage ({@code recompute}: the same arithmetic as the engine)
     * @param rounds     repetitions (both fits per round)
     * @param seed       data and anchor seed
     */
    public record Request(int n, int anchors, int d, int partitions, String master, double sigma, double lambda,
                          double tolerance, String storage, int rounds, long seed) {
    }

    /** Runs the benchmark on a Spark session for {@code q.master()} and returns the report. */
    public static Map<String, Object> run(Request q) {
        return SparkEngine.withSession(q.master(), "psdkit bench spark", sc -> run(q, sc));
    }

    static Map<String, Object> run(Request q, JavaSparkContext sc) {
        if (q.n() < 2 || q.anchors() < 1 || q.anchors() > q.n() || q.d() < 1 || q.partitions() < 1 || q.rounds() < 1) {
            throw new IllegalArgumentException("bench spark: need n >= 2, 1 <= anchors <= n, d >= 1, partitions >= 1, "
                    + "rounds >= 1; got n " + q.n() + ", anchors " + q.anchors() + ", d " + q.d() + ", partitions "
                    + q.partitions() + ", rounds " + q.rounds());
        }
        Storage storage;
        try {
            storage = Storage.parse(q.storage());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--" + e.getMessage());
        }
        Random r = new Random(q.seed());
        double[][] rows = new double[q.n()][q.d() + 1];
        for (double[] row : rows) {
            double s = 0;
            for (int j = 0; j < q.d(); j++) {
                row[j] = r.nextGaussian();
                s += Math.sin(row[j]);
            }
            row[q.d()] = s + 0.3 * r.nextGaussian();
        }
        double[][] xs = new double[q.n()][];
        double[] y = new double[q.n()];
        for (int i = 0; i < q.n(); i++) {
            xs[i] = java.util.Arrays.copyOf(rows[i], q.d());
            y[i] = rows[i][q.d()];
        }
        Matrix x = Matrix.of(xs);
        xs = null;
        Kernel k = new GaussianKernel(q.sigma());
        NystromKrrTrainer.Options o = new NystromKrrTrainer.Options(k, null, Nystrom.of(q.anchors(), Anchors.Method.UNIFORM,
                q.seed()), q.lambda(), true, q.tolerance(), NystromKrr.DEFAULT_MAX_ITERATIONS, storage);
        Matrix anchors = x.selectRows(Anchors.select(k, x, q.anchors(), Anchors.Method.UNIFORM,
                q.seed(), q.lambda()));
        JavaRDD<double[]> rdd = sc.parallelize(java.util.Arrays.asList(rows), q.partitions())
                .persist(StorageLevel.MEMORY_AND_DISK());
        rdd.count();
        rows = null;
        Matrix probe = x.selectRows(java.util.stream.IntStream.range(0, Math.min(q.n(), PROBE_ROWS)).toArray());
        List<Map<String, Object>> out = new ArrayList<>();
        try {
            for (int round = 1; round <= q.rounds(); round++) {
                long t0 = System.nanoTime();
                KnmBlocks p = NystromKrr.problem(k, x, anchors, storage);
                NystromKrrTrainer.Fit local = NystromKrrTrainer.solve(p, y, o);
                double tl = (System.nanoTime() - t0) * 1e-9;
                Map<String, Double> localProfile = p.timings();
                p = null;
                long t1 = System.nanoTime();
                SparkNystromKrr.Fit spark = SparkNystromKrr.fit(rdd, k, anchors, o, null, null, "bench");
                double ts = (System.nanoTime() - t1) * 1e-9;
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("round", round);
                m.put("local_seconds", tl);
                m.put("spark_seconds", ts);
                m.put("spark_over_local", ts / tl);
                m.put("local_iterations", local.diagnostics().iterations());
                m.put("spark_iterations", spark.diagnostics().iterations());
                m.put("local_storage", local.diagnostics().storage());
                m.put("spark_storage", spark.diagnostics().storage());
                m.put("local_profile", localProfile);
                m.put("spark_profile", spark.timings());
                m.put("max_rel_diff_alpha", maxRelDiff(spark.pipeline().inner().alpha(), local.model().alpha()));
                m.put("max_rel_diff_prediction", maxRelDiff(spark.pipeline().inner().predictVector(probe),
                        local.model().predictVector(probe)));
                out.add(m);
            }
        } finally {
            SparkNystromKrr.release(rdd); // blocking, before the session stops
        }
        Map<String, Object> rep = new LinkedHashMap<>();
        rep.put("benchmark", "spark");
        rep.put("n", q.n());
        rep.put("anchors", q.anchors());
        rep.put("d", q.d());
        rep.put("partitions", q.partitions());
        rep.put("master", sc.master());
        rep.put("sigma", q.sigma());
        rep.put("lambda", q.lambda());
        rep.put("cg_tol", q.tolerance());
        rep.put("local_threads", Runtime.getRuntime().availableProcessors());
        rep.put("rounds", out);
        double best = Double.POSITIVE_INFINITY;
        for (Map<String, Object> m : out) {
            best = Math.min(best, (Double) m.get("spark_over_local"));
        }
        rep.put("best_spark_over_local", best);
        return rep;
    }

    /**
     * What {@code bench spark --transform} asks for.
     *
     * @param rows       rows scored
     * @param anchors    anchors m of the KRR model
     * @param d          features
     * @param train      rows the model is fitted on (single machine)
     * @param partitions partitions of the scored DataFrame
     * @param master     the Spark master
     * @param sigma      Gaussian kernel width
     * @param lambda     λ
     * @param seed       data and anchor seed
     */
    public record TransformRequest(long rows, int anchors, int d, int train, int partitions, String master,
                                   double sigma, double lambda, long seed) {
    }

    /**
     * Rows the local side predicts at once: the transformer's rows per {@code Model.predict} call, so that both sides
     * make the same calls (the model blocks its kernel matrix inside the call).
     */
    static final int LOCAL_BLOCK_ROWS = PsdkitModelTransformer.DEFAULT_BLOCK_ROWS;

    /** Rows at which the transformer's predictions are checked against the local model's. */
    static final int CHECK_ROWS = 1000;

    /** Runs the scoring benchmark on a Spark session for {@code q.master()} and returns the report. */
    public static Map<String, Object> transform(TransformRequest q) {
        return SparkEngine.withSession(q.master(), "psdkit bench spark --transform", sc -> transform(q, sc));
    }

    /**
     * Scores {@code rows} rows of d standard normal features with a KRR model of m anchors (fitted on one machine on
     * {@code train} rows of the krr-scale data) two ways in this JVM: through {@link PsdkitModelTransformer} on a
     * DataFrame of {@code partitions} partitions (the rows generated by Spark's seeded {@code randn}, assembled into
     * a vector column by {@code VectorAssembler}; a pass that only generates and sums them is timed separately, so
     * that the scoring's share is known), and by the model's own {@code predict} in blocks of
     * {@link #LOCAL_BLOCK_ROWS} rows (rows drawn by {@code java.util.Random}; their drawing timed separately too).
     * Both sides sum the predictions, so every row is scored.
     */
    static Map<String, Object> transform(TransformRequest q, JavaSparkContext sc) {
        if (q.rows() < 1 || q.anchors() < 1 || q.d() < 1 || q.train() < q.anchors() || q.partitions() < 1) {
            throw new IllegalArgumentException("bench spark --transform: need rows >= 1, anchors >= 1, d >= 1, "
                    + "train >= anchors, partitions >= 1; got rows " + q.rows() + ", anchors " + q.anchors() + ", d "
                    + q.d() + ", train " + q.train() + ", partitions " + q.partitions());
        }
        int d = q.d();
        // the model: Nyström KRR on the krr-scale data (x ~ N(0, I_d), y = Σ sin x_j + 0.3 ε), fitted on one machine
        Random r = new Random(q.seed());
        double[][] xs = new double[q.train()][d];
        double[] y = new double[q.train()];
        for (int i = 0; i < xs.length; i++) {
            double s = 0;
            for (int j = 0; j < d; j++) {
                xs[i][j] = r.nextGaussian();
                s += Math.sin(xs[i][j]);
            }
            y[i] = s + 0.3 * r.nextGaussian();
        }
        long tf = System.nanoTime();
        org.psdkit.model.Pipeline<org.psdkit.regression.KernelRidge> model = new NystromKrrTrainer(
                NystromKrrTrainer.Options.of(new GaussianKernel(q.sigma()), q.lambda(), q.anchors(), q.seed()))
                .fit(org.psdkit.data.Dataset.of(Matrix.of(xs), y));
        double fitSeconds = (System.nanoTime() - tf) * 1e-9;
        xs = null;

        org.apache.spark.sql.SparkSession spark = org.apache.spark.sql.SparkSession.builder().sparkContext(sc.sc())
                .getOrCreate();
        org.apache.spark.sql.Column[] cols = new org.apache.spark.sql.Column[d];
        String[] names = new String[d];
        for (int j = 0; j < d; j++) {
            names[j] = model.featureNames().get(j);
            cols[j] = org.apache.spark.sql.functions.randn(q.seed() + 1 + j).as(names[j]);
        }
        org.apache.spark.sql.Dataset<org.apache.spark.sql.Row> df = new org.apache.spark.ml.feature.VectorAssembler()
                .setInputCols(names).setOutputCol("features")
                .transform(spark.range(0, q.rows(), 1, q.partitions()).select(cols)).select("features");
        // the generation alone: the same rows assembled, one entry of each summed (no scoring)
        long t0 = System.nanoTime();
        double genSum = df.agg(org.apache.spark.sql.functions.sum(org.apache.spark.ml.functions.vector_to_array(
                org.apache.spark.sql.functions.col("features"), "float64").getItem(0))).first().getDouble(0);
        double generateSeconds = (System.nanoTime() - t0) * 1e-9;
        PsdkitModelTransformer t = new PsdkitModelTransformer(model);
        long t1 = System.nanoTime();
        double sparkSum = t.transform(df).agg(org.apache.spark.sql.functions.sum("prediction")).first().getDouble(0);
        double sparkSeconds = (System.nanoTime() - t1) * 1e-9;
        // the transformer's first rows against the model's own predictions
        List<org.apache.spark.sql.Row> check = t.transform(df.limit(CHECK_ROWS)).collectAsList();
        double[][] cx = new double[check.size()][];
        double[] cp = new double[check.size()];
        for (int i = 0; i < cx.length; i++) {
            cx[i] = ((org.apache.spark.ml.linalg.Vector) check.get(i).get(0)).toArray();
            cp[i] = check.get(i).getDouble(1);
        }
        double[] want = model.inner().predictVector(Matrix.of(cx));

        // the local side: the model's predict in blocks, rows drawn here (their drawing timed apart)
        Random lr = new Random(q.seed() + 1);
        long drawNanos = 0;
        double localSum = 0;
        long t2 = System.nanoTime();
        for (long done = 0; done < q.rows(); ) {
            int b = (int) Math.min(LOCAL_BLOCK_ROWS, q.rows() - done);
            long td = System.nanoTime();
            double[] x = new double[b * d];
            for (int k = 0; k < x.length; k++) {
                x[k] = lr.nextGaussian();
            }
            drawNanos += System.nanoTime() - td;
            for (double v : model.predict(Matrix.wrap(b, d, x)).data()) {
                localSum += v;
            }
            done += b;
        }
        double localSeconds = (System.nanoTime() - t2) * 1e-9;
        double drawSeconds = drawNanos * 1e-9;

        Map<String, Object> rep = new LinkedHashMap<>();
        rep.put("benchmark", "spark-transform");
        rep.put("rows", q.rows());
        rep.put("anchors", q.anchors());
        rep.put("d", d);
        rep.put("partitions", q.partitions());
        rep.put("master", sc.master());
        Machine machine = Machine.warmUp();
        rep.put("local_blas_threads", machine.blasThreads());
        rep.put("local_kernel_threads", machine.kernelThreads());
        rep.put("model_fit_seconds", fitSeconds);
        rep.put("spark_seconds", sparkSeconds);
        rep.put("spark_generate_seconds", generateSeconds);
        rep.put("spark_rows_per_second", q.rows() / sparkSeconds);
        rep.put("spark_scoring_rows_per_second", q.rows() / Math.max(1e-9, sparkSeconds - generateSeconds));
        rep.put("local_seconds", localSeconds);
        rep.put("local_draw_seconds", drawSeconds);
        rep.put("local_rows_per_second", q.rows() / localSeconds);
        rep.put("local_predict_rows_per_second", q.rows() / Math.max(1e-9, localSeconds - drawSeconds));
        rep.put("spark_over_local_seconds", sparkSeconds / localSeconds);
        rep.put("mean_prediction_spark", sparkSum / q.rows());
        rep.put("mean_prediction_local", localSum / q.rows());
        rep.put("generated_mean_x1", genSum / q.rows());
        rep.put("check_rows", cx.length);
        rep.put("max_rel_diff_prediction", maxRelDiff(cp, want));
        return rep;
    }

    /** max |a_i - b_i| / max |b_i|: how the bench compares Spark with the local result. */
    static double maxRelDiff(double[] a, double[] b) {
        double scale = 0;
        double diff = 0;
        for (int i = 0; i < a.length; i++) {
            scale = Math.max(scale, Math.abs(b[i]));
            diff = Math.max(diff, Math.abs(a[i] - b[i]));
        }
        return diff / scale;
    }
}
