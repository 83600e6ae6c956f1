package org.psdkit.classify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;
import org.psdkit.data.Dataset;
import org.psdkit.data.Scaler;
import org.psdkit.kernel.GaussianKernel;
import org.psdkit.kernel.Kernel;
import org.psdkit.kernel.PolynomialKernel;
import org.psdkit.linalg.Matrix;

/**
 * The training metrics of a binary SVM fit from the solver's final gradient (f(x_t) = y_t(∇_t − p) + b) against a
 * full predict of the training rows: the same scores, and decision values within 1e-12 of the predicted ones.
 */
class SvmTrainingDecisionsTest {

    /** An XOR-like problem with label noise (many bounded and free support vectors), n rows, d features. */
    private static Dataset problem(int n, int d, long seed) {
        Random rnd = new Random(seed);
        Matrix x = Matrix.zeros(n, d);
        double[] y = new double[n];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < d; j++) {
                x.set(i, j, rnd.nextGaussian());
            }
            y[i] = x.get(i, 0) * x.get(i, 1) + 0.4 * rnd.nextGaussian() > 0 ? 1 : 0;
        }
        return Dataset.of(x, y);
    }

    /** Checks the kept decisions against predict and the scores against evaluate; returns the largest difference. */
    private static double agrees(SvmClassifier m, Dataset train) {
        return agrees(m, train, 1e-12);
    }

    private static double agrees(SvmClassifier m, Dataset train, double tolerance) {
        double[] kept = m.trainingDecisions();
        assertNotNull(kept, "the fit kept no training decisions");
        double[] full = m.predict(train.x()).col(0);
        double worst = 0;
        for (int i = 0; i < full.length; i++) {
            double diff = Math.abs(kept[i] - full[i]);
            worst = Math.max(worst, diff);
            assertTrue(diff <= tolerance * Math.max(1, Math.abs(full[i])), "row " + i + ": " + kept[i] + " vs " + full[i]);
            assertEquals(full[i] >= 0, kept[i] >= 0, "sign of row " + i);
        }
        assertEquals(m.evaluate(train), m.evaluateTraining(train));
        return worst;
    }

    private static SvmClassifier fit(SvmTrainer.Options o, Dataset train, double[] weights) {
        return assertInstanceOf(SvmClassifier.class, new SvmTrainer(o).fit(train, weights, null));
    }

    @Test
    void cSvcDecisionsFromTheGradientEqualPredict() {
        Dataset train = problem(400, 3, 1);
        Kernel g = new GaussianKernel(0.8);
        agrees(fit(SvmTrainer.Options.of(g, 10), train, null), train);
        agrees(fit(SvmTrainer.Options.of(g, 0.5).withScale(Scaler.Kind.ZSCORE), train, null), train);
        agrees(fit(SvmTrainer.Options.of(new PolynomialKernel(2, 1), 1), train, null), train);
        // tight tolerance: many more pair updates accumulate in the gradient
        agrees(fit(SvmTrainer.Options.of(g, 100).withTolerance(1e-6), train, null), train);
    }

    @Test
    void weightedAndNuFitsToo() {
        Dataset train = problem(300, 2, 2);
        Kernel g = new GaussianKernel(0.7);
        double[] w = new double[train.n()];
        for (int i = 0; i < w.length; i++) {
            w[i] = i % 7 == 0 ? 0 : 1 + (i % 3); // rows of weight 0 are left out of the solve: predicted
        }
        agrees(fit(SvmTrainer.Options.of(g, 2), train, w), train);
        agrees(fit(SvmTrainer.Options.of(g, 2).withClassWeight(ClassWeights.balancedWeights()), train, null), train);
        // the ν-SVC's gradient is divided by its margin multiplier r (NuSvc), which scales its rounding by 1/r
        agrees(fit(SvmTrainer.Options.nu(g, 0.4), train, null), train, 1e-10);
    }

    @Test
    void singlePrecisionRowsKeepTheSignsOfPredict() {
        // 1 MB holds fewer than all 600² double kernel values: rows in single precision, the gradient is that of the
        // rounded matrix; the kept values are within the rounding bound of predict's and every sign is predict's
        Dataset train = problem(600, 2, 3);
        SvmTrainer.Options o = SvmTrainer.Options.of(new GaussianKernel(0.8), 5).withCacheMb(1);
        SvmClassifier m = fit(o, train, null);
        double[] kept = m.trainingDecisions();
        assertNotNull(kept, "single-precision rows: the fit kept no training decisions");
        double[] full = m.predict(train.x()).col(0);
        double[] bound = SvmTrainer.roundingBound(m.inner(), train.x());
        int differ = 0;
        for (int i = 0; i < full.length; i++) {
            double diff = Math.abs(kept[i] - full[i]);
            assertTrue(diff <= bound[i] + 1e-9 * Math.max(1, Math.abs(full[i])), "row " + i + ": " + kept[i] + " vs "
                    + full[i] + ", bound " + bound[i]);
            assertEquals(full[i] >= 0, kept[i] >= 0, "sign of row " + i);
            if (diff > 1e-12 * Math.max(1, Math.abs(full[i]))) {
                differ++;
            }
        }
        assertTrue(differ > 0, "the single-precision gradient should differ from predict somewhere");
        assertEquals(m.evaluate(train), m.evaluateTraining(train));
        // the ν-SVC and a weighted fit on single-precision rows as well
        agreesInSign(fit(SvmTrainer.Options.nu(new GaussianKernel(0.8), 0.4).withCacheMb(1), train, null), train);
        double[] w = new double[train.n()];
        for (int i = 0; i < w.length; i++) {
            w[i] = i % 5 == 0 ? 0 : 1 + (i % 2);
        }
        agreesInSign(fit(o, train, w), train);
    }

    private static void agreesInSign(SvmClassifier m, Dataset train) {
        double[] kept = m.trainingDecisions();
        assertNotNull(kept, "the fit kept no training decisions");
        double[] full = m.predict(train.x()).col(0);
        for (int i = 0; i < full.length; i++) {
            assertEquals(full[i] >= 0, kept[i] >= 0, "sign of row " + i);
        }
        assertEquals(m.evaluate(train), m.evaluateTraining(train));
    }
}
