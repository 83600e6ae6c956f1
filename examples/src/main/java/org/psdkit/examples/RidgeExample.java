package org.psdkit.examples;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import org.psdkit.data.Dataset;
import org.psdkit.io.ModelIO;
import org.psdkit.kernel.Kernels;
import org.psdkit.linalg.Matrix;
import org.psdkit.model.Model;
import org.psdkit.regression.RidgeTrainer;

/** Ridge regression in the explicit feature space of a polynomial kernel: fit, save, load, predict. */
public final class RidgeExample {
    private RidgeExample() {
    }

    /** Runs the example in {@code dir}, printing to {@code out}; returns the loaded model. */
    public static Model run(Path dir, PrintStream out) throws Exception {
        // y = 1 + x1 − 2 x1 x2 + noise on 100 points: quadratic, so ridge on degree-2 features fits it
        Random r = new Random(4);
        double[][] x = new double[100][2];
        double[] y = new double[100];
        for (int i = 0; i < 100; i++) {
            x[i][0] = 2 * r.nextDouble() - 1;
            x[i][1] = 2 * r.nextDouble() - 1;
            y[i] = 1 + x[i][0] - 2 * x[i][0] * x[i][1] + 0.05 * r.nextGaussian();
        }
        Dataset train = Dataset.of(Matrix.of(x), y);

        // ridge in the explicit feature space of a degree-2 polynomial kernel; every option lives in one record
        RidgeTrainer.Options options = RidgeTrainer.Options.of(1e-3)
                .withFeatures(Kernels.parse("polynomial(degree=2, offset=1)"));
        Model model = new RidgeTrainer(options).fit(train);
        Path file = dir.resolve("ridge.json");
        ModelIO.save(model, file);
        Model back = ModelIO.load(file);
        double[] p = back.predict(new double[] {0.5, 0.5});
        out.printf("ridge: f(0.5, 0.5) = %.4f (true 1.0), options %s, training %s%n", p[0], back.hyperParameters(),
                back.evaluate(train));
        return back;
    }

    public static void main(String[] args) throws Exception {
        run(Files.createTempDirectory("psdkit-example"), System.out);
    }
}
