package org.psdkit.examples;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.psdkit.data.Dataset;
import org.psdkit.data.Scaler;
import org.psdkit.density.DensityPipeline;
import org.psdkit.density.Kde;
import org.psdkit.density.KdeTrainer;
import org.psdkit.io.ModelIO;
import org.psdkit.linalg.Matrix;
import org.psdkit.model.Model;
import org.psdkit.select.GridSearch;

/**
 * A Gaussian kernel density estimate: the bandwidth by leave-one-out likelihood (closed form), or chosen among fixed
 * bandwidths by a k-fold {@link GridSearch} on the held-out log-likelihood; save, load, sample.
 */
public final class KdeExample {
    private KdeExample() {
    }

    /** Runs the example in {@code dir}, printing to {@code out}; returns the loaded leave-one-out KDE. */
    public static Model run(Path dir, PrintStream out) throws Exception {
        // 60 points from an equal mixture of N(−2, 0.5²) and N(2, 0.5²); no target column
        Random r = new Random(3);
        double[][] x = new double[60][1];
        for (int i = 0; i < x.length; i++) {
            x[i][0] = (i % 2 == 0 ? -2 : 2) + 0.5 * r.nextGaussian();
        }
        Dataset train = Dataset.of(Matrix.of(x), null);

        DensityPipeline loo = new KdeTrainer(KdeTrainer.Options.leaveOneOut()).fit(train);
        out.printf("kde: leave-one-out bandwidth %.4f, p(2) = %.4f (truth 0.399)%n",
                ((Kde) loo.inner()).bandwidth(), loo.predict(new double[] {2})[0]);

        KdeTrainer.Options fixed = KdeTrainer.Options.fixed(1).withScale(Scaler.Kind.NONE);
        GridSearch.Scoring loglik = new GridSearch.Scoring(DensityPipeline.HELD_OUT_LOGLIK, false,
                DensityPipeline::heldOutScores);
        GridSearch.Search<Double, DensityPipeline> cv = GridSearch.over(List.of(0.1, 0.2, 0.4, 0.8),
                h -> new KdeTrainer(fixed.withBandwidth(h)), loglik, 5, 42L).search(train, null);
        out.printf("kde: 5-fold bandwidth %.1f, p(2) = %.4f%n", cv.best(), cv.model().predict(new double[] {2})[0]);

        Path file = dir.resolve("kde.json");
        ModelIO.save(loo, file);
        DensityPipeline back = ModelIO.load(file, DensityPipeline.class);
        Matrix draws = back.sample(3, 7);
        out.printf("kde read back: p(2) = %.4f; three samples %.3f %.3f %.3f%n", back.predict(new double[] {2})[0],
                draws.get(0, 0), draws.get(1, 0), draws.get(2, 0));
        return back;
    }

    public static void main(String[] args) throws Exception {
        run(Files.createTempDirectory("psdkit-example"), System.out);
    }
}
