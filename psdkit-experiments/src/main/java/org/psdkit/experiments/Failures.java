package org.psdkit.experiments;

import java.util.List;
import java.util.function.Function;
import org.psdkit.select.CrossValidation;

/**
 * The fits that failed in a reproduction, as text for its table's {@code failures} column:
 * {@link CrossValidation#evaluate} records a fit that fails numerically (e.g. a GLM density whose Monte-Carlo
 * normaliser is contradicted by an independent estimate) with its message and leaves the grid point out of
 * {@link CrossValidation#best}; the final fit at the chosen point can fail in the same way.
 */
final class Failures {
    private Failures() {
    }

    /**
     * "k of N grid points failed in cross-validation and were left out: label: message; …" with every failed point,
     * or null when none failed.
     *
     * @param label how a grid point is named
     */
    static <P> String ofCrossValidation(List<CrossValidation.Result<P>> table, Function<P, String> label) {
        StringBuilder sb = new StringBuilder();
        int failed = 0;
        for (CrossValidation.Result<P> r : table) {
            if (r.error() != null) {
                sb.append(failed == 0 ? "" : "; ").append(label.apply(r.params())).append(": ").append(r.error());
                failed++;
            }
        }
        if (failed == 0) {
            return null;
        }
        return failed + " of " + table.size() + " grid points failed in cross-validation and were left out: " + sb;
    }

    /** "the final fit at label failed: message". */
    static String ofFinalFit(String label, RuntimeException e) {
        return "the final fit at " + label + " failed: " + e.getMessage();
    }

    /** a, b or both (" | " between), null for neither. */
    static String join(String a, String b) {
        return a == null ? b : b == null ? a : a + " | " + b;
    }
}
