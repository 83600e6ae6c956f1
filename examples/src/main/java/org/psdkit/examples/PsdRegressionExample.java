package org.psdkit.examples;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import org.psdkit.data.Dataset;
import org.psdkit.io.ModelIO;
import org.psdkit.kernel.Kernel;
import org.psdkit.kernel.Kernels;
import org.psdkit.linalg.Matrix;
import org.psdkit.model.Model;
import org.psdkit.psd.PsdOptions;
import org.psdkit.regression.psd.PsdRegressionTrainer;

/**
 * Non-negative regression with a PSD model f(x) = v(x)ᵀ B v(x), B ⪰ 0 (Marteau-Ferey, Bach &amp; Rudi 2020): fit,
 * save, load, predict; and the NCM baseline of their App. D on the same data, which is non-negative too.
 */
public final class PsdRegressionExample {
    private PsdRegressionExample() {
    }

    /** Runs the example in {@code dir}, printing to {@code out}; returns the loaded model. */
    public static Model run(Path dir, PrintStream out) throws Exception {
        // y = max(0, sin x) x² + noise on 60 points: zero on half of the range
        Random r = new Random(1);
        double[][] x = new double[60][1];
        double[] y = new double[60];
        for (int i = 0; i < 60; i++) {
            x[i][0] = 6 * r.nextDouble() - 3;
            y[i] = Math.max(0, Math.sin(x[i][0])) * x[i][0] * x[i][0] + 0.2 * r.nextGaussian();
        }
        Dataset train = Dataset.of(Matrix.of(x), y);
        Kernel k = Kernels.parse("gaussian(sigma=0.5)");

        Model model = new PsdRegressionTrainer(PsdRegressionTrainer.Options.of(k,
                PsdOptions.of(1e-4, 1e-4).withTolerance(1e-8))).fit(train);
        Path file = dir.resolve("psd-regression.json");
        ModelIO.save(model, file);
        Model back = ModelIO.load(file);
        // evaluate adds min_prediction: the smallest prediction on the rows, here far outside the training range
        double[][] far = new double[201][1];
        for (int i = 0; i < far.length; i++) {
            far[i][0] = -100 + i;
        }
        Dataset farData = Dataset.of(Matrix.of(far), new double[far.length]);
        out.printf("psd-regression: f(1.5) = %.4f, far away %s%n", back.predict(new double[] {1.5})[0],
                back.evaluate(farData));
        return back;
    }

    public static void main(String[] args) throws Exception {
        run(Files.createTempDirectory("psdkit-example"), System.out);
    }
}
