package org.psdkit.examples;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;
import org.psdkit.classify.ClassWeights;
import org.psdkit.classify.MulticlassSvm;
import org.psdkit.classify.SvmTrainer;
import org.psdkit.data.Dataset;
import org.psdkit.data.Scaler;
import org.psdkit.io.ModelIO;
import org.psdkit.kernel.Kernels;
import org.psdkit.linalg.Matrix;
import org.psdkit.model.Classifier;
import org.psdkit.model.Model;

/**
 * A three-class SVM (one-vs-one, as LIBSVM) with class probabilities, a class weight and sample weights: fit, save,
 * load, predict labels, pairwise decision values and probabilities.
 */
public final class MulticlassSvmExample {
    private MulticlassSvmExample() {
    }

    /** Runs the example in {@code dir}, printing to {@code out}; returns the loaded model. */
    public static Model run(Path dir, PrintStream out) throws Exception {
        // three classes by the angle of (x1, x2): labels red, green, blue
        Random r = new Random(1);
        int n = 150;
        double[][] x = new double[n][2];
        String[] labels = new String[n];
        double[] weights = new double[n];
        String[] names = {"red", "green", "blue"};
        for (int i = 0; i < n; i++) {
            x[i][0] = 4 * r.nextDouble() - 2;
            x[i][1] = 4 * r.nextDouble() - 2;
            labels[i] = names[(int) Math.floor((Math.atan2(x[i][1], x[i][0]) + Math.PI) / (2 * Math.PI / 3)) % 3];
            weights[i] = 0.5 + r.nextDouble();                                  // e.g. how much each row is trusted
        }
        Dataset train = new Dataset(Matrix.of(x), null, labels, new String[] {"x1", "x2"}, "sector", "(memory)");

        SvmTrainer.Options options = SvmTrainer.Options.of(Kernels.parse("gaussian(sigma=0.7)"), 10)
                .withScale(Scaler.Kind.ZSCORE)
                .withProbability(true)                                  // LIBSVM -b 1, scikit-learn probability=True
                .withClassWeight(ClassWeights.parse("blue=2"))          // LIBSVM -w, scikit-learn class_weight
                .withSeed(42);                                          // the probability folds
        MulticlassSvm model = (MulticlassSvm) new SvmTrainer(options).fit(train, weights, null); // sample_weight
        Path file = dir.resolve("svm-3.json");
        ModelIO.save(model, file);
        Classifier back = ModelIO.load(file, Classifier.class);
        Matrix q = Matrix.of(new double[][] {{1.5, 0.2}, {0, 1.5}, {-1.5, -0.2}});
        out.printf("svm (3 classes): classes %s, columns %s%n", back.labels(), back.outputColumns());
        out.printf("svm (3 classes): predicted %s, outputs %s, training %s%n", Arrays.toString(back.predictLabels(q)),
                Arrays.deepToString(back.predict(q.toRowArrays())), back.evaluate(train));
        return back;
    }

    public static void main(String[] args) throws Exception {
        run(Files.createTempDirectory("psdkit-example"), System.out);
    }
}
