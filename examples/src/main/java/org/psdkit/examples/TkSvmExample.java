package org.psdkit.examples;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import org.psdkit.classify.SvmClassifier;
import org.psdkit.classify.mkl.LearnedKernelFit;
import org.psdkit.classify.mkl.TkSvmTrainer;
import org.psdkit.data.Dataset;
import org.psdkit.io.ModelIO;
import org.psdkit.linalg.Matrix;
import org.psdkit.model.Classifier;
import org.psdkit.model.Model;

/**
 * An SVM with a learned tessellated kernel (Colbert &amp; Peet 2020): fit with C and ε given, save, load, predict. The
 * learned kernel, its matrix P included, is part of the model file.
 */
public final class TkSvmExample {
    private TkSvmExample() {
    }

    /** Runs the example in {@code dir}, printing to {@code out}; returns the loaded model. */
    public static Model run(Path dir, PrintStream out) throws Exception {
        Random r = new Random(2);
        double[][] x = new double[60][2];
        double[] y = new double[60];
        for (int i = 0; i < 60; i++) {
            x[i][0] = r.nextDouble();
            x[i][1] = r.nextDouble();
            y[i] = x[i][1] > 0.5 + 0.3 * Math.sin(6 * x[i][0]) ? 1 : -1;
        }
        Dataset train = Dataset.of(Matrix.of(x), y);

        SvmClassifier model = new TkSvmTrainer(TkSvmTrainer.Options.of(20, 0.1, 1)).fit(train);   // C, epsilon, degree
        // C (relative to the kernel's scale) and epsilon chosen by 5-fold cross-validation: a grid search
        SvmClassifier cv = TkSvmTrainer.Search.of(TkSvmTrainer.Options.of(1, 0.1, 1), new double[] {1, 10},
                new double[] {0.1, 1}).fit(train);
        LearnedKernelFit fw = (LearnedKernelFit) cv.diagnostics();   // typed: iterations, gap, converged, ...
        out.printf("tk-svm: %s; Frank-Wolfe %d iterations, gap %.1e%n", cv.fitReport().get("cvChoice"),
                fw.iterations(), fw.gap());
        Path file = dir.resolve("tk-svm.json");
        ModelIO.save(model, file);
        Classifier back = ModelIO.load(file, Classifier.class);
        out.printf("tk-svm: %s; kernel %s; training %s%n", back.hyperParameters(), model.fitReport().get("kernel"),
                back.evaluate(train));
        return back;
    }

    public static void main(String[] args) throws Exception {
        run(Files.createTempDirectory("psdkit-example"), System.out);
    }
}
