package org.psdkit.cli.fit;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
import org.psdkit.kernel.Kernel;
import org.psdkit.kernel.Kernels;
import org.psdkit.model.Model;
import org.psdkit.model.Trainer;
import org.psdkit.psd.Anchors;
import org.psdkit.psd.Nystrom;
import org.psdkit.regression.KrrTrainer;
import org.psdkit.regression.SvrTrainer;
import org.psdkit.regression.nystrom.NystromKrr;
import org.psdkit.regression.nystrom.NystromKrrTrainer;
import org.psdkit.regression.nystrom.Storage;

/**
 * {@code cv <type> --weight COLUMN}: each fold's fit gets its rows' weights and the held-out scores are weighted
 * means of the losses (scikit-learn's {@code sample_weight} in its metrics), equal to fits done fold by fold by hand;
 * a type whose trainer takes no weights is refused naming it.
 */
class CvWeightCliTest {
    @TempDir
    Path dir;

    /** 40 rows; a quarter of the weights 0, on rows whose target is spoiled (what a weighted fit and score ignore). */
    private Path data() throws IOException {
        Random r = new Random(5);
        StringBuilder b = new StringBuilder("a,wt,b,y\n");
        for (int i = 0; i < 40; i++) {
            double a = r.nextGaussian();
            double c = r.nextGaussian();
            double w = i % 4 == 0 ? 0 : 0.5 + r.nextInt(3);
            double y = Math.sin(a) + c * c + (w == 0 ? 5 : 0.1 * r.nextGaussian());
            b.append(String.format(Locale.ROOT, "%.6f,%s,%.6f,%.6f%n", a, w, c, y));
        }
        Path p = dir.resolve("w.csv");
        Files.writeString(p, b.toString());
        return p;
    }

    /** The weighted RMSE, MAE and R² of one held-out part, written out here. */
    private static double[] weightedScores(double[] y, double[] p, double[] w) {
        double sw = 0;
        double sy = 0;
        for (int i = 0; i < y.length; i++) {
            sw += w[i];
            sy += w[i] * y[i];
        }
        double mean = sy / sw;
        double se = 0;
        double ae = 0;
        double tot = 0;
        for (int i = 0; i < y.length; i++) {
            se += w[i] * (y[i] - p[i]) * (y[i] - p[i]);
            ae += w[i] * Math.abs(y[i] - p[i]);
            tot += w[i] * (y[i] - mean) * (y[i] - mean);
        }
        return new double[] {Math.sqrt(se / sw), ae / sw, 1 - se / tot};
    }

    /** Means over the 3 folds (seed 1) of the weighted scores of fits done by hand, one per fold. */
    private static double[] byHand(Dataset ds, DoubleFunction<Trainer<? extends Model>> trainer, double lambda) {
        Splits.TrainTest[] parts = Splits.kFold(ds.n(), 3, 1);
        double[] mean = new double[3];
        for (Splits.TrainTest part : parts) {
            Dataset train = Splits.subset(ds, part.train());
            Dataset test = Splits.subset(ds, part.test());
            Model m = trainer.apply(lambda).fit(train);
            double[] s = weightedScores(test.y(), m.predict(test.x()).col(0), test.weights());
            for (int k = 0; k < 3; k++) {
                mean[k] += s[k] / parts.length;
            }
        }
        return mean;
    }

    private static void assertGridMatches(JsonNode grid, Dataset ds, DoubleFunction<Trainer<? extends Model>> t,
                                          String what) {
        assertEquals(2, grid.size(), grid.toString());
        for (JsonNode row : grid) {
            double lambda = Double.parseDouble(row.get("lambda").asText());
            double[] expected = byHand(ds, t, lambda);
            String at = what + " lambda " + lambda + ": " + row;
            assertEquals(expected[0], row.get("rmse").asDouble(), 1e-9 * expected[0], at);
            assertEquals(expected[1], row.get("mae").asDouble(), 1e-9 * expected[1], at);
            assertEquals(expected[2], row.get("r2").asDouble(), 1e-9, at);
        }
    }

    @Test
    void weightedCvEqualsWeightedFitsDoneFoldByFold() throws IOException {
        Path train = data();
        Dataset ds = CsvReader.read(train, CsvReader.Options.regression().withWeightName("wt"));
        Kernel k = Kernels.parse("gaussian(sigma=1)");
        CliRun exact = CliRun.run("cv", "krr", "--train", train.toString(), "--weight", "wt", "--folds", "3",
                "--scale", "zscore", "--kernel", "gaussian(sigma=1)", "--grid", "lambda=0.01,0.3", "--json");
        assertEquals(0, exact.status(), exact.err());
        assertEquals("wt", exact.json().get("weight").asText());
        assertGridMatches(exact.json().get("grid"), ds,
                l -> new KrrTrainer(KrrTrainer.Options.of(k, l).withScale(Scaler.Kind.ZSCORE)), "exact krr");

        // Nystrom: the cv keeps each fold's anchors and weighted normal equations across the lambda grid
        CliRun ny = CliRun.run("cv", "krr", "--train", train.toString(), "--weight", "wt", "--folds", "3",
                "--scale", "zscore", "--kernel", "gaussian(sigma=1)", "--anchors", "12", "--grid", "lambda=0.01,0.3",
                "--json");
        assertEquals(0, ny.status(), ny.err());
        assertGridMatches(ny.json().get("grid"), ds, l -> new NystromKrrTrainer(new NystromKrrTrainer.Options(k,
                Scaler.Kind.ZSCORE, Nystrom.of(12, Anchors.Method.UNIFORM, 1), l, false, NystromKrr.DEFAULT_TOLERANCE,
                NystromKrr.DEFAULT_MAX_ITERATIONS, Storage.AUTO)), "nystrom krr");

        CliRun svr = CliRun.run("cv", "svr", "--train", train.toString(), "--weight", "wt", "--folds", "3",
                "--scale", "zscore", "--grid", "C=1,10", "--json");
        assertEquals(0, svr.status(), svr.err());
        for (JsonNode row : svr.json().get("grid")) {
            double c = Double.parseDouble(row.get("C").asText());
            double[] expected = byHand(ds, unused -> new SvrTrainer(SvrTrainer.Options.of(k, c, 0.1)
                    .withScale(Scaler.Kind.ZSCORE)), 0);
            assertEquals(expected[0], row.get("rmse").asDouble(), 1e-9 * expected[0], row.toString());
        }

        // the weights matter: the same cv without them scores (and fits) differently
        CliRun plain = CliRun.run("cv", "krr", "--train", train.toString(), "--folds", "3", "--scale", "zscore",
                "--kernel", "gaussian(sigma=1)", "--grid", "lambda=0.01,0.3", "--json");
        assertEquals(0, plain.status(), plain.err());
        assertNotEquals(plain.json().get("rmse").asDouble(), exact.json().get("rmse").asDouble());
        assertTrue(plain.json().get("weight") == null, plain.out());

        CliRun ridge = CliRun.run("cv", "ridge", "--train", train.toString(), "--weight", "wt", "--folds", "3",
                "--json");
        assertEquals(0, ridge.status(), ridge.err());
    }

    @Test
    void aTypeWithoutWeightsIsRefusedNamingIt() throws IOException {
        Path train = data();
        CliRun psd = CliRun.run("cv", "psd-regression", "--train", train.toString(), "--weight", "wt");
        assertEquals(2, psd.status(), psd.err());
        assertTrue(psd.err().contains("--weight wt: cv psd-regression takes no sample weights (cv takes them for krr, "
                + "svm, ridge, svr, psd-density)"), psd.err());
        assertTrue(!psd.err().contains("Exception"), psd.err());
        CliRun loo = CliRun.run("cv", "krr", "--train", train.toString(), "--weight", "wt", "--loo");
        assertEquals(2, loo.status(), loo.err());
        assertTrue(loo.err().contains("--loo is the unweighted leave-one-out shortcut"), loo.err());
        CliRun tk = CliRun.run("cv", "tk-svm", "--train", train.toString(), "--weight", "wt");
        assertEquals(2, tk.status(), tk.err());
        assertTrue(tk.err().contains("'tk-svm'"), tk.err());
    }

    /**
     * {@code cv krr --anchors} keeps each fold's Nystrom problem across the grid; a grid over {@code center} must not
     * reuse the problem of the other value (its right-hand side is K_nm^T(y - offset)): every grid row equals the
     * run with that value alone, weighted or not.
     */
    @Test
    void aCenterGridDoesNotReuseTheOtherCentersProblem() throws IOException {
        Path train = data();
        for (boolean weighted : new boolean[] {false, true}) {
            java.util.List<String> base = new java.util.ArrayList<>(java.util.List.of("cv", "krr", "--train",
                    train.toString(), "--folds", "3", "--kernel", "gaussian(sigma=1)", "--lambda", "0.01",
                    "--anchors", "12", "--json"));
            if (weighted) {
                base.addAll(java.util.List.of("--weight", "wt"));
            }
            java.util.List<String> grid = new java.util.ArrayList<>(base);
            grid.addAll(java.util.List.of("--grid", "center=false,true"));
            CliRun both = CliRun.run(grid.toArray(new String[0]));
            assertEquals(0, both.status(), both.err());
            double[] alone = new double[2];
            for (int c = 0; c < 2; c++) {
                java.util.List<String> one = new java.util.ArrayList<>(base);
                one.addAll(java.util.List.of("-P", "center=" + (c == 1)));
                CliRun r = CliRun.run(one.toArray(new String[0]));
                assertEquals(0, r.status(), r.err());
                alone[c] = r.json().get("rmse").asDouble();
            }
            assertNotEquals(alone[0], alone[1], "centering must change the fit here");
            for (JsonNode row : both.json().get("grid")) {
                int c = row.get("center").asText().equals("true") ? 1 : 0;
                assertEquals(alone[c], row.get("rmse").asDouble(), 1e-12 * alone[c], "weighted " + weighted + ": "
                        + row);
            }
        }
    }
}
