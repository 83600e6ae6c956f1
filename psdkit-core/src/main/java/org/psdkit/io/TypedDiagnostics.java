package org.psdkit.io;

import java.util.ArrayList;
import java.util.Map;
import java.util.function.Function;
import org.psdkit.model.Diagnostics;

/**
 * A family's typed diagnostics rebuilt from a model file's {@code diagnostics} object: the family's record when the
 * file holds exactly its keys, in its order, with values of its types (so that saving the loaded model writes the
 * same document), else the file's values as they are ({@link Diagnostics#recorded}).
 */
final class TypedDiagnostics {
    private TypedDiagnostics() {
    }

    /** {@code typed.apply(stored)} if it gives back exactly {@code stored}, else {@code stored} as recorded. */
    static Diagnostics rebuild(Map<String, Object> stored, Function<Map<String, Object>, ? extends Diagnostics> typed) {
        try {
            Diagnostics d = typed.apply(stored);
            if (d != null) {
                Map<String, Object> back = d.toMap();
                if (new ArrayList<>(back.keySet()).equals(new ArrayList<>(stored.keySet())) && back.equals(stored)) {
                    return d;
                }
            }
        } catch (RuntimeException e) {
            // a missing key or a value of another type: the file's values are kept as they are
        }
        return Diagnostics.recorded(stored);
    }
}
