package org.psdkit.psd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;
import org.psdkit.cone.ConeDualSolver;
import org.psdkit.cone.hetero.HeteroTrainer;
import org.psdkit.cone.hetero.HeteroscedasticRegression;
import org.psdkit.data.Dataset;
import org.psdkit.data.Scaler;
import org.psdkit.density.BaseMeasure;
import org.psdkit.density.BaselineOptions;
import org.psdkit.density.GlmDensityTrainer;
import org.psdkit.density.NcmDensityTrainer;
import org.psdkit.density.PnmDensityTrainer;
import org.psdkit.kernel.GaussianKernel;
import org.psdkit.linalg.Linalg;
import org.psdkit.linalg.Matrix;
import org.psdkit.linalg.MemoryBudget;
import org.psdkit.regression.psd.BaselineTrainer;
import org.psdkit.regression.psd.Baselines;

/**
 * Nyström fits at n = 20,000 with m = 50 anchors never allocate an n×n matrix: every {@code Matrix.zeros} on the
 * fitting thread is held to 64·n entries (an n×n matrix has 20,000·n) by {@link MemoryBudget#guardEntries}.
 */
class NystromMemoryTest {
    private static final int N = 20_000;
    private static final int M = 50;
    private static final long LIMIT = 64L * N;

    private static Dataset data() {
        Random r = new Random(1);
        double[][] x = new double[N][2];
        double[] y = new double[N];
        for (int i = 0; i < N; i++) {
            x[i][0] = r.nextGaussian();
            x[i][1] = r.nextGaussian();
            y[i] = Math.exp(Math.sin(x[i][0])) + 0.1 * r.nextGaussian();
        }
        return Dataset.of(Matrix.of(x), y);
    }

    @Test
    void nystromFitsAtTwentyThousandPointsStayBelowNTimesSixtyFourEntries() {
        Dataset d = data();
        GaussianKernel k = new GaussianKernel(0.7);
        Nystrom ny = Nystrom.of(M, Anchors.Method.KMEANSPP, 3L);
        BaseMeasure box = BaseMeasure.parse("box(a=-6,b=6)", 2);
        Baselines.Options ro = new Baselines.Options(1e-3, 1e-6, 5, Double.POSITIVE_INFINITY, 1L);
        try (MemoryBudget.Guard g = MemoryBudget.guardEntries(LIMIT)) {
            Matrix anchors = ny.select(k, d.x());
            EmpiricalFeatureMap map = EmpiricalFeatureMap.nystrom(k, anchors, d.x(), 1e-8);
            assertEquals(N, map.size());
            assertEquals(M, map.expansionPoints());
            BaselineOptions bo = new BaselineOptions(k, box, 1e-3, 1e-6, 5, 1L, Scaler.Kind.NONE, ny);
            new NcmDensityTrainer(bo).fit(d);
            new PnmDensityTrainer(bo).fit(d);
            new GlmDensityTrainer(bo).fit(d);
            for (BaselineTrainer.Method method : BaselineTrainer.Method.values()) {
                new BaselineTrainer(new BaselineTrainer.Options(method, k, ro, ny, Scaler.Kind.NONE)).fit(d);
            }
            HeteroscedasticRegression.Options ho = new HeteroscedasticRegression.Options(k, 1e-2, 0.05,
                    HeteroscedasticRegression.Method.PSD, 1, 0L, new ConeDualSolver.Options(1e-4, 1e-4, 20, 10),
                    new Nystrom(M, Anchors.Method.KMEANSPP, 3L, PsdOptions.DEFAULT_RANK_THRESHOLD));
            new HeteroTrainer(ho).fit(d);
        }
    }

    @Test
    void theGuardCatchesAnNByNMatrixAndStreamedFeaturesEqualTheOneShotProduct() {
        Dataset d = data();
        GaussianKernel k = new GaussianKernel(0.7);
        try (MemoryBudget.Guard g = MemoryBudget.guardEntries(LIMIT)) {
            assertThrows(IllegalStateException.class, () -> k.gram(d.x()));
        }
        // 20,000 rows are 3 blocks of 8,192 at m = 64: the streamed features equal Σ^{-1/2}Uᵀ K(anchors, x) at once
        Matrix anchors = d.x().selectRows(Anchors.select(k, d.x(), 64, Anchors.Method.UNIFORM, 2L));
        assertTrue(EmpiricalFeatureMap.blockRows(64) < N);
        EmpiricalFeatureMap map = EmpiricalFeatureMap.nystrom(k, anchors, d.x(), 1e-8);
        Matrix streamed = map.trainingFeatures();
        Matrix t = map.coefficientFactor(Matrix.identity(map.rank()));
        Matrix once = Linalg.gemm(1.0, t, true, k.cross(anchors, d.x()), false);
        double diff = 0;
        double scale = 0;
        for (int i = 0; i < once.data().length; i++) {
            diff = Math.max(diff, Math.abs(once.data()[i] - streamed.data()[i]));
            scale = Math.max(scale, Math.abs(once.data()[i]));
        }
        assertTrue(diff <= 1e-9 * scale, "difference " + diff + " at scale " + scale);
    }
}
