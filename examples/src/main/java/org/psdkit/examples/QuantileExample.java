package org.psdkit.examples;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import org.psdkit.cone.ConeDualSolver;
import org.psdkit.cone.quantile.QuantilePipeline;
import org.psdkit.cone.quantile.QuantileRegression;
import org.psdkit.cone.quantile.QuantileTrainer;
import org.psdkit.data.Dataset;
import org.psdkit.io.ModelIO;
import org.psdkit.kernel.Kernels;
import org.psdkit.linalg.Matrix;
import org.psdkit.model.Model;

/**
 * Multiple quantile regression without crossing: the 10 %, 50 % and 90 % quantiles of y given x, the gaps between
 * levels PSD models (non-negative for every x, so the quantiles never cross). Fit, save, load, predict.
 */
public final class QuantileExample {
    private QuantileExample() {
    }

    /** Runs the example in {@code dir}, printing to {@code out}; returns the loaded model. */
    public static Model run(Path dir, PrintStream out) throws Exception {
        // y = sin(6x) + noise whose standard deviation grows with x in [0, 1]
        Random r = new Random(3);
        double[][] x = new double[100][1];
        double[] y = new double[100];
        for (int i = 0; i < 100; i++) {
            x[i][0] = r.nextDouble();
            y[i] = Math.sin(6 * x[i][0]) + (0.1 + 0.5 * x[i][0]) * r.nextGaussian();
        }
        Dataset train = Dataset.of(Matrix.of(x), y);

        double[] taus = {0.1, 0.5, 0.9};
        QuantileRegression.Options options = new QuantileRegression.Options(taus, Kernels.parse("gaussian(sigma=0.1)"),
                1e-2, QuantileRegression.APPENDIX_E_FROBENIUS_WEIGHT, QuantileRegression.Method.PSD, false,
                QuantileRegression.Options.DEFAULT_RESTARTS, 0L, ConeDualSolver.Options.defaults());
        QuantilePipeline model = new QuantileTrainer(options).fit(train);
        org.psdkit.cone.Diagnostics fit = model.inner().diagnostics();
        out.printf("quantile: %s, %d iterations, relative gap %.2e, converged %s%n", model.outputColumns(),
                fit.iterations(), fit.relativeGap(), fit.converged());

        Path file = dir.resolve("quantile.json");
        ModelIO.save(model, file);
        Model back = ModelIO.load(file);
        for (double at : new double[] {0.1, 0.5, 0.9, 2.0}) {
            double[] q = back.predict(new double[] {at});
            out.printf("quantile: x = %.1f: q0.1 %.3f <= q0.5 %.3f <= q0.9 %.3f%n", at, q[0], q[1], q[2]);
        }
        // eval's numbers: pinball loss and coverage per level, crossings on the rows and on a dense grid
        out.printf("quantile: on the training data %s%n", back.evaluate(train));
        return back;
    }

    public static void main(String[] args) throws Exception {
        run(Files.createTempDirectory("psdkit-example"), System.out);
    }
}
