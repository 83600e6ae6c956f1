package org.psdkit.spark.submit;

import org.psdkit.cli.Main;

/**
 * The entry point of the {@code spark-submit} jar: psdkit's command line with {@code --engine spark} as the default
 * of {@code fit krr} and {@code fit density}, e.g.
 * <pre>  spark-submit --class org.psdkit.spark.submit.SparkMain --master yarn psdkit-spark-0.1.0-SNAPSHOT-submit.jar \
 *      fit krr --train hdfs:///data/train.parquet --anchors 2000 --kernel 'gaussian(sigma=3)' --lambda 1 --out m.json</pre>
 * (see docs/scale.md). Every other command works as in {@code psdkit}. It lives in this launcher module, which
 * depends on both the command line and psdkit-spark, so that psdkit-spark depends on psdkit-core alone; the command
 * line finds the engine by {@link java.util.ServiceLoader}.
 */
public final class SparkMain {

    private SparkMain() {
    }

    /** Runs the command line with the Spark engine as default and returns the exit status. */
    public static int execute(String... args) {
        if (System.getProperty("psdkit.engine") == null) {
            System.setProperty("psdkit.engine", "spark");
        }
        return Main.execute(args);
    }

    public static void main(String[] args) {
        System.exit(execute(args));
    }
}
