package org.psdkit.spark;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.spark.api.java.JavaRDD;
import org.psdkit.data.Scaler;
import org.psdkit.density.BaseMeasure;
import org.psdkit.density.DensityDiagnostics;
import org.psdkit.density.DensityPipeline;
import org.psdkit.density.PsdDensity;
import org.psdkit.density.PsdDensityEstimator;
import org.psdkit.density.PsdDensityOptions;
import org.psdkit.density.PsdDensityTrainer;
import org.psdkit.io.ModelFile;
import org.psdkit.io.ModelIO;
import org.psdkit.kernel.Kernel;
import org.psdkit.linalg.Matrix;
import org.psdkit.model.ModelHeader;
import org.psdkit.psd.Nystrom;
import org.psdkit.regression.nystrom.NystromKrrTrainer;

/**
 * The distributed fits of this module over rows already read, shared by the command line's engine ({@link
 * SparkEngine}: rows parsed from a CSV or Parquet path) and the spark.ml estimators ({@code org.psdkit.spark.ml}:
 * rows taken from a DataFrame's vector column), so that both fit with the same code: the anchors the single-machine
 * trainer takes ({@link SparkAnchors}), then {@link SparkNystromKrr} or the primal density solver over {@link
 * SparkDensityRows}. Features are used as given (the model's scaler is the identity). The rows are read several
 * times: callers cache them.
 */
public final class SparkFits {

    private SparkFits() {
    }

    /**
     * Nyström KRR ({@link NystromKrrTrainer}'s objective) over rows of d features followed by the target.
     *
     * @param features the d feature names recorded in the model file (null: x1..xd)
     * @param target   the target's name (null: y)
     * @param source   the data's source recorded in the model file
     */
    public static SparkNystromKrr.Fit krr(JavaRDD<double[]> rows, NystromKrrTrainer.Options o, List<String> features,
                                          String target, String source) {
        Matrix anchors = SparkAnchors.krr(rows, o.anchors(), o.method(), o.seed());
        return SparkNystromKrr.fit(rows, o.kernel(), anchors, o, features, target, source);
    }

    /**
     * Weighted Nyström KRR ({@link NystromKrrTrainer#fitDirect}'s objective, Σ w_i (y_i − f(x_i))² + λαᵀK_mmα) over
     * rows of d features, the target and a weight &gt;= 0 ({@link SparkNystromKrr#fitWeighted}).
     */
    public static SparkNystromKrr.Fit weightedKrr(JavaRDD<double[]> rows, NystromKrrTrainer.Options o,
                                                  List<String> features, String target, String source) {
        return SparkNystromKrr.fitWeighted(rows, o, features, target, source);
    }

    /**
     * A fitted density with the number of rows and the mean log-density over them.
     *
     * @param model       an ordinary psd-density model
     * @param n           rows
     * @param trainLoglik mean log-density over the rows (weighted fits: the weighted mean Σ w_i log p(x_i) / Σ w_i
     *                    over the rows of positive weight, whose number {@code n} is)
     */
    public record Density(DensityPipeline model, long n, double trainLoglik) {
    }

    /**
     * The Nyström PSD density (the primal solver of {@link PsdDensityEstimator}, Marteau-Ferey, Bach &amp; Rudi 2020
     * eq. 8 with the Nyström features of App. B.5) over rows of d features.
     *
     * @param base     the base measure for d features
     * @param nystrom  the anchors: number, method (uniform only) and seed
     * @param features the d feature names recorded in the model file
     * @param source   the data's source recorded in the model file
     */
    public static Density density(JavaRDD<double[]> rows, Kernel kernel, BaseMeasure base, PsdDensityOptions options,
                                  Nystrom nystrom, List<String> features, String source) {
        return density(rows, kernel, base, options, nystrom, features, source, false);
    }

    /**
     * As {@link #density(JavaRDD, Kernel, BaseMeasure, PsdDensityOptions, Nystrom, List, String)}; with
     * {@code weighted} each row is the d features followed by a sample weight (&gt;= 0 and finite), and the fit
     * maximises the weighted log-likelihood Σ w_i log f(x_i) / Σ w_i on the rows of positive weight, as
     * {@link PsdDensityTrainer} does with {@link org.psdkit.data.Dataset#weights()}: rows of weight 0 are left out
     * (also of the anchors' draw), and the primal solver's sums are weighted ({@link SparkDensityRows#nystromWeighted}).
     */
    public static Density density(JavaRDD<double[]> rowsIn, Kernel kernel, BaseMeasure base,
                                  PsdDensityOptions options, Nystrom nystrom, List<String> features, String source,
                                  boolean weighted) {
        int d = features.size();
        JavaRDD<double[]> rows = weighted ? rowsIn.filter(r -> r[d] != 0) : rowsIn;
        Matrix anchors = SparkAnchors.density(rows, nystrom.anchors(), nystrom.method(), nystrom.seed(), weighted);
        if (anchors.cols() != d) {
            throw new IllegalArgumentException("density: the rows have " + anchors.cols() + " features, the names "
                    + d);
        }
        List<SparkDensityRows> opened = new ArrayList<>();
        try {
            long[] n = new long[1];
            PsdDensityTrainer.Options trainer = new PsdDensityTrainer.Options(kernel, base, options, nystrom,
                    Scaler.Kind.NONE);
            PsdDensity m = PsdDensityEstimator.fitRows(anchors, t -> {
                SparkDensityRows r = weighted ? SparkDensityRows.nystromWeighted(rows, kernel, anchors, t)
                        : SparkDensityRows.nystrom(rows, kernel, anchors, t);
                opened.add(r);
                n[0] = r.rows();
                return r;
            }, trainer, null);
            Map<String, Object> hyper = new PsdDensityTrainer(trainer).hyperParameters(nystrom.anchors());
            if (nystrom.anchors() < n[0]) {
                // the local trainer's anchors: recorded as it records its own
                nystrom.putStringOptions(hyper);
            }
            ModelHeader h = new ModelHeader(PsdDensity.TYPE, features, null, Scaler.identity(d), m.kernel().spec(),
                    hyper, new ModelHeader.Training((int) Math.min(Integer.MAX_VALUE, n[0]), d, source));
            DensityDiagnostics fit = DensityPipeline.solverDiagnostics(m);
            DensityPipeline p = new DensityPipeline(h, m, fit != null ? new DensityDiagnostics.OnEngine(fit, "spark")
                    : org.psdkit.model.Diagnostics.recorded(Map.of("engine", "spark")));
            String json = ModelIO.toJson(p).toString();
            double[] ll = rows.mapPartitions(it -> logLikelihood(it, json, d, weighted)).treeReduce(SparkNystromKrr::add,
                    SparkNystromKrr.TREE_DEPTH);
            return new Density(p, n[0], ll[0] / ll[1]);
        } finally {
            for (SparkDensityRows r : opened) {
                try {
                    r.close();
                } catch (RuntimeException ignored) {
                    // the context may already be stopped
                }
            }
        }
    }

    /** Rows of one training-likelihood block: 4,096 rows of d features at a time. */
    private static final int LOGLIK_BLOCK_ROWS = 4096;

    /**
     * {Σ log p(x_i), count} of a partition for the model given as its JSON (models are not serialisable; the file
     * format is their wire format); with {@code weighted} (rows of d features and a weight) {Σ w_i log p(x_i), Σ w_i}.
     */
    private static java.util.Iterator<double[]> logLikelihood(java.util.Iterator<double[]> it, String json, int d,
                                                              boolean weighted) throws IOException {
        DensityPipeline p = (DensityPipeline) ModelIO.fromJson(ModelFile.JSON.readTree(json), "spark task");
        double sum = 0;
        double count = 0;
        List<double[]> buf = new ArrayList<>();
        while (it.hasNext() || !buf.isEmpty()) {
            if (it.hasNext()) {
                buf.add(it.next());
            }
            if (buf.size() == LOGLIK_BLOCK_ROWS || (!it.hasNext() && !buf.isEmpty())) {
                if (weighted) {
                    double[][] x = new double[buf.size()][];
                    for (int i = 0; i < x.length; i++) {
                        x[i] = java.util.Arrays.copyOf(buf.get(i), d);
                    }
                    double[] dens = p.density(Matrix.of(x));
                    for (int i = 0; i < x.length; i++) {
                        double w = buf.get(i)[d];
                        sum += w * Math.log(dens[i]);
                        count += w;
                    }
                } else {
                    sum += p.meanLogLikelihood(Matrix.of(buf.toArray(new double[0][]))) * buf.size();
                    count += buf.size();
                }
                buf.clear();
            }
        }
        return List.of(new double[] {sum, count}).iterator();
    }
}
