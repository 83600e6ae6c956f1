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
import org.psdkit.regression.Svr;
import org.psdkit.regression.SvrTrainer;

/** ε-insensitive support vector regression (ε-SVR, then ν-SVR): fit, save, load, predict. */
public final class SvrExample {
    private SvrExample() {
    }

    /** Runs the example in {@code dir}, printing to {@code out}; returns the loaded model. */
    public static Model run(Path dir, PrintStream out) throws Exception {
        // y = sin(x) + noise on 150 points; points inside the ε-tube do not become support vectors
        Random r = new Random(9);
        double[][] x = new double[150][1];
        double[] y = new double[150];
        for (int i = 0; i < 150; i++) {
            x[i][0] = 6 * r.nextDouble() - 3;
            y[i] = Math.sin(x[i][0]) + 0.05 * r.nextGaussian();
        }
        Dataset train = Dataset.of(Matrix.of(x), y);

        SvrTrainer.Options options = SvrTrainer.Options.of(Kernels.parse("gaussian(sigma=0.7)"), 10, 0.05)
                .withScale(Scaler.Kind.ZSCORE);
        Pipeline<Svr> model = new SvrTrainer(options).fit(train);
        Svr.Diagnostics smo = model.inner().diagnostics();   // typed: iterations, violation, converged, ...
        out.printf("svr: SMO took %d iterations (converged %s)%n", smo.iterations(), smo.converged());
        Path file = dir.resolve("svr.json");
        ModelIO.save(model, file);
        Model back = ModelIO.load(file);
        double[] p = back.predict(new double[] {1.0});
        out.printf("svr: f(1) = %.4f (sin 1 = %.4f), diagnostics %s%n", p[0], Math.sin(1), back.diagnostics());

        // the ν-SVR finds ε itself: at most ν of the rows lie outside the tube, at least ν are support vectors
        Pipeline<Svr> nu = new SvrTrainer(SvrTrainer.Options.nu(Kernels.parse("gaussian(sigma=0.7)"), 10, 0.2)
                .withScale(Scaler.Kind.ZSCORE)).fit(train);
        out.printf("nu-svr: epsilon found %.4f, %d support vectors of 150%n", nu.inner().epsilon(),
                nu.inner().supportVectors().rows());
        return back;
    }

    public static void main(String[] args) throws Exception {
        run(Files.createTempDirectory("psdkit-example"), System.out);
    }
}
