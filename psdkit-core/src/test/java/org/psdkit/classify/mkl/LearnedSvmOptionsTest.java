package org.psdkit.classify.mkl;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
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
import org.psdkit.classify.SvmClassifier;
import org.psdkit.data.Dataset;
import org.psdkit.io.ModelIO;
import org.psdkit.kernel.TessellatedKernel.Orthant;
import org.psdkit.linalg.Matrix;
import org.psdkit.model.Model;
import org.psdkit.model.ParameterException;

/** The options of tk-svm and simplemkl: validation naming the parameter, the former defaults, typed diagnostics. */
class LearnedSvmOptionsTest {

    static Stream<Arguments> invalid() {
        TkSvmTrainer.Options t = TkSvmTrainer.Options.of(1, 0.1, 1);
        SimpleMklTrainer.Builder m = SimpleMklTrainer.Options.builder(KernelLearning.Method.SIMPLEMKL_TK);
        return Stream.of(
                Arguments.of("c", (Runnable) () -> t.withC(0)),
                Arguments.of("c", (Runnable) () -> t.withC(Double.POSITIVE_INFINITY)),
                Arguments.of("epsilon", (Runnable) () -> t.withEpsilon(-1)),
                Arguments.of("epsilon", (Runnable) () -> t.withEpsilon(Double.NaN)),
                Arguments.of("degree", (Runnable) () -> t.withDegree(3)),
                Arguments.of("degree", (Runnable) () -> t.withDegree(-1)),
                Arguments.of("gap", (Runnable) () -> t.withGap(0)),
                Arguments.of("gap", (Runnable) () -> t.withGap(1e-13)),
                Arguments.of("options", (Runnable) () -> new TkSvmTrainer(null)),
                Arguments.of("cGrid", (Runnable) () -> new TkSvmTrainer.Search(t, new double[0], null)),
                Arguments.of("cGrid", (Runnable) () -> new TkSvmTrainer.Search(t, new double[] {1, -1}, null)),
                Arguments.of("epsilonGrid", (Runnable) () -> new TkSvmTrainer.Search(t, null, new double[] {0})),
                Arguments.of("cGrid", (Runnable) () -> new TkSvmTrainer.Search(t, null, null)),
                Arguments.of("epsilonGrid", (Runnable) () -> TkSvmTrainer.Search.of(t, new double[] {1}, null)),
                Arguments.of("library", (Runnable) () -> SimpleMklTrainer.Options.builder(KernelLearning.Method.TK)
                        .build()),
                Arguments.of("library", (Runnable) () -> SimpleMklTrainer.Options.builder(null).build()),
                Arguments.of("librarySize", (Runnable) () -> m.librarySize(0).build()),
                Arguments.of("c", (Runnable) () -> SimpleMklTrainer.Options.builder(KernelLearning.Method.COMBINED)
                        .c(-2).build()),
                Arguments.of("epsilon", (Runnable) () -> SimpleMklTrainer.Options.builder(
                        KernelLearning.Method.COMBINED).epsilon(Double.POSITIVE_INFINITY).build()),
                Arguments.of("degree", (Runnable) () -> SimpleMklTrainer.Options.builder(
                        KernelLearning.Method.COMBINED).degree(5).build()),
                Arguments.of("gap", (Runnable) () -> SimpleMklTrainer.Options.builder(KernelLearning.Method.COMBINED)
                        .gap(-1).build()),
                Arguments.of("options", (Runnable) () -> new SimpleMklTrainer(null)),
                Arguments.of("epsilonGrid", (Runnable) () -> new SimpleMklTrainer.Search(
                        SimpleMklTrainer.Options.gaussPoly(1), null, new double[0])));
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
        // TkSvmTrainer.of(c, ε, degree) was (c, default grids, ε, lower orthant, gap 0.01, seed 42)
        assertEquals(new TkSvmTrainer.Options(20, 0.1, 1, Orthant.LOWER, 0.01, 42), TkSvmTrainer.Options.of(20, 0.1, 1));
        assertEquals(Orthant.LOWER, new TkSvmTrainer.Options(1, 0, 0, null, 0.1, 1).orthant());
        assertArrayEquals(KernelLearning.TK_C_GRID, TkSvmTrainer.Options.C_GRID);
        assertArrayEquals(KernelLearning.TK_EPSILON_GRID, TkSvmTrainer.Options.EPSILON_GRID);
        // SimpleMklTrainer.gaussPoly(c): the Gaussian library, paper size, σ bandwidths, z-scores, ε 0, degree 1,
        // lower orthant, gap 0.01, seed 42
        SimpleMklTrainer.Options g = SimpleMklTrainer.Options.gaussPoly(1000);
        assertEquals(new SimpleMklTrainer.Options(KernelLearning.Method.SIMPLEMKL, TkRandomLibrary.PAPER_SIZE, false,
                KernelLearning.GaussScaling.ZSCORE, 1000, 0, 1, Orthant.LOWER, 0.01, 42), g);
        assertEquals(g, SimpleMklTrainer.gaussPoly(1000).options());
        assertEquals(g, g.toBuilder().build());
        // the former null gaussScaling: CV for combined, z-scores for the Gaussian library, [0, 1] for tk-random
        assertEquals(KernelLearning.GaussScaling.CV, SimpleMklTrainer.Options.builder(KernelLearning.Method.COMBINED)
                .build().gaussScaling());
        assertEquals(KernelLearning.GaussScaling.MINMAX, SimpleMklTrainer.Options.builder(
                KernelLearning.Method.SIMPLEMKL_TK).build().gaussScaling());
    }

    @Test
    void diagnosticsAreTypedAndSurviveAModelFile(@TempDir Path dir) throws Exception {
        Random r = new Random(2);
        double[][] x = new double[30][2];
        double[] y = new double[30];
        for (int i = 0; i < 30; i++) {
            x[i][0] = r.nextDouble();
            x[i][1] = r.nextDouble();
            y[i] = x[i][1] > 0.5 ? 1 : -1;
        }
        Dataset d = Dataset.of(Matrix.of(x), y);
        for (SvmClassifier m : new SvmClassifier[] {new TkSvmTrainer(TkSvmTrainer.Options.of(10, 0.1, 1)).fit(d),
            SimpleMklTrainer.gaussPoly(100).fit(d)}) {
            LearnedKernelFit fit = assertInstanceOf(LearnedKernelFit.class, m.diagnostics());
            assertTrue(fit.iterations() > 0 && fit.fitSeconds() <= fit.seconds(), fit.toString());
            Path f = dir.resolve(m.type() + ".json");
            ModelIO.save(m, f);
            Model back = ModelIO.load(f);
            assertEquals(fit, back.diagnostics());
        }
    }
}
