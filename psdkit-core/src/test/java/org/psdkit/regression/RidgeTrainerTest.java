package org.psdkit.regression;

import org.psdkit.model.Pipeline;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.psdkit.data.Dataset;
import org.psdkit.data.Scaler;
import org.psdkit.kernel.Kernels;
import org.psdkit.linalg.Matrix;

class RidgeTrainerTest {

    static Dataset data(long seed, int n) {
        Random r = new Random(seed);
        double[][] x = new double[n][2];
        double[] y = new double[n];
        for (int i = 0; i < n; i++) {
            x[i][0] = 3 * r.nextGaussian() + 1;
            x[i][1] = r.nextDouble();
            y[i] = 2 + x[i][0] - x[i][0] * x[i][1] + 0.1 * r.nextGaussian();
        }
        return Dataset.of(Matrix.of(x), y);
    }

    /** w = Φᵀα: the dual form gives the primal weights (Herbster, Kernels and Regularization (lecture slides)). */
    @Test
    void dualFormGivesThePrimalWeights() {
        Dataset train = data(3, 30);
        for (boolean intercept : new boolean[] {true, false}) {
            var features = Kernels.parse("polynomial(degree=2, offset=1)");
            Pipeline<RidgeRegression> p = new RidgeTrainer(0.3, intercept, RidgeTrainer.Form.PRIMAL, features,
                    Scaler.Kind.ZSCORE).fit(train);
            Pipeline<RidgeRegression> d = new RidgeTrainer(0.3, intercept, RidgeTrainer.Form.DUAL, features,
                    Scaler.Kind.ZSCORE).fit(train);
            double[] wp = p.inner().weights();
            double[] wd = d.inner().weights();
            assertEquals(6, wp.length);
            for (int j = 0; j < wp.length; j++) {
                assertEquals(wp[j], wd[j], 1e-9 * (1 + Math.abs(wp[j])), "weight " + j);
            }
            assertEquals(p.inner().bias(), d.inner().bias(), 1e-9 * (1 + Math.abs(p.inner().bias())));
            assertEquals(List.of("lambda", "intercept", "form"), List.copyOf(d.hyperParameters().keySet()));
            assertEquals("dual", d.hyperParameters().get("form"));
            assertEquals(intercept, d.hyperParameters().get("intercept"));
            assertEquals("polynomial(degree=2, offset=1)", d.header().kernelSpec());
        }
    }

    @Test
    void optionsAreCheckedAndErrorsNameTheParameter() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> RidgeTrainer.linear(-1, Scaler.Kind.NONE));
        assertTrue(e.getMessage().startsWith("lambda"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> RidgeTrainer.Form.parse("both"));
        RidgeTrainer gauss = new RidgeTrainer(1, true, RidgeTrainer.Form.PRIMAL, Kernels.parse("gaussian(sigma=1)"),
                Scaler.Kind.NONE);
        e = assertThrows(IllegalArgumentException.class, () -> gauss.fit(data(1, 10)));
        assertTrue(e.getMessage().contains("no explicit finite feature map"), e.getMessage());
        Pipeline<RidgeRegression> linear = RidgeTrainer.linear(0, Scaler.Kind.MINMAX).fit(data(2, 10));
        assertEquals(null, linear.header().kernelSpec());
        assertTrue(linear.diagnostics().toMap().isEmpty());
    }
}
