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
        Pipeline<KernelSos> m = new KernelSosTrainer(Kernels.parse("gaussian(sigma=0.5) + 0.01*delta"),
                KernelSos.Options.of(0.01), Scaler.Kind.NONE).fit(Dataset.of(Matrix.of(x), y), events::add);
        assertEquals(m.diagnostics().get("iterations"), events.size());
        ProgressListener.Event last = events.get(events.size() - 1);
        assertEquals("gap", last.measure());
        assertTrue(last.value() < 1e-6, "final gap " + last.value());
        assertEquals(java.util.Map.of("lambda", 0.01), m.hyperParameters());
        assertEquals(List.of("status", "iterations", "relativeGap", "primalInfeasibility", "dualInfeasibility",
                "objective", "lmiMinEigenvalue", "alphaMin", "seconds"), List.copyOf(m.diagnostics().toMap().keySet()));
    }
}
