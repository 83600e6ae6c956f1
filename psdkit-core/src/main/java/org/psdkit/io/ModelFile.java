package org.psdkit.io;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonStreamContext;
import com.fasterxml.jackson.core.StreamReadFeature;
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
    /**
     * The mapper of model files. Numbers are read by Jackson's copy of FastDoubleParser
     * ({@link StreamReadFeature#USE_FAST_DOUBLE_PARSER}): correctly rounded, the same doubles as
     * {@link Double#parseDouble} bit for bit, without its big-integer path for the 17-digit numbers a model file holds
     * (Lemire 2021, "Number parsing at a gigabyte per second"). Writing is unchanged ({@link Double#toString}).
     */
    public static final ObjectMapper JSON = new ObjectMapper(JsonFactory.builder()
            .enable(StreamReadFeature.USE_FAST_DOUBLE_PARSER).build()).enable(SerializationFeature.INDENT_OUTPUT);

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

    /**
     * Writes the document atomically. A document with a non-finite number outside its {@code diagnostics} (a fit that
     * diverged) is not written: loading would refuse it, so the file would only replace a good one with an unusable
     * one. The diagnostics may report NaN (a baseline has no dual value); they are written as the strings "NaN".
     *
     * @throws ArithmeticException naming the first non-finite field
     */
    public static void write(Path out, JsonNode doc) throws IOException {
        String bad = nonFinite(doc, "");
        if (bad != null) {
            throw new ArithmeticException("the fitted model has a non-finite number at " + bad + "; " + out
                    + " was not written");
        }
        writeAtomically(out, JSON.writeValueAsBytes(doc));
    }

    /** The path of the first NaN or infinite number in {@code node} outside the top-level diagnostics, or null. */
    static String nonFinite(JsonNode node, String path) {
        if (node.isNumber()) {
            return Double.isFinite(node.asDouble()) ? null : path.isEmpty() ? "the top level" : path;
        }
        if (node.isObject()) {
            for (java.util.Iterator<java.util.Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
                java.util.Map.Entry<String, JsonNode> e = it.next();
                if (path.isEmpty() && e.getKey().equals("diagnostics")) {
                    continue;
                }
                String bad = nonFinite(e.getValue(), path.isEmpty() ? e.getKey() : path + "." + e.getKey());
                if (bad != null) {
                    return bad;
                }
            }
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                String bad = nonFinite(node.get(i), path + "[" + i + "]");
                if (bad != null) {
                    return bad;
                }
            }
        }
        return null;
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
        if (java.nio.file.Files.isDirectory(in)) {
            throw new IllegalArgumentException("model file " + in + " is a directory, not a model file");
        }
        JsonNode root;
        try {
            root = JSON.readTree(in.toFile());
        } catch (NoSuchFileException | java.io.FileNotFoundException e) {
            throw new IllegalArgumentException("model file " + in + ": no such file");
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("model file " + in + " is not valid JSON: " + describe(e));
        } catch (IOException e) {
            throw new IllegalArgumentException("model file " + in + ": cannot read ("
                    + e.getMessage().lines().findFirst().orElse("") + ")");
        }
        check(root, "model file " + in);
        return root;
    }

    /**
     * A JSON syntax error in our words: where it is (line, column, the field's path such as {@code numbers.alpha[3]})
     * and what is wrong, without the parser's advice on its own settings. A {@code NaN} or {@code Infinity} literal
     * is named as such: model files hold finite numbers only.
     */
    static String describe(JsonProcessingException e) {
        String what = e.getOriginalMessage() == null ? "syntax error" : e.getOriginalMessage();
        int advice = what.indexOf(": enable ");
        if (advice >= 0) {
            what = what.substring(0, advice);
        }
        what = what.lines().findFirst().orElse(what);
        what = what.replaceAll("\\[Source: [^;]*; ", "[");
        if (what.startsWith("Non-standard token")) {
            what = what.replace("Non-standard token", "the literal") + " is not a number a model file may hold "
                    + "(finite numbers only)";
        }
        StringBuilder where = new StringBuilder();
        JsonLocation loc = e.getLocation();
        if (loc != null && loc.getLineNr() > 0) {
            where.append("line ").append(loc.getLineNr()).append(", column ").append(loc.getColumnNr());
        }
        String field = e.getProcessor() instanceof JsonParser p ? path(p.getParsingContext()) : "";
        if (!field.isEmpty()) {
            where.append(where.length() > 0 ? ", " : "").append("field ").append(field);
        }
        return where.length() == 0 ? what : where + ": " + what;
    }

    /** The path of a parser position, e.g. {@code numbers.alpha[3]} ({@code ""} at the top level). */
    private static String path(JsonStreamContext ctx) {
        StringBuilder sb = new StringBuilder();
        for (JsonStreamContext c = ctx; c != null && !c.inRoot(); c = c.getParent()) {
            if (c.inArray()) {
                sb.insert(0, "[" + Math.max(0, c.getCurrentIndex()) + "]");
            } else if (c.getCurrentName() != null) {
                sb.insert(0, c.getCurrentName() + (sb.length() > 0 && sb.charAt(0) != '[' ? "." : ""));
            }
        }
        return sb.toString();
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
