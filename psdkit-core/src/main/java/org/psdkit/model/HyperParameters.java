package org.psdkit.model;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The hyper-parameters a model was fitted with (λ, C, ε, σ, taus, …), as {@link Model#hyperParameters()} returns
 * them. {@link #toMap()} is the ordered view written as the model file's {@code options} object; the typed accessors
 * read one value. A model built by a trainer and one read back from its file hold the same values in the same order.
 */
public interface HyperParameters {

    /** No hyper-parameters. */
    HyperParameters NONE = new Recorded(Map.of());

    /** The values in their order (the model file's {@code options}): numbers, texts, booleans or lists. */
    Map<String, Object> toMap();

    /** One value of {@link #toMap()}, or null. */
    default Object get(String name) {
        return toMap().get(name);
    }

    /**
     * One value as a number: a stored number, or a text that parses as one (options written as the command line
     * typed them, e.g. {@code "0.01"}); throws {@link IllegalArgumentException} naming the key when it is neither.
     */
    default double number(String name) {
        Object v = get(name);
        if (v instanceof Number n) {
            return n.doubleValue();
        }
        if (v instanceof String s) {
            try {
                return Double.parseDouble(s.trim());
            } catch (NumberFormatException e) {
                // reported below
            }
        }
        throw new IllegalArgumentException("hyper-parameter " + name + " is not a number: " + v);
    }

    /** The values of a map, in its order. */
    static HyperParameters of(Map<String, Object> values) {
        return new Recorded(values);
    }

    /**
     * Hyper-parameters held as an ordered, read-only map.
     *
     * @param values the values, in their order
     */
    record Recorded(Map<String, Object> values) implements HyperParameters {
        public Recorded {
            values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
        }

        @Override
        public Map<String, Object> toMap() {
            return values;
        }

        @Override
        public String toString() {
            return values.toString();
        }
    }
}
