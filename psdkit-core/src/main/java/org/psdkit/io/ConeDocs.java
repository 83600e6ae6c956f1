package org.psdkit.io;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Map;
import org.psdkit.cone.ConePipeline;
import org.psdkit.cone.Diagnostics;
import org.psdkit.cone.FunctionCodec;
import org.psdkit.cone.ScalarFunction;
import org.psdkit.cone.TargetScaling;
import org.psdkit.data.JsonArrays;
import org.psdkit.kernel.Kernel;
import org.psdkit.linalg.Matrix;
import org.psdkit.model.ModelHeader;

/**
 * The {@code numbers} shared by the cone model files ({@code hetero}, {@code quantile}): target {@code center} and
 * {@code scale}, the training {@code points} (scaled space), the {@code directions} D and the block
 * {@code functions} of {@link FunctionCodec}, and the raw training box {@code rangeMin}/{@code rangeMax}.
 */
final class ConeDocs {
    private ConeDocs() {
    }

    /** What the common part of a cone document holds. */
    record Numbers(ModelHeader header, Kernel kernel, Matrix points, List<ScalarFunction> functions,
                   double[][] directions, TargetScaling scaling, double[] rangeMin, double[] rangeMax,
                   double lambda, double frobeniusWeight, Map<String, Object> diagnostics, Diagnostics solver) {
    }

    /** The document's header, options and {@code numbers} (the family adds its own fields after these). */
    static ObjectNode encode(ConePipeline<?> p, List<ScalarFunction> functions, double[][] directions,
                             TargetScaling scaling) {
        ObjectNode doc = ModelDocs.newDocument(p.header());
        ObjectNode num = doc.putObject("numbers");
        num.put("center", scaling.center());
        num.put("scale", scaling.scale());
        num.set("points", JsonArrays.rows(p.points()));
        num.set("directions", FunctionCodec.writeDirections(directions));
        num.set("functions", FunctionCodec.write(functions));
        num.set("rangeMin", JsonArrays.of(p.rangeMin()));
        num.set("rangeMax", JsonArrays.of(p.rangeMax()));
        return doc;
    }

    static Numbers decode(JsonNode doc, String where) {
        ModelHeader h = ModelDocs.header(doc, where);
        Kernel k = ModelDocs.kernel(h, where);
        JsonNode num = ModelDocs.object(doc, "numbers", where);
        int d = h.d();
        Matrix pts = JsonArrays.matrix(num.get("points"), d, where + ": numbers.points");
        List<ScalarFunction> fns = FunctionCodec.read(num.get("functions"), k, pts, where + ": numbers.functions");
        double[][] dir = FunctionCodec.directions(num.get("directions"), fns.size(), where + ": numbers.directions");
        TargetScaling sc;
        try {
            sc = new TargetScaling(ModelDocs.number(num, "center", where + ": numbers"),
                    ModelDocs.number(num, "scale", where + ": numbers"));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(e.getMessage().startsWith(where) ? e.getMessage()
                    : where + ": " + e.getMessage(), e);
        }
        double[] lo = JsonArrays.doubles(num.get("rangeMin"), where + ": numbers.rangeMin");
        double[] hi = JsonArrays.doubles(num.get("rangeMax"), where + ": numbers.rangeMax");
        if (lo.length != d || hi.length != d) {
            throw new IllegalArgumentException(where + ": numbers.rangeMin/rangeMax need " + d + " entries");
        }
        JsonNode o = doc.get("options");
        double lambda = ModelDocs.number(o, "lambda", where + ": options");
        double fw = ModelDocs.number(o, "frobeniusWeight", where + ": options");
        Map<String, Object> diag = ModelDocs.diagnostics(doc);
        Diagnostics solver = Diagnostics.fromMap(diag);
        // non-finite numbers are stored as "NaN"/"Infinity" strings: give them back as numbers, as a fit reports them
        for (Map.Entry<String, Object> e : diag.entrySet()) {
            if (e.getValue() instanceof String s && (s.equals("NaN") || s.endsWith("Infinity"))) {
                e.setValue(Double.parseDouble(s));
            }
        }
        return new Numbers(h, k, pts, fns, dir, sc, lo, hi, lambda, fw, diag, solver);
    }
}
