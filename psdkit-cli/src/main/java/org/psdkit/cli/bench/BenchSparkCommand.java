package org.psdkit.cli.bench;

import java.util.Map;
import java.util.concurrent.Callable;
import org.psdkit.cli.Main;
import org.psdkit.cli.Reports;
import org.psdkit.bench.SparkBench;
import org.psdkit.cli.fit.Engines;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code psdkit bench spark}: Nyström KRR over Spark (local mode) against the single-machine solver on the same
 * synthetic data and anchors, in the same run ({@link SparkBench} of psdkit-bench, which needs psdkit-spark and the
 * Spark runtime: {@code bin/psdkit-spark bench spark}; without them, the message of {@link Engines#MISSING_SPARK}).
 * The default case takes about a minute; n = 10⁶ is {@code --n 1000000}. With {@code --transform}: scoring
 * {@code --rows} rows through the spark.ml {@code PsdkitModelTransformer} against the model's own predict
 * ({@link SparkBench#transform}).
 */
@Command(name = "spark", description = "Nystrom KRR over Spark (local mode) vs the single-machine solver on the same "
        + "data and anchors: the engine's overhead ratio. Needs the Spark runtime (bin/psdkit-spark bench spark).")
public final class BenchSparkCommand implements Callable<Integer> {

    @Option(names = "--n", defaultValue = "20000", description = "Training rows (default: ${DEFAULT-VALUE}; with "
            + "--transform, the model's).")
    int n;

    @Option(names = "--anchors", description = "Anchors (default: 300; 1000 with --transform).")
    Integer anchors;

    @Option(names = "--transform", description = "Score --rows rows with a KRR model of --anchors anchors (fitted on "
            + "one machine on --n rows) through the spark.ml PsdkitModelTransformer, against the model's own predict "
            + "in the same run: rows per second.")
    boolean transform;

    @Option(names = "--rows", defaultValue = "10000000", description = "Rows scored with --transform (default: "
            + "${DEFAULT-VALUE}).")
    long rows;

    @Option(names = "--d", defaultValue = "10", description = "Features (default: ${DEFAULT-VALUE}).")
    int d;

    @Option(names = "--partitions", defaultValue = "4", description = "Spark partitions (default: ${DEFAULT-VALUE}).")
    int partitions;

    @Option(names = "--master", defaultValue = "local[2]", description = "Spark master (default: ${DEFAULT-VALUE}).")
    String master;

    @Option(names = "--sigma", defaultValue = "3", description = "Gaussian kernel width (default: ${DEFAULT-VALUE}).")
    double sigma;

    @Option(names = "--lambda", defaultValue = "1", description = "lambda (default: ${DEFAULT-VALUE}).")
    double lambda;

    @Option(names = "--cg-tol", defaultValue = "1e-6", description = "CG relative residual (default: ${DEFAULT-VALUE}).")
    double tolerance;

    @Option(names = "--storage", defaultValue = "recompute", paramLabel = "recompute|auto|float|gram",
            description = "The route of both sides (K_nm on the single-machine side): recompute is the plain CG with "
                    + "the engine's arithmetic, gram the Gram route on both (default: ${DEFAULT-VALUE}).")
    String storage;

    @Option(names = "--rounds", defaultValue = "1", description = "Rounds, both fits in each (default: ${DEFAULT-VALUE}).")
    int rounds;

    @Option(names = "--seed", defaultValue = "1", description = "Data and anchor seed (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--json", description = "Print one JSON object on stdout.")
    boolean json;

    @Override
    public Integer call() {
        Engines.load("spark"); // psdkit-spark and Spark on the classpath, or the message saying how to get them
        Map<String, Object> rep = transform
                ? Engines.guard(() -> SparkBench.transform(new SparkBench.TransformRequest(rows,
                        anchors == null ? 1000 : anchors, d, n, partitions, master, sigma, lambda, seed)))
                : Engines.guard(() -> SparkBench.run(new SparkBench.Request(n, anchors == null ? 300 : anchors, d,
                        partitions, master, sigma, lambda, tolerance, storage, rounds, seed)));
        Reports.print(rep, json);
        return Main.EXIT_OK;
    }
}
