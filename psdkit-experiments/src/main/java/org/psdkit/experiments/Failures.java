package org.psdkit.experiments;

import java.util.List;
import java.util.function.Function;
import org.psdkit.select.CrossValidation;

/**
 * The grid points that failed in a cross-validation: {@link CrossValidation#evaluate} records a fit that fails
 * numerically (e.g. a GLM density whose Monte-Carlo normaliser is contradicted by an independent estimate) with its
 * message and leaves the point out of {@link CrossValidation#best}; the reproductions print which points those were.
 */
final class CvFailures {
    private CvFailures() {
    }

    /**
     * "k of N grid points failed: label: message; …" with every failed point, or null when none failed.
     *
     * @param label how a grid point is named
     */
    static <P> String describe(List<CrossValidation.Result<P>> table, Function<P, String> label) {
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
}
