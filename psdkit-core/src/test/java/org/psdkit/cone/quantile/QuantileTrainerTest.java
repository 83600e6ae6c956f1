package org.psdkit.cone.quantile;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.psdkit.data.Dataset;
import org.psdkit.data.Scaler;
import org.psdkit.kernel.GaussianKernel;
import org.psdkit.linalg.Matrix;
import org.psdkit.cone.ConeDualSolver;
import org.psdkit.cone.ConeGrid;
import org.psdkit.optim.ProgressListener;

class QuantileTrainerTest {

    static Dataset data(int n, long seed) {
        Random r = new Random(seed);
        double[][] x = new double[n][1];
        double[] y = new double[n];
        for (int i = 0; i < n; i++) {
            x[i][0] = r.nextDouble();
            y[i] = Math.sin(6 * x[i][0]) + (0.2 + x[i][0]) * r.nextGaussian();
        }
        return Dataset.of(Matrix.of(x), y);
    }

    private static QuantileRegression.Options options(double[] taus) {
        return new QuantileRegression.Options(taus, new GaussianKernel(0.2), 1e-2, 0.05,
                QuantileRegression.Method.PSD, false, 1, 0L, ConeDualSolver.Options.defaults().withGapTolerance(1e-3));
    }

    @Test
    void defaultGridChoosesAmongTheDefaultGaussiansAndLambdas() {
        Dataset raw = data(24, 2);
        double[] taus = {0.25, 0.5, 0.75};
        List<ProgressListener.Event> events = new ArrayList<>();
        QuantilePipeline m = new QuantileTrainer(options(taus)).crossValidated(ConeGrid.defaults(2, 1L))
                .fit(raw, events::add);
        int points = ConeGrid.DEFAULT_SIGMA_MULTIPLES.length * QuantileRegression.DEFAULT_LAMBDAS.length;
        assertEquals(points, m.selection().table().size());
        assertEquals(2, m.selection().folds());
        assertEquals(2L * points, events.stream().filter(e -> e.task().equals("cv")).count());
        assertTrue(m.selection().table().stream().anyMatch(p -> p.kernel().equals(m.header().kernelSpec())
                && p.lambda() == m.selection().lambda() && p.score() == m.selection().score()));
        assertEquals(List.of(0.25, 0.5, 0.75), m.hyperParameters().get("taus"));
        assertEquals(List.of("q0.25", "q0.5", "q0.75"), m.outputColumns());
        assertArrayEquals(taus, m.taus(), 0.0);
    }

    @Test
    void evaluateReportsPinballCoverageAndCrossingsOnTheDenseGrid() {
        Dataset raw = data(30, 3);
        QuantilePipeline m = new QuantileTrainer(options(new double[] {0.1, 0.9}).withScale(Scaler.Kind.ZSCORE))
                .fit(raw);
        assertNull(m.selection());
        Map<String, Object> ev = m.evaluate(raw).toMap();
        assertEquals(List.of("pinball", "pinball_total", "coverage", "crossings"), List.copyOf(ev.keySet()));
        @SuppressWarnings("unchecked")
        Map<String, Object> cr = (Map<String, Object>) ev.get("crossings");
        assertEquals(0L, cr.get("grid"));
        assertEquals(2000, cr.get("grid_points"));
        Matrix q = m.predict(raw.x());
        assertEquals(QuantileRegression.pinball(q, raw.y(), m.taus()), (double) ev.get("pinball_total"), 1e-12);
    }
}
