package org.psdkit.classify.mkl;

import java.util.LinkedHashMap;
import java.util.Map;
import org.psdkit.model.Diagnostics;

/**
 * What a learned-kernel SVM fit ({@link TkSvmTrainer}, {@link SimpleMklTrainer}) reports, in the model file's order.
 *
 * @param iterations    Frank–Wolfe (tk-svm) or reduced-gradient (simplemkl) iterations of the final fit
 * @param gap           the relative duality gap at its end
 * @param converged     whether the gap reached the tolerance
 * @param smoIterations SMO iterations of its last SVM solve
 * @param seconds       wall time of the whole fit, cross-validation included
 * @param fitSeconds    wall time of the final fit
 */
public record LearnedKernelFit(int iterations, double gap, boolean converged, int smoIterations, double seconds,
                               double fitSeconds) implements Diagnostics {
    @Override
    public Map<String, Object> toMap() {
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("iterations", iterations);
        d.put("gap", gap);
        d.put("converged", converged);
        d.put("smoIterations", smoIterations);
        d.put("seconds", seconds);
        d.put("fitSeconds", fitSeconds);
        return d;
    }

    /** The record of a model file's diagnostics; throws if a key is missing or of another type. */
    public static LearnedKernelFit of(Map<String, Object> m) {
        return new LearnedKernelFit((Integer) m.get("iterations"), (Double) m.get("gap"), (Boolean) m.get("converged"),
                (Integer) m.get("smoIterations"), (Double) m.get("seconds"), (Double) m.get("fitSeconds"));
    }
}
