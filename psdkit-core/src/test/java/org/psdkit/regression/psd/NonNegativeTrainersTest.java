package org.psdkit.regression.psd;

import org.psdkit.psd.PsdModel;
import org.psdkit.psd.PsdOptions;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
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

/** The trainers of the non-negative regression task (Marteau-Ferey, Bach &amp; Rudi 2020, Sec. 6 and App. D). */
class NonNegativeTrainersTest {

    static Dataset data(int n) {
        Random r = new Random(7);
        double[][] x = new double[n][1];
        double[] y = new double[n];
        for (int i = 0; i < n; i++) {
            x[i][0] = 6 * r.nextDouble() - 3;
            y[i] = Math.max(0, Math.sin(x[i][0])) * x[i][0] * x[i][0] + 0.1 * r.nextGaussian();
        }
        return Dataset.of(Matrix.of(x), y);
    }

    @Test
    void psdRegressionReportsEachFistaIterationAndKeepsItsOptions() {
        List<ProgressListener.Event> events = new ArrayList<>();
        PsdOptions o = PsdOptions.of(1e-3, 1e-3).withMaxIterations(50).withTolerance(0);
        NonNegativeRegressionModel<PsdModel> m = new PsdRegressionTrainer(PsdRegressionTrainer.Options.of(
                Kernels.parse("gaussian(sigma=0.5)"), o).withScale(Scaler.Kind.MINMAX)).fit(data(30), events::add);
        assertEquals(50, events.size());
        assertEquals(50, events.get(49).step());
        assertEquals("gap", events.get(49).measure());
        assertTrue(Double.isFinite(events.get(49).value()));
        assertEquals(List.of("lambda1", "lambda2", "tol", "max_iter"), List.copyOf(m.hyperParameters().toMap().keySet()));
        assertEquals(50, m.hyperParameters().get("max_iter"));
        assertEquals(50, ((org.psdkit.psd.SolverDiagnostics) m.diagnostics()).iterations());
        assertEquals("psd-regression", m.type());
        // a PSD model is non-negative everywhere, also far from the data
        double[][] far = {{-100}, {0.5}, {100}};
        assertTrue((Double) m.evaluate(Dataset.of(Matrix.of(far), new double[3])).get("min_prediction") >= 0);
    }

    @Test
    void baselinesHaveTheirTypeAndOptions() {
        Dataset train = data(25);
        for (BaselineTrainer.Method method : BaselineTrainer.Method.values()) {
            NonNegativeRegressionModel<KernelExpansionModel> m = new BaselineTrainer(BaselineTrainer.Options.of(
                    method, Kernels.parse("gaussian(sigma=0.7)"), Baselines.Options.of(1e-3).withMaxIterations(200)))
                    .fit(train);
            assertEquals(method.type(), m.type());
            assertEquals(method, BaselineTrainer.Method.of(m.type()));
            assertEquals(method == BaselineTrainer.Method.GLM, m.inner().exponential());
            assertEquals(List.of("lambda", "tol", "max_iter"), List.copyOf(m.hyperParameters().toMap().keySet()));
            assertTrue((Double) m.evaluate(train).get("r2") > 0.5, method + " " + m.evaluate(train));
        }
        assertThrows(IllegalArgumentException.class, () -> BaselineTrainer.Method.of("psd"));
    }
}
