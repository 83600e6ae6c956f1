package org.psdkit.spark;

import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaSparkContext;

/**
 * The one Spark context of this module's tests (starting one costs seconds): local mode with two threads and up
 * to two attempts per task ({@code local[2,2]}), so that an injected task failure is retried. Stopped at JVM exit.
 */
final class SharedSpark {

    private static JavaSparkContext sc;

    private SharedSpark() {
    }

    static synchronized JavaSparkContext context() {
        if (sc == null) {
            SparkConf conf = new SparkConf().setMaster("local[2,2]").setAppName("psdkit-spark-test")
                    .set("spark.ui.enabled", "false")
                    .set("spark.driver.host", "127.0.0.1")
                    .set("spark.driver.bindAddress", "127.0.0.1")
                    .set("spark.sql.shuffle.partitions", "2");
            sc = new JavaSparkContext(conf);
            sc.setLogLevel("ERROR");
            JavaSparkContext c = sc;
            Runtime.getRuntime().addShutdownHook(new Thread(c::stop));
        }
        return sc;
    }
}
