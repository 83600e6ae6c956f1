package org.psdkit.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The JVM flags and environment {@code bin/psdkit} chooses per command, seen by a stand-in {@code java} on the PATH
 * that prints them: C1 only for a predict on a file of at most 16 MB and for an exact fit krr on a training file of
 * at most 256 kB and for a single fit svm (-C given, no --probability) on a file of at most 1.5 MB and 6,000 lines;
 * {@code OPENBLAS_THREAD_TIMEOUT=4} for those runs and for fit density, a value the user set kept;
 * the defaults for everything else. (That these flags leave every output unchanged is {@link LauncherCdsTest}'s.)
 */
class LauncherFlagsTest {

    private static final Path LAUNCHER = Path.of("..", "bin", "psdkit").toAbsolutePath().normalize();

    @TempDir
    Path root;

    @BeforeEach
    void setUp() throws Exception {
        assumeTrue(Files.isExecutable(Path.of("/bin/bash")) && Files.isRegularFile(LAUNCHER), "needs bash and bin/psdkit");
        Path bin = Files.createDirectories(root.resolve("bin"));
        assertTrue(Files.copy(LAUNCHER, bin.resolve("psdkit")).toFile().setExecutable(true));
        Files.createDirectories(root.resolve("psdkit-cli/target"));
        Files.writeString(root.resolve("psdkit-cli/target/psdkit.jar"), "stand-in");
        Path fake = Files.createDirectories(root.resolve("fake-java"));
        Path java = fake.resolve("java");
        Files.writeString(java, "#!/bin/bash\necho \"TIMEOUT=${OPENBLAS_THREAD_TIMEOUT:-unset} ARGS=$*\"\n");
        assertTrue(java.toFile().setExecutable(true));
        Files.writeString(root.resolve("small.csv"), "x1,y\n1,2\n3,4\n");
        Files.write(root.resolve("big.csv"), new byte[300_000]);
        Files.writeString(root.resolve("long.csv"), "x1,y\n" + "1,2\n".repeat(7_000));
        Files.write(root.resolve("huge.csv"), new byte[1_600_000]);
    }

    private String run(Map<String, String> env, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("/bin/bash", root.resolve("bin/psdkit").toString()));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(root.toFile()).redirectErrorStream(true);
        Map<String, String> e = pb.environment();
        e.put("PATH", root.resolve("fake-java") + File.pathSeparator + System.getenv().getOrDefault("PATH", ""));
        e.put("PSDKIT_CDS", "0");
        e.remove("PSDKIT_JAVA_OPTS");
        e.remove("OPENBLAS_THREAD_TIMEOUT");
        e.putAll(env);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "launcher timed out");
        assertEquals(0, p.exitValue(), out);
        return out.lines().filter(l -> l.startsWith("TIMEOUT=")).findFirst().orElseThrow(() -> new AssertionError(out));
    }

    private static void expect(String line, boolean c1, String timeout) {
        assertEquals(c1, line.contains("-XX:TieredStopAtLevel=1"), line);
        assertTrue(line.startsWith("TIMEOUT=" + timeout + " "), line);
    }

    @Test
    void shortRunsGetC1AndSleepingBlasWorkersOthersTheDefaults() throws Exception {
        Map<String, String> none = new HashMap<>();
        expect(run(none, "fit", "krr", "--train", "small.csv", "--out", "m.json"), true, "4");
        expect(run(none, "fit", "krr", "--train=small.csv", "--out", "m.json", "--lambda", "0.1"), true, "4");
        expect(run(none, "fit", "krr", "--train", "big.csv", "--out", "m.json"), false, "unset");
        expect(run(none, "fit", "krr", "--train", "small.csv", "--auto", "--out", "m.json"), false, "unset");
        expect(run(none, "fit", "krr", "--anchors", "10", "--train", "small.csv", "--out", "m.json"), false, "unset");
        expect(run(none, "fit", "krr", "--train", "missing.csv", "--out", "m.json"), false, "unset");
        expect(run(none, "predict", "--model", "m.json", "--data", "small.csv", "--out", "p.csv"), true, "4");
        expect(run(none, "fit", "density", "--train", "big.csv", "--out", "m.json"), false, "4");
        expect(run(none, "fit", "svm", "--train", "small.csv", "--out", "m.json"), false, "unset");
        expect(run(none, "fit", "svm", "--train", "small.csv", "-C", "10", "--out", "m.json"), true, "4");
        expect(run(none, "fit", "svm", "-C=10", "--train=big.csv", "--out", "m.json"), true, "4");
        expect(run(none, "fit", "svm", "--train", "small.csv", "-C", "10", "--probability", "--out", "m.json"),
                false, "unset");
        expect(run(none, "fit", "svm", "--train", "long.csv", "-C", "10", "--out", "m.json"), false, "unset");
        expect(run(none, "fit", "svm", "--train", "huge.csv", "-C", "10", "--out", "m.json"), false, "unset");
        expect(run(none, "eval", "--model", "m.json", "--data", "small.csv"), false, "unset");
        expect(run(Map.of("OPENBLAS_THREAD_TIMEOUT", "20"), "fit", "krr", "--train", "small.csv", "--out", "m.json"),
                true, "20");
        expect(run(Map.of("OPENBLAS_THREAD_TIMEOUT", "20"), "fit", "density", "--train", "small.csv", "--out",
                "m.json"), false, "20");
    }
}
