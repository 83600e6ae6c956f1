package org.psdkit.spark.ml;

import java.io.IOException;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.api.java.function.MapPartitionsFunction;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.StructType;
import org.psdkit.io.ModelFile;
import org.psdkit.io.ModelIO;
import org.psdkit.linalg.Matrix;
import org.psdkit.model.Model;

/**
 * Scores a psdkit model on a DataFrame in parallel: the model is broadcast once (as its model-file JSON, the wire
 * format of psdkit models, parsed once per executor), and every partition is scored in chunks of {@code blockRows}
 * consecutive rows, each chunk by ONE call of the model's matrix {@link Model#predict(Matrix)}, the path {@code psdkit
 * predict} and {@code Model.predict} take for a matrix of rows (the model's own blocking inside it). A partition of
 * at most {@code blockRows} rows is therefore scored exactly as {@code model.predict} scores those rows, bit for bit.
 * Rows scored in different calls may differ in the last bits: a radial kernel's cross block is computed on points
 * centred at the block's column means ({@code RadialKernel}'s cancellation guard), so a row's rounding depends on the
 * rows it is scored with. The output keeps every input column and appends the chosen outputs as double columns.
 */
final class Scoring {

    /**
     * Default rows per {@link Model#predict} call: 65,536 rows keep a task's buffered rows (with d = 10 about 15 MB of
     * row objects and 5 MB of features) small while most partitions of a cached DataFrame go in a few calls; the
     * model bounds its own working memory inside the call (a krr model forms its kernel block 2²² entries at a time).
     */
    static final int DEFAULT_BLOCK_ROWS = 1 << 16;

    private Scoring() {
    }

    /** A model shipped to the executors as its JSON, parsed at most once per JVM that holds the copy. */
    static final class Shipped implements Serializable {
        private static final long serialVersionUID = 1L;
        private final String json;
        private transient volatile Model model;

        Shipped(Model model) {
            this.json = ModelIO.toJson(model).toString();
            this.model = model;
        }

        Model model() {
            Model m = model;
            if (m == null) {
                synchronized (this) {
                    m = model;
                    if (m == null) {
                        try {
                            m = ModelIO.fromJson(ModelFile.JSON.readTree(json), "spark task");
                        } catch (IOException e) {
                            throw new UncheckedIOException(e);
                        }
                        model = m;
                    }
                }
            }
            return m;
        }
    }

    /**
     * {@code df} with the model's outputs {@code outputs} (indices into {@link Model#outputColumns()}) appended as
     * the double columns {@code cols}.
     *
     * @param param the parameter naming the output columns (for errors)
     */
    static Dataset<Row> transform(Dataset<?> df, Model model, String featuresCol, String param, String[] cols,
                                  int[] outputs, int blockRows) {
        if (blockRows < 1) {
            throw new IllegalArgumentException("blockRows: must be >= 1, got " + blockRows);
        }
        StructType in = df.schema();
        Columns.requireVectorSize(in, "featuresCol", featuresCol, model.featureNames().size(),
                model.featureNames());
        StructType out = Columns.withDoubles(in, param, cols);
        int fi = in.fieldIndex(featuresCol);
        int d = model.featureNames().size();
        JavaSparkContext sc = JavaSparkContext.fromSparkContext(df.sparkSession().sparkContext());
        Broadcast<Shipped> b = sc.broadcast(new Shipped(model));
        String names = String.join(", ", model.featureNames());
        MapPartitionsFunction<Row, Row> f = it -> new Scored(it, b.value().model(), fi, d, outputs, featuresCol,
                names, blockRows);
        return df.toDF().mapPartitions(f, Encoders.row(out));
    }

    /** The rows of a partition with their outputs appended, scored a block at a time as they are consumed. */
    private static final class Scored implements Iterator<Row> {
        private final Iterator<Row> in;
        private final Model model;
        private final int fi;
        private final int d;
        private final int[] outputs;
        private final String featuresCol;
        private final String names;
        private final int blockRows;
        private Row[] rows = new Row[0];
        private double[][] scores;
        private int size;
        private int next;

        Scored(Iterator<Row> in, Model model, int fi, int d, int[] outputs, String featuresCol, String names,
               int blockRows) {
            this.in = in;
            this.blockRows = blockRows;
            this.model = model;
            this.fi = fi;
            this.d = d;
            this.outputs = outputs;
            this.featuresCol = featuresCol;
            this.names = names;
        }

        @Override
        public boolean hasNext() {
            if (next < size) {
                return true;
            }
            fill();
            return next < size;
        }

        @Override
        public Row next() {
            if (!hasNext()) {
                throw new NoSuchElementException();
            }
            Row r = rows[next];
            rows[next] = null;
            int w = r.length();
            Object[] v = new Object[w + outputs.length];
            for (int j = 0; j < w; j++) {
                v[j] = r.get(j);
            }
            double[] s = scores[next];
            for (int k = 0; k < outputs.length; k++) {
                v[w + k] = s[outputs[k]];
            }
            next++;
            return RowFactory.create(v);
        }

        /** Reads up to {@code blockRows} rows and scores them with one matrix prediction. */
        private void fill() {
            size = 0;
            next = 0;
            while (size < blockRows && in.hasNext()) {
                if (size == rows.length) { // grown as rows come: a short partition holds no full-size buffer
                    rows = java.util.Arrays.copyOf(rows, (int) Math.min(blockRows, Math.max(1024L, 2L * size)));
                }
                rows[size++] = in.next();
            }
            if (size == 0) {
                return;
            }
            double[] x = new double[size * d]; // column-major, Matrix's layout
            for (int i = 0; i < size; i++) {
                Row r = rows[i];
                if (r.isNullAt(fi)) {
                    throw new IllegalArgumentException("featuresCol: column '" + featuresCol + "' holds a null "
                            + "vector");
                }
                Vector v = r.getAs(fi);
                if (v.size() != d) {
                    throw new IllegalArgumentException("featuresCol: column '" + featuresCol + "' holds a vector of "
                            + "size " + v.size() + "; the model takes " + d + " features (" + names + ")");
                }
                for (int j = 0; j < d; j++) {
                    x[j * size + i] = v.apply(j);
                }
            }
            scores = model.predict(Matrix.wrap(size, d, x)).toRowArrays();
        }
    }

    /** The indices of {@code names} among the model's outputs; an error naming the ones it lacks. */
    static int[] indices(Model model, List<String> names) {
        int[] out = new int[names.size()];
        for (int k = 0; k < out.length; k++) {
            out[k] = model.outputColumns().indexOf(names.get(k));
            if (out[k] < 0) {
                throw new IllegalArgumentException("the model (" + model.type() + ") has no output '" + names.get(k)
                        + "'; its outputs are " + model.outputColumns());
            }
        }
        return out;
    }
}
