package org.psdkit.regression;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.psdkit.data.Scaler;
import org.psdkit.io.ModelIO;
import org.psdkit.kernel.Kernel;
import org.psdkit.kernel.Kernels;
import org.psdkit.model.Diagnostics;
import org.psdkit.model.Model;
import org.psdkit.model.ParameterException;
import org.psdkit.model.Pipeline;
import org.psdkit.optim.smo.Smo;

/** The options records of ridge, krr and svr: validation naming the parameter, defaults, typed diagnostics. */
class RegressionOptionsTest {

    private static final Kernel K = Kernels.parse("gaussian(sigma=1)");

    static Stream<Arguments> invalid() {
        RidgeTrainer.Options r = RidgeTrainer.Options.defaults();
        KrrTrainer.Options k = KrrTrainer.Options.defaults(K);
        SvrTrainer.Options s = SvrTrainer.Options.defaults(K);
        return Stream.of(
                Arguments.of("lambda", (Runnable) () -> r.withLambda(-1)),
                Arguments.of("lambda", (Runnable) () -> r.withLambda(Double.NaN)),
                Arguments.of("lambda", (Runnable) () -> r.withLambda(Double.POSITIVE_INFINITY)),
                Arguments.of("form", (Runnable) () -> RidgeTrainer.Form.parse("both")),
                Arguments.of("kernel", (Runnable) () -> k.withKernel(null)),
                Arguments.of("lambda", (Runnable) () -> k.withLambda(-1e-9)),
                Arguments.of("nugget", (Runnable) () -> k.withNugget(-1)),
                Arguments.of("nugget", (Runnable) () -> k.withNugget(Double.NaN)),
                Arguments.of("form", (Runnable) () -> KernelRidge.Form.parse("dual")),
                Arguments.of("lambda", (Runnable) () -> new KernelRidge.Options(-1, KernelRidge.Form.STANDARD, 0, false)),
                Arguments.of("options", (Runnable) () -> new KrrTrainer(null)),
                Arguments.of("kernel", (Runnable) () -> s.withKernel(null)),
                Arguments.of("c", (Runnable) () -> s.withC(0)),
                Arguments.of("c", (Runnable) () -> s.withC(Double.POSITIVE_INFINITY)),
                Arguments.of("epsilon", (Runnable) () -> s.withEpsilon(-0.1)),
                Arguments.of("epsilon", (Runnable) () -> s.withEpsilon(Double.NaN)),
                Arguments.of("tolerance", (Runnable) () -> s.withTolerance(0)),
                Arguments.of("cacheMb", (Runnable) () -> s.withCacheMb(0)),
                Arguments.of("options", (Runnable) () -> new SvrTrainer(null)),
                Arguments.of("options", (Runnable) () -> new RidgeTrainer(null)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("invalid")
    void everyInvalidValueNamesItsParameter(String parameter, Runnable build) {
        ParameterException e = assertThrows(ParameterException.class, build::run);
        assertEquals(parameter, e.parameter());
        assertTrue(e.getMessage().startsWith(parameter + " "), e.getMessage());
    }

    @Test
    void defaultsAreTheFormerOnes() {
        // RidgeTrainer.linear(λ, NONE) was (λ, intercept, primal, raw features, unscaled); the CLI's --lambda 1
        assertEquals(new RidgeTrainer.Options(null, 0.5, true, RidgeTrainer.Form.PRIMAL, Scaler.Kind.NONE),
                RidgeTrainer.Options.of(0.5));
        assertEquals(1.0, RidgeTrainer.Options.defaults().lambda());
        assertEquals(RidgeTrainer.Form.PRIMAL, new RidgeTrainer.Options(null, 1, true, null, null).form());
        // KernelRidge.Options.standard(λ), the CLI's --lambda 0.001 --form standard --nugget 0
        assertEquals(KernelRidge.Options.standard(0.25), KrrTrainer.Options.of(K, 0.25).solver());
        assertEquals(new KernelRidge.Options(1e-3, KernelRidge.Form.STANDARD, 0, false),
                KrrTrainer.Options.defaults(K).solver());
        assertEquals(Scaler.Kind.NONE, KrrTrainer.Options.of(K, 1).scale());
        KernelRidge.Options solver = new KernelRidge.Options(0.1, KernelRidge.Form.REPRESENTER, 0.2, true);
        assertEquals(solver, KrrTrainer.Options.of(K, solver, Scaler.Kind.ZSCORE).solver());
        // SvrTrainer.of(k, C, ε, scale): LIBSVM's tolerance and cache; the CLI's -C 1 --epsilon 0.1
        SvrTrainer.Options s = SvrTrainer.Options.of(K, 10, 0.05);
        assertEquals(Smo.DEFAULT_TOLERANCE, s.tolerance());
        assertEquals(Smo.DEFAULT_CACHE_MB, s.cacheMb());
        assertEquals(Scaler.Kind.NONE, s.scale());
        assertEquals(1.0, SvrTrainer.Options.defaults(K).c());
        assertEquals(0.1, SvrTrainer.Options.defaults(K).epsilon());
    }

    @Test
    void diagnosticsAreTypedAndSurviveAModelFile(@TempDir Path dir) throws Exception {
        var train = RidgeTrainerTest.data(4, 30);
        Pipeline<KernelRidge> krr = new KrrTrainer(KrrTrainer.Options.of(K, 0.01)).fit(train);
        KrrTrainer.Fit fit = assertInstanceOf(KrrTrainer.Fit.class, krr.diagnostics());
        assertEquals(List.of("route", "jitter", "rank", "conditionEstimate", "seconds"),
                List.copyOf(fit.toMap().keySet()));
        assertEquals(train.n(), fit.rank());
        Pipeline<Svr> svr = new SvrTrainer(SvrTrainer.Options.of(K, 10, 0.05)).fit(train);
        Svr.Diagnostics sd = assertInstanceOf(Svr.Diagnostics.class, svr.diagnostics());
        assertTrue(sd.converged() && sd.iterations() > 0, sd.toString());
        for (Model m : List.<Model>of(krr, svr)) {
            Path f = dir.resolve(m.type() + ".json");
            ModelIO.save(m, f);
            Model back = ModelIO.load(f);
            assertEquals(m.diagnostics().getClass(), back.diagnostics().getClass());
            assertEquals(m.diagnostics(), back.diagnostics());
        }
        // a file whose diagnostics are not the record's keys keeps them as written, and writes them back so
        Path f = dir.resolve("krr.json");
        Path g = dir.resolve("other.json");
        java.nio.file.Files.writeString(g, java.nio.file.Files.readString(f).replace("\"route\"", "\"path\""));
        Model other = ModelIO.load(g);
        assertInstanceOf(Diagnostics.Recorded.class, other.diagnostics());
        assertEquals(fit.route(), other.diagnostics().get("path"));
        Path h = dir.resolve("again.json");
        ModelIO.save(other, h);
        assertEquals(java.nio.file.Files.readString(g), java.nio.file.Files.readString(h));
    }
}
