package org.psdkit.cone;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.psdkit.data.Dataset;
import org.psdkit.data.Splits;
import org.psdkit.kernel.GaussianKernel;
import org.psdkit.kernel.Kernel;
import org.psdkit.linalg.Matrix;
import org.psdkit.model.Model;
import org.psdkit.model.ModelHeader;
import org.psdkit.model.Pipeline;
import org.psdkit.model.Predictor;
import org.psdkit.model.Trainer;
import org.psdkit.optim.ProgressListener;

class ConeGridTest {

    private static Dataset line(int n) {
        double[][] x = new double[n][1];
        double[] y = new double[n];
        for (int i = 0; i < n; i++) {
            x[i][0] = i;
            y[i] = 2 * i;
        }
        return Dataset.of(Matrix.of(x), y);
    }

    @Test
    void foldsAreThoseOfSplitsForTheSameSeedWithRowsInDataOrder() {
        ConeGrid g = ConeGrid.defaults(3, 17L);
        Splits.TrainTest[] mine = g.parts(20);
        Splits.TrainTest[] select = Splits.kFold(20, 3, 17L);
        assertEquals(select.length, mine.length);
        for (int f = 0; f < mine.length; f++) {
            int[] te = select[f].test().clone();
            int[] tr = select[f].train().clone();
            Arrays.sort(te);
            Arrays.sort(tr);
            assertArrayEquals(te, mine[f].test());
            assertArrayEquals(tr, mine[f].train());
        }
        assertThrows(IllegalArgumentException.class, () -> g.parts(2));
    }

    /**
     * A trainer whose model predicts λ·x, so that the held-out squared error is smallest for λ = 2; a λ of 3 fails
     * numerically and must count as +∞.
     */
    @Test
    void picksTheLowestMeanScoreAndCountsFailuresAsInfinite() {
        Dataset data = line(12);
        Kernel k1 = new GaussianKernel(1);
        Kernel k2 = new GaussianKernel(2);
        ConeGrid g = new ConeGrid(List.of(k1, k2), new double[] {1, 2, 3}, 4, 5L);
        List<ProgressListener.Event> events = new ArrayList<>();
        Function<ConeGrid.Candidate, Trainer<Model>> trainers = c -> (raw, listener) -> {
            if (c.lambda() == 3) {
                throw new IllegalStateException("diverged");
            }
            Predictor p = new Predictor() {
                @Override
                public String type() {
                    return "line";
                }

                @Override
                public String[] outputColumns() {
                    return new String[] {"prediction"};
                }

                @Override
                public Matrix predict(Matrix x) {
                    Matrix out = Matrix.zeros(x.rows(), 1);
                    for (int i = 0; i < x.rows(); i++) {
                        out.set(i, 0, c.lambda() * x.get(i, 0) + (c.kernel() == k2 ? 0.5 : 0));
                    }
                    return out;
                }
            };
            return new Pipeline<>(ModelHeader.of("line", raw, null, c.kernel().spec(), Map.of()), p, Map.of());
        };
        ConeGrid.Outcome o = g.select(data, null, trainers, (m, test) -> {
            double s = 0;
            Matrix q = m.predict(test.x());
            for (int i = 0; i < test.n(); i++) {
                s += (q.get(i, 0) - test.y()[i]) * (q.get(i, 0) - test.y()[i]);
            }
            return s / test.n();
        }, events::add);
        assertEquals(k1, o.kernel());
        assertEquals(2.0, o.lambda());
        assertEquals(0.0, o.score());
        assertEquals(4, o.folds());
        assertEquals(6, o.table().size());
        ConeGrid.Point failed = o.table().get(2);
        assertEquals(3.0, failed.lambda());
        assertEquals(Double.POSITIVE_INFINITY, failed.score());
        assertTrue(Double.isNaN(failed.sd()));
        assertEquals(0.25, o.table().get(4).score(), 1e-15);
        // one "cv" event per fit; a failed point stops after its first fold
        assertEquals(2 * (2 * 4 + 1), events.size());
        assertEquals(2 * 3 * 4, events.get(0).total());
        assertTrue(events.stream().allMatch(e -> e.task().equals("cv")));
    }

    @Test
    void badGridsAreRejectedNamingTheParameter() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new ConeGrid(null, new double[] {0.1, -1}, 3, 0))
                .getMessage().startsWith("lambdas must be > 0"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> ConeGrid.defaults(1, 0))
                .getMessage().startsWith("folds must be >= 2"));
        assertThrows(IllegalArgumentException.class, () -> new ConeGrid(List.of(), null, 3, 0));
    }

    @Test
    void defaultGaussiansScaleWithTheSpread() {
        Matrix x = Matrix.column(new double[] {0, 10, 20, 30});
        List<Kernel> ks = ConeGrid.defaultGaussians(x);
        // spread = sd of {0, 10, 20, 30} = 12.9099…; σ = 0.1, 0.2, 0.5, 1 × spread to three digits
        assertEquals(List.of("gaussian(sigma=1.29)", "gaussian(sigma=2.58)", "gaussian(sigma=6.45)",
                "gaussian(sigma=12.9)"), ks.stream().map(Kernel::spec).toList());
    }
}
