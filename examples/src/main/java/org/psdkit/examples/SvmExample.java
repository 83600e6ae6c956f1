package org.psdkit.examples;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;
import org.psdkit.classify.SvmTrainer;
import org.psdkit.data.Dataset;
import org.psdkit.data.Scaler;
import org.psdkit.io.ModelIO;
import org.psdkit.kernel.Kernels;
import org.psdkit.linalg.Matrix;
import org.psdkit.model.Classifier;
import org.psdkit.model.Model;

/** A soft-margin SVM with a Gaussian kernel: fit, save, load, predict labels and decision values. */
public final class SvmExample {
    private SvmExample() {
    }

    /** Runs the example in {@code dir}, printing to {@code out}; returns the loaded model. */
    public static Model run(Path dir, PrintStream out) throws Exception {
        // two classes split by the circle x1² + x2² = 1.5 (labels ±1)
        Random r = new Random(1);
        double[][] x = new double[120][2];
        double[] y = new double[120];
        for (int i = 0; i < 120; i++) {
            x[i][0] = 4 * r.nextDouble() - 2;
            x[i][1] = 4 * r.nextDouble() - 2;
            y[i] = x[i][0] * x[i][0] + x[i][1] * x[i][1] < 1.5 ? 1 : -1;
        }
        Dataset train = Dataset.of(Matrix.of(x), y);

        Model model = new SvmTrainer(Kernels.parse("gaussian(sigma=0.7)"), 10, 1e-3, Scaler.Kind.ZSCORE).fit(train);
        Path file = dir.resolve("svm.json");
        ModelIO.save(model, file);
        Classifier back = ModelIO.load(file, Classifier.class);
        Matrix q = Matrix.of(new double[][] {{0, 0}, {1.9, 1.9}});
        out.printf("svm: labels %s, decision %s, predicted %s, training %s%n", back.labels(),
                Arrays.deepToString(back.predict(q.toRowArrays())), Arrays.toString(back.predictLabels(q)),
                back.evaluate(train));
        return back;
    }

    public static void main(String[] args) throws Exception {
        run(Files.createTempDirectory("psdkit-example"), System.out);
    }
}
