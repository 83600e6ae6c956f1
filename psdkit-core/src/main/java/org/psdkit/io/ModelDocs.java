package org.psdkit.io;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.psdkit.data.JsonArrays;
import org.psdkit.data.Scaler;
import org.psdkit.kernel.Kernel;
import org.psdkit.kernel.Kernels;
import org.psdkit.model.Model;
import org.psdkit.model.ModelHeader;

/**
 * The common part of model documents, shared by every {@link ModelCodec}: writing the header of a fitted model, and
 * reading it back with errors that name the file and the field.
 */
public final class ModelDocs {
    private ModelDocs() {
    }

    /**
     * A new document holding the common fields of {@code header}: format, model type, featureNames, target, scaler,
     * kernel (may be null), options (the hyper-parameters) and training (n, d, source). Codecs add {@code numbers} and
     * then {@link #putDiagnostics}.
     */
    public static ObjectNode newDocument(ModelHeader header) {
        ObjectNode doc = ModelTrees.newDocument(header.type());
        doc.set("featureNames", JsonArrays.of(header.featureNames().toArray(new String[0])));
        if (header.targetName() != null) {
            doc.put("target", header.targetName());
        } else {
            doc.putNull("target");
        }
        doc.set("scaler", header.scaler().toJson());
        if (header.kernelSpec() != null) {
            doc.put("kernel", header.kernelSpec());
        } else {
            doc.putNull("kernel");
        }
        doc.set("options", ModelTrees.valueToTree(header.hyperParameters()));
        ObjectNode tr = doc.putObject("training");
        tr.put("n", header.training().n());
        tr.put("d", header.training().d());
        tr.put("source", header.training().source());
        return doc;
    }

    /** Writes {@code model.diagnostics()} as the document's {@code diagnostics} object. */
    public static void putDiagnostics(ObjectNode doc, Model model) {
        doc.set("diagnostics", ModelTrees.valueToTree(model.diagnostics().toMap()));
    }

    /** Reads and checks the common fields; errors name the file ({@code where}) and the field. */
    public static ModelHeader header(JsonNode doc, String where) {
        String[] names = JsonArrays.strings(doc.get("featureNames"), where + ": featureNames");
        if (names.length == 0) {
            throw new IllegalArgumentException(where + ": featureNames is empty");
        }
        Scaler scaler = Scaler.fromJson(doc.get("scaler"), where);
        if (scaler.dimension() != names.length) {
            throw new IllegalArgumentException(where + ": scaler has " + scaler.dimension() + " features but "
                    + "featureNames has " + names.length);
        }
        JsonNode t = doc.get("target");
        String target = t == null || t.isNull() ? null : t.asText();
        JsonNode k = doc.get("kernel");
        String kernel = k == null || k.isNull() ? null : k.asText();
        JsonNode opts = doc.get("options");
        if (opts == null || !opts.isObject()) {
            throw new IllegalArgumentException(where + ": missing \"options\" object");
        }
        JsonNode tr = doc.path("training");
        ModelHeader.Training training = new ModelHeader.Training(tr.path("n").asInt(0), tr.path("d").asInt(names.length),
                tr.path("source").asText(""));
        try {
            return new ModelHeader(doc.get("model").asText(), List.of(names), target, scaler, kernel, map(opts),
                    training);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(where + ": " + e.getMessage(), e);
        }
    }

    /**
     * The document's {@code diagnostics} object as an ordered map (empty if absent). Non-finite numbers, which JSON
     * holds as the strings {@code "NaN"}, {@code "Infinity"} and {@code "-Infinity"} (a baseline has no dual value),
     * are read back as numbers, as a fit reports them, so that saving a loaded model writes the same document.
     */
    public static Map<String, Object> diagnostics(JsonNode doc) {
        JsonNode d = doc.get("diagnostics");
        Map<String, Object> m = d == null || !d.isObject() ? new LinkedHashMap<>() : map(d);
        m.replaceAll((k, v) -> switch (String.valueOf(v)) {
            case "NaN" -> Double.NaN;
            case "Infinity" -> Double.POSITIVE_INFINITY;
            case "-Infinity" -> Double.NEGATIVE_INFINITY;
            default -> v;
        });
        return m;
    }

    /** A JSON object as an ordered map of plain Java values (numbers, strings, booleans, lists, maps). */
    public static Map<String, Object> map(JsonNode object) {
        return ModelTrees.toMap(object);
    }

    /** The model's kernel; a missing {@code kernel} is an error naming {@code where}. */
    public static Kernel kernel(ModelHeader header, String where) {
        if (header.kernelSpec() == null) {
            throw new IllegalArgumentException(where + ": missing \"kernel\"");
        }
        try {
            return Kernels.parse(header.kernelSpec());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(where + ": kernel: " + e.getMessage(), e);
        }
    }

    /** A required object field. */
    public static JsonNode object(JsonNode parent, String field, String where) {
        JsonNode v = parent == null ? null : parent.get(field);
        if (v == null || !v.isObject()) {
            throw new IllegalArgumentException(where + ": missing \"" + field + "\" object");
        }
        return v;
    }

    /** A required finite number field. */
    public static double number(JsonNode parent, String field, String where) {
        JsonNode v = parent == null ? null : parent.get(field);
        if (v == null || !v.isNumber() || !Double.isFinite(v.asDouble())) {
            throw new IllegalArgumentException(where + ": field \"" + field + "\" missing or not a finite number");
        }
        return v.asDouble();
    }

    /** A required text field. */
    public static String text(JsonNode parent, String field, String where) {
        JsonNode v = parent == null ? null : parent.get(field);
        if (v == null || !v.isTextual()) {
            throw new IllegalArgumentException(where + ": field \"" + field + "\" missing or not a string");
        }
        return v.asText();
    }

    /** A required boolean field, or {@code dflt} when absent. */
    public static boolean bool(JsonNode parent, String field, boolean dflt, String where) {
        JsonNode v = parent == null ? null : parent.get(field);
        if (v == null || v.isNull()) {
            return dflt;
        }
        if (!v.isBoolean()) {
            throw new IllegalArgumentException(where + ": field \"" + field + "\" is not true or false");
        }
        return v.asBoolean();
    }
}
