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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.psdkit.classify.ClassWeights;
import org.psdkit.classify.SvmTrainer;
import org.psdkit.cli.CliRun;
import org.psdkit.data.CsvReader;
import org.psdkit.data.Dataset;
import org.psdkit.data.Scaler;
import org.psdkit.data.Splits;
import org.psdkit.kernel.Kernels;
import org.psdkit.model.Classifier;

/**
 * {@code cv svm}: the held-out accuracy of every grid point equals that of fits done fold by fold by hand (the same
 * folds, scaling fitted on each training part), with {@code --weight} weighted in the fits and in the score, for
 * two and for three classes (one-vs-one); the best point is the most accurate; bad grid values exit 2.
 */
class CvSvmCliTest {
    @TempDir
    Path dir;

    /** 60 rows of three classes around three centres, a weight column, a third of the weights 0 on flipped labels. */
    private Path data(int classes) throws IOException {
        Random r = new Random(11);
        String[] names = {"red", "green", "blue"};
        StringBuilder b = new StringBuilder("a,wt,b,cls\n");
        for (int i = 0; i < 60; i++) {
            int c = i % classes;
            double a = 1.5 * Math.cos(2 * Math.PI * c / 3) + r.nextGaussian();
            double d = 1.5 * Math.sin(2 * Math.PI * c / 3) + r.nextGaussian();
            double w = i % 3 == 0 ? 0 : 1 + r.nextInt(3);
            int label = w == 0 ? (c + 1) % classes : c; // rows of weight 0 carry a wrong label
            b.append(String.format(Locale.ROOT, "%.6f,%s,%.6f,%s%n", a, w, d, names[label]));
        }
        Path p = dir.resolve("c" + classes + ".csv");
        Files.writeString(p, b.toString());
        return p;
    }

    /** Mean over the 3 folds (seed 1) of the held-out (weighted) accuracy of fits by hand. */
    private static double byHand(Dataset ds, SvmTrainer.Options options, boolean weighted) {
        Splits.TrainTest[] parts = Splits.kFold(ds.n(), 3, 1);
        double mean = 0;
        for (Splits.TrainTest part : parts) {
            Dataset train = Splits.subset(ds, part.train());
            Dataset test = Splits.subset(ds, part.test());
            Classifier m = new SvmTrainer(options.withScale(Scaler.Kind.ZSCORE)).fit(train);
            String[] p = m.predictLabels(test.x());
            double right = 0;
            double total = 0;
            for (int i = 0; i < p.length; i++) {
                double w = weighted ? test.weights()[i] : 1;
                total += w;
                right += p[i].equals(test.labels()[i]) ? w : 0;
            }
            mean += right / total / parts.length;
        }
        return mean;
    }

    @Test
    void heldOutAccuracyEqualsFitsDoneFoldByFold() throws IOException {
        for (int classes : new int[] {2, 3}) {
            Path train = data(classes);
            for (boolean weighted : new boolean[] {false, true}) {
                // without --weight the column wt is a feature, as the command reads it
                Dataset ds = CsvReader.read(train, new CsvReader.Options("cls", false, true, weighted ? "wt" : null));
                CliRun run = weighted
                        ? CliRun.run("cv", "svm", "--train", train.toString(), "--target", "cls", "--weight", "wt",
                                "--folds", "3", "--scale", "zscore", "--grid", "C=0.1,10;sigma=0.5,2", "--json")
                        : CliRun.run("cv", "svm", "--train", train.toString(), "--target", "cls", "--folds", "3",
                                "--scale", "zscore", "-P", "classWeight=balanced", "--grid", "C=0.1,10;sigma=0.5,2",
                                "--json");
                assertEquals(0, run.status(), run.err());
                JsonNode grid = run.json().get("grid");
                assertEquals(4, grid.size(), grid.toString());
                double best = -1;
                for (JsonNode row : grid) {
                    double c = Double.parseDouble(row.get("C").asText());
                    double sigma = Double.parseDouble(row.get("sigma").asText());
                    SvmTrainer.Options o = SvmTrainer.Options.of(Kernels.parse("gaussian(sigma=" + sigma + ")"), c);
                    if (!weighted) {
                        o = o.withClassWeight(ClassWeights.balancedWeights());
                    }
                    double expected = byHand(ds, o, weighted);
                    String at = classes + " classes, weighted " + weighted + ": " + row;
                    assertEquals(expected, row.get("accuracy").asDouble(), 1e-12, at);
                    assertEquals(1 - expected, row.get("error").asDouble(), 1e-12, at);
                    best = Math.max(best, expected);
                }
                assertEquals(best, run.json().get("accuracy").asDouble(), 1e-12, run.out());
                assertTrue(run.json().get("best").get("kernel").asText().startsWith("gaussian(sigma="), run.out());
            }
        }
    }

    @Test
    void theWeightsChangeTheFitsAndTheScore() throws IOException {
        Path train = data(3);
        CliRun plain = CliRun.run("cv", "svm", "--train", train.toString(), "--target", "cls", "--folds", "3",
                "--scale", "zscore", "-P", "C=10", "--json");
        CliRun weighted = CliRun.run("cv", "svm", "--train", train.toString(), "--target", "cls", "--folds", "3",
                "--scale", "zscore", "-P", "C=10", "--weight", "wt", "--json");
        assertEquals(0, weighted.status(), weighted.err());
        assertEquals("wt", weighted.json().get("weight").asText());
        // the rows of weight 0 carry wrong labels: ignoring them in the fit and the score raises the accuracy
        assertTrue(weighted.json().get("accuracy").asDouble() > 0.9, weighted.out());
        assertEquals(0, plain.status(), plain.err());
        assertNotEquals(plain.json().get("accuracy").asDouble(), weighted.json().get("accuracy").asDouble(),
                plain.out());
    }

    @Test
    void badGridValuesExit2NamingThem() throws IOException {
        Path train = data(2);
        CliRun c = CliRun.run("cv", "svm", "--train", train.toString(), "--target", "cls", "--grid", "C=1,-1");
        assertEquals(2, c.status(), c.err());
        assertTrue(c.err().contains("C=-1") && c.err().contains("-C"), c.err());
        CliRun nu = CliRun.run("cv", "svm", "--train", train.toString(), "--target", "cls", "--grid", "nu=0.5,1.5");
        assertEquals(2, nu.status(), nu.err());
        assertTrue(nu.err().contains("nu=1.5") && nu.err().contains("(0, 1]"), nu.err());
        CliRun cw = CliRun.run("cv", "svm", "--train", train.toString(), "--target", "cls", "-P", "classWeight=red");
        assertEquals(2, cw.status(), cw.err());
        assertTrue(cw.err().contains("not label=weight"), cw.err());
        for (CliRun r : new CliRun[] {c, nu, cw}) {
            assertFalse(r.err().contains("Exception"), r.err());
        }
    }
}
