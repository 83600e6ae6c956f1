package org.psdkit.density;

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
import org.psdkit.model.OldPath;
import org.psdkit.model.ParameterException;
import org.psdkit.psd.Anchors;
import org.psdkit.psd.Nystrom;

/** The density trainers' options records: validation by parameter name, defaults, and fits equal to the old path. */
class DensityTrainerOptionsTest {
    private static final Kernel K = new GaussianKernel(0.8);
    private static final BaseMeasure LEB = new BaseMeasure.Lebesgue();

    @TempDir
    Path dir;

    private static void names(String parameter, Executable build) {
        ParameterException e = assertThrows(ParameterException.class, build);
        assertEquals(parameter, e.parameter(), e.getMessage());
        assertTrue(e.getMessage().startsWith(parameter + " "), e.getMessage());
    }

    @Test
    void everyInvalidValueNamesItsParameter() {
        PsdDensityOptions psd = PsdDensityOptions.of(1e-3, 0.01);
        names("kernel", () -> PsdDensityTrainer.Options.of(null, LEB, psd));
        names("base", () -> PsdDensityTrainer.Options.of(K, null, psd));
        names("psd", () -> PsdDensityTrainer.Options.of(K, LEB, null));
        names("options", () -> new PsdDensityTrainer(null));
        names("lambda1", () -> new PsdDensityOptions(-1, 1, PsdDensityOptions.LambdaScale.RAW, 1e-6, 10, 1));
        names("lambda2", () -> new PsdDensityOptions(1, 0, PsdDensityOptions.LambdaScale.RAW, 1e-6, 10, 1));
        names("scale", () -> new PsdDensityOptions(1, 1, null, 1e-6, 10, 1));
        names("tolerance", () -> psd.withTolerance(0));
        names("maxIterations", () -> psd.withMaxIterations(0));
        names("timeLimitSeconds", () -> psd.withTimeLimit(-1));
        names("rankThreshold", () -> psd.withRankThreshold(1));

        names("kernel", () -> BaselineOptions.of(null, LEB, 1));
        names("base", () -> BaselineOptions.of(K, null, 1));
        names("lambda", () -> BaselineOptions.of(K, LEB, 0));
        names("lambda", () -> BaselineOptions.of(K, LEB, Double.NaN));
        names("tolerance", () -> BaselineOptions.of(K, LEB, 1).withTolerance(0));
        names("maxIterations", () -> BaselineOptions.of(K, LEB, 1).withMaxIterations(0));
        names("options", () -> new NcmDensityTrainer(null));
        names("options", () -> new PnmDensityTrainer(null));
        names("base", () -> new GlmDensityTrainer(BaselineOptions.of(K, LEB, 1)));

        names("choice", () -> new KdeTrainer.Options(null, 1, null));
        names("bandwidth", () -> KdeTrainer.Options.fixed(0));
        names("bandwidth", () -> KdeTrainer.Options.fixed(Double.POSITIVE_INFINITY));
        names("bandwidth", () -> new KdeTrainer.Options(KdeTrainer.Bandwidth.LEAVE_ONE_OUT, 1, null));
        names("options", () -> new KdeTrainer(null));
    }

    @Test
    void defaultsAreTodays() {
        BaselineOptions b = BaselineOptions.of(K, LEB, 1e-3);
        assertEquals(Baselines.DEFAULT_TOLERANCE, b.tolerance());
        assertEquals(Baselines.DEFAULT_MAX_ITERATIONS, b.maxIterations());
        assertEquals(1e-6, b.tolerance());
        assertEquals(20000, b.maxIterations());
        assertEquals(Scaler.Kind.NONE, b.scale());
        assertEquals(Nystrom.exact(), b.nystrom());
        assertEquals(b, new BaselineOptions(K, LEB, 1e-3, 1e-6, 20000, 1L, null, null));

        PsdDensityTrainer.Options p = PsdDensityTrainer.Options.of(K, LEB, PsdDensityOptions.of(1e-3, 0.01));
        assertEquals(Scaler.Kind.NONE, p.scale());
        assertEquals(0, p.nystrom().anchors());
        assertEquals(p, new PsdDensityTrainer.Options(K, LEB, PsdDensityOptions.of(1e-3, 0.01), null, null));

        assertEquals(KdeTrainer.Bandwidth.LEAVE_ONE_OUT, KdeTrainer.Options.leaveOneOut().choice());
        assertEquals(Scaler.Kind.NONE, KdeTrainer.Options.leaveOneOut().scale());
        assertEquals(0.4, KdeTrainer.Options.leaveOneOut().withBandwidth(0.4).bandwidth());
    }

    @Test
    void fitsEqualTheOldConstructorsBitForBit() {
        Dataset d = OldPath.data();
        // recorded from PsdDensityTrainer(k, base, options, 15, 3L, ZSCORE, UNIFORM) and the baselines' and KDE's
        // positional constructors before the options records
        // psd-density re-recorded when 'uniform' became one algorithm for every family (Anchors.uniform, the partial
        // shuffle KRR and the Spark engine use: other rows for the same seed); the old values were
        // 0x1.2947c7f816598p-7,0x1.2e07f7fd981fap-7,0x1.dfe7588490ba5p-8
        OldPath.assertPredicts("0x1.9cc5774c457f3p-7,0x1.8afbf507747e7p-7,0x1.0fc81e31239efp-7",
                new PsdDensityTrainer(new PsdDensityTrainer.Options(K, LEB, PsdDensityOptions.of(1e-2, 0.01)
                        .withTolerance(1e-6).withMaxIterations(500), Nystrom.of(15, Anchors.Method.UNIFORM, 3L),
                        Scaler.Kind.ZSCORE)).fit(d));
        // ncm-density (uniform anchors) re-recorded likewise; old: 0x1.514c467b42ea9p-6,0x1.aea68280c94bp-7,
        // 0x1.063c5182fa5a2p-8
        OldPath.assertPredicts("0x1.27ab551593a26p-6,0x1.b0444ba947ca7p-7,0x1.3896534815b9bp-8",
                new NcmDensityTrainer(new BaselineOptions(K, LEB, 1e-2, 1e-5, 300, 0L, Scaler.Kind.ZSCORE,
                        Nystrom.of(20, Anchors.Method.UNIFORM, 4L))).fit(d));
        OldPath.assertPredicts("0x1.4afbcc7869078p-6,0x1.004d8cee79dfdp-6,0x1.98267702a4932p-8",
                new PnmDensityTrainer(BaselineOptions.of(K, BaseMeasure.parse("gaussian(mu=0,sd=2)", 2), 1e-2)
                        .withTolerance(1e-5).withMaxIterations(300).withScale(Scaler.Kind.ZSCORE)).fit(d));
        // GLM re-recorded when its normaliser became the importance-sampling estimate of Z (issue 30; the options
        // record and the positional constructor still give the same model): the old values were
        // 0x1.f62fa77f2b534p-7,0x1.733a784ebd491p-7,0x1.85dd72673e667p-8, the same g over eq. 33's Monte-Carlo Z
        OldPath.assertPredicts("0x1.e452648d6c2aep-7,0x1.6605cd5a4159p-7,0x1.77ff0f90ac232p-8",
                new GlmDensityTrainer(BaselineOptions.of(K, BaseMeasure.parse("box(a=-4,b=4)", 2), 1e-2)
                        .withTolerance(1e-5).withMaxIterations(300).withSeed(5L).withScale(Scaler.Kind.ZSCORE))
                        .fit(d));
        OldPath.assertPredicts("0x1.bd8723eb71299p-7,0x1.588a3b16abc01p-7,0x1.a132be1793f35p-8",
                new KdeTrainer(KdeTrainer.Options.leaveOneOut().withScale(Scaler.Kind.ZSCORE)).fit(d));
        OldPath.assertPredicts("0x1.fb513c6959082p-9,0x1.d6d39a915a3d2p-9,0x1.7962a7c60f4e8p-9",
                new KdeTrainer(KdeTrainer.Options.fixed(0.4).withScale(Scaler.Kind.MINMAX)).fit(d));
    }

    @Test
    void diagnosticsAreTypedAndReadBackTyped() throws Exception {
        Dataset d = OldPath.data();
        DensityPipeline m = new NcmDensityTrainer(BaselineOptions.of(K, LEB, 1e-2).withMaxIterations(300)).fit(d);
        DensityDiagnostics dg = assertInstanceOf(DensityDiagnostics.class, m.diagnostics());
        assertEquals(DensityDiagnostics.KEYS, List.copyOf(dg.toMap().keySet()));
        assertEquals(dg.iterations(), dg.toMap().get("iterations"));
        assertEquals(null, dg.toMap().get("rank_threshold"));   // NCM has no feature map: NaN is written as null
        Path f = dir.resolve("ncm.json");
        ModelIO.save(m, f);
        DensityPipeline back = ModelIO.load(f, DensityPipeline.class);
        DensityDiagnostics read = assertInstanceOf(DensityDiagnostics.class, back.diagnostics());
        assertEquals(dg.iterations(), read.iterations());
        assertEquals(dg.relativeGap(), read.relativeGap());
        assertEquals(ModelIO.toJson(m).toString(), ModelIO.toJson(back).toString());
        // a KDE reports nothing
        assertTrue(new KdeTrainer(KdeTrainer.Options.fixed(0.3)).fit(d).diagnostics().toMap().isEmpty());
    }
}
