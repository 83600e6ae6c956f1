package org.psdkit.examples;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import org.psdkit.data.Dataset;
import org.psdkit.data.Scaler;
import org.psdkit.density.BaseMeasure;
import org.psdkit.density.DensityDiagnostics;
import org.psdkit.density.DensityPipeline;
import org.psdkit.density.PsdDensityOptions;
import org.psdkit.density.PsdDensityTrainer;
import org.psdkit.io.ModelIO;
import org.psdkit.kernel.Kernels;
import org.psdkit.linalg.Matrix;
import org.psdkit.model.Model;

/**
 * Density estimation with a PSD model p = f·ν (Marteau-Ferey, Bach &amp; Rudi 2020, eq. 12): fit, save, load,
 * evaluate the density of new points and draw exact samples.
 */
public final class DensityExample {
    private DensityExample() {
    }

    /** Runs the example in {@code dir}, printing to {@code out}; returns the loaded model. */
    public static Model run(Path dir, PrintStream out) throws Exception {
        // 40 points from an equal mixture of N(−2, 0.5²) and N(2, 0.5²); no target column
        Random r = new Random(1);
        double[][] x = new double[40][1];
        for (int i = 0; i < x.length; i++) {
            x[i][0] = (i % 2 == 0 ? -2 : 2) + 0.5 * r.nextGaussian();
        }
        Dataset train = Dataset.of(Matrix.of(x), null);

        // λ₁ = 1e-2, λ₂ = 0.01·λ₁ on z-scored data, duality gap 1e-5; Lebesgue base measure; all points as anchors
        PsdDensityOptions options = PsdDensityOptions.of(1e-2, PsdDensityOptions.SEC6_FROBENIUS_RATIO)
                .withTolerance(1e-5);
        PsdDensityTrainer trainer = new PsdDensityTrainer(PsdDensityTrainer.Options.of(
                Kernels.parse("gaussian(sigma=0.3)"), new BaseMeasure.Lebesgue(), options)
                .withScale(Scaler.Kind.ZSCORE));
        DensityPipeline model = trainer.fit(train);
        Path file = dir.resolve("density.json");
        ModelIO.save(model, file);

        DensityPipeline back = ModelIO.load(file, DensityPipeline.class);
        double[][] p = back.predict(new double[][] {{-2}, {0}, {2}});
        out.printf("psd-density: p(-2) = %.4f, p(0) = %.4f, p(2) = %.4f (truth 0.399, 0.000, 0.399)%n", p[0][0],
                p[1][0], p[2][0]);
        DensityDiagnostics fit = (DensityDiagnostics) back.diagnostics();   // typed, rebuilt from the file
        out.printf("integral %.6f, %d iterations, relative gap %.2e, converged %s%n", back.integral(),
                fit.iterations(), fit.relativeGap(), fit.converged());
        Matrix draws = back.sample(5, 7);
        out.printf("five samples: %.3f %.3f %.3f %.3f %.3f%n", draws.get(0, 0), draws.get(1, 0), draws.get(2, 0),
                draws.get(3, 0), draws.get(4, 0));
        return back;
    }

    public static void main(String[] args) throws Exception {
        run(Files.createTempDirectory("psdkit-example"), System.out);
    }
}
