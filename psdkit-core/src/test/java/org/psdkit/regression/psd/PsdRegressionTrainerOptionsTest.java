package org.psdkit.regression.psd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;
import org.psdkit.data.Dataset;
import org.psdkit.data.Scaler;
import org.psdkit.io.ModelIO;
import org.psdkit.kernel.GaussianKernel;
import org.psdkit.kernel.Kernel;
import org.psdkit.model.Model;
import org.psdkit.model.OldPath;
import org.psdkit.model.ParameterException;
import org.psdkit.psd.Anchors;
import org.psdkit.psd.Nystrom;
import org.psdkit.psd.PsdOptions;
import org.psdkit.psd.SolverDiagnostics;

/** The non-negative regression trainers' options records: validation, defaults, fits equal to the old path. */
class PsdRegressionTrainerOptionsTest {
    private static final Kernel K = new GaussianKernel(0.8);

    @TempDir
    Path dir;

    private static void names(String parameter, Executable build) {
        ParameterException e = assertThrows(ParameterException.class, build);
        assertEquals(parameter, e.parameter(), e.getMessage());
        assertTrue(e.getMessage().startsWith(parameter + " "), e.getMessage());
    }

    @Test
    void everyInvalidValueNamesItsParameter() {
        PsdOptions psd = PsdOptions.of(1e-3, 1e-3);
        names("kernel", () -> PsdRegressionTrainer.Options.of(null, psd));
        names("psd", () -> PsdRegressionTrainer.Options.of(K, null));
        names("options", () -> new PsdRegressionTrainer(null));
        names("lambda1", () -> PsdOptions.of(-1, 1));
        names("lambda2", () -> PsdOptions.of(1, 0));
        names("tolerance", () -> psd.withTolerance(-1));
        names("maxIterations", () -> psd.withMaxIterations(0));
        names("timeLimitSeconds", () -> psd.withTimeLimit(0));
        names("relativeThreshold", () -> psd.withRelativeThreshold(0));

        Baselines.Options b = Baselines.Options.of(1e-3);
        names("method", () -> BaselineTrainer.Options.of(null, K, b));
        names("kernel", () -> BaselineTrainer.Options.of(BaselineTrainer.Method.NCM, null, b));
        names("baseline", () -> BaselineTrainer.Options.of(BaselineTrainer.Method.NCM, K, null));
        names("options", () -> new BaselineTrainer(null));
        names("lambda", () -> Baselines.Options.of(0));
        names("tolerance", () -> b.withTolerance(-1));
        names("maxIterations", () -> b.withMaxIterations(0));
        names("timeLimitSeconds", () -> new Baselines.Options(1, 1e-6, 10, 0, 1L));
    }

    @Test
    void defaultsAreTodays() {
        PsdRegressionTrainer.Options p = PsdRegressionTrainer.Options.of(K, PsdOptions.of(1e-3, 1e-3));
        assertEquals(Scaler.Kind.NONE, p.scale());
        assertEquals(0, p.nystrom().anchors());
        assertEquals(p, new PsdRegressionTrainer.Options(K, PsdOptions.of(1e-3, 1e-3), null, null));
        BaselineTrainer.Options b = BaselineTrainer.Options.of(BaselineTrainer.Method.PNM, K, Baselines.Options.of(1));
        assertEquals(Scaler.Kind.NONE, b.scale());
        assertEquals(Nystrom.exact(), b.nystrom());
        assertEquals(b, new BaselineTrainer.Options(BaselineTrainer.Method.PNM, K, Baselines.Options.of(1), null,
                null));
    }

    @Test
    void fitsEqualTheOldConstructorsBitForBit() {
        Dataset d = OldPath.data();
        // recorded from PsdRegressionTrainer(k, options, ZSCORE, 20, UNIFORM, 6L) and BaselineTrainer(method, k,
        // options, ZSCORE, nystrom) before the options records
        // psd-regression re-recorded when 'uniform' became one algorithm for every family (Anchors.uniform: other
        // rows for the same seed); the old values were 0x1.ebc18f2ef8e0fp-2,0x1.82dbd9ae3ecd4p0,0x1.4a7a4dacb6b2fp1
        OldPath.assertPredicts("0x1.c8b368655eceap-2,0x1.936f6633cb9b6p0,0x1.53902d9459919p1",
                new PsdRegressionTrainer(new PsdRegressionTrainer.Options(K, PsdOptions.of(1e-3, 1e-3)
                        .withMaxIterations(300), Nystrom.of(20, Anchors.Method.UNIFORM, 6L), Scaler.Kind.ZSCORE))
                        .fit(d));
        // NCM (uniform anchors) re-recorded likewise; old: 0x1.9063321caf42cp0,0x1.fdfedb999870dp0,0x1.51df8c49ecccap1
        List<String> recorded = List.of("0x1.54285ab0fb81ap0,0x1.93bdfb70f2caep0,0x1.54589e36a98bfp1",
                "0x1.4f1e42b27458p-1,0x1.468c2891f3b1p0,0x1.4eab590463741p1",
                "0x1.ceb283d201072p-1,0x1.3d58a6e4484d5p0,0x1.54e19d70edb7ep1");
        for (BaselineTrainer.Method m : BaselineTrainer.Method.values()) {
            BaselineTrainer.Options o = BaselineTrainer.Options.of(m, K, Baselines.Options.of(1e-2)
                    .withMaxIterations(200)).withScale(Scaler.Kind.ZSCORE);
            if (m == BaselineTrainer.Method.NCM) {
                o = o.withNystrom(Nystrom.of(25, Anchors.Method.UNIFORM, 2L));
            }
            OldPath.assertPredicts(recorded.get(m.ordinal()), new BaselineTrainer(o).fit(d));
        }
    }

    @Test
    void diagnosticsAreTypedAndReadBackTyped() throws Exception {
        Dataset d = OldPath.data();
        Model m = new PsdRegressionTrainer(PsdRegressionTrainer.Options.of(K, PsdOptions.of(1e-3, 1e-3)
                .withMaxIterations(200))).fit(d);
        SolverDiagnostics dg = assertInstanceOf(SolverDiagnostics.class, m.diagnostics());
        assertEquals(SolverDiagnostics.KEYS, List.copyOf(dg.toMap().keySet()));
        Path f = dir.resolve("psd.json");
        ModelIO.save(m, f);
        Model back = ModelIO.load(f);
        SolverDiagnostics read = assertInstanceOf(SolverDiagnostics.class, back.diagnostics());
        assertEquals(dg.iterations(), read.iterations());
        assertEquals(dg.status(), read.status());
        assertEquals(ModelIO.toJson(m).toString(), ModelIO.toJson(back).toString());
        Model glm = new BaselineTrainer(BaselineTrainer.Options.of(BaselineTrainer.Method.GLM, K,
                Baselines.Options.of(1e-2).withMaxIterations(50))).fit(d);
        ModelIO.save(glm, dir.resolve("glm.json"));
        assertInstanceOf(SolverDiagnostics.class, ModelIO.load(dir.resolve("glm.json")).diagnostics());
    }
}
