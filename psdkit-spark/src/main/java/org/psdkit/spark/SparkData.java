package org.psdkit.spark;

import java.io.IOException;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.NumericType;
import org.apache.spark.sql.types.StructField;
import org.psdkit.engine.DataSource;

/**
 * Reads training rows for the Spark engine from a {@link DataSource}: any Hadoop-compatible path (a file, a directory
 * of part files or a glob; {@code file:}, {@code hdfs://}, {@code s3a://}, ...) through Spark's
 * {@code DataFrameReader}, in the format named, or with {@link DataSource.Format#AUTO} Parquet when the path ends in
 * {@code .parquet} (or is a directory of {@code *.parquet} files), else CSV with a header row. The
 * column rules are those of the local CSV reader ({@link org.psdkit.data.CsvReader}): distinct names, the target is
 * the last column unless named, every other column is a feature, every value a finite number. A violation is an
 * {@link IllegalArgumentException} naming the path and the column; values are checked where they are read, in the
 * tasks, so the line number of a CSV value is not known.
 */
final class SparkData {

    private SparkData() {
    }

    /**
     * Rows of d features followed by the target.
     *
     * @param rows     the parsed rows
     * @param features the feature names (in row order)
     * @param target   the target's name
     */
    record Rows(JavaRDD<double[]> rows, List<String> features, String target) {
    }

    /** Rows of d features followed by the target (the last column, or the one named). */
    static Rows read(SparkSession spark, DataSource source, String target) {
        return read(spark, source, target, false);
    }

    /** Rows of every column as a feature (densities: no target). */
    static Rows readFeatures(SparkSession spark, DataSource source) {
        return read(spark, source, null, true);
    }

    private static Rows read(SparkSession spark, DataSource source, String target, boolean noTarget) {
        String path = source.location();
        FileStatus[] found = find(spark, path);
        boolean parquet = switch (source.format()) {
            case CSV -> false;
            case PARQUET -> true;
            case AUTO -> isParquet(spark, path, found);
        };
        Dataset<Row> df = parquet ? spark.read().parquet(path)
                : spark.read().option("header", "true").option("inferSchema", "false").option("mode", "FAILFAST")
                        .csv(path);
        String[] cols = df.columns();
        Set<String> seen = new HashSet<>();
        for (String c : cols) {
            if (!seen.add(c)) {
                throw new IllegalArgumentException(path + ": the column name '" + c + "' appears twice in the header");
            }
        }
        int t;
        if (noTarget) {
            t = -1;
        } else if (target == null) {
            t = cols.length - 1;
        } else {
            t = Arrays.asList(cols).indexOf(target);
            if (t < 0) {
                // the local reader's exception (CsvReader), naming the parameter for the front end to spell
                throw new org.psdkit.data.InputException(path + ": ", "targetName", "'" + target
                        + "' names no column; the header has " + String.join(", ", cols));
            }
        }
        if (cols.length < (noTarget ? 1 : 2)) {
            throw new IllegalArgumentException(path + ": " + cols.length + " column; " + (noTarget ? "a feature is"
                    : "a feature and the target are") + " needed");
        }
        List<String> names = new ArrayList<>();
        for (int j = 0; j < cols.length; j++) {
            if (noTarget || j != t) {
                names.add(cols[j]);
            }
        }
        if (noTarget) {
            return finish(df, path, names, null, parquet);
        }
        names.add(cols[t]);
        return finish(df, path, names, cols[t], parquet);
    }

    private static Rows finish(Dataset<Row> df, String path, List<String> names, String target, boolean parquet) {
        if (parquet) {
            for (StructField f : df.schema().fields()) {
                if (names.contains(f.name()) && !(f.dataType() instanceof NumericType)) {
                    throw new IllegalArgumentException(path + ": column '" + f.name() + "' is of type "
                            + f.dataType().simpleString() + "; every column must be numeric");
                }
            }
        }
        Column[] sel = new Column[names.size()];
        for (int j = 0; j < sel.length; j++) {
            sel[j] = functions.col("`" + names.get(j).replace("`", "``") + "`");
        }
        Parser p = new Parser(path, names.toArray(new String[0]));
        JavaRDD<double[]> rows = df.select(sel).javaRDD().map(p::parse);
        return new Rows(rows, target == null ? names : names.subList(0, names.size() - 1), target);
    }

    /** The files the path names; a missing path is an error naming it (exit 2), not Spark's AnalysisException. */
    private static FileStatus[] find(SparkSession spark, String path) {
        try {
            org.apache.hadoop.fs.Path p = new org.apache.hadoop.fs.Path(path);
            FileSystem fs = p.getFileSystem(spark.sparkContext().hadoopConfiguration());
            FileStatus[] st = fs.globStatus(p);
            if (st == null || st.length == 0) {
                throw new IllegalArgumentException("--train " + path + ": no such file or directory");
            }
            return st;
        } catch (IOException | RuntimeException e) {
            if (e instanceof IllegalArgumentException iae && iae.getMessage() != null
                    && iae.getMessage().startsWith("--train")) {
                throw iae;
            }
            throw new IllegalArgumentException("--train " + path + ": cannot read (" + e.getMessage() + ")", e);
        }
    }

    private static boolean isParquet(SparkSession spark, String path, FileStatus[] found) {
        if (path.toLowerCase(Locale.ROOT).endsWith(".parquet")) {
            return true;
        }
        if (found.length == 1 && found[0].isDirectory()) {
            try {
                org.apache.hadoop.fs.Path dir = found[0].getPath();
                FileSystem fs = dir.getFileSystem(spark.sparkContext().hadoopConfiguration());
                for (FileStatus f : fs.listStatus(dir)) {
                    if (f.getPath().getName().toLowerCase(Locale.ROOT).endsWith(".parquet")) {
                        return true;
                    }
                }
            } catch (IOException e) {
                return false;
            }
        }
        return false;
    }

    /** Row → double[]: numbers as they are, strings parsed; empty, non-numeric and non-finite values rejected. */
    static final class Parser implements Serializable {
        private static final long serialVersionUID = 1L;
        private final String path;
        private final String[] names;

        Parser(String path, String[] names) {
            this.path = path;
            this.names = names;
        }

        double[] parse(Row row) {
            double[] out = new double[names.length];
            for (int j = 0; j < out.length; j++) {
                Object v = row.get(j);
                if (v == null) {
                    throw new IllegalArgumentException(path + ": column '" + names[j] + "': a value is missing in "
                            + "row " + row.mkString("[", ",", "]"));
                }
                double x;
                if (v instanceof Number n) {
                    x = n.doubleValue();
                } else {
                    String s = v.toString().trim();
                    try {
                        x = Double.parseDouble(s);
                    } catch (NumberFormatException e) {
                        throw new IllegalArgumentException(path + ": column '" + names[j] + "': '" + s
                                + "' is not a number");
                    }
                }
                if (!Double.isFinite(x)) {
                    throw new IllegalArgumentException(path + ": column '" + names[j] + "': " + v
                            + " is not a finite number");
                }
                if (Math.abs(x) > org.psdkit.data.CsvReader.MAX_MAGNITUDE) {
                    throw new IllegalArgumentException(path + ": column '" + names[j] + "': "
                            + org.psdkit.data.CsvReader.tooLarge(v));
                }
                out[j] = x;
            }
            return out;
        }
    }
}
