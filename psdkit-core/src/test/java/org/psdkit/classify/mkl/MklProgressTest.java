package org.psdkit.classify.mkl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import org.psdkit.kernel.TessellatedKernel.Orthant;
import org.psdkit.linalg.Matrix;
import org.psdkit.optim.RecordingListener;

/** Frank–Wolfe (tessellated kernels) and SimpleMKL report their relative gap per iteration. */
class MklProgressTest {

    private static final Matrix X = LibraryGramsTest.points(30, 2, 17);
    private static final double[] Y = SimpleMklWarmStartTest.labels(X);

    private static LibraryGrams.Subset library() {
        return KernelLearning.libraryGrams(KernelLearning.Method.COMBINED, X, 0.5,
                new KernelLearning.Settings(1, Orthant.LOWER, 10, 3)).full();
    }

    @Test
    void frankWolfeReportsItsGapPerStep() {
        RecordingListener rec = RecordingListener.recording();
        TkLearner.Result r = TkLearner.fit(X, Y, TkLearner.Options.of(1, 0.1, 5.0).withGap(1e-3, 20), rec);
        rec.assertProgress(TkLearner.TASK, "gap", true);
        assertEquals(r.iterations(), rec.lastStep());
        assertEquals(r.iterations() + 1, rec.events.size()); // the start and every step
    }

    @Test
    void simpleMklReportsItsGapPerIteration() {
        RecordingListener rec = RecordingListener.recording();
        SimpleMkl.Result r = SimpleMkl.fit(library(), Y, SimpleMkl.Options.of(X.rows()), rec);
        rec.assertProgress(SimpleMkl.TASK, "gap", true);
        assertEquals(r.iterations(), rec.lastStep());
    }

    @Test
    void aThrowingListenerStopsBoth() {
        RecordingListener fw = RecordingListener.cancellingAt(1);
        assertThrows(RecordingListener.Cancelled.class,
                () -> TkLearner.fit(X, Y, TkLearner.Options.of(1, 0.1, 5.0).withGap(1e-3, 20), fw));
        assertEquals(1, fw.events.size());
        RecordingListener mkl = RecordingListener.cancellingAt(1);
        assertThrows(RecordingListener.Cancelled.class,
                () -> SimpleMkl.fit(library(), Y, SimpleMkl.Options.of(X.rows()), mkl));
        assertEquals(1, mkl.events.size());
    }
}
