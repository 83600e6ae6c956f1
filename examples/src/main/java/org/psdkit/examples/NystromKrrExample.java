package org.psdkit.examples;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import org.psdkit.data.Dataset;
import org.psdkit.data.Scaler;
import org.psdkit.io.ModelIO;
import org.psdkit.kernel.Kernels;
import org.psdkit.linalg.Matrix;
import org.psdkit.model.Model;
import org.psdkit.model.Pipeline;
import org.psdkit.psd.Anchors;
import org.psdkit.psd.Nystrom;
import org.psdkit.regression.KernelRidge;
import org.psdkit.regression.nystrom.NystromKrrTrainer;

/**
 * Nyström kernel ridge regression (the {@code krr --anchors} fit): f restricted to m anchors chosen from the rows,
 * solved by Falkon-preconditioned conjugate gradient in O(n·m) memory; the model file is an ordinary {@code krr}
 * model whose points are the anchors.
 */
public final class NystromKrrExample {
    private NystromKrrExample() {
    }

    /** Runs the example in {@code dir}, printing to {@code out}; returns the loaded model. */
    public static Model run(Path dir, PrintStream out) throws Exception {
        // y = sin(x1) + noise on 5,000 points
        Random r = new Random(1);
        int n = 5000;
        double[][] x = new double[n][2];
        double[] y = new double[n];
        for (int i = 0; i < n; i++) {
            x[i][0] = 6 * r.nextDouble() - 3;
            x[i][1] = r.nextGaussian();
            y[i] = Math.sin(x[i][0]) + 0.1 * r.nextGaussian();
        }
        Dataset train = Dataset.of(Matrix.of(x), y);

        // 200 anchors drawn uniformly from the rows with seed 42 (the same rows on every engine)
        NystromKrrTrainer.Options options = NystromKrrTrainer.Options.of(Kernels.parse("gaussian(sigma=1)"), 1e-2,
                200, 42).withScale(Scaler.Kind.ZSCORE)
                .withNystrom(Nystrom.of(200, Anchors.Method.UNIFORM, 42));
        Pipeline<KernelRidge> model = new NystromKrrTrainer(options).fit(train);
        out.printf("nystrom krr: %d anchors, CG %s iterations, training %s%n", model.inner().points().rows(),
                ((NystromKrrTrainer.FitDiagnostics) model.diagnostics()).iterations(), model.evaluate(train));
        Path file = dir.resolve("nystrom-krr.json");
        ModelIO.save(model, file);
        Model back = ModelIO.load(file);
        double[] p = back.predict(new double[] {1.0, 0.0});
        out.printf("nystrom krr: f(1, 0) = %.4f (sin 1 = %.4f), options %s%n", p[0], Math.sin(1),
                back.hyperParameters());
        return back;
    }

    public static void main(String[] args) throws Exception {
        run(Files.createTempDirectory("psdkit-example"), System.out);
    }
}
