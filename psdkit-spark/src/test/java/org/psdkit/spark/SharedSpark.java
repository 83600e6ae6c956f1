package org.psdkit.spark;

import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;

/**
 * The one Spark session of this module's tests (starting one costs seconds): local mode with two threads and up
 * to two attempts per task ({@code local[2,2]}), so that an injected task failure is retried. The command-line
 * tests' {@code --engine spark} joins it ({@link SparkEngine.Session} does not stop a session it did not start).
 * Stopped at JVM exit.
 */
final class SharedSpark {

    private static SparkSession spark;

    private SharedSpark() {
    }

    static synchronized SparkSession session() {
        if (spark == null) {
            spark = SparkSession.builder().master("local[2,2]").appName("psdkit-spark-test")
                    .config("spark.ui.enabled", "false")
                    .config("spark.driver.host", "127.0.0.1")
                    .config("spark.driver.bindAddress", "127.0.0.1")
                    .config("spark.sql.shuffle.partitions", "2")
                    .getOrCreate();
            spark.sparkContext().setLogLevel("ERROR");
            SparkSession s = spark;
            Runtime.getRuntime().addShutdownHook(new Thread(s::stop));
        }
        return spark;
    }

    static JavaSparkContext context() {
        return JavaSparkContext.fromSparkContext(session().sparkContext());
    }
}
