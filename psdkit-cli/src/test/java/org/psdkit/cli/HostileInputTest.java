package org.psdkit.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.psdkit.io.ModelFile;

/**
 * Issue 17, "Data loss", "Corrupt input accepted" and "Messages that mislead": each case exits with the promised
 * status and one message line, and leaves every file of the folder as it was (no output, no temporary file, no
 * damaged input).
 */
class HostileInputTest {
    @TempDir
    Path dir;
    Path in;

    @BeforeEach
    void setUp() throws IOException {
        List<String> lines = Files.readAllLines(TestFiles.resource(dir, "data/boston.csv"));
        Files.delete(dir.resolve("boston.csv"));
        in = Files.write(dir.resolve("in.csv"), lines.subList(0, 61)); // header + 60 rows
    }

    /** Every file of the folder (also hidden, e.g. temporary files) with its content. */
    private Map<String, String> snapshot() throws IOException {
        Map<String, String> m = new TreeMap<>();
        try (Stream<Path> s = Files.list(dir)) {
            for (Path p : s.toList()) {
                String key = p.getFileName().toString() + (Files.isSymbolicLink(p) ? " -> link" : "");
                m.put(key, Files.isDirectory(p) ? "<dir>" : Files.readString(p));
            }
        }
        return m;
    }

    /**
     * Runs the command and checks: the exit status, exactly one {@code psdkit:} message line holding every
     * fragment, nothing on stdout, and the folder exactly as before.
     */
    private String fails(int status, String[] fragments, String... args) throws IOException {
        Map<String, String> before = snapshot();
        CliRun r = CliRun.run(args);
        assertEquals(status, r.status(), r.err());
        assertEquals("", r.out());
        List<String> msgs = r.err().lines().filter(l -> l.startsWith("psdkit:")).toList();
        assertEquals(1, msgs.size(), "one message line expected: " + r.err());
        String msg = msgs.get(0);
        assertTrue(msg.startsWith(status == 2 ? "psdkit: error: " : "psdkit: numerical failure: "), msg);
        assertFalse(r.err().contains("\tat "), "no stack trace: " + r.err());
        for (String f : fragments) {
            assertTrue(msg.contains(f), "expected '" + f + "' in: " + msg);
        }
        assertEquals(before, snapshot(), "the folder changed");
        return msg;
    }

    private static String[] f(String... fragments) {
        return fragments;
    }

    private Path fitKrr(String name) {
        Path m = dir.resolve(name);
        CliRun r = CliRun.run("fit", "krr", "--train", in.toString(), "--out", m.toString(), "--json");
        assertEquals(0, r.status(), r.err());
        return m;
    }

    private Path writeModel(String name, JsonNode doc) throws IOException {
        Path p = dir.resolve(name);
        ModelFile.write(p, doc);
        return p;
    }

    // ---------------------------------------------------------------- data loss

    @Test
    void outputNamingTheTrainingFileIsRefused() throws IOException {
        fails(2, f("--out", "--train", "same file"), "fit", "krr", "--train", in.toString(), "--out",
                dir.resolve(".").resolve("in.csv").toString());
        Path link = Files.createSymbolicLink(dir.resolve("link.csv"), in.getFileName());
        fails(2, f("--out " + in, "--train " + link), "fit", "krr", "--train", link.toString(), "--out",
                in.toString());
        fails(2, f("--out", "--train"), "fit", "svm", "--train", in.toString(), "--out", link.toString());
    }

    @Test
    void predictAndSampleOutputNamingAnInputIsRefused() throws IOException {
        Path m = fitKrr("m.json");
        Path data = Files.copy(in, dir.resolve("d.csv"));
        fails(2, f("--out " + data, "--data " + data), "predict", "--model", m.toString(), "--data", data.toString(),
                "--out", data.toString());
        fails(2, f("--out", "--model " + m), "predict", "--model", m.toString(), "--data", data.toString(),
                "--out", dir.resolve(".").resolve("m.json").toString());
        Path two = Files.write(dir.resolve("two.csv"), List.of("a,b", "0,1", "1,0.5", "0.5,0.2", "0.3,0.9",
                "0.8,0.1", "0.1,0.4"));
        Path kde = dir.resolve("kde.json");
        assertEquals(0, CliRun.run("fit", "kde", "--train", two.toString(), "--out", kde.toString(), "--json")
                .status());
        fails(2, f("--out", "--model " + kde), "sample", "--model", kde.toString(), "--n", "5", "--out",
                kde.toString());
    }

    @Test
    void sdpSolutionNamingTheProblemIsRefused() throws IOException {
        Path p = TestFiles.resource(dir, "sdplib/truss1.dat-s");
        fails(2, f("--solution", "problem file"), "sdp", "solve", p.toString(), "--solution",
                dir.resolve(".").resolve("truss1.dat-s").toString());
    }

    @Test
    void outputThatIsASymbolicLinkIsWrittenThrough() throws IOException {
        Path m = fitKrr("m.json");
        Path target = Files.writeString(dir.resolve("pred-target.csv"), "old\n");
        Path link = Files.createSymbolicLink(dir.resolve("pred.csv"), target.getFileName());
        CliRun r = CliRun.run("predict", "--model", m.toString(), "--data", in.toString(), "--out", link.toString(),
                "--json");
        assertEquals(0, r.status(), r.err());
        assertTrue(Files.isSymbolicLink(link), "the link stays a link");
        assertEquals(61, Files.readAllLines(target).size(), "the target holds the predictions");
        try (Stream<Path> s = Files.list(dir)) {
            assertFalse(s.anyMatch(p -> p.getFileName().toString().endsWith(".tmp")), "no temporary file left");
        }
    }

    @Test
    void outputFilesGetThePermissionsOfAPlainWrite() throws IOException {
        assumeTrue(Files.getFileAttributeView(dir, PosixFileAttributeView.class) != null, "POSIX file system");
        String plain = PosixFilePermissions.toString(Files.getPosixFilePermissions(
                Files.createFile(dir.resolve("plain.txt"))));
        Path m = fitKrr("m.json");
        assertEquals(plain, PosixFilePermissions.toString(Files.getPosixFilePermissions(m)));
        Path pred = Files.writeString(dir.resolve("pred.csv"), "old\n");
        Files.setPosixFilePermissions(pred, PosixFilePermissions.fromString("rw-r-----"));
        assertEquals(0, CliRun.run("predict", "--model", m.toString(), "--data", in.toString(), "--out",
                pred.toString(), "--json").status());
        assertEquals("rw-r-----", PosixFilePermissions.toString(Files.getPosixFilePermissions(pred)));
        assertEquals(61, Files.readAllLines(pred).size());
    }

    // ---------------------------------------------------------------- corrupt input accepted

    @Test
    void duplicateFeatureNamesAreRefused() throws IOException {
        ObjectNode doc = (ObjectNode) ModelFile.read(fitKrr("m.json"));
        ((ArrayNode) doc.get("featureNames")).set(1, "crim");
        Path dup = writeModel("dup.json", doc);
        Path out = dir.resolve("out.csv");
        fails(2, f("model file " + dup, "duplicate feature name 'crim'"), "predict", "--model", dup.toString(),
                "--data", in.toString(), "--out", out.toString());
        fails(2, f("model file " + dup, "duplicate feature name 'crim'"), "eval", "--model", dup.toString(),
                "--data", in.toString());
        List<String> lines = new ArrayList<>(Files.readAllLines(in));
        lines.set(0, lines.get(0).replaceFirst("^crim,zn,", "crim,crim,"));
        Path dupCsv = Files.write(dir.resolve("duph.csv"), lines);
        fails(2, f(dupCsv + ", line 1", "'crim'"), "fit", "krr", "--train", dupCsv.toString(), "--out",
                dir.resolve("x.json").toString());
    }

    /**
     * An output folder option naming an existing file is refused up front, naming the option. Before,
     * {@code reproduce density-1d/-10d --out FILE} and {@code bench krr-scale --curves FILE} ended with exit 1,
     * "internal error: java.nio.file.FileAlreadyExistsException".
     */
    @Test
    void outputFolderThatIsAFileIsRefused() throws IOException {
        fails(2, f("--out " + in + " exists and is not a directory"), "reproduce", "density-1d", "--out",
                in.toString());
        fails(2, f("--out " + in + " exists and is not a directory"), "reproduce", "density-10d", "--out",
                in.toString());
        fails(2, f("--curves " + in + " exists and is not a directory"), "bench", "krr-scale", "--curves",
                in.toString(), "--sizes", "200", "--anchors-list", "20", "--fixed-n", "200", "--fixed-n-anchors",
                "20");
        fails(2, f("--out " + in.resolve("sub") + ": cannot create the folder"), "reproduce", "density-1d",
                "--out", in.resolve("sub").toString());
    }

    /**
     * {@code reproduce hetero|quantile --out-dir} and {@code demo --out-dir} check their folder as the other results
     * folders do ({@code OutputPaths.folder}). Before, a folder under a file ended with exit 1, "internal error:
     * java.nio.file.FileSystemException", and {@code --folds} out of range was refused only after the folder had been
     * created.
     */
    @Test
    void resultsFolderOfHeteroQuantileAndDemoIsRefusedBeforeAnythingIsWritten() throws IOException {
        String[][] commands = {{"reproduce", "hetero"}, {"reproduce", "quantile"}, {"demo", "--part", "krr"}};
        for (String[] c : commands) {
            List<String> file = new ArrayList<>(List.of(c));
            file.addAll(List.of("--out-dir", in.toString()));
            fails(2, f("--out-dir " + in + " exists and is not a directory"), file.toArray(new String[0]));
            List<String> under = new ArrayList<>(List.of(c));
            under.addAll(List.of("--out-dir", in.resolve("sub").toString()));
            fails(2, f("--out-dir " + in.resolve("sub") + ": cannot create the folder"),
                    under.toArray(new String[0]));
        }
        Path fresh = dir.resolve("figures");
        for (String cmd : List.of("hetero", "quantile")) {
            fails(2, f("--folds must be >= 2, got 1"), "reproduce", cmd, "--out-dir", fresh.toString(), "--folds",
                    "1");
            fails(2, f("--folds must be in [2, n=20], got 21"), "reproduce", cmd, "--out-dir", fresh.toString(),
                    "--n", "20", "--folds", "21");
        }
    }

    @Test
    void densityReproductionsRefuseTheirOptionsBeforeMakingTheFolder() throws IOException {
        Path fresh = dir.resolve("density-results");
        fails(2, f("base measure 'foo(x=1)': unknown kind 'foo'"), "reproduce", "density-10d", "--base", "foo(x=1)",
                "--out", fresh.toString());
        fails(2, f("--folds must be in [2, 50]", "got 60"), "reproduce", "density-1d", "--folds", "60", "--out",
                fresh.toString());
        assertFalse(Files.exists(fresh), "a refused run left " + fresh + " behind");
    }

    @Test
    void shortSdpaCLineIsRefusedWithItsLine() throws IOException {
        // m = 3 but c holds 2 values: the reader must not take the next line's numbers as c
        Path p = Files.writeString(dir.resolve("short.dat-s"), "\"short c\n3\n1\n2\n1 2\n0 1 1 1 1\n1 1 1 1 1\n"
                + "2 1 2 2 1\n3 1 1 2 1\n");
        fails(2, f(p + ":5:", "holds 2 values, expected 3"), "sdp", "solve", p.toString());
        Path q = Files.writeString(dir.resolve("wide.dat-s"), "1\n1\n2\n1\n1 1 1 1 1 9\n");
        fails(2, f(q + ":5:", "5 fields"), "sdp", "solve", q.toString());
    }

    @Test
    void nonFinitePredictionIsANumericalFailure() throws IOException {
        ObjectNode doc = (ObjectNode) ModelFile.read(fitKrr("m.json"));
        ObjectNode num = (ObjectNode) doc.get("numbers");
        ArrayNode alpha = (ArrayNode) num.get("alpha");
        ArrayNode points = (ArrayNode) num.get("points");
        for (int i = 0; i < alpha.size(); i++) {
            alpha.set(i, 1e308);
            points.set(i, points.get(0).deepCopy()); // every kernel value at row 1 is 1: the sum overflows
        }
        Path big = writeModel("big.json", doc);
        Path out = dir.resolve("out.csv");
        fails(1, f("model file " + big, "data row 1", "Infinity"), "predict", "--model", big.toString(), "--data",
                in.toString(), "--out", out.toString());
        fails(1, f("model file " + big, "data row 1", "Infinity"), "eval", "--model", big.toString(), "--data",
                in.toString());
    }

    @Test
    void svmOnTooFewRowsForItsCvIsRefused() throws IOException {
        Path four = Files.write(dir.resolve("four.csv"), List.of("a,b,y", "0,1,0", "1,0,1", "0.2,0.9,0", "0.9,0.1,1"));
        fails(2, f(four + ": 4 rows are too few for 5-fold CV (need at least 5)", "-C"), "fit", "svm", "--train",
                four.toString(), "--out", dir.resolve("s.json").toString());
        // with C given there is no CV; the report's KKT violation is never negative
        CliRun r = CliRun.run("fit", "svm", "--train", four.toString(), "--out", dir.resolve("s.json").toString(),
                "-C", "1", "--json");
        assertEquals(0, r.status(), r.err());
        assertTrue(r.json().get("violation").asDouble() >= 0, r.out());
    }

    @Test
    void densityReadsEveryColumnAndRefusesATarget() throws IOException {
        Path two = Files.write(dir.resolve("two.csv"), List.of("a,b", "0,1", "1,0.5", "0.5,0.2", "0.3,0.9",
                "0.8,0.1", "0.1,0.4"));
        Path out = dir.resolve("dens.json");
        CliRun r = CliRun.run("fit", "kde", "--train", two.toString(), "--out", out.toString(), "--json");
        assertEquals(0, r.status(), r.err());
        assertEquals(2, r.json().get("d").asInt(), "both columns are features");
        Files.delete(out);
        fails(2, f("--target b", "takes no target"), "fit", "density", "--train", two.toString(), "--target", "b",
                "--out", out.toString());
    }

    // ---------------------------------------------------------------- messages that mislead

    @Test
    void svmOnTwoRowsSaysTheCvIsTheProblem() throws IOException {
        Path two = Files.write(dir.resolve("two.csv"), List.of("a,b,y", "0,1,0", "1,0,1"));
        String msg = fails(2, f("2 rows are too few for 5-fold CV"), "fit", "svm", "--train", two.toString(),
                "--out", dir.resolve("s.json").toString());
        assertFalse(msg.contains("both classes"), msg);
    }

    @Test
    void tkSvmOnFourRowsNamesNAndTheOptions() throws IOException {
        Path four = Files.write(dir.resolve("four.csv"), List.of("a,b,y", "0,1,0", "1,0,1", "0.2,0.9,0", "0.9,0.1,1"));
        fails(2, f("4 rows are too few for 5-fold CV (need at least 5)", "-C and --epsilon"), "fit", "tk-svm",
                "--train", four.toString(), "--out", dir.resolve("s.json").toString());
    }

    @Test
    void modelThatIsADirectorySaysSo() throws IOException {
        Path d = Files.createDirectory(dir.resolve("models"));
        fails(2, f("model file " + d + " is a directory"), "predict", "--model", d.toString(), "--data",
                in.toString(), "--out", dir.resolve("out.csv").toString());
    }

    @Test
    void nanLiteralInAModelFileNamesTheField() throws IOException {
        String text = Files.readString(fitKrr("m.json"));
        assertTrue(text.contains("\"offset\" : 0.0"), "fixture: krr files hold an offset");
        Path nan = Files.writeString(dir.resolve("nan.json"), text.replace("\"offset\" : 0.0", "\"offset\" : NaN"));
        String msg = fails(2, f("model file " + nan, "field numbers.offset", "'NaN'"), "eval", "--model",
                nan.toString(), "--data", in.toString());
        assertFalse(msg.contains("ALLOW_NON_NUMERIC_NUMBERS") || msg.contains("enable"), msg);
    }

    @Test
    void densityKernelWithoutIntegralNamesKernelAndBase() throws IOException {
        Path two = Files.write(dir.resolve("two.csv"), List.of("a,b", "0,1", "1,0.5", "0.5,0.2", "0.3,0.9"));
        fails(2, f("--kernel linear", "--base lebesgue", "gaussian kernel", "box("), "fit", "density", "--train",
                two.toString(), "--kernel", "linear", "--out", dir.resolve("dens.json").toString());
    }

    @Test
    void krrOnIdenticalRowsReportsTheNumericalRank() throws IOException {
        List<String> rows = new ArrayList<>(List.of("a,b,y"));
        for (int i = 0; i < 60; i++) {
            rows.add("1,2,3");
        }
        Path same = Files.write(dir.resolve("same.csv"), rows);
        CliRun r = CliRun.run("fit", "krr", "--train", same.toString(), "--lambda", "0", "--out",
                dir.resolve("k.json").toString(), "--json");
        assertEquals(0, r.status(), r.err());
        assertTrue(r.err().contains("numerical rank 1 of 60"), r.err());
        assertEquals(1, r.json().get("rank").asInt());
    }

    // ---------------------------------------------------------------- overflow

    /** A value whose square overflows (1e300) is refused where it is, before any fit could turn it into NaN. */
    @Test
    void aValueBeyond1e150IsRefusedWithItsLine() throws IOException {
        List<String> lines = new ArrayList<>(Files.readAllLines(in));
        String[] row = lines.get(5).split(",");
        row[row.length - 1] = "1e300";
        lines.set(5, String.join(",", row));
        Path big = Files.write(dir.resolve("big.csv"), lines);
        fails(2, f("big.csv, line 6, column " + row.length, "1e300 is beyond +-1e150"), "fit", "hetero", "--train",
                big.toString(), "--out", dir.resolve("h.json").toString());
    }

    /**
     * Kernel SoS fits targets of any magnitude the reader accepts as it fits the same targets near 1: its SDP is
     * homogeneous in the targets and is solved on them divided by a power of two. Before, targets near 1e149 (and
     * 1e8) ended with exit 1 (SDP ill-posed or primal-infeasible) and targets near 1e-149 gave a model of the
     * solver's tolerance (r2 -5e288, exit 0).
     */
    @Test
    void kernelSosFitsTargetsOfAnyMagnitude() throws IOException {
        double r2 = Double.NaN;
        double rmse = Double.NaN;
        for (String exp : new String[] {"", "e149", "e-149", "e8"}) {
            List<String> rows = new ArrayList<>(List.of("x,y"));
            for (int i = 0; i < 8; i++) {
                rows.add((-1 + 2 * i / 7.0) + "," + (3 + Math.sin(3 * i)) + exp);
            }
            Path csv = Files.write(dir.resolve("sos" + exp + ".csv"), rows);
            Path m = dir.resolve("sos" + exp + ".json");
            CliRun r = CliRun.run("fit", "kernel-sos", "--train", csv.toString(), "--out", m.toString(), "--json");
            assertEquals(0, r.status(), exp + ": " + r.err());
            JsonNode j = r.json();
            assertEquals("optimal", j.get("status").asText(), exp);
            if (exp.isEmpty()) {
                r2 = j.get("r2").asDouble();
                rmse = j.get("rmse").asDouble();
                assertTrue(r2 > 0.9, "fixture: the unscaled fit is good, r2 = " + r2);
            } else {
                assertEquals(r2, j.get("r2").asDouble(), 1e-4, exp + ": " + r.out());
                double scale = Double.parseDouble("1" + exp);
                assertEquals(rmse, j.get("rmse").asDouble() / scale, 1e-4 * rmse, exp + ": " + r.out());
            }
            CliRun e = CliRun.run("eval", "--model", m.toString(), "--data", csv.toString(), "--json");
            assertEquals(0, e.status(), e.err());
            assertEquals(j.get("r2").asDouble(), e.json().get("r2").asDouble(), 1e-9, exp);
        }
    }

    /**
     * Kernel SoS balances its SDP in the kernel's scale and in lambda as well: a kernel scaled by 1e20 (with lambda
     * scaled by 1e40, the same model) and lambda = 1e300 (the zero function) fit; a kernel whose square overflows is
     * refused naming it. Before, the first and the last ended with exit 1 (SDP "numerical problems"), lambda = 1e300
     * at the SDP's iteration limit (exit 1).
     */
    @Test
    void kernelSosFitsKernelsAndLambdasOfAnyScale() throws IOException {
        List<String> rows = new ArrayList<>(List.of("x,y"));
        for (int i = 0; i < 8; i++) {
            rows.add((-1 + 2 * i / 7.0) + "," + (3 + Math.sin(3 * i)));
        }
        Path csv = Files.write(dir.resolve("sos.csv"), rows);
        String out = dir.resolve("sos.json").toString();
        CliRun base = CliRun.run("fit", "kernel-sos", "--train", csv.toString(), "--out", out, "--json");
        assertEquals(0, base.status(), base.err());
        CliRun big = CliRun.run("fit", "kernel-sos", "--train", csv.toString(), "--out", out, "--json", "--kernel",
                "1e20*(gaussian(sigma=0.25) + 0.01*delta)", "--lambda", "1e38");
        assertEquals(0, big.status(), big.err());
        assertEquals(base.json().get("r2").asDouble(), big.json().get("r2").asDouble(), 1e-4, big.out());
        CliRun zero = CliRun.run("fit", "kernel-sos", "--train", csv.toString(), "--out", out, "--json", "--lambda",
                "1e300");
        assertEquals(0, zero.status(), zero.err());
        assertTrue(zero.json().get("r2").asDouble() < -10, "the zero function: " + zero.out());
        Files.delete(dir.resolve("sos.json"));
        fails(2, f("Kernel SoS: the kernel 1.0E200*(gaussian(sigma=0.25) + 0.01*delta) reaches 1.0",
                "its square k^2, the kernel of the model, overflows"), "fit", "kernel-sos", "--train", csv.toString(),
                "--out", out, "--kernel", "1e200*(gaussian(sigma=0.25) + 0.01*delta)");
    }

    /**
     * A kernel that overflows on the data is refused by every kernel family, naming the kernel and the point. Before,
     * krr returned alpha = 0, svr a model without support vectors, and the others misleading failures (hetero and
     * quantile: exit 1, "dsyevd failed to converge").
     */
    @Test
    void aKernelThatOverflowsIsRefusedByEveryFamily() throws IOException {
        for (String type : new String[] {"krr", "svr", "psd-regression", "ncm", "pnm", "glm", "kernel-sos", "hetero",
                "quantile"}) {
            fails(2, f(type.equals("krr") ? "kernel ridge" : type, "the kernel polynomial(degree=3, offset=1.0E300) "
                    + "is Infinity at training point 1"), "fit", type, "--train", in.toString(), "--kernel",
                    "polynomial(degree=3, offset=1e300)", "--out", dir.resolve(type + ".json").toString());
        }
        fails(2, f("gaussian kernel: sigma = 1.0E-300 is too small"), "fit", "krr", "--train", in.toString(),
                "--kernel", "gaussian(sigma=1e-300)", "--out", dir.resolve("g.json").toString());
    }

    /**
     * The default Gaussian grid of hetero and quantile takes its sigmas from the inputs' spread; a spread so small
     * that 1/(2 sigma^2) overflows is refused naming the file and the remedy. Before, the message blamed a sigma the
     * user never gave ("gaussian kernel: sigma = 5.89E-162 is too small").
     */
    @Test
    void aSpreadTooSmallForTheDefaultGaussiansIsRefusedNamingTheFile() throws IOException {
        List<String> rows = new ArrayList<>(List.of("a,b,y"));
        for (int i = 0; i < 12; i++) {
            rows.add((i % 5) + "e-160," + (i % 3) + "e-160," + (i * 0.1));
        }
        Path tiny = Files.write(dir.resolve("tiny.csv"), rows);
        for (String type : new String[] {"hetero", "quantile"}) {
            fails(2, f(tiny + ": the inputs' spread", "too small for the default Gaussian kernels", "zscore"),
                    "fit", type, "--train", tiny.toString(), "--out", dir.resolve(type + ".json").toString());
        }
    }

    /**
     * The tessellated kernels live on the box [-epsilon, 1 + epsilon]^d around the [0, 1]-scaled features; an epsilon
     * whose kernels overflow is refused naming the box. Before, tk-svm ended with exit 1 (a NaN eigensolve), or with
     * "C must be positive" when C came from its cross-validation; simplemkl's tessellated library ended with exit 1
     * (trace NaN), and with an epsilon of 1e10 its single-precision Gram matrices overflowed into a model without
     * support vectors (exit 0).
     */
    @Test
    void anEpsilonWhoseTessellatedKernelsOverflowIsRefused() throws IOException {
        List<String> rows = new ArrayList<>(List.of("a,b,y"));
        for (int i = 0; i < 12; i++) {
            double a = (i * 7 % 12) / 11.0;
            double b = (i * 5 % 12) / 11.0;
            rows.add(a + "," + b + "," + (a + b > 1 ? 1 : 0));
        }
        Path c = Files.write(dir.resolve("c.csv"), rows);
        String out = dir.resolve("m.json").toString();
        String tr = c.toString();
        fails(2, f("tk-svm: the tessellated kernels on the box [-1.0E150, 1.0E150]^2 (epsilon = 1.0E150), degree 1, "
                + "overflow double precision at training point 1", "choose a smaller epsilon"), "fit", "tk-svm",
                "--train", tr, "--out", out, "--epsilon", "1e150", "-C", "1");
        fails(2, f("tk-svm:", "(epsilon = 1.0E200)", "choose a smaller epsilon",
                "(all 2 epsilons of the grid are refused; this is the first)"), "fit", "tk-svm", "--train", tr,
                "--out", out, "--epsilon-grid", "1e200,1e300");
        // in a grid, an epsilon that overflows is left out and named; the others are cross-validated
        CliRun g = CliRun.run("fit", "tk-svm", "--train", tr, "--out", out, "--epsilon-grid", "1,1e300");
        assertEquals(0, g.status(), g.err());
        // (the report goes to stderr; its "CV chose ... left out of the grid: epsilon = 1.0E300" line is progress
        // output, which other tests of this JVM may have silenced)
        assertTrue(g.err().contains("\"epsilon\":1.0,") && !g.err().contains("\"epsilon\":1.0E300,")
                && g.err().contains("\"skipped\":[\"epsilon = 1.0E300: tk-svm: the tessellated kernels"), g.err());
        CliRun lib = CliRun.run("fit", "simplemkl", "--library", "tk-random", "--train", tr, "--out", out,
                "--epsilon-grid", "0.1,1e10", "--json");
        assertEquals(0, lib.status(), lib.err());
        assertTrue(lib.out().contains("\"skipped\":[\"epsilon = 1.0E10: simplemkl:"), lib.out());
        fails(2, f("simplemkl:", "(epsilon = 1.0E150)", "overflow double precision"), "fit", "simplemkl",
                "--library", "combined", "--train", tr, "--out", out, "--epsilon", "1e150", "-C", "1");
        fails(2, f("simplemkl:", "(epsilon = 10000000000)", "beyond the single precision"), "fit", "simplemkl",
                "--library", "tk-random", "--train", tr, "--out", out, "--epsilon", "1e10", "-C", "1");
        // a large epsilon that fits is still fitted
        CliRun r = CliRun.run("fit", "tk-svm", "--train", tr, "--out", out, "--epsilon", "1e6", "-C", "1", "--json");
        assertEquals(0, r.status(), r.err());
    }

    /**
     * Between about 4.5e15 (2^52) and the overflow, the box edges 1 + epsilon - x of the tessellated kernels are
     * rounded to multiples of 1 or more, the whole width of the [0, 1]-scaled features: the Gram matrix no longer
     * depends on the data. Such an epsilon is refused as an overflow is (exit 2 when given, left out of a grid and
     * named in cv.skipped). Before, --epsilon 1e20 wrote a model that predicts one class (exit 0).
     */
    @Test
    void anEpsilonWhoseTessellatedKernelsLoseTheDataIsRefused() throws IOException {
        List<String> rows = new ArrayList<>(List.of("a,b,y"));
        for (int i = 0; i < 12; i++) {
            double a = (i * 7 % 12) / 11.0;
            double b = (i * 5 % 12) / 11.0;
            rows.add(a + "," + b + "," + (a + b > 1 ? 1 : 0));
        }
        String tr = Files.write(dir.resolve("c.csv"), rows).toString();
        String out = dir.resolve("m.json").toString();
        for (String eps : new String[] {"1e20", "4.5036e15", "1e70"}) {
            fails(2, f("tk-svm: the tessellated kernels on the box [-", "lose the data in double precision",
                    "choose an epsilon below 4.5e15"), "fit", "tk-svm", "--train", tr, "--out", out, "--epsilon", eps,
                    "-C", "1");
        }
        fails(2, f("(epsilon = 1.0E20)", "lose the data in double precision",
                "(all 2 epsilons of the grid are refused; this is the first)"), "fit", "tk-svm", "--train", tr,
                "--out", out, "--epsilon-grid", "1e20,1e40");
        CliRun g = CliRun.run("fit", "tk-svm", "--train", tr, "--out", out, "--epsilon-grid", "1,1e20", "--json");
        assertEquals(0, g.status(), g.err());
        JsonNode cv = g.json().get("cv");
        assertEquals(1.0, g.json().get("epsilon").asDouble());
        assertEquals(1, cv.get("skipped").size(), cv.toString());
        assertTrue(cv.get("skipped").get(0).asText().startsWith("epsilon = 1.0E20: tk-svm: the tessellated kernels")
                && cv.get("skipped").get(0).asText().contains("lose the data"), cv.toString());
        // ordinary large epsilons are fitted as before
        for (String eps : new String[] {"1e3", "1e6"}) {
            CliRun r = CliRun.run("fit", "tk-svm", "--train", tr, "--out", out, "--epsilon", eps, "-C", "1", "--json");
            assertEquals(0, r.status(), r.err());
        }
    }

    /**
     * --gap below 1e-12 is refused naming the floor: the gap is the difference of two numbers of the size of the SVM
     * dual value, which double precision knows only to a relative ~1e-13. Before, --gap 1e-300 ran until the
     * computed gap fell below zero by rounding and reported that negative gap (-1.8e-15) as converged.
     */
    @Test
    void aGapBelowWhatDoublePrecisionResolvesIsRefused() throws IOException {
        // the 16 rows of psdkit-core's golden svm-train.csv
        Path s = Files.writeString(dir.resolve("svm-train.csv"), "u,v,label\n0.4524,0.5598,yes\n0.9242,0.4657,no\n"
                + "0.5078,0.5874,yes\n0.1847,0.5119,no\n0.6299,0.7930,no\n0.0941,0.3034,no\n0.0907,0.8096,no\n"
                + "0.6934,0.0419,no\n0.9822,0.9648,no\n0.6539,0.6156,yes\n0.1575,0.0150,no\n0.5284,0.0596,no\n"
                + "0.1902,0.2419,no\n0.0301,0.4639,no\n0.4405,0.8424,no\n0.5191,0.6403,yes\n");
        String out = dir.resolve("g.json").toString();
        for (String model : new String[] {"tk-svm", "simplemkl"}) {
            fails(2, f("--gap must be at least 1e-12", "got 1.0E-300"), "fit", model, "--train", s.toString(),
                    "--out", out, "-C", "10", "--epsilon", "0.1", "--gap", "1e-300");
        }
        CliRun r = CliRun.run("fit", "tk-svm", "--train", s.toString(), "--out", out, "-C", "10", "--epsilon", "0.1",
                "--gap", "1e-12", "--json");
        assertEquals(0, r.status(), r.err());
        assertTrue(r.json().get("gap").asDouble() >= 0, r.out());
    }
}
