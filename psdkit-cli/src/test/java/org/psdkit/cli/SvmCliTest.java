package org.psdkit.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SvmCliTest {

    @TempDir
    Path dir;

    /** A two-class CSV (labels g/b) separable by a circle, with a little label noise. */
    Path circle(String name, int n, long seed, boolean threeClasses) throws IOException {
        Random r = new Random(seed);
        StringBuilder sb = new StringBuilder("u,v,label\n");
        for (int i = 0; i < n; i++) {
            double u = 4 * r.nextDouble() - 2;
            double v = 4 * r.nextDouble() - 2;
            String lab = u * u + v * v < 1.5 ? "g" : "b";
            if (threeClasses && i == 3) {
                lab = "x";
            }
            sb.append(String.format(Locale.ROOT, "%.5f,%.5f,%s%n", u, v, lab));
        }
        Path f = dir.resolve(name);
        Files.writeString(f, sb.toString());
        return f;
    }

    @Test
    void tkSvmFitsAndEvaluatesWithStringLabels() throws IOException {
        Path train = circle("train.csv", 80, 1, false);
        Path test = circle("test.csv", 80, 2, false);
        Path model = dir.resolve("tk.json");
        CliRun fit = CliRun.run("fit", "tk-svm", "--train", train.toString(), "--out", model.toString(),
                "-C", "20", "--epsilon", "0.1", "--degree", "1", "--json");
        assertEquals(0, fit.status(), fit.err());
        JsonNode j = fit.json();
        assertEquals("tk-svm", j.get("model").asText());
        assertTrue(j.get("kernel").asText().contains("trace"));
        assertTrue(j.has("gap") && j.has("iterations") && j.has("seconds"));
        CliRun ev = CliRun.run("eval", "--model", model.toString(), "--data", test.toString(), "--json");
        assertEquals(0, ev.status(), ev.err());
        assertTrue(ev.json().get("accuracy").asDouble() > 0.8, ev.out());
        CliRun pr = CliRun.run("predict", "--model", model.toString(), "--data", test.toString(), "--out",
                dir.resolve("p.csv").toString());
        assertEquals(0, pr.status(), pr.err());
        String csv = Files.readString(dir.resolve("p.csv"));
        assertTrue(csv.contains("g") && csv.contains("b"));
    }

    /**
     * The report says converged only when the relative gap is within --gap, with the relative gap and why the
     * learning stopped; a fit that does not reach --gap warns on stderr, naming the reason and the gap.
     */
    @Test
    void learnedKernelReportsSayWhyTheLearningStopped() throws IOException {
        Path train = circle("train.csv", 40, 5, false);
        for (String type : new String[] {"tk-svm", "simplemkl"}) {
            for (String gap : new String[] {"0.01", "1e-12"}) {
                CliRun fit = CliRun.run("fit", type, "--train", train.toString(), "--out", dir.resolve(type + ".json")
                        .toString(), "-C", "100", "--epsilon", "0.1", "--gap", gap, "--json");
                assertEquals(0, fit.status(), fit.err());
                JsonNode j = fit.json();
                double rel = j.get("relativeGap").asDouble();
                boolean converged = j.get("converged").asBoolean();
                String stop = j.get("stopReason").asText();
                assertEquals(converged, rel <= Double.parseDouble(gap), fit.out());
                assertEquals(converged, stop.equals("converged"), fit.out());
                if (converged) {
                    assertFalse(fit.err().contains("warning"), fit.err());
                } else {
                    assertTrue(stop.equals("max-iterations") || stop.equals("stalled"), fit.out());
                    assertTrue(fit.err().contains("warning: kernel learning")
                            && fit.err().contains("above --gap " + Double.parseDouble(gap)), fit.err());
                }
                assertEquals(!gap.equals("1e-12"), converged, fit.out());
            }
        }
    }

    @Test
    void svmChoosesCByCvAndSimpleMklRuns() throws IOException {
        Path train = circle("train.csv", 60, 3, false);
        Path m1 = dir.resolve("svm.json");
        CliRun fit = CliRun.run("fit", "svm", "--train", train.toString(), "--out", m1.toString(), "--kernel",
                "gaussian(sigma=0.7)", "--json");
        assertEquals(0, fit.status(), fit.err());
        assertTrue(fit.json().has("cv"));
        // a one-megabyte kernel cache (single-precision rows) gives the same labels as the default
        Path small = dir.resolve("svm-small-cache.json");
        CliRun fs = CliRun.run("fit", "svm", "--train", train.toString(), "--out", small.toString(), "--kernel",
                "gaussian(sigma=0.7)", "-C", "3", "--cache-mb", "1", "--json");
        assertEquals(0, fs.status(), fs.err());
        CliRun fd = CliRun.run("fit", "svm", "--train", train.toString(), "--out", dir.resolve("svm-d.json").toString(),
                "--kernel", "gaussian(sigma=0.7)", "-C", "3", "--json");
        assertEquals(fd.json().get("trainAccuracy").asDouble(), fs.json().get("trainAccuracy").asDouble());
        CliRun badCache = CliRun.run("fit", "svm", "--train", train.toString(), "--out", dir.resolve("never.json")
                .toString(), "--cache-mb", "0");
        assertEquals(2, badCache.status(), badCache.err());
        assertTrue(badCache.err().contains("--cache-mb"), badCache.err());
        assertFalse(Files.exists(dir.resolve("never.json")));
        Path m2 = dir.resolve("mkl.json");
        CliRun mkl = CliRun.run("fit", "simplemkl", "--train", train.toString(), "--out", m2.toString(),
                "--library", "gauss-poly", "-C", "1000", "--json");
        assertEquals(0, mkl.status(), mkl.err());
        assertTrue(mkl.json().get("kernel").asText().contains("non-zero"));
        // the learned kernel: the non-zero weights with their library kernels, largest first, summing to 1
        JsonNode ws = mkl.json().get("weights");
        assertTrue(ws.size() >= 1 && mkl.json().get("kernel").asText().startsWith(ws.size() + " of"), ws.toString());
        double sum = 0;
        for (int i = 0; i < ws.size(); i++) {
            sum += ws.get(i).get("mu").asDouble();
            assertTrue(i == 0 || ws.get(i).get("mu").asDouble() <= ws.get(i - 1).get("mu").asDouble());
            assertTrue(ws.get(i).get("kernel").asText().matches("(gaussian|polynomial).*"), ws.toString());
        }
        assertEquals(1.0, sum, 1e-9);
        assertEquals("sigma", mkl.json().get("gaussBandwidth").asText()); // SimpleMKL's reading is the default
        assertEquals("zscore", mkl.json().get("gaussScaling").asText()); // and its data preparation
        CliRun ev = CliRun.run("eval", "--model", m2.toString(), "--data", train.toString(), "--json");
        assertEquals(0, ev.status(), ev.err());
        assertTrue(ev.json().get("accuracy").asDouble() > 0.8);
        // standardised library: the saved model carries the transform and predicts what the fit measured
        Path m3 = dir.resolve("mkl-z.json");
        CliRun z = CliRun.run("fit", "simplemkl", "--train", train.toString(), "--out", m3.toString(),
                "--library", "gauss-poly", "-C", "1000", "--gauss-scaling", "zscore", "--json");
        assertEquals(0, z.status(), z.err());
        assertEquals("zscore", z.json().get("gaussScaling").asText());
        assertTrue(Files.readString(m3).contains("\"center\""));
        CliRun evz = CliRun.run("eval", "--model", m3.toString(), "--data", train.toString(), "--json");
        assertEquals(0, evz.status(), evz.err());
        assertEquals(z.json().get("trainAccuracy").asDouble(), evz.json().get("accuracy").asDouble(), 1e-12);
        // a corrupt transform in the model file is an input error naming where it is
        Path bad = dir.resolve("mkl-bad.json");
        Files.writeString(bad, Files.readString(m3).replaceFirst("\"scale\"\\s*:\\s*\\[\\s*[-0-9.eE]+",
                "\"scale\" : [ -1"));
        CliRun evb = CliRun.run("eval", "--model", bad.toString(), "--data", train.toString(), "--json");
        assertEquals(2, evb.status(), evb.out());
        assertTrue(evb.err().contains("scale"), evb.err());
        // the preparation chosen by CV together with C: reported, and stored as the chosen one
        Path m4 = dir.resolve("mkl-cv.json");
        CliRun cv = CliRun.run("fit", "simplemkl", "--train", train.toString(), "--out", m4.toString(),
                "--library", "gauss-poly", "--c-grid", "1,100", "--gauss-scaling", "cv", "--json");
        assertEquals(0, cv.status(), cv.err());
        String chosen = cv.json().get("cv").get("gaussScaling").asText();
        assertTrue(chosen.equals("minmax") || chosen.equals("zscore"), chosen);
        assertEquals(chosen, cv.json().get("gaussScaling").asText());
        assertEquals(4, cv.json().get("cv").get("grid").size()); // 2 C values x 2 preparations
        assertEquals(chosen.equals("zscore"), Files.readString(m4).contains("\"center\""));
        CliRun evc = CliRun.run("eval", "--model", m4.toString(), "--data", train.toString(), "--json");
        assertEquals(cv.json().get("trainAccuracy").asDouble(), evc.json().get("accuracy").asDouble(), 1e-12);
        CliRun g = CliRun.run("fit", "simplemkl", "--train", train.toString(), "--out", dir.resolve("x.json")
                .toString(), "--gauss-scaling", "unit");
        assertEquals(2, g.status());
        assertTrue(g.err().contains("--gauss-scaling"), g.err());
        assertFalse(Files.exists(dir.resolve("x.json")));
    }

    /**
     * {@code fit svm} takes its training accuracy from the solver's gradient (no predict of the training rows): equal
     * to {@code eval} of the written model on the training file, for the C-SVC (scaled, a weight column with zero
     * weights, a one-megabyte cache of single-precision rows that falls back to predict) and the ν-SVC.
     */
    @Test
    void svmTrainAccuracyEqualsEvalOfTheModelOnTheTrainingFile() throws IOException {
        Path train = circle("train-acc.csv", 300, 8, false);
        Path weighted = dir.resolve("train-w.csv");
        StringBuilder sb = new StringBuilder();
        int i = 0;
        for (String line : Files.readAllLines(train)) {
            sb.append(line).append(i == 0 ? ",w" : i % 5 == 0 ? ",0" : ",1.5").append('\n');
            i++;
        }
        Files.writeString(weighted, sb.toString());
        String[][] cases = {
            {"-C", "30", "--kernel", "gaussian(sigma=0.4)"},
            {"-C", "0.3", "--kernel", "gaussian(sigma=1)", "--scale", "zscore"},
            {"-C", "5", "--kernel", "gaussian(sigma=0.5)", "--cache-mb", "1"},
            {"--nu", "0.3", "--kernel", "gaussian(sigma=0.5)"},
        };
        for (int c = 0; c <= cases.length; c++) {
            Path data = c < cases.length ? train : weighted;
            String[] opts = c < cases.length ? cases[c] : new String[] {"-C", "4", "--weight", "w"};
            Path model = dir.resolve("acc-" + c + ".json");
            java.util.List<String> args = new java.util.ArrayList<>(java.util.List.of("fit", "svm", "--train",
                    data.toString(), "--target", "label", "--out", model.toString(), "--json"));
            args.addAll(java.util.List.of(opts));
            CliRun fit = CliRun.run(args.toArray(new String[0]));
            assertEquals(0, fit.status(), fit.err());
            CliRun ev = CliRun.run("eval", "--model", model.toString(), "--data", train.toString(), "--json");
            assertEquals(0, ev.status(), ev.err());
            assertEquals(ev.json().get("accuracy").asDouble(), fit.json().get("trainAccuracy").asDouble(), 0.0,
                    String.join(" ", opts));
        }
    }

    @Test
    void svrFitsEvaluatesCrossValidatesAndRejectsBadOptions() throws IOException {
        Random r = new Random(9);
        StringBuilder sb = new StringBuilder("x,y\n");
        for (int i = 0; i < 80; i++) {
            double x = 6 * r.nextDouble() - 3;
            sb.append(String.format(Locale.ROOT, "%.6f,%.6f%n", x, Math.sin(x) + 0.05 * r.nextGaussian()));
        }
        Path train = dir.resolve("sine.csv");
        Files.writeString(train, sb.toString());
        Path model = dir.resolve("svr.json");
        CliRun fit = CliRun.run("fit", "svr", "--train", train.toString(), "--kernel", "gaussian(sigma=0.7)", "-C",
                "10", "--epsilon", "0.05", "--tolerance", "1e-6", "--out", model.toString(), "--json");
        assertEquals(0, fit.status(), fit.err());
        JsonNode j = fit.json();
        assertTrue(j.get("converged").asBoolean());
        assertTrue(j.get("rmse").asDouble() < 0.1, j.toString());
        int sv = j.get("supportVectors").asInt();
        assertTrue(sv > 0 && sv < 80, j.toString()); // points inside the tube are not support vectors
        double primal = j.get("primal").asDouble();
        assertEquals(primal, j.get("dual").asDouble(), 1e-4 * Math.max(1, primal));
        CliRun ev = CliRun.run("eval", "--model", model.toString(), "--data", train.toString(), "--json");
        assertEquals(0, ev.status(), ev.err());
        assertEquals(j.get("rmse").asDouble(), ev.json().get("rmse").asDouble(), 1e-12);
        CliRun cv = CliRun.run("cv", "svr", "--train", train.toString(), "--kernel", "gaussian(sigma=0.7)",
                "--grid", "C=1,10", "-P", "epsilon=0.05", "--json");
        assertEquals(0, cv.status(), cv.err());
        assertTrue(cv.json().get("rmse").asDouble() < 0.2, cv.out());
        Path never = dir.resolve("never.json");
        for (String[] bad : new String[][] {{"-C", "0"}, {"--epsilon", "-1"}, {"--epsilon", "abc"},
            {"--tolerance", "0"}, {"--cache-mb", "0"}}) {
            CliRun b = CliRun.run("fit", "svr", "--train", train.toString(), bad[0], bad[1], "--out",
                    never.toString());
            assertEquals(2, b.status(), String.join(" ", bad) + ": " + b.err());
            assertTrue(b.err().contains(bad[1].equals("abc") ? "epsilon" : bad[0] + " must be"), b.err());
            assertFalse(Files.exists(never));
        }
        Path corrupt = dir.resolve("svr-bad.json");
        Files.writeString(corrupt, Files.readString(model).replaceFirst("\"coef\"\\s*:\\s*\\[", "\"coef\" : [ 1,"));
        CliRun cb = CliRun.run("eval", "--model", corrupt.toString(), "--data", train.toString(), "--json");
        assertEquals(2, cb.status(), cb.out());
        assertTrue(cb.err().contains("coefficients"), cb.err());
    }

    /** Three classes by angle (labels east, north, west), first appearing in that order. */
    Path sectors(String name, int n, long seed) throws IOException {
        Random r = new Random(seed);
        StringBuilder sb = new StringBuilder("u,v,label\n");
        String[] names = {"east", "north", "west"};
        for (int i = 0; i < n; i++) {
            double u = 4 * r.nextDouble() - 2;
            double v = 4 * r.nextDouble() - 2;
            int c = i < 3 ? i : (int) Math.floor((Math.atan2(v, u) + Math.PI) / (2 * Math.PI / 3)) % 3;
            sb.append(String.format(Locale.ROOT, "%.5f,%.5f,%s%n", u, v, names[c]));
        }
        Path f = dir.resolve(name);
        Files.writeString(f, sb.toString());
        return f;
    }

    @Test
    void multiClassSvmWritesPairAndProbabilityColumns() throws IOException {
        Path train = sectors("train.csv", 90, 6);
        Path test = sectors("test.csv", 40, 7);
        Path model = dir.resolve("ovo.json");
        CliRun fit = CliRun.run("fit", "svm", "--train", train.toString(), "--out", model.toString(), "--kernel",
                "gaussian(sigma=0.7)", "-C", "5", "--probability", "--class-weight", "west=2", "--json");
        assertEquals(0, fit.status(), fit.err());
        assertTrue(fit.json().get("trainAccuracy").asDouble() > 0.8, fit.out());
        Path pred = dir.resolve("ovo.csv");
        CliRun pr = CliRun.run("predict", "--model", model.toString(), "--data", test.toString(), "--out",
                pred.toString());
        assertEquals(0, pr.status(), pr.err());
        java.util.List<String> lines = Files.readAllLines(pred);
        assertEquals("label,decision(east|north),decision(east|west),decision(north|west),p(east),p(north),p(west)",
                lines.get(0));
        assertEquals(41, lines.size());
        String[] names = {"east", "north", "west"};
        for (String l : lines.subList(1, lines.size())) {
            String[] f = l.split(",");
            double sum = 0;
            int am = 0;
            for (int c = 0; c < 3; c++) {
                double p = Double.parseDouble(f[4 + c]);
                sum += p;
                am = p > Double.parseDouble(f[4 + am]) ? c : am;
            }
            assertEquals(1.0, sum, 1e-12, l);
            assertEquals(names[am], f[0], l);
        }
        CliRun ev = CliRun.run("eval", "--model", model.toString(), "--data", test.toString(), "--json");
        assertEquals(0, ev.status(), ev.err());
        assertTrue(ev.json().has("logLoss") && ev.json().has("brier"), ev.out());
        // without --probability: the pairs' decision values only
        Path plain = dir.resolve("plain.json");
        assertEquals(0, CliRun.run("fit", "svm", "--train", train.toString(), "--out", plain.toString(), "-C", "5")
                .status());
        CliRun pp = CliRun.run("predict", "--model", plain.toString(), "--data", test.toString(), "--out",
                dir.resolve("plain.csv").toString());
        assertEquals(0, pp.status(), pp.err());
        assertEquals("label,decision(east|north),decision(east|west),decision(north|west)",
                Files.readAllLines(dir.resolve("plain.csv")).get(0));
        // bad class weights: exit 2 naming the flag, nothing written
        Path never = dir.resolve("never.json");
        for (String bad : new String[] {"west=-1", "west", "south=2", "west=x"}) {
            CliRun b = CliRun.run("fit", "svm", "--train", train.toString(), "--out", never.toString(), "-C", "5",
                    "--class-weight", bad);
            assertEquals(2, b.status(), bad + ": " + b.err());
            assertTrue(b.err().contains("--class-weight"), b.err());
            assertFalse(b.err().contains("Exception"), b.err());
            assertFalse(Files.exists(never));
        }
    }

    @Test
    void svmAndSvrTakeAWeightColumn() throws IOException {
        Path train = sectors("train.csv", 60, 8);
        StringBuilder sb = new StringBuilder();
        java.util.List<String> lines = Files.readAllLines(train);
        sb.append(lines.get(0)).append(",w\n");
        for (int i = 1; i < lines.size(); i++) {
            sb.append(lines.get(i)).append(',').append(i % 3 == 0 ? "2" : "1").append('\n');
        }
        Path weighted = dir.resolve("weighted.csv");
        Files.writeString(weighted, sb.toString());
        Path model = dir.resolve("w.json");
        CliRun fit = CliRun.run("fit", "svm", "--train", weighted.toString(), "--target", "label", "--weight", "w",
                "--out", model.toString(), "-C", "5", "--json");
        assertEquals(0, fit.status(), fit.err());
        assertTrue(Files.readString(model).contains("\"sampleWeights\" : true"));
        assertFalse(Files.readString(model).contains("\"w\""), "the weight column is not a feature");
        Files.writeString(weighted, sb.toString().replaceFirst(",2\n", ",-2\n"));
        CliRun bad = CliRun.run("fit", "svm", "--train", weighted.toString(), "--target", "label", "--weight", "w",
                "--out", dir.resolve("never.json").toString(), "-C", "5");
        assertEquals(2, bad.status(), bad.err());
        assertTrue(bad.err().contains("line 4") && bad.err().contains("negative"), bad.err());
        assertFalse(Files.exists(dir.resolve("never.json")));
    }

    @Test
    void learnedKernelSvmsFitMoreThanTwoClassesOneVsOne() throws IOException {
        Random rnd = new Random(4);
        StringBuilder tri = new StringBuilder("u,v,label\n");
        for (int i = 0; i < 36; i++) {
            int c = i % 3;
            tri.append(String.format(Locale.ROOT, "%.5f,%.5f,%s%n", rnd.nextGaussian() + (c == 1 ? 2.5 : 0),
                    rnd.nextGaussian() + (c == 2 ? 2.5 : 0), new String[] {"g", "b", "x"}[c]));
        }
        Path three = dir.resolve("three.csv");
        Files.writeString(three, tri.toString());
        for (String type : new String[] {"tk-svm", "simplemkl"}) {
            Path model = dir.resolve(type + "-3.json");
            CliRun r = CliRun.run("fit", type, "--train", three.toString(), "--out", model.toString(), "-C", "1",
                    "--json");
            assertEquals(0, r.status(), r.err());
            assertEquals(3, r.json().get("pairs").size(), r.out());
            assertEquals(3, r.json().get("classes").size(), r.out());
            Path pred = dir.resolve(type + "-3.csv");
            CliRun p = CliRun.run("predict", "--model", model.toString(), "--data", three.toString(), "--out",
                    pred.toString());
            assertEquals(0, p.status(), p.err());
            String head = Files.readAllLines(pred).get(0);
            assertTrue(head.startsWith("label,decision(") && head.split(",").length == 4, head);
            CliRun e = CliRun.run("eval", "--model", model.toString(), "--data", three.toString(), "--json");
            assertEquals(0, e.status(), e.err());
            assertEquals(r.json().get("trainAccuracy").asDouble(), e.json().get("accuracy").asDouble(), 0.0);
            assertEquals(3, e.json().get("classes").asInt());
        }
        // without -C, every pair needs enough rows for its own 5-fold CV: (c, d) has 4
        StringBuilder few = new StringBuilder("x1,x2,label\n");
        for (int i = 0; i < 24; i++) {
            few.append(i * 0.1).append(',').append((i * 7 % 5) * 0.2).append(',').append(i < 20 ? (i % 2 == 0 ? "a"
                    : "b") : i < 22 ? "c" : "d").append('\n');
        }
        Path fewFile = dir.resolve("few.csv");
        Files.writeString(fewFile, few.toString());
        Path never = dir.resolve("never3.json");
        CliRun cv = CliRun.run("fit", "tk-svm", "--train", fewFile.toString(), "--out", never.toString());
        assertEquals(2, cv.status(), cv.err());
        assertTrue(cv.err().contains("-C and --epsilon"), cv.err());
        assertFalse(Files.exists(never));
    }

    @Test
    void badInputExitsTwoAndWritesNothing() throws IOException {
        Path out = dir.resolve("never.json");
        Path one = dir.resolve("one.csv");
        Files.writeString(one, "x1,x2,label\n0,1,a\n1,0,a\n2,2,a\n");
        CliRun r = CliRun.run("fit", "tk-svm", "--train", one.toString(), "--out", out.toString(), "-C", "1",
                "--epsilon", "0.1");
        assertEquals(2, r.status());
        assertTrue(r.err().contains("two classes"), r.err());
        assertFalse(Files.exists(out));
        Path ok = circle("ok.csv", 30, 5, false);
        CliRun d = CliRun.run("fit", "tk-svm", "--train", ok.toString(), "--out", out.toString(), "--degree", "3");
        assertEquals(2, d.status());
        assertTrue(d.err().contains("--degree"), d.err());
        CliRun l = CliRun.run("fit", "simplemkl", "--train", ok.toString(), "--out", out.toString(), "--library",
                "nope");
        assertEquals(2, l.status());
        assertFalse(Files.exists(out));
        CliRun g = CliRun.run("fit", "simplemkl", "--train", ok.toString(), "--out", out.toString(),
                "--gauss-bandwidth", "gamma");
        assertEquals(2, g.status());
        assertTrue(g.err().contains("--gauss-bandwidth"), g.err());
        assertFalse(Files.exists(out));
    }
}
