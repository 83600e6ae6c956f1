package org.psdkit.spark.ml;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.ml.attribute.Attribute;
import org.apache.spark.ml.attribute.AttributeGroup;
import org.apache.spark.ml.linalg.SQLDataTypes;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.NumericType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * The schema checks of the estimators' and transformers' {@code transformSchema} (each error an {@link
 * IllegalArgumentException} naming the parameter and the column) and the rows a fit reads from a DataFrame: the
 * vector column's values, followed by the label where there is one, as {@code double[]} (the rows of the distributed
 * fits of {@link org.psdkit.spark.SparkFits}).
 */
final class Columns {

    private Columns() {
    }

    /** The field named by parameter {@code param}; an error naming both and the columns there are if it is missing. */
    static StructField field(StructType schema, String param, String col) {
        if (col == null || col.isEmpty()) {
            throw new IllegalArgumentException(param + ": no column name given");
        }
        if (!Arrays.asList(schema.fieldNames()).contains(col)) {
            throw new IllegalArgumentException(param + ": no column '" + col + "' in the DataFrame; its columns are "
                    + String.join(", ", schema.fieldNames()));
        }
        return schema.apply(col);
    }

    /** {@code col} is a vector column (spark.ml's {@code VectorUDT}, as {@code VectorAssembler} writes). */
    static void requireVector(StructType schema, String param, String col) {
        StructField f = field(schema, param, col);
        if (!f.dataType().equals(SQLDataTypes.VectorType())) {
            throw new IllegalArgumentException(param + ": column '" + col + "' must be a vector column (e.g. the "
                    + "output of VectorAssembler), got " + f.dataType().simpleString());
        }
    }

    /**
     * A vector column whose size its ML attributes record (VectorAssembler's output does) holds {@code d} entries,
     * the model's features {@code names}; unrecorded sizes are checked row by row when scoring.
     */
    static void requireVectorSize(StructType schema, String param, String col, int d, List<String> names) {
        requireVector(schema, param, col);
        int size;
        try {
            size = AttributeGroup.fromStructField(schema.apply(col)).size();
        } catch (RuntimeException e) {
            return; // no attribute metadata
        }
        if (size >= 0 && size != d) {
            throw new IllegalArgumentException(param + ": column '" + col + "' holds vectors of size " + size
                    + "; the model takes " + d + " features (" + String.join(", ", names) + ")");
        }
    }

    /** {@code col} is a numeric column. */
    static void requireNumeric(StructType schema, String param, String col) {
        StructField f = field(schema, param, col);
        if (!(f.dataType() instanceof NumericType)) {
            throw new IllegalArgumentException(param + ": column '" + col + "' must be numeric, got "
                    + f.dataType().simpleString());
        }
    }

    /** An output column {@code col} is not in the schema yet. */
    static void requireAbsent(StructType schema, String param, String col) {
        if (col == null || col.isEmpty()) {
            throw new IllegalArgumentException(param + ": no column name given");
        }
        if (Arrays.asList(schema.fieldNames()).contains(col)) {
            throw new IllegalArgumentException(param + ": the DataFrame already has a column '" + col + "'");
        }
    }

    /** The schema with double columns {@code cols} appended. */
    static StructType withDoubles(StructType schema, String param, String... cols) {
        StructType out = schema;
        for (String c : cols) {
            requireAbsent(out, param, c);
            out = out.add(c, DataTypes.DoubleType, false);
        }
        return out;
    }

    /**
     * The feature names of a vector column as its ML attributes carry them (VectorAssembler records the input
     * columns'), or null when it has none (or not distinct ones).
     */
    static List<String> featureNames(StructType schema, String col) {
        List<String> out = new ArrayList<>();
        try {
            AttributeGroup g = AttributeGroup.fromStructField(schema.apply(col));
            if (!g.attributes().isDefined()) {
                return null;
            }
            for (Attribute a : g.attributes().get()) {
                if (a.name().isEmpty()) {
                    return null;
                }
                out.add(a.name().get());
            }
        } catch (RuntimeException e) {
            return null; // no attribute metadata
        }
        return out.isEmpty() || out.stream().distinct().count() != out.size() ? null : out;
    }

    /** {@code names} if it holds d names, else x1..xd. */
    static List<String> orGeneric(List<String> names, int d) {
        if (names != null && names.size() == d) {
            return names;
        }
        List<String> out = new ArrayList<>();
        for (int j = 1; j <= d; j++) {
            out.add("x" + j);
        }
        return out;
    }

    /**
     * The rows of a fit: the vector column's d values, followed by the label column's value when {@code labelCol} is
     * not null, followed by the weight column's value when {@code weightCol} is not null. Null, non-finite and
     * differently sized values, and negative weights, are errors naming the parameter and column (found in the
     * tasks); a bad weight's error shows its row (features and label).
     */
    static JavaRDD<double[]> rows(Dataset<?> df, String featuresCol, String labelCol, String weightCol) {
        List<org.apache.spark.sql.Column> cols = new ArrayList<>();
        cols.add(functions.col(quote(featuresCol)));
        if (labelCol != null) {
            cols.add(functions.col(quote(labelCol)).cast(DataTypes.DoubleType));
        }
        if (weightCol != null) {
            cols.add(functions.col(quote(weightCol)).cast(DataTypes.DoubleType));
        }
        Dataset<Row> sel = df.select(cols.toArray(new org.apache.spark.sql.Column[0]));
        String f = featuresCol;
        String l = labelCol;
        String w = weightCol;
        return sel.javaRDD().map(r -> row(r, f, l, w));
    }

    private static double[] row(Row r, String featuresCol, String labelCol, String weightCol) {
        if (r.isNullAt(0)) {
            throw new IllegalArgumentException("featuresCol: column '" + featuresCol + "' holds a null vector");
        }
        Vector v = r.getAs(0);
        int d = v.size();
        int extra = (labelCol == null ? 0 : 1) + (weightCol == null ? 0 : 1);
        double[] out = java.util.Arrays.copyOf(v.toArray(), d + extra);
        for (int j = 0; j < d; j++) {
            if (!Double.isFinite(out[j])) {
                throw new IllegalArgumentException("featuresCol: column '" + featuresCol + "': " + out[j]
                        + " is not a finite number (entry " + j + " of " + v + ")");
            }
        }
        int at = d;
        if (labelCol != null) {
            if (r.isNullAt(1)) {
                throw new IllegalArgumentException("labelCol: column '" + labelCol + "' holds a null value");
            }
            double y = r.getDouble(1);
            if (!Double.isFinite(y)) {
                throw new IllegalArgumentException("labelCol: column '" + labelCol + "': " + y
                        + " is not a finite number");
            }
            out[at++] = y;
        }
        if (weightCol != null) {
            String where = "the row with " + featuresCol + " = " + v
                    + (labelCol == null ? "" : " and " + labelCol + " = " + out[d]);
            if (r.isNullAt(at - d + 1)) {
                throw new IllegalArgumentException("weightCol: column '" + weightCol + "' holds a null value ("
                        + where + ")");
            }
            double w = r.getDouble(at - d + 1);
            if (!(w >= 0) || Double.isInfinite(w)) {
                throw new IllegalArgumentException("weightCol: column '" + weightCol + "': " + w + " in " + where
                        + "; weights must be >= 0 and finite");
            }
            out[at] = w;
        }
        return out;
    }

    /** A column name as {@code functions.col} reads it literally (dots and backticks quoted). */
    static String quote(String col) {
        return "`" + col.replace("`", "``") + "`";
    }

    /** A valid column name from a model output name: dots (which Spark reads as field access) become underscores. */
    static String columnName(String output) {
        return output.replace('.', '_');
    }
}
