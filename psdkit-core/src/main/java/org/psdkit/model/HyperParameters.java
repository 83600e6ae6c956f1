package org.psdkit.model;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The hyper-parameters a model was fitted with (λ, C, ε, σ, taus, …), as {@link Model#hyperParameters()} returns
 * them. {@link #toMap()} is the ordered view written as the model file's {@code options} object; the typed accessors
 * read one value. A model built by a trainer and one read back from its file hold the same values in the same order.
 *
 * <p>Each family's model returns its own record (e.g. {@code regression.KrrHyperParameters} with {@code lambda()},
 * {@code form()}, …): a typed view of the model file's {@code options}, built by {@link #typed} from the ordered
 * values, so that {@link #toMap()} is exactly what the file holds. {@link Recorded} holds the values of a file whose
 * options the family's record does not read (a missing key), and of families without hyper-parameters.
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

    /** Whether {@link #toMap()} holds {@code name}. */
    default boolean has(String name) {
        return toMap().containsKey(name);
    }

    /** One value as a whole number ({@link #number}); throws {@link IllegalArgumentException} when it is not one. */
    default long integer(String name) {
        double v = number(name);
        if (v != Math.rint(v) || Double.isInfinite(v)) {
            throw new IllegalArgumentException("hyper-parameter " + name + " is not a whole number: " + get(name));
        }
        return (long) v;
    }

    /** One value as a text; throws {@link IllegalArgumentException} naming the key when it is missing. */
    default String text(String name) {
        Object v = get(name);
        if (v == null) {
            throw new IllegalArgumentException("hyper-parameter " + name + " is missing");
        }
        return v.toString();
    }

    /**
     * One value as a boolean: a stored boolean or the text {@code true}/{@code false}; throws
     * {@link IllegalArgumentException} naming the key when it is neither.
     */
    default boolean flag(String name) {
        Object v = get(name);
        if (v instanceof Boolean b) {
            return b;
        }
        if ("true".equals(v) || "false".equals(v)) {
            return Boolean.parseBoolean((String) v);
        }
        throw new IllegalArgumentException("hyper-parameter " + name + " is not true or false: " + v);
    }

    /** One value as a list of numbers; throws {@link IllegalArgumentException} naming the key when it is not one. */
    default double[] numbers(String name) {
        if (get(name) instanceof List<?> l) {
            double[] out = new double[l.size()];
            for (int i = 0; i < out.length; i++) {
                if (!(l.get(i) instanceof Number n)) {
                    throw new IllegalArgumentException("hyper-parameter " + name + " is not a list of numbers: "
                            + l);
                }
                out[i] = n.doubleValue();
            }
            return out;
        }
        throw new IllegalArgumentException("hyper-parameter " + name + " is not a list of numbers: " + get(name));
    }

    /** The values of a map, in its order. */
    static HyperParameters of(Map<String, Object> values) {
        return new Recorded(values);
    }

    /** A read-only copy of {@code values} in their order: the field a family's record holds. */
    static Map<String, Object> copyOf(Map<String, Object> values) {
        return Collections.unmodifiableMap(new LinkedHashMap<>(values));
    }

    /**
     * The family's record of {@code values} ({@code family.apply(values)}) when it reads them and gives back exactly
     * the same keys, order and values; otherwise the values as {@link Recorded} (a model file lacking a key the
     * family's record reads, or one with a value it does not parse).
     */
    static HyperParameters typed(Map<String, Object> values,
                                 Function<Map<String, Object>, ? extends HyperParameters> family) {
        try {
            HyperParameters h = family.apply(values);
            if (h != null && sameInOrder(h.toMap(), values)) {
                return h;
            }
        } catch (RuntimeException e) {
            // a key missing or of another type: the values are kept as they are
        }
        return new Recorded(values);
    }

    /** Whether two maps hold the same keys in the same order with equal values. */
    static boolean sameInOrder(Map<String, Object> a, Map<String, Object> b) {
        return new ArrayList<>(a.keySet()).equals(new ArrayList<>(b.keySet())) && a.equals(b);
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
