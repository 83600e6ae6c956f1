package org.psdkit.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Locale;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.psdkit.data.CsvReader;
import org.psdkit.data.Dataset;

/** `predict` output is RFC 4180 CSV (labels with commas survive) written with the mode of a plain write. */
class CsvOutputCliTest {
    @TempDir
    Path dir;

    @Test
    void labelWithACommaSurvivesFitPredictAndReadBack() throws IOException {
        Random r = new Random(11);
        StringBuilder sb = new StringBuilder("u,v,status\n");
        String[] truth = new String[40];
        for (int i = 0; i < truth.length; i++) {
            double u = 4 * r.nextDouble() - 2;
            double v = 4 * r.nextDouble() - 2;
            truth[i] = u + 0.5 * v > 0 ? "yes, sick" : "no";
            sb.append(String.format(Locale.ROOT, "%.5f,%.5f,%s%n", u, v,
                    truth[i].equals("no") ? "no" : "\"yes, sick\""));
        }
        Path train = TestFiles.write(dir, "train.csv", sb.toString());
        Path model = dir.resolve("svm.json");
        CliRun fit = CliRun.run("fit", "svm", "--train", train.toString(), "--out", model.toString(), "--kernel",
                "linear", "-C", "100", "--json");
        assertEquals(0, fit.status(), fit.err());
        Path pred = dir.resolve("pred.csv");
        CliRun p = CliRun.run("predict", "--model", model.toString(), "--data", train.toString(), "--out",
                pred.toString(), "--json");
        assertEquals(0, p.status(), p.err());
        assertTrue(Files.readString(pred).contains("\"yes, sick\""), Files.readString(pred));
        Dataset back = CsvReader.read(pred, new CsvReader.Options("label", false, true));
        assertArrayEquals(new String[] {"decision"}, back.featureNames());
        assertEquals(truth.length, back.n());
        // a linearly separable training set with a large C: every training label is predicted back verbatim
        assertArrayEquals(truth, back.labels());
    }

    @Test
    void predictOutputHasTheModeOfAPlainFileAndKeepsAnExistingMode() throws IOException {
        org.junit.jupiter.api.Assumptions.assumeTrue(
                Files.getFileAttributeView(dir, PosixFileAttributeView.class) != null, "POSIX file system");
        Path train = TestFiles.write(dir, "t.csv", "x,y\n0,0.1\n1,0.9\n2,2.1\n3,2.9\n");
        Path model = dir.resolve("m.json");
        assertEquals(0, CliRun.run("fit", "krr", "--train", train.toString(), "--out", model.toString()).status());
        String plain = PosixFilePermissions.toString(Files.getPosixFilePermissions(
                Files.createFile(dir.resolve("plain"))));
        assertEquals(plain, PosixFilePermissions.toString(Files.getPosixFilePermissions(model)));
        Path pred = dir.resolve("p.csv");
        Files.writeString(pred, "old\n");
        Files.setPosixFilePermissions(pred, PosixFilePermissions.fromString("rw-r-----"));
        CliRun p = CliRun.run("predict", "--model", model.toString(), "--data", train.toString(), "--out",
                pred.toString());
        assertEquals(0, p.status(), p.err());
        assertEquals("rw-r-----", PosixFilePermissions.toString(Files.getPosixFilePermissions(pred)));
        assertTrue(Files.readString(pred).startsWith("prediction\n"), Files.readString(pred));
    }

    /**
     * {@code --out /dev/stdout} with standard output appended to a file ({@code >> log}) appends the CSV to the log.
     * The write used to follow /dev/stdout to the log file and rename a new file over it, so the log lost its earlier
     * lines. Runs {@link Main} in a separate JVM whose standard output is the log.
     */
    @Test
    void predictToStandardOutputAppendsToAFileItIsRedirectedTo() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.exists(Path.of("/dev/stdout")), "/dev/stdout exists");
        Path train = TestFiles.write(dir, "t.csv", "x,y\n0,0.1\n1,0.9\n2,2.1\n3,2.9\n");
        Path model = dir.resolve("m.json");
        assertEquals(0, CliRun.run("fit", "krr", "--train", train.toString(), "--out", model.toString()).status());
        Path log = TestFiles.write(dir, "log.txt", "earlier line\n");
        String javaBin = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(javaBin, "-Xmx256m", "-cp", System.getProperty("java.class.path"),
                Main.class.getName(), "--threads", "1", "predict", "--model", model.toString(), "--data",
                train.toString(), "--out", "/dev/stdout")
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "predict did not end");
        assertEquals(0, p.exitValue());
        String text = Files.readString(log);
        assertTrue(text.startsWith("earlier line\nprediction\n"), text);
        assertEquals(6, text.lines().count(), text);
        assertTrue(Files.isRegularFile(log) && !Files.isSymbolicLink(log));
        try (Stream<Path> files = Files.list(dir)) {
            assertEquals(3, files.count(), "no temporary file left beside the log");
        }
    }
}
