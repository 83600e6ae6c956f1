package org.psdkit.examples;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.psdkit.data.Dataset;
import org.psdkit.data.Scaler;
import org.psdkit.io.ModelIO;
import org.psdkit.kernel.Kernels;
import org.psdkit.linalg.Matrix;
import org.psdkit.model.Model;
import org.psdkit.model.Pipeline;
import org.psdkit.regression.KernelRidge;
import org.psdkit.regression.KrrTrainer;
import org.psdkit.select.GridSearch;

/** Kernel ridge regression: fit, save, load, predict. */
public final class KrrExample {
    private KrrExample() {
    }

    /** Runs the example in {@code dir}, printing to {@code out}; returns the loaded model. */
    public static Model run(Path dir, PrintStream out) throws Exception {
        // y = sin(x1) + noise on 200 points
        Random r = new Random(1);
        double[][] x = new double[200][2];
        double[] y = new double[200];
        for (int i = 0; i < 200; i++) {
            x[i][0] = 6 * r.nextDouble() - 3;
            x[i][1] = r.nextGaussian();
            y[i] = Math.sin(x[i][0]) + 0.1 * r.nextGaussian();
        }
        Dataset train = Dataset.of(Matrix.of(x), y);

        KrrTrainer.Options options = KrrTrainer.Options.of(Kernels.parse("gaussian(sigma=1)"), 1e-2)
                .withScale(Scaler.Kind.ZSCORE);
        // λ chosen by 5-fold cross-validation: a grid search over trainers, then a refit on all the data
        GridSearch.Search<Double, Pipeline<KernelRidge>> cv = GridSearch.over(List.of(1e-3, 1e-2, 1e-1),
                lambda -> new KrrTrainer(options.withLambda(lambda)), GridSearch.Scoring.RMSE, 5, 42)
                .search(train, null);
        Pipeline<KernelRidge> model = cv.model();
        KrrTrainer.Fit fit = (KrrTrainer.Fit) model.diagnostics();   // typed: route, jitter, rank, seconds
        out.printf("krr: CV chose lambda = %s; solved by %s%n", cv.best(), fit.route());
        Path file = dir.resolve("krr.json");
        ModelIO.save(model, file);
        Model back = ModelIO.load(file);
        double[] p = back.predict(new double[] {1.0, 0.0});
        out.printf("krr: f(1, 0) = %.4f (sin 1 = %.4f), diagnostics %s%n", p[0], Math.sin(1), back.diagnostics());
        return back;
    }

    public static void main(String[] args) throws Exception {
        run(Files.createTempDirectory("psdkit-example"), System.out);
    }
}
