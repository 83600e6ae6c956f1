package org.psdkit.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.psdkit.classify.SvmTrainer;
import org.psdkit.data.Dataset;
import org.psdkit.data.Scaler;
import org.psdkit.kernel.Kernels;
import org.psdkit.model.Diagnostics;
import org.psdkit.model.HyperParameters;
import org.psdkit.model.Model;
import org.psdkit.psd.Anchors;
import org.psdkit.psd.Nystrom;
import org.psdkit.regression.KrrHyperParameters;
import org.psdkit.regression.nystrom.NystromKrrTrainer;

/**
 * Every model type's fitted model holds its family's typed {@link HyperParameters} and {@link Diagnostics} records,
 * not the {@link HyperParameters.Recorded} / {@link Diagnostics.Recorded} holders, after the fit and after a
 * {@link ModelIO} round trip, with the same classes and the same maps (issue 29, point 2). Every type of
 * {@link ModelIO#types()} must have a case here, so a new family without its records fails.
 */
class FamilyRecordsTest {

    /** Types whose model files hold no options (the KDE's bandwidth is one of its numbers). */
    static final Set<String> NO_HYPER_PARAMETERS = Set.of("kde");
    /** Types whose fits report nothing (ridge files have never had diagnostics; a KDE has no solver). */
    static final Set<String> NO_DIAGNOSTICS = Set.of("ridge", "kde");

    /** The round-trip cases of every family, plus the routes that record other keys. */
    static Map<String, ModelRoundTripTest.Case> cases() {
        Map<String, ModelRoundTripTest.Case> c = new LinkedHashMap<>();
        ModelRoundTripTest.FAMILIES.forEach((name, f) -> c.put(name, f.apply(7)));
        Dataset reg = ModelRoundTripTest.regression(7, 40, 2);
        NystromKrrTrainer.Options ny = NystromKrrTrainer.Options.of(Kernels.parse("gaussian(sigma=0.7)"), 1e-2, 10, 3)
                .withNystrom(Nystrom.of(10, Anchors.Method.RLS, 3)).withScale(Scaler.Kind.ZSCORE);
        c.put("krr nystrom", new ModelRoundTripTest.Case(new NystromKrrTrainer(ny), reg));
        double[] w = new double[reg.n()];
        java.util.Arrays.fill(w, 1.5);
        c.put("krr nystrom weighted", new ModelRoundTripTest.Case(new NystromKrrTrainer(ny), reg.withWeights(w)));
        c.put("svm one-vs-one", new ModelRoundTripTest.Case(new SvmTrainer(SvmTrainer.Options.of(
                Kernels.parse("gaussian(sigma=0.8)"), 5).withProbability(true).withScale(Scaler.Kind.ZSCORE)),
                threeClasses(30)));
        c.put("tk-svm one-vs-one", new ModelRoundTripTest.Case(new org.psdkit.classify.mkl.LearnedOneVsOne(new org.psdkit.classify.mkl.TkSvmTrainer(
                org.psdkit.classify.mkl.TkSvmTrainer.Options.of(10, 0.1, 1))), threeClasses(16)));
        return c;
    }

    /** n rows of two features in three classes (every class present). */
    static Dataset threeClasses(int n) {
        Dataset two = ModelRoundTripTest.classes(7, n, 2);
        double[] y = two.y().clone();
        for (int i = 0; i < y.length; i += 3) {
            y[i] = 2;
        }
        return Dataset.of(two.x(), y);
    }

    @Test
    void everyTypeHasTypedRecordsAfterFitAndRoundTrip(@TempDir Path dir) throws IOException {
        Set<String> covered = new LinkedHashSet<>();
        for (Map.Entry<String, ModelRoundTripTest.Case> e : cases().entrySet()) {
            String name = e.getKey();
            Model m = e.getValue().trainer().fit(e.getValue().train());
            covered.add(m.type());
            assertTyped(name + " after fit", m);
            Path file = dir.resolve(name.replace(' ', '-') + ".json");
            ModelIO.save(m, file);
            Model back = ModelIO.load(file);
            assertTyped(name + " after load", back);
            assertEquals(m.hyperParameters().getClass(), back.hyperParameters().getClass(), name);
            assertEquals(m.diagnostics().getClass(), back.diagnostics().getClass(), name);
            // the same keys, order and values as written (a long written to JSON reads back as an int)
            assertEquals(new ArrayList<>(m.hyperParameters().toMap().entrySet()).toString(),
                    new ArrayList<>(back.hyperParameters().toMap().entrySet()).toString(), name);
            assertEquals(new ArrayList<>(m.diagnostics().toMap().entrySet()).toString(),
                    new ArrayList<>(back.diagnostics().toMap().entrySet()).toString(), name);
        }
        List<String> missing = new ArrayList<>(ModelIO.types());
        missing.removeAll(covered);
        assertEquals(List.of(), missing, "model types without a case here (give the family typed records)");
    }

    /** Both records are the family's; the types listed above hold empty maps instead. */
    static void assertTyped(String what, Model m) {
        if (NO_HYPER_PARAMETERS.contains(m.type())) {
            assertTrue(m.hyperParameters().toMap().isEmpty(), what);
        } else {
            assertFalse(m.hyperParameters() instanceof HyperParameters.Recorded, what + ": hyper-parameters "
                    + m.hyperParameters().toMap() + " held as a map");
        }
        if (NO_DIAGNOSTICS.contains(m.type())) {
            assertTrue(m.diagnostics().toMap().isEmpty(), what);
        } else {
            assertFalse(m.diagnostics() instanceof Diagnostics.Recorded, what + ": diagnostics "
                    + m.diagnostics().toMap() + " held as a map");
        }
    }

    @Test
    void nystromKrrRecordsItsAnchorsAndRoute() {
        Dataset reg = ModelRoundTripTest.regression(3, 40, 2);
        Model m = new NystromKrrTrainer(NystromKrrTrainer.Options.of(Kernels.parse("gaussian(sigma=0.7)"), 0.05,
                12, 9).withNystrom(Nystrom.of(12, Anchors.Method.KMEANSPP_INPUT, 9))).fit(reg);
        KrrHyperParameters h = assertInstanceOf(KrrHyperParameters.class, m.hyperParameters());
        assertEquals(0.05, h.lambda());
        assertEquals(Nystrom.of(12, Anchors.Method.KMEANSPP_INPUT, 9), h.nystrom().orElseThrow());
        assertTrue(h.tolerance().isPresent());
        NystromKrrTrainer.FitDiagnostics d = assertInstanceOf(NystromKrrTrainer.FitDiagnostics.class,
                m.diagnostics());
        assertEquals(NystromKrrTrainer.FitDiagnostics.CG, d.route());
        assertTrue(d.iterations() > 0 && d.converged(), d.toString());
        assertEquals(List.of("route", "iterations", "residual", "converged", "storage", "jitter", "seconds"),
                new ArrayList<>(d.toMap().keySet()));
    }

    @Test
    void aDistributedFitsDiagnosticsKeepTheirEngine(@TempDir Path dir) throws IOException {
        Model krr = cases().get("krr nystrom").trainer().fit(cases().get("krr nystrom").train());
        org.psdkit.model.Pipeline<?> k = (org.psdkit.model.Pipeline<?>) krr;
        Model onSpark = org.psdkit.regression.KrrTrainer.of(k.header(), (org.psdkit.regression.KernelRidge) k.inner(),
                ((NystromKrrTrainer.FitDiagnostics) krr.diagnostics()).withEngine("spark"));
        ModelIO.save(onSpark, dir.resolve("krr.json"));
        Model back = ModelIO.load(dir.resolve("krr.json"));
        NystromKrrTrainer.FitDiagnostics d = assertInstanceOf(NystromKrrTrainer.FitDiagnostics.class,
                back.diagnostics());
        assertEquals("spark", d.engine());
        assertEquals("engine", new ArrayList<>(d.toMap().keySet()).get(d.toMap().size() - 1));

        ModelRoundTripTest.Case c = ModelRoundTripTest.FAMILIES.get("psd-density").apply(5);
        org.psdkit.density.DensityPipeline p = (org.psdkit.density.DensityPipeline) c.trainer().fit(c.train());
        Model dens = new org.psdkit.density.DensityPipeline(p.header(), p.inner(),
                new org.psdkit.density.DensityDiagnostics.OnEngine(
                        (org.psdkit.density.DensityDiagnostics) p.diagnostics(), "spark"));
        ModelIO.save(dens, dir.resolve("density.json"));
        Model densBack = ModelIO.load(dir.resolve("density.json"));
        org.psdkit.density.DensityDiagnostics.OnEngine e = assertInstanceOf(
                org.psdkit.density.DensityDiagnostics.OnEngine.class, densBack.diagnostics());
        assertEquals("spark", e.engine());
        assertEquals(dens.diagnostics().toMap().toString(), e.toMap().toString());
    }

    @Test
    void goldenFilesLoadWithTypedHyperParameters() throws IOException, URISyntaxException {
        Path golden = Path.of(FamilyRecordsTest.class.getResource("/golden").toURI());
        int n = 0;
        try (Stream<Path> files = Files.list(golden)) {
            for (Path f : (Iterable<Path>) files.filter(p -> p.toString().endsWith(".json")).sorted()::iterator) {
                Model m = ModelIO.load(f);
                assertFalse(m.hyperParameters() instanceof HyperParameters.Recorded, f.getFileName() + ": "
                        + m.hyperParameters().toMap());
                n++;
            }
        }
        assertTrue(n >= 14, "golden files found: " + n);
    }

    @Test
    void aFileLackingAKeyIsReadAsRecorded() {
        Map<String, Object> lacking = new LinkedHashMap<>();
        lacking.put("form", "standard");
        lacking.put("nugget", 0.0);
        assertInstanceOf(HyperParameters.Recorded.class, HyperParameters.typed(lacking, KrrHyperParameters::of));
        Map<String, Object> full = new LinkedHashMap<>(lacking);
        full.put("lambda", 0.1);
        HyperParameters t = HyperParameters.typed(full, KrrHyperParameters::of);
        // the same keys in another order: kept as the file has them
        assertInstanceOf(KrrHyperParameters.class, t);
        assertEquals(new ArrayList<>(full.keySet()), new ArrayList<>(t.toMap().keySet()));
    }
}
