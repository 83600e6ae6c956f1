package org.psdkit.sos;

import org.psdkit.model.Pipeline;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.psdkit.data.Dataset;
import org.psdkit.data.Scaler;
import org.psdkit.kernel.Kernels;
import org.psdkit.linalg.Matrix;
import org.psdkit.optim.ProgressListener;

class KernelSosTrainerTest {

    @Test
    void reportsTheGapOfEveryInteriorPointIterationAndKeepsLambda() {
        Random r = new Random(5);
        double[][] x = new double[15][1];
        double[] y = new double[15];
        for (int i = 0; i < 15; i++) {
            x[i][0] = 2 * r.nextDouble() - 1;
            y[i] = x[i][0] * x[i][0];
        }
        List<ProgressListener.Event> events = new ArrayList<>();
        Pipeline<KernelSos> m = new KernelSosTrainer(KernelSosTrainer.Options.of(
                Kernels.parse("gaussian(sigma=0.5) + 0.01*delta"), 0.01)).fit(Dataset.of(Matrix.of(x), y), events::add);
        KernelSosTrainer.Fit fit = (KernelSosTrainer.Fit) m.diagnostics();
        assertEquals(fit.iterations(), events.size());
        assertTrue(fit.relativeGap() < 1e-6, fit.toString());
        ProgressListener.Event last = last(events);
        assertEquals("gap", last.measure());
        assertTrue(last.value() < 1e-6, "final gap " + last.value());
        assertEquals(java.util.Map.of("lambda", 0.01), m.hyperParameters().toMap());
        assertEquals(List.of("status", "iterations", "relativeGap", "primalInfeasibility", "dualInfeasibility",
                "objective", "lmiMinEigenvalue", "alphaMin", "seconds"), List.copyOf(m.diagnostics().toMap().keySet()));
    }

    private static ProgressListener.Event last(List<ProgressListener.Event> events) {
        return events.get(events.size() - 1);
    }
}
