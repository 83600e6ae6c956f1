package org.psdkit.cli.fit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Random;
import java.util.function.DoubleFunction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.psdkit.cli.CliRun;
import org.psdkit.data.CsvReader;
import org.psdkit.data.Dataset;
import org.psdkit.data.Scaler;
import org.psdkit.data.Splits;
import org.psdkit.density.BaseMeasure;
import org.psdkit.density.DensityPipeline;
import org.psdkit.density.KdeTrainer;
import org.psdkit.density.PsdDensityOptions;
import org.psdkit.density.PsdDensityTrainer;
import org.psdkit.kernel.GaussianKernel;
import org.psdkit.model.Trainer;
import org.psdkit.psd.Nystrom;
import org.psdkit.psd.PsdOptions;

/**
 * {@code cv <density>}: no target, the trainer scales each training part itself, and the held-out score is the
 * (weighted, with {@code --weight}) mean floored log-likelihood in the data's units, equal to fits done fold by fold
 * by hand; the best point has the largest.
 */
class CvDensityCliTest {
    @TempDir
    Path dir;

    /** 30 points of a 1-D two-bump mixture, a weight column, a third of the weights 0 on far outliers. */
    private Path data() throws IOException {
        Random r = new Random(4);
        StringBuilder b = new StringBuilder("x,w\n");
        for (int i = 0; i < 30; i++) {
            double w = i % 3 == 0 ? 0 : 1 + r.nextInt(2);
            double x = w == 0 ? 6 + r.nextGaussian() : (i % 2 == 0 ? -1 : 1) + 0.4 * r.nextGaussian();
            b.append(String.format(Locale.ROOT, "%.6f,%s%n", x, w));
        }
        Path p = dir.resolve("d.csv");
        Files.writeString(p, b.toString());
        return p;
    }

    /** Mean over the 3 folds (seed 1) of the held-out (weighted) mean log-likelihood of fits by hand. */
    private static double byHand(Dataset ds, Trainer<DensityPipeline> t) {
        Splits.TrainTest[] parts = Splits.kFold(ds.n(), 3, 1);
        double mean = 0;
        for (Splits.TrainTest part : parts) {
            Dataset train = Splits.subset(ds, part.train());
            Dataset test = Splits.subset(ds, part.test());
            DensityPipeline m = t.fit(train);
            double[] p = m.predict(test.x()).col(0);
            double s = 0;
            double sw = 0;
            for (int i = 0; i < p.length; i++) {
                double w = test.weights() == null ? 1 : test.weights()[i];
                s += w * Math.log(Math.max(p[i], DensityPipeline.DENSITY_FLOOR));
                sw += w;
            }
            mean += s / sw / parts.length;
        }
        return mean;
    }

    private static void assertGrid(JsonNode report, String name, DoubleFunction<Double> expected) {
        JsonNode grid = report.get("grid");
        assertEquals(2, grid.size(), grid.toString());
        double best = Double.NEGATIVE_INFINITY;
        for (JsonNode row : grid) {
            double v = Double.parseDouble(row.get(name).asText());
            double e = expected.apply(v);
            assertEquals(e, row.get("loglik").asDouble(), 1e-9 * Math.abs(e), row.toString());
            best = Math.max(best, e);
        }
        assertEquals(best, report.get("loglik").asDouble(), 1e-9 * Math.abs(best), report.toString());
    }

    @Test
    void kdeGridEqualsFitsByHandInTheDataUnits() throws IOException {
        Path train = data();
        Dataset ds = CsvReader.read(train, CsvReader.Options.unsupervised());
        CliRun run = CliRun.run("cv", "kde", "--train", train.toString(), "--folds", "3", "--scale", "zscore",
                "--grid", "bandwidth=0.2,0.6", "--json");
        assertEquals(0, run.status(), run.err());
        assertGrid(run.json(), "bandwidth", h -> byHand(ds,
                new KdeTrainer(KdeTrainer.Options.fixed(h).withScale(Scaler.Kind.ZSCORE))));
    }

    @Test
    void weightedPsdDensityGridEqualsWeightedFitsByHand() throws IOException {
        Path train = data();
        Dataset ds = CsvReader.read(train, new CsvReader.Options(null, true, false, "w"));
        CliRun run = CliRun.run("cv", "psd-density", "--train", train.toString(), "--weight", "w", "--folds", "3",
                "--kernel", "gaussian(sigma=0.5)", "--grid", "lambda=1e-2,1e-1", "-P", "tol=1e-3", "--json");
        assertEquals(0, run.status(), run.err());
        assertEquals("w", run.json().get("weight").asText());
        assertGrid(run.json(), "lambda", l -> byHand(ds, new PsdDensityTrainer(new PsdDensityTrainer.Options(
                new GaussianKernel(0.5), new BaseMeasure.Lebesgue(), new PsdDensityOptions(l, 0.01 * l,
                        PsdDensityOptions.LambdaScale.TRACE, 1e-3, 20000, Double.POSITIVE_INFINITY,
                        PsdOptions.DEFAULT_RANK_THRESHOLD, PsdDensityOptions.Solver.DUAL_FISTA), Nystrom.exact(),
                Scaler.Kind.NONE))));

        // unweighted, the zero-weight outliers count: the held-out log-likelihood differs
        CliRun plain = CliRun.run("cv", "psd-density", "--train", train.toString(), "--folds", "3",
                "--kernel", "gaussian(sigma=0.5)", "--grid", "lambda=1e-2,1e-1", "-P", "tol=1e-3", "--json");
        assertEquals(0, plain.status(), plain.err());
        assertNotEquals(plain.json().get("loglik").asDouble(), run.json().get("loglik").asDouble());
    }

    @Test
    void theBaselinesRefuseWeightsAndATargetIsRefused() throws IOException {
        Path train = data();
        CliRun ncm = CliRun.run("cv", "ncm-density", "--train", train.toString(), "--weight", "w");
        assertEquals(2, ncm.status(), ncm.err());
        assertTrue(ncm.err().contains("cv ncm-density takes no sample weights"), ncm.err());
        CliRun target = CliRun.run("cv", "kde", "--train", train.toString(), "--target", "w");
        assertEquals(2, target.status(), target.err());
        assertTrue(target.err().contains("takes no target"), target.err());
        CliRun bad = CliRun.run("cv", "kde", "--train", train.toString(), "--grid", "bandwidth=0.5,-1");
        assertEquals(2, bad.status(), bad.err());
        assertTrue(bad.err().contains("bandwidth=-1"), bad.err());
        for (CliRun r : new CliRun[] {ncm, target, bad}) {
            assertFalse(r.err().contains("Exception"), r.err());
        }
    }
}
