package org.psdkit.select;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.psdkit.data.Dataset;
import org.psdkit.data.Scaler;
import org.psdkit.data.Splits;
import org.psdkit.linalg.Matrix;
import org.psdkit.model.Predictor;

class CrossValidationTest {

    /** Predicts the constant v everywhere. */
    static Predictor constant(double v) {
        return new Predictor() {
            @Override
            public String type() {
                return "constant";
            }

            @Override
            public String[] outputColumns() {
                return new String[] {"prediction"};
            }

            @Override
            public Matrix predict(Matrix x) {
                double[] p = new double[x.rows()];
                java.util.Arrays.fill(p, v);
                return Matrix.column(p);
            }
        };
    }

    @Test
    void gridScoresEqualBruteForceFoldLoops() {
        Random r = new Random(5);
        int n = 23;
        Matrix x = Matrix.zeros(n, 1);
        double[] y = new double[n];
        for (int i = 0; i < n; i++) {
            x.set(i, 0, r.nextGaussian());
            y[i] = 3 + r.nextGaussian();
        }
        Dataset d = Dataset.of(x, y);
        Splits.TrainTest[] folds = Splits.kFold(n, 4, 9);
        List<Double> shrink = List.of(0.0, 0.5, 1.0);
        var table = CrossValidation.grid(d, folds, Scaler.Kind.NONE, shrink, (train, s) -> {
            double m = 0;
            for (double v : train.y()) {
                m += v;
            }
            return constant(s * m / train.n());
        }, CrossValidation::regressionScores, null);
        for (int g = 0; g < 3; g++) {
            double sum = 0;
            for (Splits.TrainTest f : folds) {
                double m = 0;
                for (int i : f.train()) {
                    m += y[i];
                }
                m = shrink.get(g) * m / f.train().length;
                double se = 0;
                for (int i : f.test()) {
                    se += (y[i] - m) * (y[i] - m);
                }
                sum += Math.sqrt(se / f.test().length);
            }
            assertEquals(sum / 4, table.get(g).mean("rmse"), 1e-12);
        }
        assertEquals(1.0, CrossValidation.best(table, "rmse", true).params());
        assertEquals(0.0, CrossValidation.best(table, "rmse", false).params());
    }

    @Test
    void numericalFailuresAreRecordedNotThrown() {
        Dataset d = Dataset.of(Matrix.of(new double[][] {{1}, {2}, {3}, {4}}), new double[] {1, 2, 3, 4});
        var table = CrossValidation.grid(d, Splits.kFold(4, 2, 1), Scaler.Kind.ZSCORE, List.of(1, 2), (train, p) -> {
            if (p == 1) {
                throw new IllegalStateException("no convergence");
            }
            return constant(0);
        }, CrossValidation::regressionScores, null);
        assertEquals("no convergence", table.get(0).error());
        assertNull(table.get(1).error());
        assertEquals(2, CrossValidation.best(table, "rmse", true).params());
        assertTrue(CrossValidation.repeatedSplits(10, 0.2, 30, 1).length == 30);
    }

    @Test
    void scalerIsFittedOnTheTrainingPartOnly() {
        Matrix x = Matrix.of(new double[][] {{0}, {10}, {1000}});
        Dataset d = Dataset.of(x, new double[] {0, 1, 2});
        Splits.TrainTest tt = new Splits.TrainTest(new int[] {0, 1}, new int[] {2});
        Dataset[][] s = CrossValidation.scaledParts(d, new Splits.TrainTest[] {tt}, Scaler.Kind.MINMAX);
        assertEquals(1.0, s[0][0].x().get(1, 0));
        assertEquals(100.0, s[0][1].x().get(0, 0)); // (1000 − 0) / (10 − 0): the test point did not shape the scaler
    }
}
