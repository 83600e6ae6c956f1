package org.psdkit.io;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Map;
import org.psdkit.data.JsonArrays;
import org.psdkit.kernel.Kernel;
import org.psdkit.linalg.Matrix;
import org.psdkit.model.Model;
import org.psdkit.model.ModelHeader;
import org.psdkit.model.Pipeline;

/**
 * The skeleton every codec of a {@link Pipeline}-shaped model shares: the common header
 * ({@link ModelDocs#newDocument}), then the family's {@code numbers}, then {@code diagnostics}; reading checks the
 * header and hands the family a {@link Doc} with typed, located accessors. A family writes only what is its own.
 *
 * @param <M> the model class this codec writes (the pipeline or a subclass of it)
 */
abstract class PipelineCodec<M extends Pipeline<?>> implements ModelCodec {
    private final String type;
    private final String description;
    private final Class<M> modelClass;
    private final Class<?> innerClass;

    /**
     * @param innerClass the family's inner model class a written model must hold (null: any)
     */
    PipelineCodec(String type, String description, Class<M> modelClass, Class<?> innerClass) {
        this.type = type;
        this.description = description;
        this.modelClass = modelClass;
        this.innerClass = innerClass;
    }

    /** {@code Pipeline.class} with its wildcard, for codecs of plain pipelines. */
    @SuppressWarnings("unchecked")
    static Class<Pipeline<?>> plain() {
        return (Class<Pipeline<?>>) (Class<?>) Pipeline.class;
    }

    @Override
    public final String type() {
        return type;
    }

    @Override
    public final String description() {
        return description;
    }

    @Override
    public final boolean canEncode(Model model) {
        return modelClass.isInstance(model) && type.equals(model.type())
                && (innerClass == null || innerClass.isInstance(modelClass.cast(model).inner()));
    }

    @Override
    public final ObjectNode encode(Model model) {
        M m = modelClass.cast(model);
        ObjectNode doc = ModelDocs.newDocument(m.header());
        writeNumbers(m, doc.putObject("numbers"));
        if (writesDiagnostics()) {
            ModelDocs.putDiagnostics(doc, m);
        }
        return doc;
    }

    @Override
    public final Model decode(JsonNode doc, String where) {
        return read(new Doc(ModelDocs.header(doc, where), doc, where));
    }

    /** Writes the family's own numbers into the document's {@code numbers} object. */
    abstract void writeNumbers(M model, ObjectNode numbers);

    /** Rebuilds the model; errors name {@link Doc#where()} and the field. */
    abstract M read(Doc doc);

    /** False for the families whose files have never had a {@code diagnostics} object (ridge). */
    boolean writesDiagnostics() {
        return true;
    }

    /** A model document being read: its checked header and located accessors for options and numbers. */
    record Doc(ModelHeader header, JsonNode json, String where) {

        /** The model's kernel (a missing or bad kernel string is an error naming the file). */
        Kernel kernel() {
            return ModelDocs.kernel(header, where);
        }

        /** The {@code options} object. */
        JsonNode options() {
            return json.get("options");
        }

        /** The {@code numbers} object (required). */
        JsonNode numbers() {
            return ModelDocs.object(json, "numbers", where);
        }

        /** The stored diagnostics as an ordered map (empty when absent). */
        Map<String, Object> diagnostics() {
            return ModelDocs.diagnostics(json);
        }

        /** A required finite number of {@code options}. */
        double option(String field) {
            return ModelDocs.number(options(), field, where + ": options");
        }

        /** A required text of {@code options}. */
        String optionText(String field) {
            return ModelDocs.text(options(), field, where + ": options");
        }

        /** A required finite number of {@code numbers}. */
        double number(String field) {
            return ModelDocs.number(numbers(), field, where + ": numbers");
        }

        /** A required array of finite numbers of {@code numbers}. */
        double[] doubles(String field) {
            return JsonArrays.doubles(numbers().get(field), where + ": numbers." + field);
        }

        /** A required matrix of {@code numbers} with one row per point and {@code cols} columns. */
        Matrix matrix(String field, int cols) {
            return JsonArrays.matrix(numbers().get(field), cols, where + ": numbers." + field);
        }

        /**
         * A kernel expansion Σ c_i k(·, p_i): the points (one row per point, the model's feature count) and as many
         * coefficients, checked to agree.
         */
        Expansion expansion(String pointsField, String coefficientsField) {
            Matrix pts = matrix(pointsField, header.d());
            double[] c = doubles(coefficientsField);
            if (pts.rows() != c.length) {
                String what = pointsField.equals("supportVectors") ? "support vectors" : pointsField;
                throw new IllegalArgumentException(where + ": " + pts.rows() + " " + what + " but " + c.length
                        + " coefficients");
            }
            return new Expansion(pts, c);
        }
    }

    /** Expansion points and their coefficients. */
    record Expansion(Matrix points, double[] coefficients) {
    }
}
