package org.psdkit.classify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.psdkit.data.Dataset;
import org.psdkit.data.Scaler;
import org.psdkit.io.ModelIO;
import org.psdkit.kernel.Kernel;
import org.psdkit.kernel.Kernels;
import org.psdkit.linalg.Matrix;
import org.psdkit.model.Model;
import org.psdkit.model.ParameterException;
import org.psdkit.optim.smo.Smo;

/** SvmTrainer.Options: validation naming the parameter, the former defaults, typed diagnostics, the C search. */
class SvmOptionsTest {

    private static final Kernel K = Kernels.parse("gaussian(sigma=0.7)");

    static Stream<Arguments> invalid() {
        SvmTrainer.Options o = SvmTrainer.Options.of(K, 1);
        return Stream.of(
                Arguments.of("kernel", (Runnable) () -> o.withKernel(null)),
                Arguments.of("c", (Runnable) () -> o.withC(0)),
                Arguments.of("c", (Runnable) () -> o.withC(-1)),
                Arguments.of("c", (Runnable) () -> o.withC(Double.NaN)),
                Arguments.of("c", (Runnable) () -> o.withC(Double.POSITIVE_INFINITY)),
                Arguments.of("tolerance", (Runnable) () -> o.withTolerance(0)),
                Arguments.of("tolerance", (Runnable) () -> o.withTolerance(Double.POSITIVE_INFINITY)),
                Arguments.of("cacheMb", (Runnable) () -> o.withCacheMb(0)),
                Arguments.of("options", (Runnable) () -> new SvmTrainer(null)),
                Arguments.of("cGrid", (Runnable) () -> SvmTrainer.cSearch(o, circle(1, 20), new double[0], 5, 1)));
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
        // the former SvmTrainer(kernel, c, tolerance, scale) took the default cache; the CLI's --tolerance 1e-3
        SvmTrainer.Options o = SvmTrainer.Options.of(K, 3);
        assertEquals(new SvmTrainer.Options(K, 3, 1e-3, Smo.DEFAULT_CACHE_MB, Scaler.Kind.NONE), o);
        assertEquals(SvmTrainer.DEFAULT_CACHE_MB, o.cacheMb());
        assertEquals(Scaler.Kind.NONE, new SvmTrainer.Options(K, 1, 1e-3, 1, null).scale());
    }

    static Dataset circle(long seed, int n) {
        Random r = new Random(seed);
        double[][] x = new double[n][2];
        double[] y = new double[n];
        for (int i = 0; i < n; i++) {
            x[i][0] = 4 * r.nextDouble() - 2;
            x[i][1] = 4 * r.nextDouble() - 2;
            y[i] = x[i][0] * x[i][0] + x[i][1] * x[i][1] < 1.5 ? 1 : -1;
        }
        return Dataset.of(Matrix.of(x), y);
    }

    @Test
    void diagnosticsAreTypedAndSurviveAModelFile(@TempDir Path dir) throws Exception {
        SvmClassifier m = (SvmClassifier) new SvmTrainer(SvmTrainer.Options.of(K, 10)).fit(circle(2, 40));
        SvmTrainer.Fit fit = assertInstanceOf(SvmTrainer.Fit.class, m.diagnostics());
        assertTrue(fit.converged() && fit.iterations() > 0, fit.toString());
        assertEquals(List.of("iterations", "violation", "dual", "converged", "seconds"),
                List.copyOf(fit.toMap().keySet()));
        Path f = dir.resolve("svm.json");
        ModelIO.save(m, f);
        Model back = ModelIO.load(f);
        assertEquals(fit, back.diagnostics());
    }

    /**
     * A fold whose training part holds one class counts no validation rows, as the former bothClassParts left it
     * out: one positive row among 12, so the fold that validates it trains on negatives only.
     */
    @Test
    void aOneClassFoldIsLeftOut() {
        double[][] x = new double[12][1];
        double[] y = new double[12];
        for (int i = 0; i < 12; i++) {
            x[i][0] = i;
            y[i] = i == 5 ? 1 : -1;
        }
        Dataset d = Dataset.of(Matrix.of(x), y);
        var search = SvmTrainer.cSearch(SvmTrainer.Options.of(K, 1), d, new double[] {1, 10}, 3, 4).search(d, null);
        SvmTrainer.CChoice ch = SvmTrainer.choice(search, 3);
        // two folds of four validation rows count; the fold validating the positive row is left out
        double[] rows = search.table().get(0).scores().get("rows");
        assertEquals(8, java.util.Arrays.stream(rows).sum());
        double hits = java.util.Arrays.stream(search.table().get(0).scores().get("hits")).sum();
        assertEquals(hits / 8, ch.grid().get(0).get("accuracy"));
        assertEquals(1, java.util.Arrays.stream(rows).filter(v -> v == 0).count());
    }
}
