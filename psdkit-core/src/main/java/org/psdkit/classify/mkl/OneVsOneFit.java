package org.psdkit.classify.mkl;

import java.util.LinkedHashMap;
import java.util.Map;
import org.psdkit.model.Diagnostics;

/**
 * What a one-vs-one learned-kernel SVM fit ({@link LearnedOneVsOne}) reports, in the model file's order; each pair's
 * own {@link LearnedKernelFit} is kept with the pair.
 *
 * @param pairs      binary problems, k(k−1)/2
 * @param iterations kernel-learning iterations of the pairs' final fits, summed
 * @param converged  whether every pair's final fit reached its gap tolerance
 * @param seconds    wall time of the whole fit, every pair's cross-validation included
 */
public record OneVsOneFit(int pairs, long iterations, boolean converged, double seconds) implements Diagnostics {
    @Override
    public Map<String, Object> toMap() {
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("pairs", pairs);
        // an int when it fits, as a model file reads it back, so that a loaded file rebuilds this record
        d.put("iterations", iterations == (int) iterations ? (Object) (int) iterations : (Object) iterations);
        d.put("converged", converged);
        d.put("seconds", seconds);
        return d;
    }

    /** The record of a model file's diagnostics; throws if a key is missing or of another type. */
    public static OneVsOneFit of(Map<String, Object> m) {
        return new OneVsOneFit((Integer) m.get("pairs"), ((Number) m.get("iterations")).longValue(),
                (Boolean) m.get("converged"), (Double) m.get("seconds"));
    }
}
