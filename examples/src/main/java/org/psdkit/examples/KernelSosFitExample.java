package org.psdkit.examples;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import org.psdkit.data.Dataset;
import org.psdkit.io.ModelIO;
import org.psdkit.kernel.Kernels;
import org.psdkit.linalg.Matrix;
import org.psdkit.model.Model;
import org.psdkit.model.Pipeline;
import org.psdkit.sos.KernelSos;
import org.psdkit.sos.KernelSosTrainer;

/** Kernel SoS (Bagnell &amp; Farahmand 2015, eq. 2) fitted by its SDP: fit, save, load, predict. */
public final class KernelSosFitExample {
    private KernelSosFitExample() {
    }

    /** Runs the example in {@code dir}, printing to {@code out}; returns the loaded model. */
    public static Model run(Path dir, PrintStream out) throws Exception {
        // a non-negative target, y = x² + noise, on 25 points of [-1, 1]
        Random r = new Random(3);
        double[][] x = new double[25][1];
        double[] y = new double[25];
        for (int i = 0; i < 25; i++) {
            x[i][0] = 2 * r.nextDouble() - 1;
            y[i] = x[i][0] * x[i][0] + 0.02 * r.nextGaussian();
        }
        Dataset train = Dataset.of(Matrix.of(x), y);

        KernelSosTrainer.Options options = KernelSosTrainer.Options.of(
                Kernels.parse("gaussian(sigma=0.5) + 0.01*delta"), 0.01);
        Pipeline<KernelSos> model = new KernelSosTrainer(options).fit(train);
        KernelSosTrainer.Fit sdp = (KernelSosTrainer.Fit) model.diagnostics();   // typed: status, gap, seconds, ...
        out.printf("kernel-sos: SDP %s after %d iterations, relative gap %.1e%n", sdp.status(), sdp.iterations(),
                sdp.relativeGap());
        Path file = dir.resolve("kernel-sos.json");
        ModelIO.save(model, file);
        Model back = ModelIO.load(file);
        out.printf("kernel-sos: f(0.5) = %.4f (true 0.25), diagnostics %s%n", back.predict(new double[] {0.5})[0],
                back.diagnostics());
        return back;
    }

    public static void main(String[] args) throws Exception {
        run(Files.createTempDirectory("psdkit-example"), System.out);
    }
}
