package org.psdkit.model;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What a fit reported (iterations, duality gap, route, seconds, …). Each family's trainer returns its own record with
 * typed accessors; {@link #toMap()} is the ordered view written as the model file's {@code diagnostics} object. A
 * model read back from a file holds {@link Recorded} diagnostics: the file's values as they were written.
 */
public interface Diagnostics {

    /** No diagnostics. */
    Diagnostics NONE = new Recorded(Map.of());

    /** The diagnostics as an ordered map of names to numbers, texts, booleans or lists (the model file's form). */
    Map<String, Object> toMap();

    /** One value of {@link #toMap()}, or null. */
    default Object get(String name) {
        return toMap().get(name);
    }

    /** Diagnostics held as a map: those of a model file, or of a family without a record of its own. */
    static Diagnostics recorded(Map<String, Object> values) {
        return new Recorded(values);
    }

    /**
     * Diagnostics held as an ordered, read-only map.
     *
     * @param values the values, in their order
     */
    record Recorded(Map<String, Object> values) implements Diagnostics {
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
