package org.psdkit.cone;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;
import org.psdkit.linalg.Matrix;
import org.psdkit.cone.quantile.QuantileRegression;
import org.psdkit.optim.RecordingListener;

/** The cone dual solver (here under quantile regression) reports its relative gap at every check. */
class ConeProgressTest {

    private static final int N = 30;
    private static final double[] TAUS = {0.25, 0.5, 0.75};

    private static Matrix x() {
        Random rnd = new Random(4);
        Matrix x = Matrix.zeros(N, 1);
        for (int i = 0; i < N; i++) {
            x.set(i, 0, rnd.nextDouble());
        }
        return x;
    }

    private static double[] y(Matrix x) {
        Random rnd = new Random(6);
        double[] y = new double[N];
        for (int i = 0; i < N; i++) {
            y[i] = Math.sin(4 * x.get(i, 0)) + 0.3 * rnd.nextGaussian();
        }
        return y;
    }

    @Test
    void everyGapCheckIsReported() {
        Matrix x = x();
        RecordingListener rec = RecordingListener.recording();
        QuantileRegression.fit(x, y(x), QuantileRegression.Options.of(TAUS, 0.3, 1e-2,
                QuantileRegression.Method.PSD), rec);
        rec.assertProgress(ConeDualSolver.TASK, "gap", true);
        for (int i = 0; i < rec.events.size(); i++) {
            assertEquals(ConeDualSolver.Options.DEFAULT_CHECK_EVERY * (i + 1L), rec.events.get(i).step());
        }
        // the last check is the one that stopped the run: its gap is below the tolerance
        assertTrue(rec.events.get(rec.events.size() - 1).value() <= ConeDualSolver.Options.DEFAULT_GAP_TOLERANCE);
    }

    @Test
    void aThrowingListenerStopsTheSolver() {
        Matrix x = x();
        RecordingListener rec = RecordingListener.cancellingAt(2);
        assertThrows(RecordingListener.Cancelled.class, () -> QuantileRegression.fit(x, y(x),
                QuantileRegression.Options.of(TAUS, 0.3, 1e-2, QuantileRegression.Method.INDEPENDENT), rec));
        assertEquals(2, rec.events.size());
    }
}
