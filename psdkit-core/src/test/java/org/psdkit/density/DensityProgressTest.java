package org.psdkit.density;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Random;
import org.junit.jupiter.api.Test;
import org.psdkit.kernel.GaussianKernel;
import org.psdkit.linalg.Matrix;
import org.psdkit.optim.ProgressListener;
import org.psdkit.optim.RecordingListener;

/** The density dual FISTA reports its relative gap per iteration; sampling reports each draw of the total. */
class DensityProgressTest {

    private static Matrix x() {
        Random rnd = new Random(8);
        Matrix x = Matrix.zeros(25, 1);
        for (int i = 0; i < x.rows(); i++) {
            x.set(i, 0, rnd.nextGaussian());
        }
        return x;
    }

    private static PsdDensity fit(ProgressListener listener) {
        return PsdDensityEstimator.fit(x(), new GaussianKernel(0.7), new BaseMeasure.Lebesgue(),
                PsdDensityOptions.of(1e-2, PsdDensityOptions.SEC6_FROBENIUS_RATIO).withMaxIterations(300), listener);
    }

    @Test
    void theFitReportsItsRelativeGap() {
        RecordingListener rec = RecordingListener.recording();
        PsdDensity p = fit(rec);
        rec.assertProgress("density", "gap", true);
        assertEquals(p.diagnostics().iterations(), rec.lastStep());
    }

    @Test
    void samplingReportsEachDrawOfTheTotal() {
        RecordingListener rec = RecordingListener.recording();
        fit(null).sample(7, 3, rec);
        rec.assertProgress("sample", null, false);
        assertEquals(7, rec.events.size());
        for (int i = 0; i < 7; i++) {
            assertEquals(i + 1, rec.events.get(i).step());
            assertEquals(7, rec.events.get(i).total());
        }
        // the listener does not change the draws
        assertEquals(fit(null).sample(7, 3).get(6, 0), fit(null).sample(7, 3, rec).get(6, 0));
        RecordingListener kde = RecordingListener.recording();
        Kde.fit(x()).sample(5, 1, kde);
        assertEquals(5, kde.lastStep());
    }

    @Test
    void aThrowingListenerStopsTheFitAndTheSampling() {
        RecordingListener rec = RecordingListener.cancellingAt(3);
        assertThrows(RecordingListener.Cancelled.class, () -> fit(rec));
        assertEquals(3, rec.events.size());
        PsdDensity p = fit(null);
        RecordingListener draws = RecordingListener.cancellingAt(2);
        assertThrows(RecordingListener.Cancelled.class, () -> p.sample(7, 3, draws));
        assertEquals(2, draws.events.size());
    }
}
