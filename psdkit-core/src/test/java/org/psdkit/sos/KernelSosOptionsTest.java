package org.psdkit.sos;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
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
import org.psdkit.model.Pipeline;
import org.psdkit.optim.sdp.SdpOptions;

/** KernelSosTrainer.Options: validation naming the parameter, the former defaults, typed diagnostics. */
class KernelSosOptionsTest {

    private static final Kernel K = Kernels.parse("gaussian(sigma=0.5) + 0.01*delta");

    static Stream<Arguments> invalid() {
        KernelSosTrainer.Options o = KernelSosTrainer.Options.of(K, 0.01);
        return Stream.of(
                Arguments.of("kernel", (Runnable) () -> o.withKernel(null)),
                Arguments.of("lambda", (Runnable) () -> o.withLambda(-1)),
                Arguments.of("lambda", (Runnable) () -> o.withLambda(Double.NaN)),
                Arguments.of("lambda", (Runnable) () -> o.withLambda(Double.POSITIVE_INFINITY)),
                Arguments.of("options", (Runnable) () -> KernelSosTrainer.Options.of(K, null, Scaler.Kind.NONE)),
                Arguments.of("options", (Runnable) () -> new KernelSosTrainer(null)));
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
        KernelSosTrainer.Options o = KernelSosTrainer.Options.of(K, 0.3);
        KernelSos.Options former = KernelSos.Options.of(0.3);
        assertEquals(former.lambda(), o.solver().lambda());
        assertEquals(former.route(), o.solver().route());
        assertEquals(SdpOptions.defaults(), o.sdp());
        assertEquals(Scaler.Kind.NONE, o.scale());
        assertEquals(0.01, KernelSosTrainer.Options.DEFAULT_LAMBDA); // the command line's --lambda
        KernelSosTrainer.Options back = KernelSosTrainer.Options.of(K, new KernelSos.Options(0.2,
                SdpOptions.defaults(), KernelSos.Route.DENSE), Scaler.Kind.MINMAX);
        assertEquals(KernelSos.Route.DENSE, back.route());
        assertEquals(Scaler.Kind.MINMAX, back.scale());
    }

    @Test
    void diagnosticsAreTypedAndSurviveAModelFile(@TempDir Path dir) throws Exception {
        Random r = new Random(9);
        double[][] x = new double[12][1];
        double[] y = new double[12];
        for (int i = 0; i < 12; i++) {
            x[i][0] = 2 * r.nextDouble() - 1;
            y[i] = x[i][0] * x[i][0];
        }
        Pipeline<KernelSos> m = new KernelSosTrainer(KernelSosTrainer.Options.of(K, 0.01))
                .fit(Dataset.of(Matrix.of(x), y));
        KernelSosTrainer.Fit fit = assertInstanceOf(KernelSosTrainer.Fit.class, m.diagnostics());
        assertEquals(m.inner().sdpResult().iterations(), fit.iterations());
        assertEquals(m.inner().objective(), fit.objective());
        Path f = dir.resolve("sos.json");
        ModelIO.save(m, f);
        Model back = ModelIO.load(f);
        assertEquals(fit, back.diagnostics());
    }
}
