package org.psdkit.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 17, "Signals": SIGTERM at a seeded random moment during {@code fit density} (a separate JVM running
 * {@link Main} on the test class path) ends the process with status 143, leaves no {@code hs_err_pid*.log} (no
 * crash in native code: {@code NativeCalls} holds the JVM's exit until BLAS calls in flight return) and no partial or
 * temporary file.
 */
class SignalTest {

    /** Exit status of a JVM ended by SIGTERM: 128 + 15. */
    private static final int SIGTERM_STATUS = 143;

    @TempDir
    Path dir;

    private Path data(int rows) throws IOException {
        Random rnd = new Random(17);
        StringBuilder sb = new StringBuilder("a,b\n");
        for (int i = 0; i < rows; i++) {
            sb.append(String.format(java.util.Locale.ROOT, "%.5f,%.5f%n", rnd.nextGaussian(), rnd.nextGaussian()));
        }
        return Files.writeString(dir.resolve("d.csv"), sb.toString());
    }

    private void terminateAt(long delayMillis, String... fitArgs) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> cmd = new java.util.ArrayList<>(List.of(java, "-Xmx1g", "-Djava.awt.headless=true",
                "-cp", System.getProperty("java.class.path"), Main.class.getName()));
        cmd.addAll(List.of(fitArgs));
        Process p = new ProcessBuilder(cmd).directory(dir.toFile())
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        Thread.sleep(delayMillis);
        p.destroy(); // SIGTERM on POSIX
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "the process did not end after SIGTERM");
        int status = p.exitValue();
        List<String> files;
        try (Stream<Path> s = Files.list(dir)) {
            files = s.map(f -> f.getFileName().toString()).sorted().collect(Collectors.toList());
        }
        assertTrue(files.stream().noneMatch(f -> f.startsWith("hs_err") || f.startsWith("core")),
                "native crash after SIGTERM at " + delayMillis + " ms: " + files);
        if (status == 0) {
            // finished before the signal: then the model is complete
            assertEquals(List.of("d.csv", "m.json"), files);
            Files.delete(dir.resolve("m.json"));
        } else {
            assertEquals(SIGTERM_STATUS, status, "exit status after SIGTERM at " + delayMillis + " ms");
            if (files.contains("m.json")) {
                // the signal came after the atomic rename, while the JVM was exiting: the model must be complete
                assertEquals(List.of("d.csv", "m.json"), files, "temporary files after SIGTERM at " + delayMillis
                        + " ms");
                org.psdkit.io.ModelIO.load(dir.resolve("m.json"));
                Files.delete(dir.resolve("m.json"));
            } else {
                assertEquals(List.of("d.csv"), files, "partial or temporary files after SIGTERM at " + delayMillis
                        + " ms");
            }
        }
    }

    @Test
    void sigtermDuringExactDensityFit() throws Exception {
        Path d = data(2000); // an exact fit of several seconds, so that the signal usually lands inside it
        Random rnd = new Random(20260101L);
        for (int k = 0; k < 2; k++) {
            terminateAt(700 + rnd.nextInt(2500), "fit", "density", "--train", d.getFileName().toString(),
                    "--no-target", "--out", "m.json");
        }
    }

    @Test
    @Tag("slow")
    void sigtermManyTimes() throws Exception {
        Path small = data(2000);
        Random rnd = new Random(20260102L);
        for (int k = 0; k < 6; k++) {
            terminateAt(500 + rnd.nextInt(8000), "fit", "density", "--train", small.getFileName().toString(),
                    "--no-target", "--out", "m.json");
        }
        Path big = data(20000);
        for (int k = 0; k < 6; k++) {
            terminateAt(500 + rnd.nextInt(8000), "fit", "density", "--train", big.getFileName().toString(),
                    "--no-target", "--anchors", "500", "--out", "m.json");
        }
    }
}
