package org.psdkit.examples;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;
import org.psdkit.cli.CliRun;
import org.psdkit.io.ModelIO;
import org.psdkit.model.Classifier;

/**
 * Library/CLI parity, for every model type registered in {@link ModelIO}: {@code psdkit fit} writes a model file,
 * {@code psdkit predict} applies it to a CSV, and {@link LoadAnyModel} (compiled against psdkit-core alone) loads the
 * same file and predicts the same rows: the numeric columns agree to 1e-12 relative, a classifier's labels are equal,
 * and save → load → predict is bit-identical. A type added to {@link ModelIO} without a case here fails the test.
 */
class CliParityTest {
    @TempDir
    static Path dir;

    /** Which data a case trains on. */
    enum Data { REGRESSION, NON_NEGATIVE, HETEROSCEDASTIC, CLASSES, DENSITY }

    /** How {@code psdkit fit} is called for one model type: the subcommand, its data and options. */
    record Case(String command, Data data, String... options) {
    }

    /** One case per model type; options chosen so that every fit takes well under a second on the data below. */
    static final Map<String, Case> CASES = Map.ofEntries(
            Map.entry("krr", new Case("krr", Data.REGRESSION, "--scale", "zscore", "--kernel",
                    "gaussian(sigma=1)", "--lambda", "0.05")),
            Map.entry("ridge", new Case("ridge", Data.REGRESSION, "--scale", "minmax", "--lambda", "0.5")),
            Map.entry("svr", new Case("svr", Data.REGRESSION, "--kernel", "gaussian(sigma=0.7)", "-C", "10",
                    "--epsilon", "0.05")),
            Map.entry("one-class-svm", new Case("one-class-svm", Data.DENSITY, "--no-target", "--kernel",
                    "gaussian(sigma=0.7)", "--nu", "0.2")),
            Map.entry("psd-regression", new Case("psd-regression", Data.NON_NEGATIVE, "--kernel",
                    "gaussian(sigma=0.5)", "--lambda", "1e-3")),
            Map.entry("ncm", new Case("ncm", Data.NON_NEGATIVE, "--kernel", "gaussian(sigma=0.5)", "--lambda",
                    "1e-3")),
            Map.entry("pnm", new Case("pnm", Data.NON_NEGATIVE, "--kernel", "gaussian(sigma=0.5)", "--lambda",
                    "1e-3")),
            Map.entry("glm", new Case("glm", Data.NON_NEGATIVE, "--kernel", "gaussian(sigma=0.5)", "--lambda",
                    "1e-3", "--max-iter", "500")),
            Map.entry("kernel-sos", new Case("kernel-sos", Data.NON_NEGATIVE, "--kernel",
                    "gaussian(sigma=0.75) + 0.01*delta", "--lambda", "0.01")),
            Map.entry("hetero", new Case("hetero", Data.HETEROSCEDASTIC, "--kernel", "gaussian(sigma=0.2)",
                    "--lambda", "0.01", "--restarts", "1", "--gap-tolerance", "1e-3")),
            Map.entry("quantile", new Case("quantile", Data.HETEROSCEDASTIC, "--kernel", "gaussian(sigma=0.2)",
                    "--lambda", "0.01", "--gap-tolerance", "1e-3")),
            Map.entry("svm", new Case("svm", Data.CLASSES, "--kernel", "gaussian(sigma=0.7)", "-C", "10")),
            Map.entry("tk-svm", new Case("tk-svm", Data.CLASSES, "-C", "20", "--epsilon", "0.1", "--degree", "1")),
            Map.entry("simplemkl", new Case("simplemkl", Data.CLASSES, "--library", "gauss-poly", "-C", "1000")),
            Map.entry("psd-density", new Case("density", Data.DENSITY, "--no-target", "--kernel",
                    "gaussian(sigma=0.7)", "--lambda", "1e-3")),
            Map.entry("ncm-density", new Case("ncm-density", Data.DENSITY, "--no-target", "--kernel",
                    "gaussian(sigma=0.7)")),
            Map.entry("pnm-density", new Case("pnm-density", Data.DENSITY, "--no-target", "--kernel",
                    "gaussian(sigma=0.7)")),
            Map.entry("glm-density", new Case("glm-density", Data.DENSITY, "--no-target", "--base",
                    "box(a=-4,b=4)", "--tol", "1e-4", "--max-iter", "200")),
            Map.entry("kde", new Case("kde", Data.DENSITY, "--no-target", "--bandwidth", "0.4")));

    static final Map<Data, Path[]> FILES = new java.util.EnumMap<>(Data.class);

    @BeforeAll
    static void data() throws IOException {
        for (Data d : Data.values()) {
            FILES.put(d, new Path[] {write(d, "train", 1), write(d, "test", 2)});
        }
    }

    /**
     * Training files have the target last; test files permute the columns and add one the model does not know, so
     * that both sides must select the features by name.
     */
    static Path write(Data d, String name, long seed) throws IOException {
        Random r = new Random(seed * 31 + d.ordinal());
        boolean test = name.equals("test");
        int n = test ? 25 : 40;
        StringBuilder sb = new StringBuilder();
        switch (d) {
            case REGRESSION -> sb.append(test ? "id,y,x2,x1\n" : "x1,x2,y\n");
            case CLASSES -> sb.append(test ? "id,v,label,u\n" : "u,v,label\n");
            case DENSITY -> sb.append(test ? "id,x\n" : "x\n");
            default -> sb.append(test ? "id,y,x\n" : "x,y\n");
        }
        for (int i = 0; i < n; i++) {
            String line = switch (d) {
                case REGRESSION -> {
                    double x1 = 6 * r.nextDouble() - 3;
                    double x2 = r.nextGaussian();
                    double y = Math.sin(x1) + 0.5 * x2 + 0.1 * r.nextGaussian();
                    yield test ? row(i, y, x2, x1) : row(x1, x2, y);
                }
                case NON_NEGATIVE -> {
                    double x = 6 * r.nextDouble() - 3;
                    double y = Math.max(0, Math.sin(x)) * x * x + 0.2 * r.nextGaussian();
                    yield test ? row(i, y, x) : row(x, y);
                }
                case HETEROSCEDASTIC -> {
                    double x = r.nextDouble();
                    double y = Math.sin(2 * Math.PI * x) + (0.1 + 0.4 * x) * r.nextGaussian();
                    yield test ? row(i, y, x) : row(x, y);
                }
                case CLASSES -> {
                    double u = 4 * r.nextDouble() - 2;
                    double v = 4 * r.nextDouble() - 2;
                    // a label with a comma and a quote: both sides must read and write RFC 4180 CSV
                    String lab = u * u + v * v < 1.5 ? "\"yes, \"\"sick\"\"\"" : "no";
                    yield test ? row(i, v) + "," + lab + "," + row(u) : row(u, v) + "," + lab;
                }
                case DENSITY -> {
                    double x = r.nextBoolean() ? -1 + 0.5 * r.nextGaussian() : 1.5 + 0.3 * r.nextGaussian();
                    yield test ? row(i, x) : row(x);
                }
            };
            sb.append(line).append('\n');
        }
        return Files.writeString(dir.resolve(d.name().toLowerCase(Locale.ROOT) + "-" + name + ".csv"), sb);
    }

    private static String row(double... v) {
        StringBuilder b = new StringBuilder();
        for (int j = 0; j < v.length; j++) {
            b.append(j == 0 ? "" : ",").append(String.format(Locale.ROOT, "%.17g", v[j]));
        }
        return b.toString();
    }

    @TestFactory
    Stream<DynamicTest> everyModelTypeLoadsAndPredictsLikeTheCli() {
        return ModelIO.types().stream().map(type -> DynamicTest.dynamicTest(type, () -> parity(type)));
    }

    /** No stale case: every case names a registered type (a renamed type must be renamed here too). */
    @Test
    void everyCaseIsARegisteredType() {
        TreeSet<String> stale = new TreeSet<>(CASES.keySet());
        ModelIO.types().forEach(stale::remove);
        assertTrue(stale.isEmpty(), "cases for unregistered model types: " + stale);
    }

    private void parity(String type) throws Exception {
        Case c = CASES.get(type);
        if (c == null) {
            fail("model type '" + type + "' is registered in ModelIO but has no case in CliParityTest.CASES: add the "
                    + "`psdkit fit` command and options that write it");
        }
        Path train = FILES.get(c.data())[0];
        Path test = FILES.get(c.data())[1];
        Path model = dir.resolve(type + ".json");
        Path pred = dir.resolve(type + "-pred.csv");
        List<String> fit = new ArrayList<>(List.of("fit", c.command(), "--train", train.toString(), "--out",
                model.toString(), "--json"));
        fit.addAll(List.of(c.options()));
        cli(fit.toArray(new String[0]));
        cli("predict", "--model", model.toString(), "--data", test.toString(), "--out", pred.toString(), "--json");

        Path scratch = Files.createDirectories(dir.resolve(type + "-scratch"));
        LoadAnyModel.Prediction lib = LoadAnyModel.predict(model, test, scratch);
        assertEquals(type, lib.model().type());
        assertTrue(lib.bitIdentical(), type + ": save -> load -> predict is not bit-identical");

        List<String> lines = Files.readAllLines(pred, StandardCharsets.UTF_8);
        String[] header = split(lines.get(0));
        boolean classifier = lib.model() instanceof Classifier;
        int off = classifier ? 1 : 0;
        List<String> expected = new ArrayList<>();
        if (classifier) {
            expected.add("label");
        }
        expected.addAll(lib.model().outputColumns());
        assertArrayEquals(expected.toArray(new String[0]), header, type + ": output columns");
        assertEquals(lib.outputs().length + 1, lines.size(), type + ": rows");
        assertEquals(25, lib.outputs().length);
        if (classifier) {
            assertNotNull(lib.labels());
        } else {
            assertNull(lib.labels());
        }
        for (int i = 0; i < lib.outputs().length; i++) {
            String[] f = split(lines.get(i + 1));
            assertEquals(header.length, f.length, type + " row " + i);
            if (classifier) {
                assertEquals(f[0], lib.labels()[i], type + " row " + i + ": label");
                assertTrue(f[0].equals("no") || f[0].equals("yes, \"sick\""), f[0]);
            }
            for (int j = 0; j < lib.outputs()[i].length; j++) {
                double cliValue = Double.parseDouble(f[j + off]);
                double libValue = lib.outputs()[i][j];
                assertTrue(Double.isFinite(libValue), type + " row " + i + " predicts " + libValue);
                double scale = Math.max(Math.abs(cliValue), Math.abs(libValue));
                assertTrue(Math.abs(cliValue - libValue) <= 1e-12 * scale, type + " row " + i + " column "
                        + header[j + off] + ": cli " + cliValue + ", library " + libValue);
            }
        }
    }

    /** Runs {@code psdkit args...} in-process (psdkit-cli's shared {@link CliRun}); fails unless it exits with 0. */
    private static void cli(String... args) {
        CliRun r = CliRun.run(args);
        assertEquals(0, r.status(), "psdkit " + String.join(" ", args) + "\nstdout: " + r.out() + "\nstderr: "
                + r.err());
    }

    /** One RFC 4180 record (no line breaks inside fields). */
    static String[] split(String line) {
        List<String> out = new ArrayList<>();
        StringBuilder b = new StringBuilder();
        boolean quoted = false;
        for (int i = 0; i < line.length(); i++) {
            char ch = line.charAt(i);
            if (quoted) {
                if (ch == '"' && i + 1 < line.length() && line.charAt(i + 1) == '"') {
                    b.append('"');
                    i++;
                } else if (ch == '"') {
                    quoted = false;
                } else {
                    b.append(ch);
                }
            } else if (ch == '"') {
                quoted = true;
            } else if (ch == ',') {
                out.add(b.toString());
                b.setLength(0);
            } else {
                b.append(ch);
            }
        }
        out.add(b.toString());
        return out.toArray(new String[0]);
    }
}
