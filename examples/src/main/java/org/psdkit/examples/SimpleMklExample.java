package org.psdkit.examples;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import org.psdkit.data.Dataset;
import org.psdkit.io.ModelIO;
import org.psdkit.linalg.Matrix;
import org.psdkit.classify.mkl.KernelLearning;
import org.psdkit.classify.mkl.SimpleMklTrainer;
import org.psdkit.model.Classifier;
import org.psdkit.model.Model;

/** SimpleMKL over the Gaussian/polynomial kernel library: fit, save, load, predict labels. */
public final class SimpleMklExample {
    private SimpleMklExample() {
    }

    /** Runs the example in {@code dir}, printing to {@code out}; returns the loaded model. */
    public static Model run(Path dir, PrintStream out) throws Exception {
        // two classes split by the circle x1² + x2² = 1.5 (labels ±1)
        Random r = new Random(5);
        double[][] x = new double[60][2];
        double[] y = new double[60];
        for (int i = 0; i < 60; i++) {
            x[i][0] = 4 * r.nextDouble() - 2;
            x[i][1] = 4 * r.nextDouble() - 2;
            y[i] = x[i][0] * x[i][0] + x[i][1] * x[i][1] < 1.5 ? 1 : -1;
        }
        Dataset train = Dataset.of(Matrix.of(x), y);

        // the Gaussian/polynomial library, standardised features, C = 1000 (no cross-validation)
        SimpleMklTrainer.Options options = SimpleMklTrainer.Options.builder(KernelLearning.Method.SIMPLEMKL).c(1000)
                .build();
        Classifier model = new SimpleMklTrainer(options).fit(train);
        Path file = dir.resolve("simplemkl.json");
        ModelIO.save(model, file);
        Classifier back = ModelIO.load(file, Classifier.class);
        out.printf("simplemkl: learned kernel %s; training %s%n", back.hyperParameters(), back.evaluate(train));
        return back;
    }

    public static void main(String[] args) throws Exception {
        run(Files.createTempDirectory("psdkit-example"), System.out);
    }
}
