package org.psdkit.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import org.psdkit.data.Dataset;
import org.psdkit.data.JsonArrays;
import org.psdkit.data.Scaler;
import org.psdkit.io.ModelFile;

/** The common part of model documents: writing it for {@code fit}, reading it back for {@code predict/eval}. */
public final class ModelDocs {
    private ModelDocs() {
    }

    /**
     * What every model file holds besides the model's own numbers.
     *
     * @param type         model type ({@code krr})
     * @param featureNames input columns, in the order the model uses them
     * @param targetName   target column or {@code null}
     * @param scaler       the fitted scaler (identity for {@code --scale none})
     * @param kernelSpec   kernel string or {@code null}
     * @param options      the options object (never null)
     */
    public record Header(String type, String[] featureNames, String targetName, Scaler scaler, String kernelSpec,
                         JsonNode options) {

        /** The model's kernel; a missing {@code kernel} is an error naming {@code where}. */
        public org.psdkit.kernel.Kernel kernel(String where) {
            if (kernelSpec == null) {
                throw new IllegalArgumentException(where + ": missing \"kernel\"");
            }
            return KernelSpecs.parse(kernelSpec);
        }
    }

    /** A new document; see {@link CommonFitOptions#newModelDocument}. */
    public static ObjectNode newDocument(String type, Dataset rawTrain, Scaler scaler, String kernelSpec) {
        ObjectNode doc = ModelFile.newDocument(type);
        doc.set("featureNames", JsonArrays.of(rawTrain.featureNames()));
        if (rawTrain.targetName() != null) {
            doc.put("target", rawTrain.targetName());
        } else {
            doc.putNull("target");
        }
        doc.set("scaler", scaler.toJson());
        if (kernelSpec != null) {
            doc.put("kernel", kernelSpec);
        } else {
            doc.putNull("kernel");
        }
        doc.putObject("options");
        ObjectNode tr = doc.putObject("training");
        tr.put("n", rawTrain.n());
        tr.put("d", rawTrain.d());
        tr.put("source", rawTrain.source());
        return doc;
    }

    /** Reads and checks the common fields; errors name the file and the field. */
    public static Header header(JsonNode doc, Path file) {
        String where = "model file " + file;
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
        return new Header(doc.get("model").asText(), names, target, scaler, kernel, opts);
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
}
