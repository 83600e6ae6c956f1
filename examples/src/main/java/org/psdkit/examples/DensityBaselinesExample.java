package org.psdkit.examples;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.psdkit.data.Dataset;
import org.psdkit.data.Scaler;
import org.psdkit.density.BaseMeasure;
import org.psdkit.density.BaselineOptions;
import org.psdkit.density.DensityDiagnostics;
import org.psdkit.density.DensityPipeline;
import org.psdkit.density.GlmDensityTrainer;
import org.psdkit.density.NcmDensityTrainer;
import org.psdkit.density.PnmDensityTrainer;
import org.psdkit.io.ModelIO;
import org.psdkit.kernel.Kernels;
import org.psdkit.linalg.Matrix;
import org.psdkit.model.Model;
import org.psdkit.model.Trainer;

/** The density baselines NCM, PNM and GLM (Marteau-Ferey, Bach &amp; Rudi 2020, App. D): fit, save, load. */
public final class DensityBaselinesExample {
    private DensityBaselinesExample() {
    }

    /** Runs the example in {@code dir}, printing to {@code out}; returns the loaded GLM density. */
    public static Model run(Path dir, PrintStream out) throws Exception {
        // 40 points from an equal mixture of N(−2, 0.5²) and N(2, 0.5²); no target column
        Random r = new Random(2);
        double[][] x = new double[40][1];
        for (int i = 0; i < x.length; i++) {
            x[i][0] = (i % 2 == 0 ? -2 : 2) + 0.5 * r.nextGaussian();
        }
        Dataset train = Dataset.of(Matrix.of(x), null);

        // one options record for the three baselines: kernel, base measure, λ, scaling (tolerance, budget, seed and
        // anchors keep their defaults)
        BaselineOptions options = BaselineOptions.of(Kernels.parse("gaussian(sigma=0.3)"), new BaseMeasure.Lebesgue(),
                1e-3).withScale(Scaler.Kind.ZSCORE);
        BaselineOptions glmOptions = options.withBase(BaseMeasure.Box.cube(1, -4, 4))   // GLM: a probability base
                .withTolerance(1e-4).withMaxIterations(200);
        List<Trainer<DensityPipeline>> trainers = List.of(new NcmDensityTrainer(options),
                new PnmDensityTrainer(options), new GlmDensityTrainer(glmOptions));
        DensityPipeline last = null;
        for (Trainer<DensityPipeline> t : trainers) {
            last = t.fit(train);
            DensityDiagnostics fit = (DensityDiagnostics) last.diagnostics();
            out.printf("%s: p(2) = %.4f, integral %.4f, %d iterations%n", last.type(),
                    last.predict(new double[] {2})[0], last.integral(), fit.iterations());
        }
        Path file = dir.resolve("glm-density.json");
        ModelIO.save(last, file);
        DensityPipeline back = ModelIO.load(file, DensityPipeline.class);
        out.printf("glm-density read back: %s, p(2) = %.4f%n", back.hyperParameters(),
                back.predict(new double[] {2})[0]);
        return back;
    }

    public static void main(String[] args) throws Exception {
        run(Files.createTempDirectory("psdkit-example"), System.out);
    }
}
