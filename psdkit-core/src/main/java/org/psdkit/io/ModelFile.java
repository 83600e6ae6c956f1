package org.psdkit.io;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
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
    public static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private ModelFile() {
    }

    /** A new model document with the header fields filled in. */
    public static ObjectNode newDocument(String modelType) {
        ObjectNode root = JSON.createObjectNode();
        root.put("format", FORMAT);
        root.put("formatVersion", FORMAT_VERSION);
        root.put("model", modelType);
        return root;
    }

    /** Writes the document atomically. */
    public static void write(Path out, JsonNode doc) throws IOException {
        writeAtomically(out, JSON.writeValueAsBytes(doc));
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
        JsonNode root;
        try {
            root = JSON.readTree(in.toFile());
        } catch (NoSuchFileException | java.io.FileNotFoundException e) {
            throw new IllegalArgumentException("model file " + in + ": no such file");
        } catch (IOException e) {
            throw new IllegalArgumentException("model file " + in + " is not valid JSON: "
                    + e.getMessage().lines().findFirst().orElse(""));
        }
        check(root, "model file " + in);
        return root;
    }

    /**
     * Checks the format header of a parsed document: a JSON object with {@code format == "psdkit-model"}, a known
     * {@code formatVersion} and a {@code model} type; errors name {@code where}.
     */
    public static void check(JsonNode root, String where) {
        if (root == null || !root.isObject() || !FORMAT.equals(root.path("format").asText(null))) {
            throw new IllegalArgumentException(where + " is not a psdkit model (missing \"format\": \""
                    + FORMAT + "\")");
        }
        int version = root.path("formatVersion").asInt(-1);
        if (version != FORMAT_VERSION) {
            throw new IllegalArgumentException(where + " has formatVersion "
                    + root.path("formatVersion") + "; this psdkit reads version " + FORMAT_VERSION);
        }
        if (!root.hasNonNull("model")) {
            throw new IllegalArgumentException(where + " does not say which model it holds (\"model\")");
        }
    }
}
