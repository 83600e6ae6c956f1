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
            RidgeTrainer.Options o = RidgeTrainer.Options.of(0.3).withIntercept(intercept).withFeatures(features)
                    .withScale(Scaler.Kind.ZSCORE);
            Pipeline<RidgeRegression> p = new RidgeTrainer(o.withForm(RidgeTrainer.Form.PRIMAL)).fit(train);
            Pipeline<RidgeRegression> d = new RidgeTrainer(o.withForm(RidgeTrainer.Form.DUAL)).fit(train);
            double[] wp = p.inner().weights();
            double[] wd = d.inner().weights();
            assertEquals(6, wp.length);
            for (int j = 0; j < wp.length; j++) {
                assertEquals(wp[j], wd[j], 1e-9 * (1 + Math.abs(wp[j])), "weight " + j);
            }
            assertEquals(p.inner().bias(), d.inner().bias(), 1e-9 * (1 + Math.abs(p.inner().bias())));
            assertEquals(List.of("lambda", "intercept", "form"), List.copyOf(d.hyperParameters().toMap().keySet()));
            assertEquals("dual", d.hyperParameters().get("form"));
            assertEquals(intercept, d.hyperParameters().get("intercept"));
            assertEquals("polynomial(degree=2, offset=1)", d.header().kernelSpec());
        }
    }

    @Test
    void optionsAreCheckedAndErrorsNameTheParameter() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> RidgeTrainer.Options.of(-1));
        assertTrue(e.getMessage().startsWith("lambda"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> RidgeTrainer.Form.parse("both"));
        RidgeTrainer gauss = new RidgeTrainer(RidgeTrainer.Options.of(1).withFeatures(
                Kernels.parse("gaussian(sigma=1)")));
        e = assertThrows(IllegalArgumentException.class, () -> gauss.fit(data(1, 10)));
        assertTrue(e.getMessage().contains("no explicit finite feature map"), e.getMessage());
        Pipeline<RidgeRegression> linear = new RidgeTrainer(RidgeTrainer.Options.of(0)
                .withScale(Scaler.Kind.MINMAX)).fit(data(2, 10));
        assertEquals(null, linear.header().kernelSpec());
        assertTrue(linear.diagnostics().toMap().isEmpty());
    }
}
