package org.psdkit.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.psdkit.io.ModelFile;

/** {@code fit one-class-svm}, {@code fit svm --nu} and {@code fit svr --nu}: flags, columns, reports, errors. */
class NuCliTest {

    @TempDir
    Path dir;

    private Path write(String name, String header, int n, long seed, java.util.function.Function<Random, String> row)
            throws IOException {
        Random r = new Random(seed);
        StringBuilder sb = new StringBuilder(header).append('\n');
        for (int i = 0; i < n; i++) {
            sb.append(row.apply(r)).append('\n');
        }
        return Files.writeString(dir.resolve(name), sb);
    }

    /** A blob of points around the origin (and, for the test file, far points). */
    private Path blob(String name, int n, long seed, boolean far) throws IOException {
        return write(name, "u,v", n, seed, r -> {
            double s = far && r.nextBoolean() ? 6 : 1;
            return String.format(Locale.ROOT, "%.6f,%.6f", s * r.nextGaussian(), s * r.nextGaussian());
        });
    }

    private Path circle(String name, int n, long seed) throws IOException {
        return write(name, "u,v,label", n, seed, r -> {
            double u = 4 * r.nextDouble() - 2;
            double v = 4 * r.nextDouble() - 2;
            return String.format(Locale.ROOT, "%.5f,%.5f,%s", u, v, u * u + v * v < 1.5 ? "in" : "out");
        });
    }

    private Path wave(String name, int n, long seed) throws IOException {
        return write(name, "x,y", n, seed, r -> {
            double x = 6 * r.nextDouble() - 3;
            return String.format(Locale.ROOT, "%.6f,%.6f", x, Math.sin(x) + 0.1 * r.nextGaussian());
        });
    }

    @Test
    void oneClassSvmFitsPredictsDecisionAndInlierAndEvaluates() throws IOException {
        Path train = blob("train.csv", 120, 1, false);
        Path test = blob("test.csv", 200, 2, true);
        Path model = dir.resolve("oc.json");
        CliRun fit = CliRun.run("fit", "one-class-svm", "--train", train.toString(), "--no-target", "--nu", "0.1",
                "--kernel", "gaussian(sigma=1)", "--out", model.toString(), "--json");
        assertEquals(0, fit.status(), fit.err());
        JsonNode j = fit.json();
        assertEquals("one-class-svm", j.get("model").asText());
        assertEquals(2, j.get("d").asInt()); // both columns are features
        assertEquals(0.1, j.get("nu").asDouble());
        assertTrue(j.get("supportVectors").asInt() >= 12, j.toString()); // at least ν n support vectors
        assertTrue(j.get("converged").asBoolean());
        JsonNode doc = ModelFile.read(model);
        assertEquals(0.1, doc.get("options").get("nu").asDouble());
        assertTrue(doc.get("target").isNull());
        Path pred = dir.resolve("p.csv");
        CliRun pr = CliRun.run("predict", "--model", model.toString(), "--data", test.toString(), "--out",
                pred.toString());
        assertEquals(0, pr.status(), pr.err());
        List<String> lines = Files.readAllLines(pred);
        assertEquals("decision,inlier", lines.get(0));
        int outliers = 0;
        for (String l : lines.subList(1, lines.size())) {
            String[] c = l.split(",");
            double f = Double.parseDouble(c[0]);
            assertEquals(f > 0 ? "1.0" : "-1.0", c[1], l);
            outliers += f > 0 ? 0 : 1;
        }
        assertTrue(outliers > 40, outliers + " outliers among far points"); // about half the test rows are far
        CliRun ev = CliRun.run("eval", "--model", model.toString(), "--data", test.toString(), "--json");
        assertEquals(0, ev.status(), ev.err());
        assertEquals(200, ev.json().get("n").asInt());
        assertTrue(ev.json().get("inlierFraction").asDouble() < 0.8, ev.out());
        // without --no-target every column is a feature all the same, as for the densities
        CliRun again = CliRun.run("fit", "one-class-svm", "--train", train.toString(), "--nu", "0.1", "--kernel",
                "gaussian(sigma=1)", "--out", dir.resolve("oc2.json").toString(), "--json");
        assertEquals(0, again.status(), again.err());
        assertEquals(2, again.json().get("d").asInt());
    }

    @Test
    void oneClassSvmRefusesATargetAndABadNu() throws IOException {
        Path train = blob("train.csv", 30, 1, false);
        CliRun t = CliRun.run("fit", "one-class-svm", "--train", train.toString(), "--target", "v", "--out",
                dir.resolve("m.json").toString());
        assertEquals(2, t.status());
        assertTrue(t.err().contains("--target v") && t.err().contains("no target"), t.err());
        for (String bad : new String[] {"0", "1.5", "-0.2"}) {
            CliRun r = CliRun.run("fit", "one-class-svm", "--train", train.toString(), "--nu", bad, "--out",
                    dir.resolve("m.json").toString());
            assertEquals(2, r.status(), bad);
            assertTrue(r.err().contains("--nu must be in (0, 1]"), r.err());
            assertFalse(r.err().contains("Exception"), r.err());
        }
        assertFalse(Files.exists(dir.resolve("m.json")));
    }

    @Test
    void svmNuFitsTheNuSvcAndNamesAnInfeasibleNu() throws IOException {
        Path train = circle("train.csv", 100, 3);
        Path model = dir.resolve("nu.json");
        CliRun fit = CliRun.run("fit", "svm", "--train", train.toString(), "--nu", "0.4", "--kernel",
                "gaussian(sigma=0.7)", "--out", model.toString(), "--json");
        assertEquals(0, fit.status(), fit.err());
        JsonNode j = fit.json();
        assertEquals(0.4, j.get("nu").asDouble());
        assertFalse(j.has("C"));
        assertTrue(j.get("supportVectors").asInt() >= 40, j.toString()); // ν is a lower bound on the SV fraction
        assertTrue(j.get("trainAccuracy").asDouble() > 0.85, j.toString());
        assertEquals(0.4, ModelFile.read(model).get("options").get("nu").asDouble());
        CliRun pr = CliRun.run("predict", "--model", model.toString(), "--data", circle("t.csv", 30, 4).toString(),
                "--out", dir.resolve("p.csv").toString());
        assertEquals(0, pr.status(), pr.err());
        assertEquals("label,decision", Files.readAllLines(dir.resolve("p.csv")).get(0));

        CliRun infeasible = CliRun.run("fit", "svm", "--train", train.toString(), "--nu", "1", "--out",
                dir.resolve("x.json").toString());
        assertEquals(2, infeasible.status());
        assertTrue(infeasible.err().contains("--nu is infeasible") && infeasible.err().contains("smaller class"),
                infeasible.err());
        CliRun both = CliRun.run("fit", "svm", "--train", train.toString(), "--nu", "0.3", "-C", "1", "--out",
                dir.resolve("x.json").toString());
        assertEquals(2, both.status());
        assertTrue(both.err().contains("-C and --nu exclude each other"), both.err());
        CliRun word = CliRun.run("fit", "svm", "--train", train.toString(), "--nu", "half", "--out",
                dir.resolve("x.json").toString());
        assertEquals(2, word.status());
        assertTrue(word.err().contains("--nu: 'half' is not a number"), word.err());
    }

    @Test
    void svrNuFindsEpsilonAndExcludesEpsilon() throws IOException {
        Path train = wave("train.csv", 80, 5);
        Path model = dir.resolve("nusvr.json");
        CliRun fit = CliRun.run("fit", "svr", "--train", train.toString(), "--nu", "0.3", "-C", "5", "--kernel",
                "gaussian(sigma=0.8)", "--out", model.toString(), "--json");
        assertEquals(0, fit.status(), fit.err());
        JsonNode j = fit.json();
        assertEquals(0.3, j.get("nu").asDouble());
        assertTrue(j.get("epsilon").asDouble() > 0, j.toString());
        assertTrue(j.get("rmse").asDouble() < 0.2, j.toString());
        JsonNode doc = ModelFile.read(model);
        assertEquals(0.3, doc.get("options").get("nu").asDouble());
        assertFalse(doc.get("options").has("epsilon"));
        assertEquals(j.get("epsilon").asDouble(), doc.get("numbers").get("epsilon").asDouble());
        CliRun both = CliRun.run("fit", "svr", "--train", train.toString(), "--nu", "0.3", "--epsilon", "0.1",
                "--out", dir.resolve("x.json").toString());
        assertEquals(2, both.status());
        assertTrue(both.err().contains("--epsilon and --nu exclude each other"), both.err());
        CliRun bad = CliRun.run("fit", "svr", "--train", train.toString(), "--nu", "2", "--out",
                dir.resolve("x.json").toString());
        assertEquals(2, bad.status());
        assertTrue(bad.err().contains("--nu must be in (0, 1], got 2.0"), bad.err());
        // the ε-SVR is unchanged: --epsilon still defaults to 0.1
        CliRun eps = CliRun.run("fit", "svr", "--train", train.toString(), "--out", dir.resolve("e.json").toString(),
                "--json");
        assertEquals(0, eps.status(), eps.err());
        assertEquals(0.1, eps.json().get("epsilon").asDouble());
        assertFalse(eps.json().has("nu"));
    }
}
