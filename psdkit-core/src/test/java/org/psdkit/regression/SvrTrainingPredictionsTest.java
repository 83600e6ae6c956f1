package org.psdkit.regression;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;
import org.psdkit.data.Dataset;
import org.psdkit.kernel.GaussianKernel;
import org.psdkit.linalg.Matrix;
import org.psdkit.model.Pipeline;

/**
 * An SVR fit keeps its predictions at the training rows (from the support vectors' kernel rows it has for the
 * primal objective): equal to a predict of the training rows within 1e-12 of the target scale, so a report's
 * metrics need no second pass.
 */
class SvrTrainingPredictionsTest {

    private static Dataset problem(int n, long seed) {
        Random rnd = new Random(seed);
        Matrix x = Matrix.zeros(n, 2);
        double[] y = new double[n];
        for (int i = 0; i < n; i++) {
            x.set(i, 0, 4 * rnd.nextDouble() - 2);
            x.set(i, 1, 4 * rnd.nextDouble() - 2);
            y[i] = Math.sin(2 * x.get(i, 0)) + x.get(i, 1) * x.get(i, 1) + 0.2 * rnd.nextGaussian();
        }
        return Dataset.of(x, y);
    }

    /** Returns the kept predictions after checking them against predict. */
    private static double[] agrees(Pipeline<Svr> model, Dataset train) {
        SvrTrainer.Fit fit = assertInstanceOf(SvrTrainer.Fit.class, model);
        double[] kept = fit.trainingPredictions(train);
        double[] full = model.predict(train.x()).col(0);
        for (int i = 0; i < full.length; i++) {
            assertTrue(Math.abs(kept[i] - full[i]) <= 1e-12 * Math.max(1, Math.abs(full[i])),
                    "row " + i + ": " + kept[i] + " vs " + full[i]);
        }
        return kept;
    }

    @Test
    void trainingPredictionsEqualPredict() {
        Dataset train = problem(400, 1);
        GaussianKernel k = new GaussianKernel(0.6);
        agrees(new SvrTrainer(SvrTrainer.Options.of(k, 10, 0.1)).fit(train), train);
        // rows computed on demand (a cache smaller than the Gram matrix)
        agrees(new SvrTrainer(SvrTrainer.Options.of(k, 10, 0.1).withCacheMb(1)).fit(train), train);
        agrees(new SvrTrainer(SvrTrainer.Options.of(k, 3, 0.1).withNu(0.4)).fit(train), train);
        double[] w = new double[train.n()];
        for (int i = 0; i < w.length; i++) {
            w[i] = 0.5 + (i % 4);
        }
        agrees(new SvrTrainer(SvrTrainer.Options.of(k, 10, 0.1)).fit(train, w, null), train);
    }

    @Test
    void rowsLeftOutByZeroWeightsArePredicted() {
        Dataset train = problem(200, 2);
        double[] w = new double[train.n()];
        for (int i = 0; i < w.length; i++) {
            w[i] = i % 6 == 0 ? 0 : 1;
        }
        Pipeline<Svr> m = new SvrTrainer(SvrTrainer.Options.of(new GaussianKernel(0.6), 10, 0.1)).fit(train, w, null);
        double[] kept = agrees(m, train);
        double[] full = m.predict(train.x()).col(0);
        for (int i = 0; i < full.length; i++) {
            assertEquals(full[i], kept[i], 0.0, "row " + i);
        }
    }
}
