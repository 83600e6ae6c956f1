package org.psdkit.regression;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.psdkit.data.Dataset;
import org.psdkit.data.Scaler;
import org.psdkit.kernel.Kernel;
import org.psdkit.kernel.Kernels;
import org.psdkit.linalg.Matrix;
import org.psdkit.model.Pipeline;

class SvrTrainerTest {

    @Test
    void optionsAreCheckedAndErrorsNameTheParameter() {
        Kernel k = Kernels.parse("gaussian(sigma=1)");
        String[][] bad = {{"0", "0.1", "1e-3", "c"}, {"1", "-1", "1e-3", "epsilon"}, {"1", "0.1", "0", "tolerance"},
            {"Infinity", "0.1", "1e-3", "c"}};
        for (String[] b : bad) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> SvrTrainer.Options.of(k,
                    Double.parseDouble(b[0]), Double.parseDouble(b[1])).withTolerance(Double.parseDouble(b[2])));
            assertTrue(e.getMessage().startsWith(b[3] + " must be"), e.getMessage());
        }
    }

    @Test
    void fitsInRawUnitsAndKeepsItsOptions() {
        Random r = new Random(2);
        double[][] x = new double[60][1];
        double[] y = new double[60];
        for (int i = 0; i < 60; i++) {
            x[i][0] = 100 + 30 * r.nextDouble(); // raw units far from the kernel's scale: the scaler handles them
            y[i] = Math.sin((x[i][0] - 100) / 5);
        }
        Dataset train = Dataset.of(Matrix.of(x), y);
        Pipeline<Svr> m = new SvrTrainer(SvrTrainer.Options.of(Kernels.parse("gaussian(sigma=0.3)"), 10, 0.01)
                .withScale(Scaler.Kind.MINMAX)).fit(train);
        assertTrue((Double) m.evaluate(train).get("rmse") < 0.05, m.evaluate(train).toString());
        assertEquals(List.of("C", "epsilon", "tolerance"), List.copyOf(m.hyperParameters().toMap().keySet()));
        assertEquals(List.of("iterations", "violation", "converged", "dual", "primal", "seconds"),
                List.copyOf(m.diagnostics().toMap().keySet()));
        assertEquals(true, m.diagnostics().get("converged"));
    }
}
