package org.psdkit.examples;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;
import org.psdkit.classify.SvmTrainer;
import org.psdkit.select.GridSearch;
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

        SvmTrainer.Options options = SvmTrainer.Options.of(Kernels.parse("gaussian(sigma=0.7)"), 10)
                .withScale(Scaler.Kind.ZSCORE);
        // C chosen by 5-fold cross-validation over C = c / mean(diag K), c in {0.1, 1, 10, 100}: a grid search
        GridSearch.Search<Double, Model> cv = SvmTrainer.cSearch(options, train, SvmTrainer.DEFAULT_C_GRID,
                SvmTrainer.DEFAULT_FOLDS, 42).search(train, null);
        SvmTrainer.CChoice choice = SvmTrainer.choice(cv, SvmTrainer.DEFAULT_FOLDS);
        Model model = cv.model();
        SvmTrainer.Fit smo = (SvmTrainer.Fit) model.diagnostics();   // typed: iterations, violation, dual, ...
        out.printf("svm: CV chose C = %.4g (accuracy %.3f); SMO took %d iterations%n", choice.c(), choice.accuracy(),
                smo.iterations());
        Path file = dir.resolve("svm.json");
        ModelIO.save(model, file);
        Classifier back = ModelIO.load(file, Classifier.class);
        Matrix q = Matrix.of(new double[][] {{0, 0}, {1.9, 1.9}});
        out.printf("svm: labels %s, decision %s, predicted %s, training %s%n", back.labels(),
                Arrays.deepToString(back.predict(q.toRowArrays())), Arrays.toString(back.predictLabels(q)),
                back.evaluate(train));

        // the ν-SVC: ν = 0.2 bounds the fraction of margin errors from above, of support vectors from below
        Classifier nu = new SvmTrainer(SvmTrainer.Options.nu(Kernels.parse("gaussian(sigma=0.7)"), 0.2)
                .withScale(Scaler.Kind.ZSCORE)).fit(train);
        out.printf("nu-svc: options %s, predicted %s%n", nu.hyperParameters(), Arrays.toString(nu.predictLabels(q)));
        return back;
    }

    public static void main(String[] args) throws Exception {
        run(Files.createTempDirectory("psdkit-example"), System.out);
    }
}
