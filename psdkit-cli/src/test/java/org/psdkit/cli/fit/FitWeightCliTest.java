package org.psdkit.cli.fit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.psdkit.cli.CliRun;
import org.psdkit.data.CsvReader;
import org.psdkit.data.Dataset;
import org.psdkit.io.ModelIO;
import org.psdkit.kernel.Kernels;
import org.psdkit.model.Model;
import org.psdkit.regression.KrrTrainer;
import org.psdkit.regression.RidgeTrainer;

/** {@code --weight COLUMN}: sample weights read from a column for krr (exact and Nyström) and ridge. */
class FitWeightCliTest {
    @TempDir
    Path dir;

    private Path data(String weight) throws IOException {
        Random r = new Random(11);
        StringBuilder b = new StringBuilder("a,wt,b,y\n");
        for (int i = 0; i < 30; i++) {
            double a = r.nextGaussian();
            double c = r.nextGaussian();
            String w = i == 4 && weight != null ? weight : Double.toString(r.nextInt(4) * 0.5);
            b.append(String.format(Locale.ROOT, "%.6f,%s,%.6f,%.6f%n", a, w, c, Math.sin(a) + c * c));
        }
        Path p = dir.resolve(weight == null ? "w.csv" : "bad.csv");
        Files.writeString(p, b.toString());
        return p;
    }

    @Test
    void krrAndRidgeFitWithTheWeightColumnAsTheLibraryDoes() throws IOException {
        Path train = data(null);
        Dataset ds = CsvReader.read(train, CsvReader.Options.regression().withWeightName("wt"));
        Path krr = dir.resolve("krr.json");
        CliRun r = CliRun.run("fit", "krr", "--train", train.toString(), "--weight", "wt", "--lambda", "0.1",
                "--out", krr.toString(), "--json");
        assertEquals(0, r.status(), r.err());
        Model m = ModelIO.load(krr);
        assertEquals(java.util.List.of("a", "b"), m.featureNames());
        double[] expected = new KrrTrainer(KrrTrainer.Options.of(Kernels.parse("gaussian(sigma=1)"), 0.1)).fit(ds)
                .predict(ds.x()).col(0);
        assertArrayEquals(expected, m.predict(ds.x()).col(0), 0.0);
        double[] unweighted = new KrrTrainer(KrrTrainer.Options.of(Kernels.parse("gaussian(sigma=1)"), 0.1))
                .fit(ds.withWeights(null)).predict(ds.x()).col(0);
        assertFalse(java.util.Arrays.equals(unweighted, expected));

        Path ridge = dir.resolve("ridge.json");
        r = CliRun.run("fit", "ridge", "--train", train.toString(), "--weight", "wt", "--out", ridge.toString());
        assertEquals(0, r.status(), r.err());
        assertArrayEquals(new RidgeTrainer(RidgeTrainer.Options.of(1.0)).fit(ds).predict(ds.x()).col(0),
                ModelIO.load(ridge).predict(ds.x()).col(0), 0.0);

        Path ny = dir.resolve("ny.json");
        r = CliRun.run("fit", "krr", "--train", train.toString(), "--weight", "wt", "--anchors", "10",
                "--out", ny.toString(), "--json");
        assertEquals(0, r.status(), r.err());
        assertEquals("nystrom-direct", r.json().get("route").asText());
    }

    @Test
    void severalTargetsInOneSolveWriteOneColumnEach() throws IOException {
        Path train = data(null);
        Path krr = dir.resolve("multi.json");
        CliRun r = CliRun.run("fit", "krr", "--train", train.toString(), "--target", "y,b", "--weight", "wt",
                "--lambda", "0.1", "--out", krr.toString(), "--json");
        assertEquals(0, r.status(), r.err());
        assertEquals(1, r.json().get("factorizations").asInt());
        assertEquals("y", r.json().get("targets").get(0).asText());
        assertTrue(r.json().get("metrics").has("b"), r.out());
        Model m = ModelIO.load(krr);
        assertEquals(java.util.List.of("a"), m.featureNames());
        assertEquals(java.util.List.of("prediction1", "prediction2"), m.outputColumns());
        Path pred = dir.resolve("p.csv");
        CliRun p = CliRun.run("predict", "--model", krr.toString(), "--data", train.toString(), "--out",
                pred.toString());
        assertEquals(0, p.status(), p.err());
        assertTrue(Files.readAllLines(pred).get(0).endsWith("prediction1,prediction2"), Files.readAllLines(pred).get(0));
        Path ny = dir.resolve("ny2.json");
        r = CliRun.run("fit", "krr", "--train", train.toString(), "--target", "y,b", "--anchors", "8",
                "--out", ny.toString(), "--json");
        assertEquals(0, r.status(), r.err());
        assertEquals(1, r.json().get("factorizations").asInt());
        Path ridge = dir.resolve("ridge2.json");
        r = CliRun.run("fit", "ridge", "--train", train.toString(), "--target", "y,b", "--out", ridge.toString());
        assertEquals(0, r.status(), r.err());
        assertEquals(2, ModelIO.load(ridge).outputColumns().size());
        // eval of a several-target model: one metrics object per target, equal to the library's metrics
        CliRun ev = CliRun.run("eval", "--model", krr.toString(), "--data", train.toString(), "--json");
        assertEquals(0, ev.status(), ev.err());
        Dataset both = CsvReader.read(train, new CsvReader.Options("y,b", false, false, "wt"));
        org.psdkit.linalg.Matrix out = m.predict(both.x());
        assertEquals(org.psdkit.model.Metrics.rmse(both.targets().col(1), out.col(1)),
                ev.json().get("metrics").get("b").get("rmse").asDouble(), 0.0);
        assertEquals(org.psdkit.model.Metrics.r2(both.targets().col(0), out.col(0)),
                ev.json().get("metrics").get("y").get("r2").asDouble(), 0.0);
        Path onlyY = dir.resolve("only-y.csv");
        Files.write(onlyY, Files.readAllLines(train).stream().map(l -> l.substring(0, l.lastIndexOf(',')))
                .toList());
        CliRun ev2 = CliRun.run("eval", "--model", krr.toString(), "--data", onlyY.toString());
        assertEquals(2, ev2.status(), ev2.err());
        assertTrue(ev2.err().contains("missing target column 'y'"), ev2.err());
        CliRun svr = CliRun.run("fit", "svr", "--train", train.toString(), "--target", "y,b", "--out",
                dir.resolve("s.json").toString());
        assertEquals(2, svr.status(), svr.err());
        assertTrue(svr.err().contains("this model takes one target column"), svr.err());
        CliRun missing = CliRun.run("fit", "krr", "--train", train.toString(), "--target", "y,nope", "--out",
                dir.resolve("s.json").toString());
        assertEquals(2, missing.status(), missing.err());
        assertTrue(missing.err().contains("'nope'"), missing.err());
    }

    @Test
    void densityFitsTheWeightedLikelihood() throws IOException {
        Path train = data(null);
        Path a = dir.resolve("a.json");
        Path b = dir.resolve("b.json");
        CliRun w = CliRun.run("fit", "density", "--train", train.toString(), "--weight", "wt", "--kernel",
                "gaussian(sigma=1)", "--out", a.toString(), "--json");
        assertEquals(0, w.status(), w.err());
        assertTrue(w.err().contains("--weight fits with --solver dual-fista"), w.err());
        CliRun u = CliRun.run("fit", "density", "--train", train.toString(), "--kernel", "gaussian(sigma=1)",
                "--solver", "dual-fista", "--out", b.toString(), "--json");
        assertEquals(0, u.status(), u.err());
        // the weight column is not a feature in either fit: 3 features (a, b, y) against 4 without --weight
        assertEquals(3, ModelIO.load(a).featureNames().size());
        assertEquals(4, ModelIO.load(b).featureNames().size());
    }

    @Test
    void badWeightsAndModelsWithoutWeightsExitTwo() throws IOException {
        Path out = dir.resolve("m.json");
        for (String bad : new String[] {"-1", "NaN", ""}) {
            CliRun r = CliRun.run("fit", "krr", "--train", data(bad).toString(), "--weight", "wt",
                    "--out", out.toString());
            assertEquals(2, r.status(), r.err());
            assertTrue(r.err().contains("line 6, column 2 (wt)"), r.err());
            assertFalse(r.err().contains("Exception"), r.err());
        }
        Path train = data(null);
        // svr and svm take sample weights now; psd-regression does not
        CliRun psd = CliRun.run("fit", "psd-regression", "--train", train.toString(), "--weight", "wt", "--out",
                out.toString());
        assertEquals(2, psd.status(), psd.err());
        assertTrue(psd.err().contains("--weight wt: this model takes no sample weights"), psd.err());
        CliRun svr = CliRun.run("fit", "svr", "--train", train.toString(), "--weight", "wt", "--out",
                dir.resolve("svr-w.json").toString(), "-C", "1");
        assertEquals(0, svr.status(), svr.err());
        CliRun same = CliRun.run("fit", "krr", "--train", train.toString(), "--weight", "y", "--target", "y",
                "--out", out.toString());
        assertEquals(2, same.status(), same.err());
        CliRun missing = CliRun.run("fit", "krr", "--train", train.toString(), "--weight", "nope",
                "--out", out.toString());
        assertEquals(2, missing.status(), missing.err());
        assertTrue(missing.err().contains("'nope'"), missing.err());
        CliRun rep = CliRun.run("fit", "krr", "--train", train.toString(), "--weight", "wt", "--form",
                "representer", "--out", out.toString());
        assertEquals(2, rep.status(), rep.err());
        assertTrue(rep.err().contains("--form"), rep.err());
    }
}
