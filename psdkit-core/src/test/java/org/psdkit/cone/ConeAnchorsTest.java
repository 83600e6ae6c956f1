package org.psdkit.cone;

import org.psdkit.psd.Nystrom;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;
import org.psdkit.cone.hetero.HeteroPipeline;
import org.psdkit.cone.hetero.HeteroTrainer;
import org.psdkit.cone.hetero.HeteroscedasticRegression;
import org.psdkit.cone.quantile.QuantilePipeline;
import org.psdkit.cone.quantile.QuantileRegression;
import org.psdkit.cone.quantile.QuantileTrainer;
import org.psdkit.data.Dataset;
import org.psdkit.data.Scaler;
import org.psdkit.io.ModelIO;
import org.psdkit.kernel.GaussianKernel;
import org.psdkit.linalg.Matrix;
import org.psdkit.model.Model;
import org.psdkit.psd.Anchors;
import org.psdkit.psd.PsdOptions;

/** The Nyström layer of the cone families (hetero, quantile). */
class ConeAnchorsTest {

    private static final double TIGHT_GAP = 1e-8;

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

    private static ConeDualSolver.Options solver(double gap) {
        return ConeDualSolver.Options.defaults().withGapTolerance(gap);
    }

    private static QuantilePipeline quantile(Dataset d, Nystrom ny, double gap) {
        QuantileRegression.Options o = new QuantileRegression.Options(new double[] {0.1, 0.5, 0.9},
                new GaussianKernel(0.2), 1e-2, 0.05, QuantileRegression.Method.PSD, false, 1, 0L, solver(gap), ny);
        return new QuantileTrainer(o).fit(d);
    }

    private static HeteroPipeline hetero(Dataset d, Nystrom ny, double gap) {
        HeteroscedasticRegression.Options o = new HeteroscedasticRegression.Options(new GaussianKernel(0.2), 1e-2,
                0.05, HeteroscedasticRegression.Method.PSD, 1, 0L, solver(gap), ny);
        return new HeteroTrainer(o).fit(d);
    }

    private static Matrix grid(int k) {
        double[][] g = new double[k][1];
        for (int i = 0; i < k; i++) {
            g[i][0] = -0.5 + 2.0 * i / (k - 1);
        }
        return Matrix.of(g);
    }

    private static void assertClose(Matrix a, Matrix b, double tol) {
        double scale = 0;
        double diff = 0;
        for (int i = 0; i < a.data().length; i++) {
            scale = Math.max(scale, Math.abs(a.data()[i]));
            diff = Math.max(diff, Math.abs(a.data()[i] - b.data()[i]));
        }
        assertTrue(diff <= tol * Math.max(1, scale), "max difference " + diff + " at scale " + scale);
    }

    @Test
    void withEveryPointAsAnchorEachFamilyEqualsTheExactModel() {
        Dataset d = data(40, 1);
        Nystrom all = new Nystrom(40, Anchors.Method.UNIFORM, 3L, PsdOptions.DEFAULT_RANK_THRESHOLD);
        Matrix g = grid(101);
        assertClose(quantile(d, Nystrom.exact(), TIGHT_GAP).predict(g), quantile(d, all, TIGHT_GAP).predict(g),
                1e-3);
        assertClose(hetero(d, Nystrom.exact(), TIGHT_GAP).predict(g), hetero(d, all, TIGHT_GAP).predict(g),
                1e-3);
    }

    @Test
    void nystromQuantilesNeverCrossAndReportTheFeatureSpace() {
        Dataset d = data(200, 2);
        for (Anchors.Method m : Anchors.Method.values()) {
            QuantilePipeline q = quantile(d, new Nystrom(15, m, 5L, 1e-8), 1e-4);
            Matrix p = q.predict(grid(2001));
            for (int i = 0; i < p.rows(); i++) {
                assertTrue(p.get(i, 0) <= p.get(i, 1) && p.get(i, 1) <= p.get(i, 2), m + " crossing at row " + i);
            }
            Diagnostics dg = q.inner().diagnostics();
            assertEquals(15, dg.anchors());
            assertTrue(dg.rank() > 0 && dg.rank() <= 15);
            assertEquals(1e-8, dg.rankThreshold());
            assertEquals(15, q.points().rows());
        }
    }

    @Test
    void nystromModelsRoundTripThroughTheExistingCodecs() throws Exception {
        Dataset d = data(120, 4);
        Nystrom ny = new Nystrom(12, Anchors.Method.KMEANSPP, 7L, 1e-8);
        Model[] models = {quantile(d, ny, 1e-4), hetero(d, ny, 1e-4)};
        Matrix g = grid(50);
        for (Model m : models) {
            java.nio.file.Path f = java.nio.file.Files.createTempFile("psdkit-nys", ".json");
            try {
                ModelIO.save(m, f);
                Model back = ModelIO.load(f);
                if (m instanceof QuantilePipeline q) {
                    assertClose(q.predict(g), ((QuantilePipeline) back).predict(g), 1e-12);
                } else {
                    assertClose(((HeteroPipeline) m).predict(g), ((HeteroPipeline) back).predict(g), 1e-12);
                }
            } finally {
                java.nio.file.Files.deleteIfExists(f);
            }
        }
    }

    @Test
    void sameSeedSameModelAndAnchorsOnlyForPsd() {
        Dataset d = data(80, 5);
        Nystrom ny = new Nystrom(10, Anchors.Method.RPCHOLESKY, 11L, 1e-8);
        assertClose(hetero(d, ny, 1e-4).predict(grid(20)), hetero(d, ny, 1e-4).predict(grid(20)), 0.0);
        assertThrows(IllegalArgumentException.class, () -> new QuantileRegression.Options(new double[] {0.5},
                new GaussianKernel(0.2), 1e-2, 0.05, QuantileRegression.Method.NCM, false, 1, 0L, solver(1e-4), ny));
        assertThrows(IllegalArgumentException.class, () -> new Nystrom(-1, Anchors.Method.UNIFORM, 0L, 1e-8));
        assertThrows(IllegalArgumentException.class, () -> new Nystrom(5, Anchors.Method.UNIFORM, 0L, 0));
    }

    /**
     * The reported relative gap and the convergence test share one definition ((P − D)/(1 + |P|),
     * ConeDualSolver.relativeGap): converged == (relative_gap ≤ tol and infeasibility ≤ feasibility tol), both for a
     * fit that converges and for one stopped by its iteration budget (whose gap is that of the returned iterate).
     */
    @Test
    void convergedIsExactlyTheRelativeGapAtMostTheTolerance() {
        Dataset d = data(40, 2);
        double tol = 1e-3;
        for (int maxIter : new int[] {7, 20000}) {
            ConeDualSolver.Options so = new ConeDualSolver.Options(tol,
                    ConeDualSolver.Options.DEFAULT_FEASIBILITY_TOLERANCE, maxIter,
                    ConeDualSolver.Options.DEFAULT_CHECK_EVERY);
            QuantileRegression.Options qo = new QuantileRegression.Options(new double[] {0.25, 0.75},
                    new GaussianKernel(0.2), 1e-2, 0.05, QuantileRegression.Method.PSD, false, 1, 0L, so,
                    new Nystrom(20, Anchors.Method.UNIFORM, 1L, PsdOptions.DEFAULT_RANK_THRESHOLD));
            HeteroscedasticRegression.Options ho = new HeteroscedasticRegression.Options(new GaussianKernel(0.2),
                    1e-2, 0.05, HeteroscedasticRegression.Method.PSD, 1, 0L, so, Nystrom.exact());
            for (java.util.Map<String, Object> diag : java.util.List.of(
                    new QuantileTrainer(qo).fit(d).diagnostics().toMap(),
                    new HeteroTrainer(ho).fit(d).diagnostics().toMap())) {
                Diagnostics dg = Diagnostics.fromMap(diag);
                double rel = ((Number) diag.get("relative_gap")).doubleValue();
                assertEquals(dg.gap() / (1 + Math.abs(dg.primal())), rel, 1e-15 * Math.max(1, Math.abs(rel)));
                assertEquals(dg.primal() - dg.dual(), dg.gap(), 1e-12 * (1 + Math.abs(dg.primal())));
                boolean rule = rel <= tol && dg.infeasibility() <= ConeDualSolver.Options.DEFAULT_FEASIBILITY_TOLERANCE;
                assertEquals(rule, dg.converged(), "max-iter " + maxIter + ": relative gap " + rel);
                assertEquals(maxIter > 7, dg.converged(), "max-iter " + maxIter + ": relative gap " + rel);
            }
        }
    }
}
