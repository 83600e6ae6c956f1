package org.psdkit.spark;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.function.IntFunction;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;
import org.psdkit.linalg.Matrix;
import org.psdkit.psd.Anchors;
import scala.Tuple2;

/**
 * The anchors of a distributed fit are the rows the single-machine trainer would take: the trainer's own seeded
 * choice of row indices ({@link Anchors#uniform}, for KRR and the density alike), a
 * function of (n, m, seed) alone, applied to the rows numbered in the order Spark reads them (for one CSV or Parquet
 * file, the file's order, as the local reader numbers them). So {@code --engine spark} and {@code --engine local}
 * fit on the same anchors, and the models differ only by the order of the sums over the rows.
 *
 * <p>Cost: one job counts every partition's rows (it also fills the cache of the rows, which the fit reads next),
 * the driver draws the indices (O(n) memory: the samplers shuffle an index array of n ints, so n &lt; 2³¹), and one
 * job returns the m chosen rows. Only the uniform choice runs here: k-means++ and leverage-score sampling draw each
 * anchor from scores over every row, which would take one pass over the data per anchor.
 */
public final class SparkAnchors {

    private SparkAnchors() {
    }

    /**
     * The m anchors of Nyström KRR ({@link org.psdkit.regression.nystrom.NystromKrrTrainer}): rows carry the target last,
     * which is dropped. More anchors than rows is an error (the message starts with {@code anchors}).
     */
    public static Matrix krr(JavaRDD<double[]> rows, int m, Anchors.Method method, long seed) {
        if (method != null && method != Anchors.Method.UNIFORM) {
            throw unsupported(method.id());
        }
        double[][] a = rowsAt(rows, m, n -> Anchors.uniform(n, m, seed));
        for (int i = 0; i < a.length; i++) {
            a[i] = Arrays.copyOf(a[i], a[i].length - 1);
        }
        return Matrix.of(a);
    }

    /**
     * The m anchors of the Nyström PSD density ({@link org.psdkit.density.PsdDensityTrainer}); every column is a
     * feature. More anchors than rows is an error (the message starts with {@code anchors}).
     */
    public static Matrix density(JavaRDD<double[]> rows, int m, Anchors.Method method, long seed) {
        return density(rows, m, method, seed, false);
    }

    /**
     * As {@link #density(JavaRDD, int, Anchors.Method, long)}; with {@code weighted} each row's last value is its
     * weight, not a feature (left out of the anchors).
     */
    public static Matrix density(JavaRDD<double[]> rows, int m, Anchors.Method method, long seed, boolean weighted) {
        if (method != null && method != Anchors.Method.UNIFORM) {
            throw unsupported(method.id());
        }
        double[][] a = rowsAt(rows, m, n -> Anchors.uniform(n, m, seed));
        if (weighted) {
            for (int i = 0; i < a.length; i++) {
                a[i] = Arrays.copyOf(a[i], a[i].length - 1);
            }
        }
        return Matrix.of(a);
    }

    private static IllegalArgumentException unsupported(String method) {
        return new IllegalArgumentException("anchor method " + method + ": the Spark engine draws uniform anchors "
                + "only (kmeans++ and leverage would pass over the data once per anchor)");
    }

    /**
     * The rows at the indices {@code choose} gives for the number n of rows, in that order (copies).
     *
     * @param m the number of anchors asked for, checked against n first
     */
    static double[][] rowsAt(JavaRDD<double[]> rows, int m, IntFunction<int[]> choose) {
        if (m < 1) {
            throw new IllegalArgumentException("anchors must be >= 1, got " + m);
        }
        long[] sizes = partitionSizes(rows);
        long n = 0;
        long[] offsets = new long[sizes.length];
        for (int p = 0; p < sizes.length; p++) {
            offsets[p] = n;
            n += sizes[p];
        }
        if (m > n) {
            throw new IllegalArgumentException("anchors must be at most the number of points " + n + ", got " + m);
        }
        if (n > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("anchors: the uniform choice of row indices takes at most "
                    + Integer.MAX_VALUE + " rows, got " + n);
        }
        int[] idx = choose.apply((int) n);
        // the chosen indices sorted, with the position each takes among the anchors
        Integer[] order = new Integer[idx.length];
        for (int k = 0; k < idx.length; k++) {
            order[k] = k;
        }
        Arrays.sort(order, (a, b) -> Integer.compare(idx[a], idx[b]));
        long[] wanted = new long[idx.length];
        int[] position = new int[idx.length];
        for (int k = 0; k < idx.length; k++) {
            wanted[k] = idx[order[k]];
            position[k] = order[k];
        }
        JavaSparkContext sc = JavaSparkContext.fromSparkContext(rows.context());
        Broadcast<Wanted> b = sc.broadcast(new Wanted(offsets, wanted, position));
        try {
            List<Tuple2<Integer, double[]>> got = rows.mapPartitionsWithIndex(
                    (p, it) -> b.value().pick(p, it), false).collect();
            double[][] out = new double[idx.length][];
            for (Tuple2<Integer, double[]> t : got) {
                out[t._1()] = t._2();
            }
            for (int k = 0; k < out.length; k++) {
                if (out[k] == null) { // the rows changed between the two jobs (an input that is not deterministic)
                    throw new IllegalStateException("anchors: row " + idx[k] + " of " + n + " was not found on the "
                            + "second pass; the input's rows or their order changed between two reads");
                }
            }
            return out;
        } finally {
            b.destroy();
        }
    }

    /** Rows per partition, by partition index. */
    static long[] partitionSizes(JavaRDD<double[]> rows) {
        List<long[]> counts = rows.mapPartitionsWithIndex((p, it) -> {
            long c = 0;
            while (it.hasNext()) {
                it.next();
                c++;
            }
            return List.of(new long[] {p, c}).iterator();
        }, false).collect();
        long[] sizes = new long[rows.getNumPartitions()];
        for (long[] pc : counts) {
            sizes[(int) pc[0]] = pc[1];
        }
        return sizes;
    }

    /** The sorted global indices wanted, their positions among the anchors, and every partition's first index. */
    record Wanted(long[] offsets, long[] indices, int[] positions) implements java.io.Serializable {

        /** (position, copy of the row) for the wanted rows of partition p. */
        Iterator<Tuple2<Integer, double[]>> pick(int p, Iterator<double[]> it) {
            long i = offsets[p];
            int k = Arrays.binarySearch(indices, i);
            if (k < 0) {
                k = -k - 1;
            }
            List<Tuple2<Integer, double[]>> out = new ArrayList<>();
            while (k < indices.length && it.hasNext()) {
                double[] r = it.next();
                if (i == indices[k]) {
                    out.add(new Tuple2<>(positions[k], r.clone()));
                    k++;
                }
                i++;
            }
            return out.iterator();
        }
    }
}
