package org.psdkit.cone;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import org.psdkit.data.JsonArrays;
import org.psdkit.kernel.Kernel;
import org.psdkit.linalg.Matrix;

/**
 * JSON form of the block functions of a vector-valued model. All functions of one model share the kernel and the
 * training points, which are stored once by the caller:
 * <pre>
 *   {"type":"expansion","offset":1.0,"intercept":0.0,"link":"identity"|"exp","coefficients":[…n…]}
 *   {"type":"sos","factor":[[…k…] × n rows]}        // f(x) = ‖Rᵀ v(x)‖²
 *   {"type":"constant","value":t}
 * </pre>
 */
public final class FunctionCodec {

    private FunctionCodec() {
    }

    public static ArrayNode write(List<ScalarFunction> functions) {
        ArrayNode arr = JsonNodeFactory.instance.arrayNode();
        for (ScalarFunction f : functions) {
            ObjectNode o = arr.addObject();
            if (f instanceof KernelExpansion e) {
                o.put("type", "expansion");
                o.put("offset", e.offset());
                o.put("intercept", e.intercept());
                o.put("link", e.link() == KernelExpansion.Link.EXP ? "exp" : "identity");
                o.set("coefficients", JsonArrays.of(e.coefficients()));
            } else if (f instanceof KernelSumOfSquares s) {
                o.put("type", "sos");
                o.set("factor", JsonArrays.rows(s.factor()));
            } else if (f instanceof Constant c) {
                o.put("type", "constant");
                o.put("value", c.value());
            } else {
                throw new IllegalStateException("cannot store function of class " + f.getClass().getSimpleName());
            }
        }
        return arr;
    }

    public static List<ScalarFunction> read(JsonNode arr, Kernel kernel, Matrix points, String where) {
        if (arr == null || !arr.isArray() || arr.isEmpty()) {
            throw new IllegalArgumentException(where + ": missing or empty function list");
        }
        List<ScalarFunction> out = new ArrayList<>();
        int n = points.rows();
        for (int b = 0; b < arr.size(); b++) {
            JsonNode o = arr.get(b);
            String w = where + "[" + b + "]";
            String type = o.path("type").asText("");
            switch (type) {
                case "expansion" -> {
                    double[] c = JsonArrays.doubles(o.get("coefficients"), w + ".coefficients");
                    if (c.length != n) {
                        throw new IllegalArgumentException(w + ": " + c.length + " coefficients for " + n + " points");
                    }
                    String link = o.path("link").asText("");
                    if (!link.equals("exp") && !link.equals("identity")) {
                        throw new IllegalArgumentException(w + ": link must be identity or exp, got '" + link + "'");
                    }
                    out.add(new KernelExpansion(kernel, number(o, "offset", w), points, c, number(o, "intercept", w),
                            link.equals("exp") ? KernelExpansion.Link.EXP : KernelExpansion.Link.IDENTITY));
                }
                case "sos" -> {
                    JsonNode fac = o.get("factor");
                    int k = fac != null && fac.isArray() && fac.size() > 0 && fac.get(0).isArray() ? fac.get(0).size()
                            : 0;
                    Matrix r = k == 0 ? Matrix.zeros(n, 0) : JsonArrays.matrix(fac, k, w + ".factor");
                    if (r.rows() != n) {
                        throw new IllegalArgumentException(w + ": factor has " + r.rows() + " rows for " + n
                                + " points");
                    }
                    out.add(new KernelSumOfSquares(kernel, points, r));
                }
                case "constant" -> {
                    double v = number(o, "value", w);
                    if (v < 0) {
                        throw new IllegalArgumentException(w + ": a non-negative constant is negative: " + v);
                    }
                    out.add(new Constant(v));
                }
                default -> throw new IllegalArgumentException(w + ": unknown function type '" + type + "'");
            }
        }
        return out;
    }

    /** Direction matrix D (outputs × blocks) as rows. */
    public static double[][] directions(JsonNode node, int blocks, String where) {
        if (node == null || !node.isArray() || node.isEmpty()) {
            throw new IllegalArgumentException(where + ": missing directions");
        }
        double[][] d = new double[node.size()][];
        for (int t = 0; t < d.length; t++) {
            d[t] = JsonArrays.doubles(node.get(t), where + "[" + t + "]");
            if (d[t].length != blocks) {
                throw new IllegalArgumentException(where + "[" + t + "]: " + d[t].length + " entries for " + blocks
                        + " functions");
            }
        }
        return d;
    }

    public static ArrayNode writeDirections(double[][] d) {
        ArrayNode arr = JsonNodeFactory.instance.arrayNode();
        for (double[] row : d) {
            arr.add(JsonArrays.of(row));
        }
        return arr;
    }

    private static double number(JsonNode o, String field, String where) {
        JsonNode v = o.get(field);
        if (v == null || !v.isNumber() || !Double.isFinite(v.asDouble())) {
            throw new IllegalArgumentException(where + ": field '" + field + "' missing or not a finite number");
        }
        return v.asDouble();
    }
}
