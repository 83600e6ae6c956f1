package org.psdkit.io;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Path;
import org.psdkit.data.OutputFiles;

/**
 * Versioned JSON model files: {@code {"format": "psdkit-model", "formatVersion": 1, "model": TYPE, ...}}.
 * Files are written atomically (temporary file in the same folder, then a rename), so a failed write never leaves a
 * half-written model behind.
 */
public final class ModelFile {
    public static final String FORMAT = "psdkit-model";
    public static final int FORMAT_VERSION = 1;
    /**
     * The mapper of model files. Numbers are read by Jackson's copy of FastDoubleParser
     * ({@link com.fasterxml.jackson.core.StreamReadFeature#USE_FAST_DOUBLE_PARSER}): correctly rounded, the same
     * doubles as {@link Double#parseDouble} bit for bit, without its big-integer path for the 17-digit numbers a model
     * file holds (Lemire 2021, "Number parsing at a gigabyte per second"). Writing is unchanged
     * ({@link Double#toString}). The methods of this class and {@link ModelIO} read and write documents with the
     * same parser and generator but without the mapper ({@code ModelTrees}), with the same trees and bytes.
     */
    public static final ObjectMapper JSON = new ObjectMapper(ModelTrees.newFactory())
            .enable(SerializationFeature.INDENT_OUTPUT);

    private ModelFile() {
    }

    /** A new model document with the header fields filled in. */
    public static ObjectNode newDocument(String modelType) {
        return ModelTrees.newDocument(modelType);
    }

    /**
     * Writes the document atomically. A document with a non-finite number outside its {@code diagnostics} (a fit that
     * diverged) is not written: loading would refuse it, so the file would only replace a good one with an unusable
     * one. The diagnostics may report NaN (a baseline has no dual value); they are written as the strings "NaN".
     *
     * @throws ArithmeticException naming the first non-finite field
     */
    public static void write(Path out, JsonNode doc) throws IOException {
        ModelTrees.write(out, doc);
    }

    /** The path of the first NaN or infinite number in {@code node} outside the top-level diagnostics, or null. */
    static String nonFinite(JsonNode node, String path) {
        return ModelTrees.nonFinite(node, path);
    }

    /**
     * Writes bytes to {@code out} through a temporary sibling and a rename. A new file gets the permissions of a plain
     * write (the user's umask), an existing one keeps its mode: see {@link OutputFiles#writeAtomically}.
     */
    public static void writeAtomically(Path out, byte[] bytes) throws IOException {
        OutputFiles.writeAtomically(out, bytes);
    }

    /**
     * Reads and checks a model file: it must be JSON with {@code format == "psdkit-model"} and a known
     * {@code formatVersion}. Problems are {@link IllegalArgumentException}s naming the file.
     */
    public static JsonNode read(Path in) {
        return ModelTrees.read(in);
    }

    /**
     * A JSON syntax error in our words: where it is (line, column, the field's path such as {@code numbers.alpha[3]})
     * and what is wrong, without the parser's advice on its own settings. A {@code NaN} or {@code Infinity} literal
     * is named as such: model files hold finite numbers only.
     */
    static String describe(JsonProcessingException e) {
        return ModelTrees.describe(e);
    }

    /**
     * Checks the format header of a parsed document: a JSON object with {@code format == "psdkit-model"}, a known
     * {@code formatVersion} and a {@code model} type; errors name {@code where}.
     */
    public static void check(JsonNode root, String where) {
        ModelTrees.check(root, where);
    }
}
