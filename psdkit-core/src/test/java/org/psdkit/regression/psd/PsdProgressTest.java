package org.psdkit.regression.psd;

import org.psdkit.psd.PsdModel;
import org.psdkit.psd.PsdOptions;
import org.psdkit.psd.PsdSolver;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;
import org.psdkit.kernel.GaussianKernel;
import org.psdkit.linalg.Matrix;
import org.psdkit.optim.RecordingListener;

/** PSD regression and its FISTA baselines report their stopping measure, and a throwing listener stops them. */
class PsdProgressTest {

    private static final int N = 20;

    private static Matrix x() {
        return PsdRegressionTest.uniform(N, 1, -1, 1, new Random(5));
    }

    private static double[] y(Matrix x) {
        double[] y = new double[N];
        for (int i = 0; i < N; i++) {
            y[i] = PsdRegressionTest.target(x.get(i, 0));
        }
        return y;
    }

    @Test
    void psdRegressionReportsItsRelativeGap() {
        Matrix x = x();
        RecordingListener rec = RecordingListener.recording();
        PsdModel m = PsdRegression.fit(new GaussianKernel(0.5), x, y(x), PsdOptions.of(1e-3, 1e-3), rec);
        rec.assertProgress(PsdSolver.TASK, "gap", true);
        assertEquals(m.diagnostics().iterations(), rec.lastStep());
    }

    @Test
    void glmCountsItsStepsOverAllStarts() {
        Matrix x = x();
        RecordingListener rec = RecordingListener.recording();
        KernelExpansionModel m = Baselines.glm(new GaussianKernel(0.5), x, y(x),
                Baselines.Options.of(1e-2).withMaxIterations(40), rec);
        rec.assertProgress("glm", "residual", true);
        assertEquals(m.diagnostics().iterations(), rec.lastStep());
        assertTrue(rec.lastStep() > 40, "more than one start reported");
    }

    @Test
    void aThrowingListenerStopsTheFit() {
        Matrix x = x();
        RecordingListener psd = RecordingListener.cancellingAt(2);
        assertThrows(RecordingListener.Cancelled.class,
                () -> PsdRegression.fit(new GaussianKernel(0.5), x, y(x), PsdOptions.of(1e-3, 1e-3), psd));
        assertEquals(2, psd.events.size());
        RecordingListener pnm = RecordingListener.cancellingAt(2);
        assertThrows(RecordingListener.Cancelled.class,
                () -> Baselines.pnm(new GaussianKernel(0.5), x, y(x), Baselines.Options.of(1e-2), pnm));
        pnm.assertProgress("pnm", "gap", true);
    }
}
