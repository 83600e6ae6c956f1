/**
 * Engines that fit psdkit's models over data that lives elsewhere (a cluster's file system, a data set too large for
 * one machine), with the library's own solvers on the driver: {@link org.psdkit.engine.DistributedEngine} and its
 * typed requests (where the data is, the kernel, the options) and results (an ordinary model, so that model files,
 * {@code predict} and {@code eval} treat it like a model fitted in this JVM).
 *
 * <p>Module psdkit-spark provides the Apache Spark engine ({@code org.psdkit.spark.SparkEngine}) and depends on
 * psdkit-core alone; the command line finds engines with {@link java.util.ServiceLoader} and never links against
 * one. An engine fits the model the single-machine trainer fits on the same rows: the anchors are the same rows
 * (chosen by the trainer's own seeded choice of row indices, e.g.
 * {@link org.psdkit.psd.Anchors#uniform}), and what differs is the order of the sums over the rows.
 */
package org.psdkit.engine;
