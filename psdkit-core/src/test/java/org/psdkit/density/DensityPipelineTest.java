package org.psdkit.density;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
import org.psdkit.linalg.Matrix;
import org.psdkit.optim.ProgressListener;
import org.psdkit.psd.Anchors;
import org.psdkit.psd.Nystrom;

/** The density of raw inputs: Jacobian of the scaler, un-scaled samples, evaluation keys, trainer checks. */
class DensityPipelineTest {

    /** n points of N(100, 5²) in 1-D, with a target column that density fits ignore. */
    private static Dataset shifted(int n, long seed) {
        Random r = new Random(seed);
        double[][] x = new double[n][1];
        double[] y = new double[n];
        for (int i = 0; i < n; i++) {
            x[i][0] = 100 + 5 * r.nextGaussian();
            y[i] = r.nextGaussian();
        }
        return Dataset.of(Matrix.of(x), y);
    }

    /** ∫ p over [lo, hi] by 400-node Gauss–Legendre. */
    private static double integrate(DensityPipeline m, double lo, double hi) {
        double[][] gl = KernelIntegrals.gaussLegendre(400);
        Matrix nodes = Matrix.zeros(400, 1);
        for (int q = 0; q < 400; q++) {
            nodes.set(q, 0, 0.5 * (lo + hi) + 0.5 * (hi - lo) * gl[0][q]);
        }
        double[] p = m.density(nodes);
        double s = 0;
        for (int q = 0; q < 400; q++) {
            s += 0.5 * (hi - lo) * gl[1][q] * p[q];
        }
        return s;
    }

    @Test
    void rawDensityCarriesTheJacobianAndIntegratesToOne() {
        Dataset data = shifted(30, 1);
        DensityPipeline m = new PsdDensityTrainer(PsdDensityTrainer.Options.of(new GaussianKernel(0.7),
                new BaseMeasure.Lebesgue(), PsdDensityOptions.of(1e-3, 0.01).withTolerance(1e-6))
                .withScale(Scaler.Kind.ZSCORE)).fit(data);
        Scaler s = m.header().scaler();
        assertEquals(-Math.log(s.scale()[0]), m.logJacobian(), 1e-15);
        double[] z = m.inner().density(s.apply(Matrix.of(new double[][] {{100}})));
        assertEquals(z[0] / s.scale()[0], m.predict(new double[] {100})[0], 1e-15 * z[0]);
        // without the Jacobian the raw density would integrate to scale ≈ 5
        assertEquals(1.0, integrate(m, 60, 140), 1e-6);
        assertEquals(1.0, m.integral(), 1e-9);
        assertEquals(null, m.targetName());
        assertEquals("y", m.header().targetName());
        assertTrue(m.unsupervised());
    }

    @Test
    void samplesAreInRawCoordinates() {
        Dataset data = shifted(40, 2);
        DensityPipeline m = new KdeTrainer(KdeTrainer.Options.fixed(0.3).withScale(Scaler.Kind.ZSCORE)).fit(data);
        assertTrue(m.samplable());
        Matrix draws = m.sample(2000, 5);
        double mean = 0;
        for (int i = 0; i < draws.rows(); i++) {
            mean += draws.get(i, 0) / draws.rows();
        }
        double dataMean = 0;
        for (int i = 0; i < data.n(); i++) {
            dataMean += data.x().get(i, 0) / data.n();
        }
        // the KDE's mean is the data mean; 2000 draws of sd ≈ 5 put the sample mean within 0.5 of it
        assertEquals(dataMean, mean, 0.5);
        assertEquals(draws.get(7, 0), m.sample(2000, 5).get(7, 0), 0.0);
        assertThrows(IllegalArgumentException.class, () -> m.sample(0, 1));
    }

    @Test
    void evaluateReportsTheFourKeysAndPnmRefusesToSample() {
        Dataset data = shifted(25, 3);
        DensityPipeline pnm = new PnmDensityTrainer(BaselineOptions.of(new GaussianKernel(0.5),
                new BaseMeasure.Lebesgue(), 1e-4).withTolerance(1e-6).withMaxIterations(20000)
                .withScale(Scaler.Kind.ZSCORE)).fit(data);
        double[][] grid = new double[201][1];
        for (int i = 0; i < grid.length; i++) {
            grid[i][0] = 70 + 60.0 * i / 200;
        }
        Map<String, Object> e = pnm.evaluate(Dataset.of(Matrix.of(grid), null)).toMap();
        assertEquals(List.of("loglik", "integral", "min_density", "negative_fraction"), List.copyOf(e.keySet()));
        assertTrue((double) e.get("negative_fraction") > 0, "PNM goes negative away from the data");
        assertTrue((double) e.get("min_density") < 0);
        assertEquals(Double.NEGATIVE_INFINITY, (double) e.get("loglik"), 0);
        assertEquals(1.0, (double) e.get("integral"), 1e-6);
        assertFalse(pnm.samplable());
        IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, () -> pnm.sample(5, 1));
        assertEquals("cannot sample exactly from a pnm-density model (PNM can be negative; GLM's normaliser is only a "
                + "Monte-Carlo estimate)", ex.getMessage());
        Map<String, Double> held = DensityPipeline.heldOutScores(pnm, Dataset.of(Matrix.of(grid), null));
        assertTrue(held.get(DensityPipeline.HELD_OUT_LOGLIK) > Math.log(DensityPipeline.DENSITY_FLOOR));
        assertTrue(Double.isFinite(held.get(DensityPipeline.HELD_OUT_LOGLIK)));
    }

    @Test
    void psdTrainerReportsEachFistaIterationWithItsGap() {
        List<ProgressListener.Event> events = new ArrayList<>();
        DensityPipeline m = new PsdDensityTrainer(new PsdDensityTrainer.Options(new GaussianKernel(0.7),
                new BaseMeasure.Lebesgue(), PsdDensityOptions.of(1e-3, 0.01).withTolerance(1e-5)
                .withMaxIterations(5000), Nystrom.of(10, Anchors.Method.UNIFORM, 4), Scaler.Kind.ZSCORE))
                .fit(shifted(30, 4), events::add);
        assertFalse(events.isEmpty());
        ProgressListener.Event last = events.get(events.size() - 1);
        assertEquals("density", last.task());
        assertEquals("gap", last.measure());
        assertTrue(Double.isFinite(last.value()) && last.value() >= 0, "gap " + last.value());
        assertTrue(last.step() >= 1 && last.step() <= ((DensityDiagnostics) m.diagnostics()).iterations());
        assertEquals("10", m.hyperParameters().get("anchors"));
        assertEquals(10, ((PsdDensity) m.inner()).points().rows());
    }

    @Test
    void trainersCheckTheirOptionsByParameterName() {
        GaussianKernel k = new GaussianKernel(1);
        BaseMeasure leb = new BaseMeasure.Lebesgue();
        assertEquals("lambda must be > 0 and finite, got -1.0", assertThrows(IllegalArgumentException.class,
                () -> new NcmDensityTrainer(BaselineOptions.of(k, leb, -1))).getMessage());
        assertEquals("tolerance must be > 0, got 0.0", assertThrows(IllegalArgumentException.class,
                () -> new PnmDensityTrainer(BaselineOptions.of(k, leb, 1e-3).withTolerance(0))).getMessage());
        assertEquals("anchors must be >= 0, got -2", assertThrows(IllegalArgumentException.class,
                () -> new PsdDensityTrainer(PsdDensityTrainer.Options.of(k, leb, PsdDensityOptions.of(1e-3, 0.01))
                        .withNystrom(Nystrom.of(-2, Anchors.Method.UNIFORM, 1)))).getMessage());
        assertEquals("bandwidth must be > 0, got 0.0", assertThrows(IllegalArgumentException.class,
                () -> new KdeTrainer(KdeTrainer.Options.fixed(0.0))).getMessage());
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new GlmDensityTrainer(BaselineOptions.of(k,
                leb, 1e-3))).getMessage().contains("probability measure"));
    }
}
