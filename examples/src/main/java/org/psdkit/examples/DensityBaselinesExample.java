package org.psdkit.examples;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import org.psdkit.data.Dataset;
import org.psdkit.data.Scaler;
import org.psdkit.density.BaseMeasure;
import org.psdkit.density.DensityPipeline;
import org.psdkit.density.GlmDensityTrainer;
import org.psdkit.density.KdeTrainer;
import org.psdkit.density.NcmDensityTrainer;
import org.psdkit.density.PnmDensityTrainer;
import org.psdkit.io.ModelIO;
import org.psdkit.kernel.Kernel;
import org.psdkit.kernel.Kernels;
import org.psdkit.linalg.Matrix;
import org.psdkit.model.Model;
import org.psdkit.model.Trainer;

/** The density baselines (NCM, PNM, GLM) and a kernel density estimate: fit, save, load, evaluate. */
public final class DensityBaselinesExample {
    private DensityBaselinesExample() {
    }

    /** Runs the example in {@code dir}, printing to {@code out}; returns the loaded KDE. */
    public static Model run(Path dir, PrintStream out) throws Exception {
        // 40 points from an equal mixture of N(−2, 0.5²) and N(2, 0.5²); no target column
        Random r = new Random(2);
        double[][] x = new double[40][1];
        for (int i = 0; i < x.length; i++) {
            x[i][0] = (i % 2 == 0 ? -2 : 2) + 0.5 * r.nextGaussian();
        }
        Dataset train = Dataset.of(Matrix.of(x), null);

        Kernel k = Kernels.parse("gaussian(sigma=0.3)");
        BaseMeasure lebesgue = new BaseMeasure.Lebesgue();
        BaseMeasure box = BaseMeasure.Box.cube(1, -4, 4);           // GLM needs a probability base measure
        Trainer<DensityPipeline> ncm = new NcmDensityTrainer(k, lebesgue, 1e-3, Scaler.Kind.ZSCORE);
        Trainer<DensityPipeline> pnm = new PnmDensityTrainer(k, lebesgue, 1e-3, Scaler.Kind.ZSCORE);
        Trainer<DensityPipeline> glm = new GlmDensityTrainer(k, box, 1e-3, 1e-4, 200, 1L, Scaler.Kind.ZSCORE);
        for (Trainer<DensityPipeline> t : java.util.List.of(ncm, pnm, glm)) {
            DensityPipeline m = t.fit(train);
            out.printf("%s: p(2) = %.4f, integral %.4f%n", m.type(), m.predict(new double[] {2})[0], m.integral());
        }

        DensityPipeline kde = new KdeTrainer(null, Scaler.Kind.NONE).fit(train);   // bandwidth by leave-one-out
        Path file = dir.resolve("kde.json");
        ModelIO.save(kde, file);
        DensityPipeline back = ModelIO.load(file, DensityPipeline.class);
        out.printf("kde: %s, p(2) = %.4f (truth 0.399)%n", back.hyperParameters(),
                back.predict(new double[] {2})[0]);
        return back;
    }

    public static void main(String[] args) throws Exception {
        run(Files.createTempDirectory("psdkit-example"), System.out);
    }
}
