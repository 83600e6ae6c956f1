package org.psdkit.optim.smo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;
import org.psdkit.kernel.GaussianKernel;
import org.psdkit.linalg.Matrix;
import org.psdkit.optim.RecordingListener;

/** SMO reports the KKT violation after every pair update; a throwing listener stops it. */
class SmoProgressTest {

    private static final int M = 40;

    private static Matrix x() {
        Random rnd = new Random(9);
        Matrix x = Matrix.zeros(M, 2);
        for (int i = 0; i < M; i++) {
            x.set(i, 0, rnd.nextGaussian());
            x.set(i, 1, rnd.nextGaussian());
        }
        return x;
    }

    private static double[] y(Matrix x) {
        double[] y = new double[M];
        for (int i = 0; i < M; i++) {
            y[i] = x.get(i, 0) * x.get(i, 1) > 0 ? 1 : -1;
        }
        return y;
    }

    @Test
    void everyPairUpdateIsReported() {
        Matrix x = x();
        RecordingListener rec = RecordingListener.recording();
        Smo.Result r = Smo.solve(KernelRows.dense(new GaussianKernel(1).gram(x)), y(x), 10.0, 1e-6, null, rec);
        assertTrue(r.converged());
        rec.assertProgress(Smo.TASK, "violation", true);
        assertEquals(r.iterations(), rec.lastStep());
        assertEquals(r.violation(), rec.events.get(rec.events.size() - 1).value());
    }

    @Test
    void aThrowingListenerStopsTheSolve() {
        Matrix x = x();
        RecordingListener rec = RecordingListener.cancellingAt(5);
        assertThrows(RecordingListener.Cancelled.class, () -> Smo.solve(
                KernelRows.dense(new GaussianKernel(1).gram(x)), y(x), 10.0, 1e-6, null, rec));
        assertEquals(5, rec.events.size());
    }
}
