package org.psdkit.examples;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.psdkit.cone.ConeGrid;
import org.psdkit.cone.hetero.HeteroPipeline;
import org.psdkit.cone.hetero.HeteroTrainer;
import org.psdkit.cone.hetero.HeteroscedasticRegression;
import org.psdkit.data.Dataset;
import org.psdkit.data.Scaler;
import org.psdkit.io.ModelIO;
import org.psdkit.kernel.Kernels;
import org.psdkit.linalg.Matrix;
import org.psdkit.model.Model;

/**
 * Heteroscedastic regression: the mean and the variance of y given x, the precision 1/v a PSD model (non-negative
 * for every x). Kernel and λ are chosen by 3-fold cross-validation on the held-out Gaussian NLL; fit, save, load,
 * predict.
 */
public final class HeteroExample {
    private HeteroExample() {
    }

    /** Runs the example in {@code dir}, printing to {@code out}; returns the loaded model. */
    public static Model run(Path dir, PrintStream out) throws Exception {
        // y = x + noise whose standard deviation grows from 0.1 to 1.1 over x in [0, 10]
        Random r = new Random(7);
        double[][] x = new double[80][1];
        double[] y = new double[80];
        for (int i = 0; i < 80; i++) {
            x[i][0] = 10 * r.nextDouble();
            y[i] = x[i][0] + (0.1 + 0.1 * x[i][0]) * r.nextGaussian();
        }
        Dataset train = Dataset.of(Matrix.of(x), y);

        // kernel and λ of the options are placeholders: the grid's winner replaces them
        HeteroscedasticRegression.Options options = HeteroscedasticRegression.Options.of(1, 1,
                HeteroscedasticRegression.Method.PSD).withScale(Scaler.Kind.ZSCORE);
        ConeGrid grid = new ConeGrid(List.of(Kernels.parse("gaussian(sigma=0.5)"), Kernels.parse("gaussian(sigma=1)")),
                new double[] {1e-2, 1e-3}, 3, 42L);
        HeteroPipeline model = new HeteroTrainer(options).crossValidated(grid).fit(train, e -> {
            if (e.task().equals("cv") && e.step() == e.total()) {
                out.printf("hetero: cross-validation done, %d fits in %.1f s%n", e.total(), e.seconds());
            }
        });
        out.printf("hetero: chose %s, lambda %s (held-out NLL %.3f)%n", model.header().kernelSpec(),
                model.selection().lambda(), model.selection().score());

        Path file = dir.resolve("hetero.json");
        ModelIO.save(model, file);
        Model back = ModelIO.load(file);
        for (double at : new double[] {1, 5, 9}) {
            double[] mv = back.predict(new double[] {at});
            out.printf("hetero: x = %.0f: mean %.3f, variance %.3f%n", at, mv[0], mv[1]);
        }
        return back;
    }

    public static void main(String[] args) throws Exception {
        run(Files.createTempDirectory("psdkit-example"), System.out);
    }
}
