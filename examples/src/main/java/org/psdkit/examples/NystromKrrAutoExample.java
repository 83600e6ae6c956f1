package org.psdkit.examples;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import org.psdkit.data.Dataset;
import org.psdkit.data.Scaler;
import org.psdkit.io.ModelIO;
import org.psdkit.kernel.GaussianKernel;
import org.psdkit.linalg.Matrix;
import org.psdkit.model.Model;
import org.psdkit.model.Pipeline;
import org.psdkit.regression.KernelRidge;
import org.psdkit.regression.KrrAutoTrainer;
import org.psdkit.regression.nystrom.NystromKrrAutoTrainer;
import org.psdkit.regression.nystrom.NystromKrrTrainer;

/**
 * Nyström kernel ridge regression with σ and λ chosen by the leave-one-out error of the m-anchor problem
 * (fit krr --anchors M --auto): fit, save, load.
 */
public final class NystromKrrAutoExample {
    private NystromKrrAutoExample() {
    }

    /** Runs the example in {@code dir}, printing to {@code out}; returns the loaded model. */
    public static Model run(Path dir, PrintStream out) throws Exception {
        // y = sin(2 x1) + noise on 600 points; x2 does not matter
        Random r = new Random(1);
        double[][] x = new double[600][2];
        double[] y = new double[600];
        for (int i = 0; i < 600; i++) {
            x[i][0] = 4 * r.nextDouble() - 2;
            x[i][1] = r.nextGaussian();
            y[i] = Math.sin(2 * x[i][0]) + 0.1 * r.nextGaussian();
        }
        Dataset train = Dataset.of(Matrix.of(x), y);
        // 50 uniform anchors (seed 42), features z-scored; λ is replaced by the search
        NystromKrrTrainer.Options base = NystromKrrTrainer.Options.of(new GaussianKernel(1), 1e-3, 50, 42)
                .withScale(Scaler.Kind.ZSCORE);
        Pipeline<KernelRidge> model = new NystromKrrAutoTrainer(NystromKrrAutoTrainer.Options.of(base)
                .withRestarts(2)).fit(train);
        KrrAutoTrainer.Search s = ((NystromKrrAutoTrainer.Fit) model.diagnostics()).search();
        out.printf("krr --anchors 50 --auto: kernel %s, lambda %.3g, leave-one-out rmse %.4f after %d evaluations%n",
                model.inner().kernel().spec(), model.inner().options().lambda(), s.rmse(), s.evaluations());
        Path file = dir.resolve("krr-nystrom-auto.json");
        ModelIO.save(model, file);
        Model back = ModelIO.load(file);
        out.printf("krr --anchors 50 --auto: f(1, 0) = %.4f (sin 2 = %.4f)%n",
                back.predict(new double[] {1.0, 0.0})[0], Math.sin(2));
        return back;
    }

    public static void main(String[] args) throws Exception {
        run(Files.createTempDirectory("psdkit-example"), System.out);
    }
}
