package org.psdkit.io;

import com.fasterxml.jackson.core.io.NumberInput;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * A compact reader of the JSON that model files hold, into the tree {@link ModelTrees#readTree} builds with Jackson's
 * parser: the same node classes and values, node for node. It exists for the first call: a model file is mostly
 * long arrays of numbers, and in a fresh JVM Jackson's general tokenizer runs interpreted and is compiled method by
 * method while the file is read, where this one loop over the bytes is compiled after a few thousand numbers
 * (measured in docs/benchmarks/cold.md, "the model read in one loop").
 *
 * <p>It reads only what it is sure to read as Jackson does and gives up ({@link #read} returns null) on anything
 * else, which then goes to Jackson, errors and their messages included: a byte outside printable ASCII in a string,
 * any escape, an integer of more than 18 digits (Jackson's {@code BigInteger} and {@code long} boundary), a number
 * longer than {@value #MAX_NUMBER_CHARS} characters, nesting deeper than {@value #MAX_DEPTH}, a string longer than
 * {@value #MAX_STRING_CHARS} characters, and every syntax error (RFC 8259 grammar: no comments, no leading zeros, no
 * {@code NaN}, no trailing commas). Numbers are classified as Jackson's parser does (an integer is an {@code int}
 * node when it fits 32 bits, else a {@code long} node; a number with a fraction or exponent is a {@code double} node
 * read by {@code NumberInput.parseDouble(…, true)}, the correctly rounded parse that Jackson's
 * {@code USE_FAST_DOUBLE_PARSER} uses, so the double is {@link Double#parseDouble}'s); duplicate keys keep the last
 * value in the first one's place ({@code ObjectNode.set}); only the first value of the text is read.
 */
final class PlainJson {
    /** Deeper nesting goes to Jackson (whose own limit is 1,000 levels, {@code StreamReadConstraints}). */
    static final int MAX_DEPTH = 200;
    /** Longer numbers go to Jackson (whose own limit is 1,000 characters). */
    static final int MAX_NUMBER_CHARS = 100;
    /** Longer strings and field names go to Jackson (whose own limit for names is 50,000 characters). */
    static final int MAX_STRING_CHARS = 10_000;

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private final byte[] b;
    private int pos;
    private final char[] digits = new char[MAX_NUMBER_CHARS];
    /** Characters of the number being read that are in {@link #digits}. */
    private int len;

    private PlainJson(byte[] b) {
        this.b = b;
    }

    /** The tree of the first JSON value in {@code text} (a missing node for blank text), or null: ask Jackson. */
    static JsonNode read(byte[] text) {
        PlainJson p = new PlainJson(text);
        int c = p.skipSpace();
        if (c < 0) {
            return NODES.missingNode();
        }
        return p.value(c, 0);
    }

    /** The first byte at or after pos that is not JSON white space (pos is left on it), or -1 at the end. */
    private int skipSpace() {
        byte[] t = b;
        int i = pos;
        while (i < t.length) {
            int c = t[i] & 0xff; // a byte of 0x80 or more (a BOM, UTF-8) is then no value's first byte, not the end
            if (c != ' ' && c != '\n' && c != '\r' && c != '\t') {
                pos = i;
                return c;
            }
            i++;
        }
        pos = i;
        return -1;
    }

    /** The value starting with byte c at pos, or null; pos ends after it. */
    private JsonNode value(int c, int depth) {
        if (c == '{') {
            return depth < MAX_DEPTH ? object(depth + 1) : null;
        } else if (c == '[') {
            return depth < MAX_DEPTH ? array(depth + 1) : null;
        } else if (c == '"') {
            String s = string();
            return s == null ? null : NODES.textNode(s);
        } else if (c == '-' || (c >= '0' && c <= '9')) {
            return number();
        } else if (c == 't') {
            return literal("true") ? NODES.booleanNode(true) : null;
        } else if (c == 'f') {
            return literal("false") ? NODES.booleanNode(false) : null;
        } else if (c == 'n') {
            return literal("null") ? NODES.nullNode() : null;
        }
        return null;
    }

    /** The byte at which a member or element is closed: the container's closing bracket. */
    private static final int CLOSED = -2;

    /**
     * After a container's opening bracket (when {@code first}) or after one of its values: {@link #CLOSED} when the
     * closing bracket {@code close} comes next (pos after it), the first byte of the next member or element when a
     * comma comes first (pos on that byte, -1 at the end of the text), or -3 for anything else.
     */
    private int next(int close, boolean first) {
        int c = skipSpace();
        if (c == close) {
            pos++;
            return CLOSED;
        }
        if (first) {
            return c;
        }
        if (c != ',') {
            return -3;
        }
        pos++;
        return skipSpace();
    }

    private JsonNode object(int depth) {
        pos++; // '{'
        ObjectNode o = NODES.objectNode();
        for (int c = next('}', true); c != CLOSED; c = next('}', false)) {
            if (c != '"') {
                return null;
            }
            String name = string();
            if (name == null || skipSpace() != ':') {
                return null;
            }
            pos++;
            c = skipSpace();
            JsonNode v = c < 0 ? null : value(c, depth);
            if (v == null) {
                return null;
            }
            o.set(name, v);
        }
        return o;
    }

    private JsonNode array(int depth) {
        pos++; // '['
        ArrayNode a = NODES.arrayNode();
        for (int c = next(']', true); c != CLOSED; c = next(']', false)) {
            JsonNode v = c < 0 ? null : value(c, depth);
            if (v == null) {
                return null;
            }
            a.add(v);
        }
        return a;
    }

    /** The string at pos (on its opening quote) if it is printable ASCII without escapes, else null. */
    private String string() {
        byte[] t = b;
        int start = pos + 1;
        int limit = Math.min(t.length, start + MAX_STRING_CHARS + 1);
        for (int i = start; i < limit; i++) {
            int c = t[i];
            if (c == '"') {
                pos = i + 1;
                return new String(t, start, i - start, java.nio.charset.StandardCharsets.ISO_8859_1);
            }
            if (c < 0x20 || c == '\\' || c == 0x7f) { // (a byte of 0x80 or more is negative here)
                return null;
            }
        }
        return null;
    }

    /** The literal {@code word} at pos, followed by a delimiter (pos ends after it)? */
    private boolean literal(String word) {
        int n = word.length();
        if (pos + n > b.length) {
            return false;
        }
        for (int k = 0; k < n; k++) {
            if (b[pos + k] != word.charAt(k)) {
                return false;
            }
        }
        if (!delimiter(pos + n)) {
            return false;
        }
        pos += n;
        return true;
    }

    /** Whether the byte at i ends a scalar (white space, a comma, a closing bracket or the end of the text). */
    private boolean delimiter(int i) {
        if (i >= b.length) {
            return true;
        }
        int c = b[i];
        return c == ',' || c == ']' || c == '}' || c == ' ' || c == '\n' || c == '\r' || c == '\t';
    }

    /**
     * The number at pos, by RFC 8259's grammar {@code -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?} followed by a
     * delimiter, or null.
     */
    private JsonNode number() {
        byte[] t = b;
        char[] d = digits;
        len = 0;
        int i = pos;
        boolean negative = t[i] == '-';
        if (negative) {
            d[len++] = '-';
            i++;
        }
        int intStart = i;
        i = digitRun(i);
        if (i < 0 || (i - intStart > 1 && t[intStart] == '0')) {
            return null;
        }
        int intDigits = i - intStart;
        boolean integer = true;
        if (i < t.length && t[i] == '.') {
            integer = false;
            if (len == MAX_NUMBER_CHARS) {
                return null;
            }
            d[len++] = '.';
            i = digitRun(i + 1);
            if (i < 0) {
                return null;
            }
        }
        if (i < t.length && (t[i] == 'e' || t[i] == 'E')) {
            integer = false;
            if (len >= MAX_NUMBER_CHARS - 1) {
                return null;
            }
            d[len++] = 'e';
            i++;
            if (i < t.length && (t[i] == '+' || t[i] == '-')) {
                d[len++] = (char) t[i++];
            }
            i = digitRun(i);
            if (i < 0) {
                return null;
            }
        }
        if (!delimiter(i)) {
            return null;
        }
        pos = i;
        if (integer) {
            if (intDigits > 18) {
                return null; // a long or a BigInteger node, by Jackson's own rules
            }
            long value = 0; // exact: at most 18 digits
            for (int k = negative ? 1 : 0; k < len; k++) {
                value = value * 10 + (d[k] - '0');
            }
            long v = negative ? -value : value;
            return v >= Integer.MIN_VALUE && v <= Integer.MAX_VALUE ? NODES.numberNode((int) v) : NODES.numberNode(v);
        }
        return NODES.numberNode(NumberInput.parseDouble(d, 0, len, true));
    }

    /**
     * Copies the run of decimal digits starting at i into {@link #digits}; the index after it, or -1 when there is
     * no digit at i or the number would exceed {@value #MAX_NUMBER_CHARS} characters.
     */
    private int digitRun(int i) {
        byte[] t = b;
        int from = i;
        while (i < t.length && t[i] >= '0' && t[i] <= '9') {
            if (len == MAX_NUMBER_CHARS) {
                return -1;
            }
            digits[len++] = (char) t[i++];
        }
        return i == from ? -1 : i;
    }
}
