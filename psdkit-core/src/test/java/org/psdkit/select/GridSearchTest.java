package org.psdkit.select;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.psdkit.data.Dataset;
import org.psdkit.data.Scaler;
import org.psdkit.data.Splits;
import org.psdkit.kernel.Kernels;
import org.psdkit.linalg.Matrix;
import org.psdkit.model.Model;
import org.psdkit.model.ParameterException;
import org.psdkit.model.Pipeline;
import org.psdkit.model.Trainer;
import org.psdkit.regression.KernelRidge;
import org.psdkit.regression.KrrTrainer;

class GridSearchTest {

    private static Dataset sine(int n, long seed) {
        Random r = new Random(seed);
        Matrix x = Matrix.zeros(n, 1);
        double[] y = new double[n];
        for (int i = 0; i < n; i++) {
            double t = 6 * r.nextDouble() - 3;
            x.set(i, 0, t);
            y[i] = Math.sin(2 * t) + 0.1 * r.nextGaussian();
        }
        return Dataset.of(x, y);
    }

    private static Trainer<Pipeline<KernelRidge>> krr(double lambda) {
        return new KrrTrainer(KrrTrainer.Options.of(Kernels.parse("gaussian(sigma=0.5)"), lambda));
    }

    /**
     * WEIGHTED_RMSE: each fold's fit gets its rows' weights and the held-out RMSE is √(Σ w r² / Σ w), written out
     * here; rows of weight 0 (spoiled targets) count in neither. Plain RMSE scores the same fits unweighted.
     */
    @Test
    void weightedRmseWeighsTheFitsAndTheHeldOutRows() {
        Dataset plain = sine(60, 3);
        double[] w = new double[plain.n()];
        double[] y = plain.y().clone();
        for (int i = 0; i < w.length; i++) {
            w[i] = i % 5 == 0 ? 0 : 1 + i % 3;
            y[i] += w[i] == 0 ? 4 : 0;
        }
        Dataset d = new Dataset(plain.x(), y, null, plain.featureNames(), plain.targetName(), "sine", w);
        List<Double> grid = List.of(1e-2, 1.0);
        GridSearch.Search<Double, Pipeline<KernelRidge>> s = GridSearch.over(grid, GridSearchTest::krr,
                GridSearch.Scoring.WEIGHTED_RMSE, 4, 3).search(d, null);
        GridSearch.Search<Double, Pipeline<KernelRidge>> u = GridSearch.over(grid, GridSearchTest::krr,
                GridSearch.Scoring.RMSE, 4, 3).search(d, null);
        Splits.TrainTest[] folds = Splits.kFold(d.n(), 4, 3);
        for (int g = 0; g < grid.size(); g++) {
            double sum = 0;
            for (Splits.TrainTest f : folds) {
                Dataset test = Splits.subset(d, f.test());
                double[] p = krr(grid.get(g)).fit(Splits.subset(d, f.train())).predict(test.x()).col(0);
                double se = 0;
                double sw = 0;
                for (int i = 0; i < p.length; i++) {
                    se += test.weights()[i] * (test.y()[i] - p[i]) * (test.y()[i] - p[i]);
                    sw += test.weights()[i];
                }
                sum += Math.sqrt(se / sw);
            }
            assertEquals(sum / folds.length, s.table().get(g).mean("rmse"), 1e-12);
            assertTrue(u.table().get(g).mean("rmse") > s.table().get(g).mean("rmse") + 0.5);
        }
    }

    @Test
    void picksTheBestMeanFoldScoreAndRefitsItOnAllTheData() {
        Dataset d = sine(60, 1);
        List<Double> grid = List.of(1e4, 1e-2, 1e2);
        GridSearch<Double, Pipeline<KernelRidge>> cv = GridSearch.over(grid, GridSearchTest::krr,
                GridSearch.Scoring.RMSE, 5, 7);
        GridSearch.Search<Double, Pipeline<KernelRidge>> s = cv.search(d, null);
        // the brute-force answer: the same folds scored by hand
        Splits.TrainTest[] folds = Splits.kFold(d.n(), 5, 7);
        double bestMean = Double.POSITIVE_INFINITY;
        double bestPoint = Double.NaN;
        for (double lambda : grid) {
            double sum = 0;
            for (Splits.TrainTest f : folds) {
                Model m = krr(lambda).fit(Splits.subset(d, f.train()));
                sum += CrossValidation.regressionScores(m, Splits.subset(d, f.test())).get("rmse");
            }
            if (sum / folds.length < bestMean) {
                bestMean = sum / folds.length;
                bestPoint = lambda;
            }
        }
        assertEquals(1e-2, bestPoint); // the smooth sine needs a small lambda
        assertEquals(bestPoint, s.best());
        assertEquals(bestMean, s.table().get(grid.indexOf(bestPoint)).mean("rmse"), 1e-12);
        double[] direct = krr(bestPoint).fit(d).predict(d.x()).col(0);
        assertArrayEquals(direct, cv.fit(d).predict(d.x()).col(0), 0.0);
        assertArrayEquals(direct, s.model().predict(d.x()).col(0), 0.0);
    }

    @Test
    void everyPointFailingIsANumericalFailureNamingTheFirst() {
        Trainer<Pipeline<KernelRidge>> failing = (train, l) -> {
            throw new IllegalStateException("no convergence");
        };
        GridSearch<Double, Pipeline<KernelRidge>> cv = GridSearch.over(List.of(1.0, 2.0), p -> failing,
                GridSearch.Scoring.RMSE, 3, 1);
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> cv.fit(sine(20, 2)));
        assertTrue(e.getMessage().contains("1.0: no convergence"), e.getMessage());
    }

    @Test
    void badSettingsNameTheirParameter() {
        ParameterException e = assertThrows(ParameterException.class,
                () -> GridSearch.over(List.of(1.0), GridSearchTest::krr, GridSearch.Scoring.RMSE, 1, 0));
        assertEquals("folds", e.parameter());
        assertEquals("folds must be >= 2, got 1", e.getMessage());
        assertEquals("grid", assertThrows(ParameterException.class,
                () -> GridSearch.over(List.<Double>of(), GridSearchTest::krr, GridSearch.Scoring.RMSE, 3, 0))
                .parameter());
    }
}
