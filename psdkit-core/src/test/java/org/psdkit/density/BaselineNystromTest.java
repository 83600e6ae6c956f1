package org.psdkit.density;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.psdkit.psd.NystromChecks.assertClose;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.psdkit.data.Dataset;
import org.psdkit.data.Scaler;
import org.psdkit.io.ModelIO;
import org.psdkit.kernel.GaussianKernel;
import org.psdkit.linalg.Matrix;
import org.psdkit.model.Trainer;
import org.psdkit.psd.Anchors;
import org.psdkit.psd.Nystrom;

/** Nyström anchors for the density baselines NCM, PNM, GLM (Marteau-Ferey, Bach &amp; Rudi 2020 App. D, B.5). */
class BaselineNystromTest {
    private static final int N = 40;
    private final Matrix x = Mixtures.fig1().sample(N, 3);
    private final Matrix test = Mixtures.fig1().sample(200, 4);
    private final GaussianKernel k = new GaussianKernel(0.5);
    private final BaseMeasure box = BaseMeasure.parse("box(a=-3,b=3)", 1);

    private List<Trainer<DensityPipeline>> trainers(Nystrom ny) {
        return trainers(ny, 1e-10, 50000);
    }

    private List<Trainer<DensityPipeline>> trainers(Nystrom ny, double tol, int maxIter) {
        BaselineOptions o = new BaselineOptions(k, box, 1e-3, tol, maxIter, 5L, Scaler.Kind.NONE, ny);
        return List.of(new NcmDensityTrainer(o), new PnmDensityTrainer(o),
                new GlmDensityTrainer(o.withTolerance(10 * tol)));
    }

    @Test
    void withEveryPointAsAnchorEachBaselineEqualsTheExactModel() {
        Dataset d = Dataset.of(x, null);
        List<Trainer<DensityPipeline>> exact = trainers(Nystrom.exact());
        List<Trainer<DensityPipeline>> all = trainers(Nystrom.of(N, Anchors.Method.UNIFORM, 9L));
        for (int t = 0; t < exact.size(); t++) {
            DensityPipeline e = exact.get(t).fit(d);
            DensityPipeline a = all.get(t).fit(d);
            assertEquals(N, ((LinearOrGlm) () -> a).points().rows());
            // the solvers stop at tolerance 1e-10 (1e-9 for GLM's gradient norm): the fits agree to 1e-6
            assertClose(e.density(test), a.density(test), 1e-6, e.type());
        }
    }

    @Test
    void anchorsAreSeededAndNystromFitsStayNormalisedDensities() {
        Dataset d = Dataset.of(x, null);
        Nystrom ny = Nystrom.of(12, Anchors.Method.KMEANSPP, 7L);
        List<Trainer<DensityPipeline>> one = trainers(ny, 1e-9, 20000);
        List<Trainer<DensityPipeline>> two = trainers(ny, 1e-9, 20000);
        List<Trainer<DensityPipeline>> other = trainers(Nystrom.of(12, Anchors.Method.KMEANSPP, 8L), 1e-4, 200);
        for (int t = 0; t < one.size(); t++) {
            DensityPipeline a = one.get(t).fit(d);
            DensityPipeline b = two.get(t).fit(d);
            DensityPipeline c = other.get(t).fit(d);
            Matrix pa = ((LinearOrGlm) () -> a).points();
            assertEquals(12, pa.rows());
            assertArrayEquals(pa.data(), ((LinearOrGlm) () -> b).points().data(), 0.0);
            assertFalse(java.util.Arrays.equals(pa.data(), ((LinearOrGlm) () -> c).points().data()));
            assertArrayEquals(a.density(test), b.density(test), 0.0);
            if (!a.type().equals(Baselines.GLM)) { // GLM's integral is a Monte-Carlo estimate
                assertEquals(1.0, a.inner().integral(), 1e-8, a.type());
            }
            assertEquals("12", a.header().hyperParameters().get("anchors"));
        }
    }

    @Test
    void nystromModelsRoundTripThroughModelFiles(@TempDir Path dir) throws Exception {
        Dataset d = Dataset.of(x, null);
        for (Trainer<DensityPipeline> tr : trainers(Nystrom.of(10, Anchors.Method.RPCHOLESKY, 2L), 1e-5, 2000)) {
            DensityPipeline m = tr.fit(d);
            Path f = dir.resolve(m.type() + ".json");
            ModelIO.save(m, f);
            DensityPipeline back = ModelIO.load(f, DensityPipeline.class);
            assertArrayEquals(m.density(test), back.density(test), 1e-12 * 10, m.type());
            assertEquals(10, ((LinearOrGlm) () -> back).points().rows());
            assertTrue(Files.size(f) > 0);
        }
    }

    /** The expansion points of a baseline density pipeline. */
    @FunctionalInterface
    private interface LinearOrGlm {
        DensityPipeline pipeline();

        default Matrix points() {
            DensityModel m = pipeline().inner();
            return m instanceof LinearDensity l ? l.points() : ((GlmDensity) m).points();
        }
    }
}
