package org.psdkit.examples;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import org.psdkit.classify.OneClassSvm;
import org.psdkit.classify.OneClassSvmTrainer;
import org.psdkit.classify.SvmTrainer;
import org.psdkit.data.Dataset;
import org.psdkit.data.Scaler;
import org.psdkit.io.ModelIO;
import org.psdkit.kernel.Kernels;
import org.psdkit.linalg.Matrix;
import org.psdkit.model.Model;

/** Novelty detection with the one-class SVM (and the ν-SVC beside it): fit, save, load, predict. */
public final class OneClassSvmExample {
    private OneClassSvmExample() {
    }

    /** Runs the example in {@code dir}, printing to {@code out}; returns the loaded model. */
    public static Model run(Path dir, PrintStream out) throws Exception {
        // 200 points of a 2-d Gaussian blob; no target, every column is a feature
        Random r = new Random(3);
        double[][] x = new double[200][2];
        for (double[] row : x) {
            row[0] = r.nextGaussian();
            row[1] = 0.5 * r.nextGaussian();
        }
        Dataset train = Dataset.of(Matrix.of(x), null);

        // ν = 0.05: at most 5 % of the training rows fall outside the estimated support
        OneClassSvmTrainer.Options options = OneClassSvmTrainer.Options.of(Kernels.parse("gaussian(sigma=1)"), 0.05)
                .withScale(Scaler.Kind.ZSCORE);
        OneClassSvm model = new OneClassSvmTrainer(options).fit(train);
        SvmTrainer.Fit smo = (SvmTrainer.Fit) model.diagnostics(); // typed: iterations, violation, converged, ...
        out.printf("one-class-svm: SMO took %d iterations, rho = %.4f, training inlier fraction %.3f%n",
                smo.iterations(), model.rho(), (Double) model.evaluate(train).get("inlierFraction"));
        Path file = dir.resolve("one-class-svm.json");
        ModelIO.save(model, file);
        Model back = ModelIO.load(file);
        // columns: decision, inlier (+1 inside, -1 outside)
        double[] centre = back.predict(new double[] {0, 0});
        double[] far = back.predict(new double[] {4, 3});
        out.printf("one-class-svm: (0, 0) -> %.4f (%+.0f), (4, 3) -> %.4f (%+.0f)%n", centre[0], centre[1], far[0],
                far[1]);
        return back;
    }

    public static void main(String[] args) throws Exception {
        run(Files.createTempDirectory("psdkit-example"), System.out);
    }
}
