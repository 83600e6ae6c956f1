package org.psdkit.data;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Locale;
import org.psdkit.linalg.Matrix;

/**
 * A per-feature affine map x'_j = (x_j − offset_j) / scale_j, fitted on training data only and stored with the
 * model so that prediction applies exactly the same map.
 *
 * <ul>
 *   <li>{@code none}: offset 0, scale 1.</li>
 *   <li>{@code minmax}: offset = min, scale = max − min (training data mapped onto [0, 1]).</li>
 *   <li>{@code zscore}: offset = mean, scale = population standard deviation (divide by n, as scikit-learn's
 *       StandardScaler).</li>
 * </ul>
 * A constant training column (scale 0, or below {@link #DEGENERATE_SCALE} relative to its magnitude) gets scale 1 so
 * that it maps to 0 instead of dividing by zero.
 */
public record Scaler(Kind kind, double[] offset, double[] scale) {

    /**
     * Relative spread below which a column counts as constant: a few ulps of double precision (2.2e−16) times a
     * safety factor of ~50, so that columns that differ only by rounding are not blown up.
     */
    public static final double DEGENERATE_SCALE = 1e-14;

    /** The scaling kinds accepted by {@code --scale}. */
    public enum Kind {
        NONE, MINMAX, ZSCORE;

        /** Parses {@code none|minmax|zscore} (case-insensitive). */
        public static Kind parse(String s) {
            try {
                return valueOf(s.trim().toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw new InputException("", "scale", "must be none, minmax or zscore, got '" + s + "'");
            }
        }

        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    public Scaler {
        if (offset.length != scale.length) {
            throw new IllegalArgumentException("scaler: " + offset.length + " offsets but " + scale.length + " scales");
        }
        for (int j = 0; j < scale.length; j++) {
            if (!(scale[j] > 0) || !Double.isFinite(scale[j]) || !Double.isFinite(offset[j])) {
                throw new IllegalArgumentException("scaler: feature " + (j + 1) + " has offset " + offset[j]
                        + " and scale " + scale[j] + " (scale must be finite and > 0)");
            }
        }
    }

    /** The identity map on d features. */
    public static Scaler identity(int d) {
        double[] s = new double[d];
        java.util.Arrays.fill(s, 1.0);
        return new Scaler(Kind.NONE, new double[d], s);
    }

    /** Fits a scaler of the given kind on training points (rows of x). */
    public static Scaler fit(Kind kind, Matrix x) {
        int n = x.rows();
        int d = x.cols();
        if (kind == Kind.NONE) {
            return identity(d);
        }
        double[] off = new double[d];
        double[] sc = new double[d];
        for (int j = 0; j < d; j++) {
            double[] c = x.col(j);
            double mag = 0;
            if (kind == Kind.MINMAX) {
                double lo = Double.POSITIVE_INFINITY;
                double hi = Double.NEGATIVE_INFINITY;
                for (double v : c) {
                    lo = Math.min(lo, v);
                    hi = Math.max(hi, v);
                    mag = Math.max(mag, Math.abs(v));
                }
                off[j] = lo;
                sc[j] = hi - lo;
            } else {
                double mean = 0;
                for (double v : c) {
                    mean += v;
                    mag = Math.max(mag, Math.abs(v));
                }
                mean /= n;
                double ss = 0;
                for (double v : c) {
                    ss += (v - mean) * (v - mean);
                }
                off[j] = mean;
                sc[j] = Math.sqrt(ss / n);
            }
            if (!(sc[j] > DEGENERATE_SCALE * Math.max(mag, Double.MIN_NORMAL))) {
                sc[j] = 1.0;
            }
        }
        return new Scaler(kind, off, sc);
    }

    public int dimension() {
        return offset.length;
    }

    /** A new matrix with every row mapped. */
    public Matrix apply(Matrix x) {
        if (x.cols() != offset.length) {
            throw new IllegalArgumentException("scaler was fitted on " + offset.length + " features, got "
                    + x.cols());
        }
        if (kind == Kind.NONE) {
            return x.copy();
        }
        int n = x.rows();
        Matrix out = x.copy();
        double[] a = out.data();
        for (int j = 0; j < offset.length; j++) {
            double o = offset[j];
            double s = scale[j];
            for (int i = 0; i < n; i++) {
                a[i + j * n] = (a[i + j * n] - o) / s;
            }
        }
        return out;
    }

    /** The dataset with its features mapped (target, weights and names unchanged). */
    public Dataset apply(Dataset ds) {
        return new Dataset(apply(ds.x()), ds.y(), ds.labels(), ds.featureNames(), ds.targetName(), ds.source(),
                ds.weights(), ds.targets());
    }

    /** {@code {"kind": "zscore", "offset": [...], "scale": [...]}}. */
    public ObjectNode toJson() {
        ObjectNode o = JsonNodeFactory.instance.objectNode();
        o.put("kind", kind.label());
        ArrayNode a = o.putArray("offset");
        for (double v : offset) {
            a.add(v);
        }
        ArrayNode b = o.putArray("scale");
        for (double v : scale) {
            b.add(v);
        }
        return o;
    }

    /** Reads {@link #toJson()} output; {@code where} names the file for error messages. */
    public static Scaler fromJson(JsonNode node, String where) {
        if (node == null || !node.isObject()) {
            throw new IllegalArgumentException(where + ": missing or malformed \"scaler\"");
        }
        Kind k = Kind.parse(node.path("kind").asText(""));
        return new Scaler(k, JsonArrays.doubles(node.get("offset"), where + ": scaler.offset"),
                JsonArrays.doubles(node.get("scale"), where + ": scaler.scale"));
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Scaler s && s.kind == kind && java.util.Arrays.equals(s.offset, offset)
                && java.util.Arrays.equals(s.scale, scale);
    }

    @Override
    public int hashCode() {
        return kind.hashCode() * 31 + java.util.Arrays.hashCode(offset);
    }

    @Override
    public String toString() {
        return "Scaler[" + kind.label() + ", d=" + offset.length + "]";
    }
}
