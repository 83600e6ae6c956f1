package org.psdkit.regression.psd;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.psdkit.psd.NystromChecks.assertClose;

import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.psdkit.data.Dataset;
import org.psdkit.data.Scaler;
import org.psdkit.io.ModelIO;
import org.psdkit.kernel.GaussianKernel;
import org.psdkit.linalg.Matrix;
import org.psdkit.psd.Anchors;
import org.psdkit.psd.Nystrom;

/** Nyström anchors for the regression baselines NCM, PNM, GLM (Marteau-Ferey, Bach &amp; Rudi 2020 App. D, B.5). */
class BaselineNystromTest {
    private static final int N = 40;
    private final GaussianKernel k = new GaussianKernel(0.5);

    private static Dataset data() {
        Random r = new Random(4);
        Matrix x = BaselinesTest.data(N, r);
        double[] y = new double[N];
        for (int i = 0; i < N; i++) {
            y[i] = Math.exp(Math.sin(2 * x.get(i, 0))) + 0.1 * r.nextGaussian();
        }
        return Dataset.of(x, y);
    }

    private NonNegativeRegressionModel<KernelExpansionModel> fit(BaselineTrainer.Method method, Nystrom ny) {
        return fit(method, ny, 1e-9, 20000);
    }

    private NonNegativeRegressionModel<KernelExpansionModel> fit(BaselineTrainer.Method method, Nystrom ny,
                                                                  double tol, int maxIter) {
        Baselines.Options o = new Baselines.Options(1e-3, tol, maxIter, Double.POSITIVE_INFINITY, 1L);
        return new BaselineTrainer(new BaselineTrainer.Options(method, k, o, ny, Scaler.Kind.NONE)).fit(data());
    }

    private static Matrix grid() {
        return PsdRegressionTest.uniform(300, 1, -2, 2, new Random(5));
    }

    @Test
    void withEveryPointAsAnchorEachBaselineEqualsTheExactModel() {
        for (BaselineTrainer.Method method : BaselineTrainer.Method.values()) {
            NonNegativeRegressionModel<KernelExpansionModel> e = fit(method, Nystrom.exact());
            NonNegativeRegressionModel<KernelExpansionModel> a = fit(method, Nystrom.of(N, Anchors.Method.UNIFORM,
                    3L));
            assertEquals(N, a.inner().points().rows());
            // stopped at a relative residual / gap of 1e-9; PNM's features also drop K's eigenvalues below 1e-8·λ_max
            assertClose(e.predict(grid()).col(0), a.predict(grid()).col(0), 1e-6, method.type());
        }
    }

    @Test
    void anchorsAreSeededAndModelsRoundTripThroughModelFiles(@TempDir Path dir) {
        for (BaselineTrainer.Method method : BaselineTrainer.Method.values()) {
            NonNegativeRegressionModel<KernelExpansionModel> a = fit(method, Nystrom.of(12, Anchors.Method.RPCHOLESKY,
                    7L), 1e-4, 500);
            NonNegativeRegressionModel<KernelExpansionModel> b = fit(method, Nystrom.of(12, Anchors.Method.RPCHOLESKY,
                    7L), 1e-4, 500);
            NonNegativeRegressionModel<KernelExpansionModel> c = fit(method, Nystrom.of(12, Anchors.Method.RPCHOLESKY,
                    8L), 1e-4, 500);
            assertEquals(12, a.inner().points().rows());
            assertEquals(12, a.inner().coefficients().length);
            assertArrayEquals(a.inner().points().data(), b.inner().points().data(), 0.0);
            assertFalse(java.util.Arrays.equals(a.inner().points().data(), c.inner().points().data()));
            assertArrayEquals(a.predict(grid()).col(0), b.predict(grid()).col(0), 0.0);
            Path f = dir.resolve(method.type() + ".json");
            ModelIO.save(a, f);
            assertArrayEquals(a.predict(grid()).col(0), ModelIO.load(f).predict(grid()).col(0), 1e-12);
            assertEquals(12, ((Number) a.header().hyperParameters().get("anchors")).intValue());
        }
    }
}
