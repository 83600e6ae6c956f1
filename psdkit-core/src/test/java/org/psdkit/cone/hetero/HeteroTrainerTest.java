package org.psdkit.cone.hetero;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.psdkit.data.Dataset;
import org.psdkit.data.Scaler;
import org.psdkit.kernel.GaussianKernel;
import org.psdkit.kernel.Kernel;
import org.psdkit.linalg.Matrix;
import org.psdkit.cone.ConeDualSolver;
import org.psdkit.cone.ConeGrid;
import org.psdkit.optim.ProgressListener;

class HeteroTrainerTest {

    /** y = x + noise whose standard deviation grows with x, on x in [0, 10] (raw units, so scaling matters). */
    static Dataset data(int n, long seed) {
        Random r = new Random(seed);
        double[][] x = new double[n][1];
        double[] y = new double[n];
        for (int i = 0; i < n; i++) {
            x[i][0] = 10 * r.nextDouble();
            y[i] = x[i][0] + (0.1 + 0.1 * x[i][0]) * r.nextGaussian();
        }
        return Dataset.of(Matrix.of(x), y);
    }

    private static HeteroscedasticRegression.Options options() {
        return new HeteroscedasticRegression.Options(new GaussianKernel(1), 1, 0.05,
                HeteroscedasticRegression.Method.PSD, 1, 0L, ConeDualSolver.Options.defaults().withGapTolerance(1e-3));
    }

    @Test
    void crossValidatesOnTheScaledRowsThenFitsTheWinner() {
        Dataset raw = data(30, 3);
        List<Kernel> ks = List.of(new GaussianKernel(0.3), new GaussianKernel(1));
        ConeGrid grid = new ConeGrid(ks, new double[] {1e-1, 1e-2}, 2, 7L);
        List<ProgressListener.Event> events = new ArrayList<>();
        HeteroPipeline m = new HeteroTrainer(options().withScale(Scaler.Kind.ZSCORE)).crossValidated(grid)
                .fit(raw, events::add);

        // the same selection and fit, step by step
        Scaler s = Scaler.fit(Scaler.Kind.ZSCORE, raw.x());
        Dataset scaled = s.apply(raw);
        ConeGrid.Outcome sel = HeteroscedasticRegression.select(scaled.x(), scaled.y(), options(), ks,
                new double[] {1e-1, 1e-2}, 2, 7L);
        HeteroModel direct = HeteroscedasticRegression.fit(scaled.x(), scaled.y(),
                options().with(sel.kernel(), sel.lambda()));

        assertEquals(sel.table(), m.selection().table());
        assertEquals(sel.kernel().spec(), m.header().kernelSpec());
        assertEquals(Map.of("method", "psd", "lambda", sel.lambda(), "frobeniusWeight", 0.05), m.hyperParameters().toMap());
        assertEquals(List.of("mean", "variance"), m.outputColumns());
        Matrix probe = Matrix.column(new double[] {0.5, 5, 9.5});
        assertArrayEquals(direct.predict(s.apply(probe)).data(), m.predict(probe).data(), 0.0);
        assertEquals(List.of("iterations", "primal", "dual", "gap", "relative_gap", "infeasibility", "converged", "restarts",
                "seconds", "rank", "rank_threshold", "anchors"), List.copyOf(m.diagnostics().toMap().keySet()));

        // progress: one "cv" event per fit of the grid (4 points × 2 folds), then the solver's iterations
        List<ProgressListener.Event> cv = events.stream().filter(e -> e.task().equals("cv")).toList();
        assertEquals(8, cv.size());
        assertEquals(8, cv.get(7).step());
        assertEquals(8, cv.get(7).total());
        assertTrue(events.stream().anyMatch(e -> e.task().equals("cone") && e.measure().startsWith("gap")));
        assertEquals("cv", events.get(0).task());
    }

    @Test
    void withoutAGridTheOptionsAreFittedAsGiven() {
        HeteroPipeline m = new HeteroTrainer(options()).fit(data(20, 4));
        assertNull(m.selection());
        assertEquals("gaussian(sigma=1)", m.header().kernelSpec());
        assertEquals(1.0, m.hyperParameters().get("lambda"));
        Map<String, Object> ev = m.evaluate(data(20, 5)).toMap();
        assertEquals(List.of("nll", "rmse", "min_variance", "min_variance_grid"), List.copyOf(ev.keySet()));
        assertTrue((double) ev.get("min_variance_grid") > 0);
    }

    @Test
    void needsANumericTarget() {
        Dataset unsupervised = Dataset.of(data(10, 1).x(), null);
        assertThrows(IllegalArgumentException.class,
                () -> new HeteroTrainer(options()).fit(unsupervised));
        assertThrows(IllegalArgumentException.class, () -> new HeteroTrainer(null));
    }
}
