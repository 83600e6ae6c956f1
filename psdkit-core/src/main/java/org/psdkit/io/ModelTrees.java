package org.psdkit.io;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonStreamContext;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.BigIntegerNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.FloatNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.LongNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.psdkit.data.OutputFiles;

/**
 * Model documents read, written and converted with Jackson's streaming parser and generator and its tree nodes,
 * without an {@code ObjectMapper}: building a mapper and its first tree read or write (serializer and deserializer
 * factories, type introspection) costs a short command more CPU than the document itself
 * (docs/benchmarks/cold.md, "fixed cost"). Each method gives what {@link ModelFile#JSON} gives, node for node and
 * byte for byte, for the node types a model document holds (objects, arrays, strings, booleans, null, int, long,
 * float, double and big-integer numbers; the mapper's defaults: duplicate keys keep the last value in the first
 * one's place, content after the first value is not read, an empty file is a missing node); anything else (a POJO
 * or binary node, a value of another Java type) is handed to {@link ModelFile#JSON}. {@code ModelTreesTest} checks
 * the equality on every golden model file.
 */
final class ModelTrees {
    private ModelTrees() {
    }

    /** The parser and generator factory of model files (the one inside {@link ModelFile#JSON}'s configuration). */
    static JsonFactory newFactory() {
        return JsonFactory.builder().enable(StreamReadFeature.USE_FAST_DOUBLE_PARSER).build();
    }

    static final JsonFactory FACTORY = newFactory();

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    /** Files up to this size are tried with {@link PlainJson} first. */
    private static final long PLAIN_MAX_BYTES = 1L << 30;

    /**
     * {@code ModelFile.JSON.readTree(file)}. The file's bytes go to {@link PlainJson} first (the same tree, read with
     * less code in a fresh JVM); what it does not take (and a file it cannot read, one over 1 GB, or anything but a
     * regular file: a pipe such as {@code --model <(…)} can be read only once) goes to Jackson's parser, whose tree
     * and errors it then is.
     */
    static JsonNode readTree(File file) throws IOException {
        if (file.isFile() && file.length() <= PLAIN_MAX_BYTES) {
            byte[] text = null;
            try {
                text = java.nio.file.Files.readAllBytes(file.toPath());
            } catch (IOException | RuntimeException e) {
                // Jackson's parser below opens the file again and reports the problem as it always has
            }
            JsonNode tree = text == null ? null : PlainJson.read(text);
            if (tree != null) {
                return tree;
            }
        }
        try (JsonParser p = FACTORY.createParser(file)) {
            JsonToken t = p.nextToken();
            if (t == null) {
                return NODES.missingNode();
            }
            return value(p, t);
        }
    }

    /** The value starting at the current token {@code t}; containers are read through their end token. */
    private static JsonNode value(JsonParser p, JsonToken t) throws IOException {
        switch (t) {
            case START_OBJECT: {
                ObjectNode o = NODES.objectNode();
                for (JsonToken k = p.nextToken(); k == JsonToken.FIELD_NAME; k = p.nextToken()) {
                    String name = p.currentName();
                    o.set(name, value(p, p.nextToken()));
                }
                return o;
            }
            case START_ARRAY: {
                ArrayNode a = NODES.arrayNode();
                for (JsonToken e = p.nextToken(); e != JsonToken.END_ARRAY; e = p.nextToken()) {
                    a.add(value(p, e));
                }
                return a;
            }
            case VALUE_STRING:
                return NODES.textNode(p.getText());
            case VALUE_NUMBER_INT:
                switch (p.getNumberType()) {
                    case INT:
                        return NODES.numberNode(p.getIntValue());
                    case LONG:
                        return NODES.numberNode(p.getLongValue());
                    default:
                        return NODES.numberNode(p.getBigIntegerValue());
                }
            case VALUE_NUMBER_FLOAT:
                return NODES.numberNode(p.getDoubleValue());
            case VALUE_TRUE:
                return NODES.booleanNode(true);
            case VALUE_FALSE:
                return NODES.booleanNode(false);
            case VALUE_NULL:
                return NODES.nullNode();
            default:
                throw new IOException("unexpected token " + t); // not produced by a JSON text parser
        }
    }

    /**
     * {@code ModelFile.JSON.writeValueAsBytes(doc)}: the mapper's indented output (a {@link DefaultPrettyPrinter}),
     * numbers as its generator writes them.
     */
    static byte[] bytes(JsonNode doc) throws IOException {
        if (!plain(doc)) {
            return ModelFile.JSON.writeValueAsBytes(doc);
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(8192);
        try (JsonGenerator g = FACTORY.createGenerator(out, JsonEncoding.UTF8)) {
            g.setPrettyPrinter(new DefaultPrettyPrinter());
            write(g, doc);
        }
        return out.toByteArray();
    }

    /** Whether every node of {@code n} is of a type {@link #write} writes as the mapper does. */
    private static boolean plain(JsonNode n) {
        if (n instanceof ObjectNode || n instanceof ArrayNode) {
            for (JsonNode c : n) {
                if (!plain(c)) {
                    return false;
                }
            }
            return true;
        }
        return n instanceof TextNode || n instanceof DoubleNode || n instanceof IntNode || n instanceof LongNode
                || n instanceof FloatNode || n instanceof BigIntegerNode || n instanceof BooleanNode
                || n instanceof NullNode;
    }

    private static void write(JsonGenerator g, JsonNode n) throws IOException {
        if (n instanceof ObjectNode) {
            g.writeStartObject(n);
            for (Iterator<Map.Entry<String, JsonNode>> it = n.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                g.writeFieldName(e.getKey());
                write(g, e.getValue());
            }
            g.writeEndObject();
        } else if (n instanceof ArrayNode) {
            g.writeStartArray(n, n.size());
            for (JsonNode c : n) {
                write(g, c);
            }
            g.writeEndArray();
        } else if (n instanceof TextNode) {
            g.writeString(n.textValue());
        } else if (n instanceof DoubleNode) {
            g.writeNumber(n.doubleValue());
        } else if (n instanceof IntNode) {
            g.writeNumber(n.intValue());
        } else if (n instanceof LongNode) {
            g.writeNumber(n.longValue());
        } else if (n instanceof FloatNode) {
            g.writeNumber(n.floatValue());
        } else if (n instanceof BigIntegerNode) {
            g.writeNumber(n.bigIntegerValue());
        } else if (n instanceof BooleanNode) {
            g.writeBoolean(n.booleanValue());
        } else {
            g.writeNull();
        }
    }

    /**
     * {@code ModelFile.JSON.valueToTree(value)} for a map with string keys, a list, a string, a boolean, an Integer,
     * Long, Float or Double, a double[], int[] or long[] array, or null inside them; other values (and a null
     * top-level value) through the mapper.
     */
    static JsonNode valueToTree(Object value) {
        JsonNode n = value == null ? null : node(value);
        return n != null ? n : ModelFile.JSON.valueToTree(value);
    }

    /** The node of {@code v}, or null if it is not one of the plain types of {@link #valueToTree}. */
    private static JsonNode node(Object v) {
        if (v == null) {
            return NODES.nullNode();
        } else if (v instanceof String s) {
            return NODES.textNode(s);
        } else if (v instanceof Double d) {
            return NODES.numberNode(d.doubleValue());
        } else if (v instanceof Integer i) {
            return NODES.numberNode(i.intValue());
        } else if (v instanceof Long l) {
            return NODES.numberNode(l.longValue());
        } else if (v instanceof Float f) {
            return NODES.numberNode(f.floatValue());
        } else if (v instanceof Boolean b) {
            return NODES.booleanNode(b);
        } else if (v instanceof double[] a) {
            ArrayNode an = NODES.arrayNode(a.length);
            for (double x : a) {
                an.add(NODES.numberNode(x));
            }
            return an;
        } else if (v instanceof int[] a) {
            ArrayNode an = NODES.arrayNode(a.length);
            for (int x : a) {
                an.add(NODES.numberNode(x));
            }
            return an;
        } else if (v instanceof long[] a) {
            ArrayNode an = NODES.arrayNode(a.length);
            for (long x : a) {
                an.add(NODES.numberNode(x));
            }
            return an;
        } else if (v instanceof List<?> list) {
            ArrayNode an = NODES.arrayNode(list.size());
            for (Object x : list) {
                JsonNode c = node(x);
                if (c == null) {
                    return null;
                }
                an.add(c);
            }
            return an;
        } else if (v instanceof Map<?, ?> map) {
            ObjectNode o = NODES.objectNode();
            for (Map.Entry<?, ?> e : map.entrySet()) {
                if (!(e.getKey() instanceof String key)) {
                    return null;
                }
                JsonNode c = node(e.getValue());
                if (c == null) {
                    return null;
                }
                o.set(key, c);
            }
            return o;
        }
        return null;
    }

    /**
     * {@code ModelFile.JSON.convertValue(object, LinkedHashMap<String, Object>)}: objects as {@link LinkedHashMap}s,
     * arrays as {@link ArrayList}s, numbers as their node's Integer, Long, Double, Float or BigInteger; other nodes
     * through the mapper.
     */
    static Map<String, Object> toMap(JsonNode object) {
        if (object instanceof ObjectNode && plain(object)) {
            @SuppressWarnings("unchecked")
            Map<String, Object> m = (Map<String, Object>) plainValue(object);
            return m;
        }
        return ModelFile.JSON.convertValue(object,
                new com.fasterxml.jackson.core.type.TypeReference<LinkedHashMap<String, Object>>() { });
    }

    private static Object plainValue(JsonNode n) {
        if (n instanceof ObjectNode) {
            Map<String, Object> m = new LinkedHashMap<>();
            for (Iterator<Map.Entry<String, JsonNode>> it = n.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                m.put(e.getKey(), plainValue(e.getValue()));
            }
            return m;
        } else if (n instanceof ArrayNode) {
            List<Object> l = new ArrayList<>(n.size());
            for (JsonNode c : n) {
                l.add(plainValue(c));
            }
            return l;
        } else if (n instanceof TextNode) {
            return n.textValue();
        } else if (n instanceof BooleanNode) {
            return n.booleanValue();
        } else if (n instanceof NullNode) {
            return null;
        }
        return n.numberValue();
    }

    static ObjectNode newDocument(String modelType) {
        ObjectNode root = NODES.objectNode();
        root.put("format", ModelFile.FORMAT);
        root.put("formatVersion", ModelFile.FORMAT_VERSION);
        root.put("model", modelType);
        return root;
    }

    static void write(Path out, JsonNode doc) throws IOException {
        String bad = nonFinite(doc, "");
        if (bad != null) {
            throw new ArithmeticException("the fitted model has a non-finite number at " + bad + "; " + out
                    + " was not written");
        }
        OutputFiles.writeAtomically(out, bytes(doc));
    }

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

    static JsonNode read(Path in) {
        if (java.nio.file.Files.isDirectory(in)) {
            throw new IllegalArgumentException("model file " + in + " is a directory, not a model file");
        }
        JsonNode root;
        try {
            root = readTree(in.toFile());
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

    static void check(JsonNode root, String where) {
        if (root == null || !root.isObject() || !ModelFile.FORMAT.equals(root.path("format").asText(null))) {
            throw new IllegalArgumentException(where + " is not a psdkit model (missing \"format\": \""
                    + ModelFile.FORMAT + "\")");
        }
        int version = root.path("formatVersion").asInt(-1);
        if (version != ModelFile.FORMAT_VERSION) {
            throw new IllegalArgumentException(where + " has formatVersion "
                    + root.path("formatVersion") + "; this psdkit reads version " + ModelFile.FORMAT_VERSION);
        }
        if (!root.hasNonNull("model")) {
            throw new IllegalArgumentException(where + " does not say which model it holds (\"model\")");
        }
    }
}
