package org.psdkit.cli.fit;

import java.util.Locale;
import java.util.Map;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import org.psdkit.density.BaseMeasure;
import org.psdkit.density.DensityPipeline;
import org.psdkit.density.PsdDensityOptions;
import org.psdkit.kernel.Kernel;
import org.psdkit.model.Pipeline;
import org.psdkit.regression.KernelRidge;
import org.psdkit.regression.nystrom.NystromKrrTrainer;

/**
 * An engine that fits over data that lives elsewhere ({@code fit krr --engine spark}). The command line never links
 * against an engine: implementations are found with {@link ServiceLoader} (module psdkit-spark provides
 * {@code org.psdkit.spark.SparkEngine}), so the ordinary {@code psdkit.jar} runs without Spark and says how to get it
 * when {@code --engine spark} is asked for.
 */
public interface DistributedEngine {

    /** The message (exit 2) when no engine of the name can be loaded. */
    String MISSING_SPARK = "--engine spark needs the Spark runtime on the classpath: run it with spark-submit "
            + "--class org.psdkit.spark.SparkMain psdkit-spark-<version>-submit.jar fit krr ..., or locally with "
            + "bin/psdkit-spark (see docs/scale.md)";

    /** The name given to {@code --engine}. */
    String name();

    /** Nyström KRR ({@code fit krr --anchors M}) over the rows of {@code request.train()}. */
    KrrResult fitKrr(KrrRequest request);

    /** The Nyström PSD density ({@code fit psd-density --anchors M}) over the rows of {@code request.train()}. */
    DensityResult fitDensity(DensityRequest request);

    /**
     * {@code psdkit bench spark}: the engine's Nyström KRR against the single-machine solver on the same synthetic
     * data and anchors, in the same JVM and run; returns the report (times, iterations, their ratio).
     */
    Map<String, Object> benchKrr(BenchRequest request);

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
    record BenchRequest(int n, int anchors, int d, int partitions, String master, double sigma, double lambda,
                        double tolerance, String storage, int rounds, long seed) {
    }

    /**
     * What {@code fit psd-density --engine ...} asks for.
     *
     * @param train   the path of {@code --train} as typed; every column is a feature
     * @param master  {@code --master}, or null for the engine's default
     * @param kernel  the kernel
     * @param base    the base measure for d features
     * @param options the solver's options (the primal solver is used)
     * @param anchors the number of anchors (drawn uniformly on the cluster)
     * @param seed    the anchors' seed
     */
    record DensityRequest(String train, String master, Kernel kernel, java.util.function.IntFunction<BaseMeasure> base,
                          PsdDensityOptions options, int anchors, long seed) {
    }

    /**
     * A fitted density with what the report needs.
     *
     * @param model        an ordinary psd-density model
     * @param n            training rows
     * @param d            features
     * @param trainLoglik  mean log-density over the training rows
     */
    record DensityResult(DensityPipeline model, long n, int d, double trainLoglik) {
    }

    /**
     * What {@code fit krr --engine ...} asks for.
     *
     * @param train   the path of {@code --train} as typed (any Hadoop-compatible URI: hdfs://, s3a://, file:, ...)
     * @param target  {@code --target}, or null for the last column
     * @param master  {@code --master}, or null for the engine's default
     * @param kernel  the kernel
     * @param options λ, centring, anchors, seed, CG tolerance and cap
     */
    record KrrRequest(String train, String target, String master, Kernel kernel, NystromKrrTrainer.Options options) {
    }

    /**
     * A fitted model with what the report needs.
     *
     * @param model        an ordinary krr model (points = anchors)
     * @param n            training rows
     * @param d            features
     * @param trainMetrics rmse, mae and r2 on the training rows
     */
    record KrrResult(Pipeline<KernelRidge> model, long n, int d, Map<String, Double> trainMetrics) {
    }

    /**
     * A job of the engine failed (an executor lost, a task failed past its retries, the cluster gone): exit 1 with
     * the engine's reason on one line.
     */
    final class EngineFailure extends RuntimeException {
        private static final long serialVersionUID = 1L;

        public EngineFailure(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /** {@code --engine}: {@code local} or {@code spark}; anything else is an error naming the flag. */
    static String parse(String engine) {
        String e = engine == null ? "local" : engine.trim().toLowerCase(Locale.ROOT);
        if (!e.equals("local") && !e.equals("spark")) {
            throw new IllegalArgumentException("--engine: '" + engine + "' is not local or spark");
        }
        return e;
    }

    /**
     * The engine of that name on the classpath; {@link IllegalArgumentException} with {@link #MISSING_SPARK} if there
     * is none, or if its provider is there but the runtime it needs is not.
     */
    static DistributedEngine load(String name) {
        try {
            for (ServiceLoader.Provider<DistributedEngine> p : ServiceLoader.load(DistributedEngine.class).stream()
                    .toList()) {
                DistributedEngine e = p.get();
                if (e.name().equals(name)) {
                    return e;
                }
            }
        } catch (ServiceConfigurationError | LinkageError e) {
            throw new IllegalArgumentException(MISSING_SPARK, e);
        }
        throw new IllegalArgumentException(MISSING_SPARK);
    }

    /**
     * {@code job} (a call on an engine from {@link #load}), with a {@link LinkageError} on the way (a class the engine
     * needs is missing at run time) reported as {@link IllegalArgumentException} with {@link #MISSING_SPARK}.
     */
    static <T> T guard(java.util.function.Supplier<T> job) {
        try {
            return job.get();
        } catch (LinkageError err) {
            throw new IllegalArgumentException(MISSING_SPARK, err);
        }
    }
}
