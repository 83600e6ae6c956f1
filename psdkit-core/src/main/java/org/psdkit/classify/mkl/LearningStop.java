package org.psdkit.classify.mkl;

import java.util.Locale;

/**
 * Why a kernel-learning fit ({@link TkLearner}, {@link SimpleMkl}) stopped, as its diagnostics' {@code stopReason}.
 */
public enum LearningStop {
    /** The relative duality gap reached the tolerance: the only reason reported as converged. */
    CONVERGED,
    /** The iteration cap was reached with the relative gap above the tolerance. */
    MAX_ITERATIONS,
    /**
     * No further progress can be measured: the computed gap fell below zero (rounding; it is ≥ 0 in exact arithmetic)
     * or the SVM solves reached their tightest tolerance with the gap still above the tolerance.
     */
    STALLED;

    /** The name in model files and reports: {@code converged}, {@code max-iterations}, {@code stalled}. */
    public String label() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** The reason of a label written by {@link #label()}. */
    public static LearningStop ofLabel(String label) {
        for (LearningStop s : values()) {
            if (s.label().equals(label)) {
                return s;
            }
        }
        throw new IllegalArgumentException("unknown stop reason '" + label + "'");
    }
}
