package org.psdkit.data;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import org.psdkit.linalg.Matrix;

/** Checked conversions between JSON arrays and numbers, for model files. Errors name the field. */
public final class JsonArrays {
    private JsonArrays() {
    }

    /** A JSON array of finite numbers. */
    public static double[] doubles(JsonNode node, String what) {
        return doubles(node, what, -1);
    }

    /**
     * {@link #doubles(JsonNode, String)} of row {@code row} of {@code what} ({@code row < 0}: {@code what} itself);
     * the row's name is made only for a message, not once per row of a long matrix.
     */
    private static double[] doubles(JsonNode node, String what, int row) {
        if (node == null || !node.isArray()) {
            throw new IllegalArgumentException(name(what, row) + ": missing or not an array");
        }
        double[] out = new double[node.size()];
        for (int i = 0; i < out.length; i++) {
            JsonNode v = node.get(i);
            if (!v.isNumber() || !Double.isFinite(v.asDouble())) {
                throw new IllegalArgumentException(name(what, row) + "[" + i + "]: not a finite number (" + v + ")");
            }
            out[i] = v.asDouble();
        }
        return out;
    }

    private static String name(String what, int row) {
        return row < 0 ? what : what + "[" + row + "]";
    }

    /** A JSON array of strings. */
    public static String[] strings(JsonNode node, String what) {
        if (node == null || !node.isArray()) {
            throw new IllegalArgumentException(what + ": missing or not an array");
        }
        String[] out = new String[node.size()];
        for (int i = 0; i < out.length; i++) {
            if (!node.get(i).isTextual()) {
                throw new IllegalArgumentException(what + "[" + i + "]: not a string");
            }
            out[i] = node.get(i).asText();
        }
        return out;
    }

    public static ArrayNode of(double[] v) {
        ArrayNode a = JsonNodeFactory.instance.arrayNode();
        for (double x : v) {
            a.add(x);
        }
        return a;
    }

    public static ArrayNode of(String[] v) {
        ArrayNode a = JsonNodeFactory.instance.arrayNode();
        for (String x : v) {
            a.add(x);
        }
        return a;
    }

    /** A matrix as an array of rows. */
    public static ArrayNode rows(Matrix m) {
        ArrayNode a = JsonNodeFactory.instance.arrayNode();
        for (int i = 0; i < m.rows(); i++) {
            a.add(of(m.row(i)));
        }
        return a;
    }

    /** Reads {@link #rows(Matrix)}; every row must have {@code cols} entries ({@code cols < 0}: any, but equal). */
    public static Matrix matrix(JsonNode node, int cols, String what) {
        if (node == null || !node.isArray()) {
            throw new IllegalArgumentException(what + ": missing or not an array of rows");
        }
        int n = node.size();
        double[][] r = new double[n][];
        for (int i = 0; i < n; i++) {
            r[i] = doubles(node.get(i), what, i);
            int want = cols >= 0 ? cols : r[0].length;
            if (r[i].length != want) {
                throw new IllegalArgumentException(name(what, i) + ": " + r[i].length + " entries, expected " + want);
            }
        }
        return n == 0 ? Matrix.zeros(0, Math.max(cols, 0)) : Matrix.of(r);
    }
}
