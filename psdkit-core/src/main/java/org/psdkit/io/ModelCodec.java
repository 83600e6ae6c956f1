package org.psdkit.io;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.psdkit.model.Model;

/**
 * Reads and writes the model files of one model type (one codec per family; the registry is {@link ModelIO}).
 * Documents are JSON objects with the common fields of {@link ModelDocs} plus the family's {@code numbers} and
 * {@code diagnostics}.
 */
public interface ModelCodec {

    /** The type string written in model files ({@code "model": "krr"}). */
    String type();

    /** One line for help texts. */
    String description();

    /** True if this codec writes {@code model} (normally: its type matches and it is of the family's class). */
    boolean canEncode(Model model);

    /** The whole document of a fitted model. */
    ObjectNode encode(Model model);

    /**
     * Rebuilds a fitted model from its (already format-checked) document. Missing or malformed fields are
     * {@link IllegalArgumentException}s naming {@code where} (the file) and the field.
     */
    Model decode(JsonNode doc, String where);
}
