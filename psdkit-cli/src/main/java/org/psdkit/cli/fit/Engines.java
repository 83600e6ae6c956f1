package org.psdkit.cli.fit;

import java.util.Locale;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import org.psdkit.engine.DistributedEngine;

/**
 * How the command line reaches an engine that fits over data that lives elsewhere ({@code fit krr --engine spark}):
 * it never links against one. Engines ({@link DistributedEngine}, psdkit-core) are found with {@link ServiceLoader}
 * (module psdkit-spark provides {@code org.psdkit.spark.SparkEngine}), so the ordinary {@code psdkit.jar} runs
 * without Spark and says how to get it when {@code --engine spark} is asked for.
 */
public final class Engines {

    /** The message (exit 2) when no engine of the name can be loaded. */
    public static final String MISSING_SPARK = "--engine spark needs the Spark runtime on the classpath: run it with "
            + "spark-submit --class org.psdkit.spark.submit.SparkMain psdkit-spark-<version>-submit.jar fit krr ..., "
            + "or locally with bin/psdkit-spark (see docs/scale.md)";

    private Engines() {
    }

    /** {@code --engine}: {@code local} or {@code spark}; anything else is an error naming the flag. */
    public static String parse(String engine) {
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
    public static DistributedEngine load(String name) {
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
    public static <T> T guard(java.util.function.Supplier<T> job) {
        try {
            return job.get();
        } catch (LinkageError err) {
            throw new IllegalArgumentException(MISSING_SPARK, err);
        }
    }
}
