package org.psdkit.classify.mkl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.psdkit.data.Scaler;
import org.psdkit.kernel.TessellatedKernel.Orthant;
import org.psdkit.linalg.Matrix;
import org.psdkit.optim.ProgressListener;
import org.psdkit.optim.RecordingListener;
import org.psdkit.optim.smo.Smo;

/**
 * The Frank–Wolfe gap is non-negative in exact arithmetic; what the learner reports never is negative, and a
 * tolerance below what double precision resolves is not "reached" by a rounding error below zero.
 */
class LearnerGapTest {

    /** The 16 rows of the golden svm-train.csv (labels yes = +1, no = −1), min-max scaled. */
    private static final double[][] ROWS = {
        {0.4524, 0.5598, 1}, {0.9242, 0.4657, -1}, {0.5078, 0.5874, 1}, {0.1847, 0.5119, -1},
        {0.6299, 0.7930, -1}, {0.0941, 0.3034, -1}, {0.0907, 0.8096, -1}, {0.6934, 0.0419, -1},
        {0.9822, 0.9648, -1}, {0.6539, 0.6156, 1}, {0.1575, 0.0150, -1}, {0.5284, 0.0596, -1},
        {0.1902, 0.2419, -1}, {0.0301, 0.4639, -1}, {0.4405, 0.8424, -1}, {0.5191, 0.6403, 1},
    };

    static Matrix x() {
        Matrix raw = Matrix.zeros(ROWS.length, 2);
        for (int i = 0; i < ROWS.length; i++) {
            raw.set(i, 0, ROWS[i][0]);
            raw.set(i, 1, ROWS[i][1]);
        }
        return Scaler.fit(Scaler.Kind.MINMAX, raw).apply(raw);
    }

    static double[] y() {
        double[] y = new double[ROWS.length];
        for (int i = 0; i < y.length; i++) {
            y[i] = ROWS[i][2];
        }
        return y;
    }

    /**
     * With a tolerance of 1e-300 (below any rounding) the computed Frank–Wolfe gap of this fit fell to −1.8e-15 at
     * iteration 16, and the learner reported that negative gap as converged. The gap now includes the SVM's own gap
     * at SMO's tolerance ({@link LearningGap}), so it stays above zero and the fit ends at its iteration cap: never
     * converged, never a negative gap, and the last progress event is the relative gap reported.
     */
    @Test
    void aGapBelowZeroByRoundingIsReportedByItsMagnitudeAndNotAsConverged() {
        RecordingListener rec = RecordingListener.recording();
        TkLearner.Result r = TkLearner.fit(x(), y(), new TkLearner.Options(1, 0.1, Orthant.LOWER, 10, 1.0, 1e-300,
                TkLearner.DEFAULT_MAX_ITERATIONS, Smo.DEFAULT_TOLERANCE), rec);
        assertTrue(r.gap() >= 0, "gap " + r.gap());
        assertFalse(r.converged(), "a gap of " + r.gap() + " is not within 1e-300 of " + r.objective());
        assertEquals(LearningStop.MAX_ITERATIONS, r.stop());
        assertEquals(TkLearner.DEFAULT_MAX_ITERATIONS, r.iterations());
        for (ProgressListener.Event e : rec.events) {
            assertTrue(e.value() >= 0, "relative gap " + e.value() + " at step " + e.step());
        }
        assertEquals(r.iterations(), rec.lastStep());
        assertEquals(r.relativeGap(), rec.events.get(rec.events.size() - 1).value());
    }

    /** SimpleMKL's duality gap on the same rows fell to −1.6e-14 with C = 10 and was reported converged. */
    @Test
    void simpleMklReportsTheMagnitudeOfAGapBelowZero() {
        Matrix x = x();
        KernelLibrary lib = KernelLearning.libraryGrams(KernelLearning.Method.SIMPLEMKL, x, 0.1,
                new KernelLearning.Settings(1, Orthant.LOWER, 20, 3)).full();
        RecordingListener rec = RecordingListener.recording();
        SimpleMkl.Result r = SimpleMkl.fit(lib, y(), new SimpleMkl.Options(10, 1e-300, SimpleMkl.DEFAULT_MAX_ITERATIONS,
                Smo.DEFAULT_TOLERANCE), rec);
        assertTrue(r.gap() >= 0, "gap " + r.gap());
        assertFalse(r.converged());
        for (ProgressListener.Event e : rec.events) {
            assertTrue(e.value() >= 0, "relative gap " + e.value() + " at step " + e.step());
        }
    }

    /** The trainers refuse a relative gap below what double precision resolves, naming the floor. */
    @Test
    void theTrainersRefuseAGapBelowTheFloor() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new TkSvmTrainer.Options(1.0, 0.1, 1, Orthant.LOWER, 1e-300, 1));
        assertEquals("gap must be at least 1e-12 (below it the stop is decided by rounding errors), got 1.0E-300",
                e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> SimpleMklTrainer.Options.builder(
                KernelLearning.Method.SIMPLEMKL).librarySize(10).gaussScaling(KernelLearning.GaussScaling.MINMAX)
                .gap(1e-13).seed(1).build());
        new TkSvmTrainer.Options(1.0, 0.1, 1, Orthant.LOWER, KernelLearning.MIN_GAP_TOLERANCE, 1);
    }
}
