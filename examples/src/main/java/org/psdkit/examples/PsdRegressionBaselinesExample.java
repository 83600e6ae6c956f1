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
import org.psdkit.psd.SolverDiagnostics;
import org.psdkit.regression.psd.BaselineTrainer;
import org.psdkit.regression.psd.Baselines;
import org.psdkit.regression.psd.KernelExpansionModel;
import org.psdkit.regression.psd.NonNegativeRegressionModel;

/**
 * The non-negative regression baselines NCM, PNM and GLM (Marteau-Ferey, Bach &amp; Rudi 2020, App. D) from one
 * options record: fit, compare their smallest prediction far from the data, save and load one.
 */
public final class PsdRegressionBaselinesExample {
    private PsdRegressionBaselinesExample() {
    }

    /** Runs the example in {@code dir}, printing to {@code out}; returns the loaded NCM model. */
    public static Model run(Path dir, PrintStream out) throws Exception {
        Random r = new Random(1);
        double[][] x = new double[60][1];
        double[] y = new double[60];
        for (int i = 0; i < 60; i++) {
            x[i][0] = 6 * r.nextDouble() - 3;
            y[i] = Math.max(0, Math.sin(x[i][0])) * x[i][0] * x[i][0] + 0.2 * r.nextGaussian();
        }
        Dataset train = Dataset.of(Matrix.of(x), y);
        double[][] far = new double[201][1];
        for (int i = 0; i < far.length; i++) {
            far[i][0] = -100 + i;
        }
        Dataset farData = Dataset.of(Matrix.of(far), new double[far.length]);

        BaselineTrainer.Options options = BaselineTrainer.Options.of(BaselineTrainer.Method.NCM,
                Kernels.parse("gaussian(sigma=0.5)"), Baselines.Options.of(1e-4).withMaxIterations(2000))
                .withScale(Scaler.Kind.NONE);
        NonNegativeRegressionModel<KernelExpansionModel> ncm = null;
        for (BaselineTrainer.Method m : BaselineTrainer.Method.values()) {
            NonNegativeRegressionModel<KernelExpansionModel> fit = new BaselineTrainer(options.withMethod(m))
                    .fit(train);
            SolverDiagnostics d = (SolverDiagnostics) fit.diagnostics();
            out.printf("%s: f(1.5) = %.4f, %d iterations (%s), smallest prediction far away %.3g%n", m.type(),
                    fit.predict(new double[] {1.5})[0], d.iterations(), d.status(),
                    fit.evaluate(farData).minPrediction()); // typed metrics
            if (m == BaselineTrainer.Method.NCM) {
                ncm = fit;
            }
        }
        Path file = dir.resolve("ncm.json");
        ModelIO.save(ncm, file);
        Model back = ModelIO.load(file);
        out.printf("ncm read back: f(1.5) = %.4f%n", back.predict(new double[] {1.5})[0]);
        return back;
    }

    public static void main(String[] args) throws Exception {
        run(Files.createTempDirectory("psdkit-example"), System.out);
    }
}
