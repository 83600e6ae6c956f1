package org.psdkit.classify.mkl;

import java.util.LinkedHashMap;
import java.util.Map;
import org.psdkit.model.Diagnostics;

/**
 * What a learned-kernel SVM fit ({@link TkSvmTrainer}, {@link SimpleMklTrainer}) reports, in the model file's order.
 * Model files written before the relative gap and the stop reason were recorded lack them: read back, they hold NaN
 * and null here and {@link #toMap()} leaves them out.
 *
 * @param iterations    Frank–Wolfe (tk-svm) or reduced-gradient (simplemkl) iterations of the final fit
 * @param gap           the duality gap at its end, absolute ({@link LearningGap})
 * @param converged     whether the relative gap reached the tolerance
 * @param smoIterations SMO iterations of its last SVM solve
 * @param seconds       wall time of the whole fit, cross-validation included
 * @param fitSeconds    wall time of the final fit
 * @param relativeGap   the gap relative to the SVM objective, the number compared with the {@code gap} option (NaN:
 *                      not recorded)
 * @param stop          why the learning stopped (null: not recorded)
 */
public record LearnedKernelFit(int iterations, double gap, boolean converged, int smoIterations, double seconds,
                               double fitSeconds, double relativeGap, LearningStop stop) implements Diagnostics {

    public LearnedKernelFit {
        if (stop != null && converged != (stop == LearningStop.CONVERGED)) {
            throw new IllegalArgumentException("converged " + converged + " disagrees with stop reason " + stop);
        }
    }

    @Override
    public Map<String, Object> toMap() {
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("iterations", iterations);
        d.put("gap", gap);
        if (!Double.isNaN(relativeGap)) {
            d.put("relativeGap", relativeGap);
        }
        d.put("converged", converged);
        if (stop != null) {
            d.put("stopReason", stop.label());
        }
        d.put("smoIterations", smoIterations);
        d.put("seconds", seconds);
        d.put("fitSeconds", fitSeconds);
        return d;
    }

    /** The record of a model file's diagnostics; throws if a key is missing or of another type. */
    public static LearnedKernelFit of(Map<String, Object> m) {
        Object rel = m.get("relativeGap");
        Object stop = m.get("stopReason");
        return new LearnedKernelFit((Integer) m.get("iterations"), (Double) m.get("gap"), (Boolean) m.get("converged"),
                (Integer) m.get("smoIterations"), (Double) m.get("seconds"), (Double) m.get("fitSeconds"),
                rel == null ? Double.NaN : (Double) rel, stop == null ? null : LearningStop.ofLabel((String) stop));
    }
}
