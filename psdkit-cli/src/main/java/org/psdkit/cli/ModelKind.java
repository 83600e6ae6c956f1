package org.psdkit.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;

/**
 * One model type as {@code predict}, {@code eval} and {@code cv} see it. Register every kind in
 * {@link ModelKinds#ALL}.
 */
public interface ModelKind {

    /** The type string written in model files ({@code "model": "krr"}) and used by {@code cv <type>}. */
    String type();

    /** One line for help texts. */
    String description();

    /**
     * Rebuilds a fitted model from its (already format-checked) document. Missing or malformed fields are
     * {@link IllegalArgumentException}s naming {@code file} and the field (use {@link ModelDocs} helpers).
     */
    default LoadedModel load(JsonNode doc, Path file) {
        return new CoreModel(org.psdkit.io.ModelIO.fromJson(doc, "model file " + file));
    }

    /** Cross-validation support for {@code psdkit cv <type>}, or {@code null} if the type has none. */
    default CvSupport cv() {
        return null;
    }
}
