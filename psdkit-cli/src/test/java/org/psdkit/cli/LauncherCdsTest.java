package org.psdkit.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bin/psdkit}'s class-data-sharing archive (JDK 17 dynamic AppCDS) must be harmless: the first run of a command
 * makes it, later runs use it with the same output and model numbers, and a stale or corrupt archive, or
 * {@code PSDKIT_CDS=0}, still runs the command with nothing extra on stdout or stderr. The launcher runs on a copy of
 * itself whose jar is a manifest-only jar over this test's class path.
 */
class LauncherCdsTest {

    private static final Path LAUNCHER = Path.of("..", "bin", "psdkit").toAbsolutePath().normalize();

    @TempDir
    Path root;

    private record Run(int status, String out, String err) { }

    @Test
    void archiveIsMadeThenUsedAndAStaleOrCorruptOneIsHarmless() throws Exception {
        assumeTrue(Files.isExecutable(Path.of("/bin/bash")) && Files.isRegularFile(LAUNCHER), "needs bash and bin/psdkit");
        Path bin = Files.createDirectories(root.resolve("bin"));
        Path launcher = Files.copy(LAUNCHER, bin.resolve("psdkit"));
        assertTrue(launcher.toFile().setExecutable(true));
        Path target = Files.createDirectories(root.resolve("psdkit-cli/target"));
        Path jar = target.resolve("psdkit.jar");
        writeLauncherJar(jar);
        Path cds = target.resolve("cds");

        // --version: made on the first run, used on the second, a corrupt one ignored
        for (int i = 0; i < 2; i++) {
            Run r = run(Map.of(), "--version");
            assertEquals(new Run(0, Main.VERSION + "\n", ""), r, "run " + i);
            assertEquals(1, archives(cds, "psdkit-main-text-").size(), "one archive for the text-only runs");
            int magic = magic(archives(cds, "psdkit-main-text-").get(0));
            assertTrue(magic == STATIC_MAGIC || magic == DYNAMIC_MAGIC, "a CDS archive: " + Integer.toHexString(magic));
        }
        Path versionArchive = archives(cds, "psdkit-main-text-").get(0);
        Files.write(versionArchive, "not a CDS archive".getBytes(StandardCharsets.US_ASCII));
        assertEquals(new Run(0, Main.VERSION + "\n", ""), run(Map.of(), "--version"), "corrupt archive");

        // a fit: the same numbers with and without the archive, and with a stale one (the jar rebuilt)
        Path csv = root.resolve("train.csv");
        StringBuilder sb = new StringBuilder("x1,x2,y\n");
        for (int i = 0; i < 40; i++) {
            double a = (i % 7) / 7.0;
            double b = (i % 5) / 5.0;
            sb.append(a).append(',').append(b).append(',').append(Math.sin(3 * a) + b * b).append('\n');
        }
        Files.writeString(csv, sb.toString());
        List<JsonNode> numbers = new ArrayList<>();
        String[] variants = {"first (dumps)", "second (maps)", "PSDKIT_CDS=0", "stale (jar rebuilt)"};
        for (String v : variants) {
            if (v.startsWith("stale")) {
                Path old = archives(cds, "psdkit-fit-").get(0);
                Files.setLastModifiedTime(jar, java.nio.file.attribute.FileTime.fromMillis(
                        Files.getLastModifiedTime(jar).toMillis() + 10_000));
                // the old key's archive is still there when the new jar first runs: it must not be used
                assertTrue(Files.exists(old));
            }
            Path model = root.resolve("m-" + numbers.size() + ".json");
            Run r = run(v.equals("PSDKIT_CDS=0") ? Map.of("PSDKIT_CDS", "0") : Map.of(),
                    "fit", "krr", "--train", csv.toString(), "--out", model.toString(), "--json");
            assertEquals(0, r.status(), v + ": " + r.err());
            assertEquals(1, r.out().strip().lines().count(), v + ": stdout is one JSON object: " + r.out());
            assertTrue(!r.err().contains("cds") && !r.err().contains("warning"), v + ": stderr " + r.err());
            numbers.add(org.psdkit.io.ModelFile.JSON.readTree(model.toFile()).get("numbers"));
            assertEquals(1, archives(cds, "psdkit-fit-").size(), v + ": one archive per command and jar");
        }
        for (int i = 1; i < numbers.size(); i++) {
            assertEquals(numbers.get(0), numbers.get(i), variants[i]);
        }
        assertArrayEquals(new Object[0], archives(cds, ".").toArray(), "no temporary archive left behind");
    }

    /** The first four bytes of a JDK 17 static CDS archive (little-endian 0xf00baba2; a dynamic one has ...a8). */
    private static final int STATIC_MAGIC = 0xf00baba2;
    private static final int DYNAMIC_MAGIC = 0xf00baba8;

    @Test
    void aJarClassPathGetsAStaticArchiveWithTheSameResults() throws Exception {
        assumeTrue(Files.isExecutable(Path.of("/bin/bash")) && Files.isRegularFile(LAUNCHER), "needs bash and bin/psdkit");
        Path bin = Files.createDirectories(root.resolve("bin"));
        Path launcher = Files.copy(LAUNCHER, bin.resolve("psdkit"));
        assertTrue(launcher.toFile().setExecutable(true));
        Path target = Files.createDirectories(root.resolve("psdkit-cli/target"));
        writeSelfContainedJar(target.resolve("psdkit.jar"));
        Path cds = target.resolve("cds");

        for (int i = 0; i < 2; i++) {
            assertEquals(new Run(0, Main.VERSION + "\n", ""), run(Map.of(), "--version"), "run " + i);
            List<Path> a = archives(cds, "psdkit-main-text-");
            assertEquals(1, a.size(), "one archive for the text-only runs");
            assertEquals(STATIC_MAGIC, magic(a.get(0)), "a static archive");
        }
        Path csv = root.resolve("train.csv");
        StringBuilder sb = new StringBuilder("x1,x2,y\n");
        for (int i = 0; i < 30; i++) {
            sb.append(i % 4).append(',').append((i % 9) / 3.0).append(',').append(Math.cos(i)).append('\n');
        }
        Files.writeString(csv, sb.toString());
        List<JsonNode> numbers = new ArrayList<>();
        for (String v : new String[] {"first (dumps)", "second (maps the static archive)", "PSDKIT_CDS=0"}) {
            Path model = root.resolve("s-" + numbers.size() + ".json");
            Run r = run(v.equals("PSDKIT_CDS=0") ? Map.of("PSDKIT_CDS", "0") : Map.of(),
                    "fit", "krr", "--train", csv.toString(), "--out", model.toString(), "--json");
            assertEquals(0, r.status(), v + ": " + r.err());
            assertEquals(1, r.out().strip().lines().count(), v + ": stdout is one JSON object: " + r.out());
            assertEquals("", r.err(), v + ": nothing on stderr");
            numbers.add(org.psdkit.io.ModelFile.JSON.readTree(model.toFile()).get("numbers"));
            List<Path> a = archives(cds, "psdkit-fit-");
            assertEquals(1, a.size(), v + ": one archive per command and jar");
            assertEquals(STATIC_MAGIC, magic(a.get(0)), v + ": a static archive");
        }
        assertEquals(numbers.get(0), numbers.get(1), "with the archive");
        assertEquals(numbers.get(0), numbers.get(2), "without CDS");
        assertArrayEquals(new Object[0], archives(cds, ".").toArray(), "no temporary file left behind");
    }

    /**
     * {@code predict} on a data file of at most 16 MB runs with C1 only (the launcher's short-run flag): its output
     * must be the one of a JVM whose hot loops are C2 code, byte for byte.
     */
    @Test
    void shortPredictFlagsKeepThePredictions() throws Exception {
        assumeTrue(Files.isExecutable(Path.of("/bin/bash")) && Files.isRegularFile(LAUNCHER), "needs bash and bin/psdkit");
        Path bin = Files.createDirectories(root.resolve("bin"));
        Path launcher = Files.copy(LAUNCHER, bin.resolve("psdkit"));
        assertTrue(launcher.toFile().setExecutable(true));
        Path target = Files.createDirectories(root.resolve("psdkit-cli/target"));
        writeLauncherJar(target.resolve("psdkit.jar"));
        java.util.Random rnd = new java.util.Random(5);
        StringBuilder train = new StringBuilder("x1,x2,x3,y\n");
        for (int i = 0; i < 300; i++) {
            double a = rnd.nextGaussian();
            double b = rnd.nextGaussian();
            double c = rnd.nextGaussian();
            train.append(a).append(',').append(b).append(',').append(c).append(',').append(Math.sin(a) + b * c)
                    .append('\n');
        }
        StringBuilder data = new StringBuilder("x1,x2,x3\n");
        for (int i = 0; i < 20_000; i++) {
            data.append(rnd.nextGaussian()).append(',').append(rnd.nextGaussian()).append(',')
                    .append(rnd.nextGaussian()).append('\n');
        }
        Files.writeString(root.resolve("train.csv"), train.toString());
        Files.writeString(root.resolve("data.csv"), data.toString());
        Run fit = run(Map.of(), "fit", "krr", "--train", "train.csv", "--out", "m.json", "--kernel",
                "gaussian(sigma=1)", "--lambda", "0.01");
        assertEquals(0, fit.status(), fit.err());
        Run pred = run(Map.of("PSDKIT_JAVA_OPTS", "-Xmx256m -XX:+PrintFlagsFinal"), "predict", "--model", "m.json",
                "--data", "data.csv", "--out", "short.csv");
        assertEquals(0, pred.status(), pred.err());
        assertTrue(pred.out().lines().anyMatch(l -> l.matches(".*\\bTieredStopAtLevel\\s+=\\s+1\\b.*")),
                "the short-run flag was used");
        // the reference: C2 only, compiling after 100 calls, the default collector
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:-TieredCompilation", "-XX:CompileThreshold=100", "-Xmx256m", "-cp",
                System.getProperty("java.class.path"), Main.class.getName(), "predict", "--model", "m.json", "--data",
                "data.csv", "--out", "c2.csv"));
        Process p = new ProcessBuilder(cmd).directory(root.toFile()).redirectErrorStream(true)
                .redirectOutput(root.resolve("c2.log").toFile()).start();
        assertTrue(p.waitFor(180, TimeUnit.SECONDS), "reference predict timed out");
        assertEquals(0, p.exitValue(), Files.readString(root.resolve("c2.log")));
        assertEquals(Files.readString(root.resolve("c2.csv")), Files.readString(root.resolve("short.csv")));
    }

    /**
     * An exact {@code fit krr} on a training file of at most 256 kB runs with C1 only (the launcher's short-run flag):
     * its model file must be the one of a JVM whose loops are C2 code, byte for byte but for the fit's seconds; a
     * fit with {@code --auto} keeps the default JIT.
     */
    @Test
    void shortFitKrrFlagsKeepTheModel() throws Exception {
        installLauncher();
        writeTrain(7, 400, (a, b, c, rnd) -> String.valueOf(Math.cos(a) + b * c));
        String[] fit = {"fit", "krr", "--train", "train.csv", "--kernel", "gaussian(sigma=1.5)", "--lambda", "0.001",
                "--json"};
        Run c1 = assertTieredStop(1, "the short-run flag was used", concat(fit, "--out", "c1.json"));
        assertTieredStop(4, "--auto keeps the default JIT", "fit", "krr", "--train", "train.csv", "--auto",
                "--auto-restarts", "1", "--auto-iterations", "2", "--out", "auto.json");
        assertSameAsC2Only(fit, c1);
    }

    /**
     * A single {@code fit svm} (-C given) on a small training file runs with C1 only: its model file must be the one
     * of a JVM whose SMO loops are C2 code, byte for byte but for the fit's seconds (the solver's path through the
     * clipping branches depends on every rounding); without -C (C chosen by cross-validation) the default JIT stays.
     */
    @Test
    void shortFitSvmFlagsKeepTheModel() throws Exception {
        installLauncher();
        // overlapping classes: many bounded and free support vectors, so the path takes every branch
        writeTrain(11, 600, (a, b, c, rnd) -> a * a + b - 0.5 * c + 0.7 * rnd.nextGaussian() > 1 ? "yes" : "no");
        String[] fit = {"fit", "svm", "--train", "train.csv", "--kernel", "gaussian(sigma=0.8)", "-C", "10",
                "--json"};
        Run c1 = assertTieredStop(1, "the short-run flag was used", concat(fit, "--out", "c1.json"));
        assertTieredStop(4, "C chosen by cross-validation keeps the default JIT", "fit", "svm", "--train",
                "train.csv", "--kernel", "gaussian(sigma=0.8)", "--out", "cv.json");
        assertSameAsC2Only(fit, c1);
    }

    /** The target of a training row from its three Gaussian features (rnd: the generator, for extra noise). */
    @FunctionalInterface
    private interface Target {
        String of(double a, double b, double c, java.util.Random rnd);
    }

    /** root/train.csv: {@code rows} rows x1, x2, x3 (standard Gaussian, seeded) and y = target(x1, x2, x3). */
    private void writeTrain(long seed, int rows, Target target) throws IOException {
        java.util.Random rnd = new java.util.Random(seed);
        StringBuilder train = new StringBuilder("x1,x2,x3,y\n");
        for (int i = 0; i < rows; i++) {
            double a = rnd.nextGaussian();
            double b = rnd.nextGaussian();
            double c = rnd.nextGaussian();
            train.append(a).append(',').append(b).append(',').append(c).append(',').append(target.of(a, b, c, rnd))
                    .append('\n');
        }
        Files.writeString(root.resolve("train.csv"), train.toString());
    }

    /** bin/psdkit and a jar beside it under the temporary root, as a clone has them. */
    private void installLauncher() throws IOException {
        assumeTrue(Files.isExecutable(Path.of("/bin/bash")) && Files.isRegularFile(LAUNCHER), "needs bash and bin/psdkit");
        Path bin = Files.createDirectories(root.resolve("bin"));
        Path launcher = Files.copy(LAUNCHER, bin.resolve("psdkit"));
        assertTrue(launcher.toFile().setExecutable(true));
        Path target = Files.createDirectories(root.resolve("psdkit-cli/target"));
        writeLauncherJar(target.resolve("psdkit.jar"));
    }

    /** Runs the launcher with {@code args} and checks the JIT level its JVM ran with (-XX:+PrintFlagsFinal). */
    private Run assertTieredStop(int level, String why, String... args) throws Exception {
        Run r = run(Map.of("PSDKIT_JAVA_OPTS", "-Xmx256m -XX:+PrintFlagsFinal"), args);
        assertEquals(0, r.status(), r.err());
        assertTrue(r.out().lines().anyMatch(l -> l.matches(".*\\bTieredStopAtLevel\\s+=\\s+" + level + "\\b.*")),
                why);
        return r;
    }

    /**
     * {@code fit}, run through the launcher as {@code c1} with {@code --out c1.json}, run again in a JVM with C2
     * only, compiling after 100 calls: the model file and the {@code --json} report (every metric to 17 digits) must
     * be the launcher run's, byte for byte but for the fit's seconds.
     */
    private void assertSameAsC2Only(String[] fit, Run c1) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:-TieredCompilation", "-XX:CompileThreshold=100", "-Xmx256m", "-cp",
                System.getProperty("java.class.path"), Main.class.getName()));
        cmd.addAll(List.of(concat(fit, "--out", "c2.json")));
        Process p = new ProcessBuilder(cmd).directory(root.toFile()).redirectErrorStream(true)
                .redirectOutput(root.resolve("c2.log").toFile()).start();
        assertTrue(p.waitFor(180, TimeUnit.SECONDS), "reference fit timed out");
        assertEquals(0, p.exitValue(), Files.readString(root.resolve("c2.log")));
        String seconds = "(?m)^    \"seconds\" : .*$";
        String c2Model = Files.readString(root.resolve("c2.json"));
        assertTrue(c2Model.contains("\n    \"seconds\" : "), "the fit's seconds in the model file");
        assertEquals(c2Model.replaceAll(seconds, ""), Files.readString(root.resolve("c1.json")).replaceAll(seconds, ""));
        // the report as well, but for the seconds
        String c2Report = Files.readString(root.resolve("c2.log")).lines().filter(l -> l.startsWith("{"))
                .findFirst().orElseThrow();
        String c1Report = c1.out().lines().filter(l -> l.startsWith("{")).findFirst().orElseThrow();
        String secs = "\"seconds\":[0-9.Ee-]+|\"out\":\"c[12].json\"";
        assertEquals(c2Report.replaceAll(secs, ""), c1Report.replaceAll(secs, ""));
    }

    private static String[] concat(String[] a, String... b) {
        String[] r = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, r, a.length, b.length);
        return r;
    }

    /** The archive's magic number (its first four bytes, little-endian as written on x86 and aarch64). */
    private static int magic(Path archive) throws IOException {
        byte[] b = new byte[4];
        try (java.io.InputStream in = Files.newInputStream(archive)) {
            assertEquals(4, in.readNBytes(b, 0, 4));
        }
        return java.nio.ByteBuffer.wrap(b).order(java.nio.ByteOrder.LITTLE_ENDIAN).getInt();
    }

    /**
     * A jar holding the class files of this test's class-path folders (the first of duplicate names, no module
     * descriptors), Class-Path the class path's jars: the shape of the shaded psdkit.jar, which a static dump accepts.
     */
    private static void writeSelfContainedJar(Path jar) throws IOException {
        Manifest m = new Manifest();
        Attributes a = m.getMainAttributes();
        a.put(Attributes.Name.MANIFEST_VERSION, "1.0");
        a.put(Attributes.Name.MAIN_CLASS, Main.class.getName());
        StringBuilder cp = new StringBuilder();
        List<Path> folders = new ArrayList<>();
        for (String e : System.getProperty("java.class.path").split(File.pathSeparator)) {
            Path p = e.isEmpty() ? null : Path.of(e).toAbsolutePath();
            if (p != null && Files.isDirectory(p)) {
                folders.add(p);
            } else if (p != null && Files.isRegularFile(p)) {
                cp.append(cp.length() == 0 ? "" : " ").append(p.toUri());
            }
        }
        a.put(Attributes.Name.CLASS_PATH, cp.toString());
        java.util.Set<String> seen = new java.util.HashSet<>();
        try (OutputStream o = Files.newOutputStream(jar); JarOutputStream j = new JarOutputStream(o, m)) {
            for (Path f : folders) {
                List<Path> files;
                try (Stream<Path> s = Files.walk(f)) {
                    files = s.filter(Files::isRegularFile).sorted().toList();
                }
                for (Path file : files) {
                    String name = f.relativize(file).toString().replace(File.separatorChar, '/');
                    if (name.endsWith("module-info.class") || name.equals("META-INF/MANIFEST.MF") || !seen.add(name)) {
                        continue;
                    }
                    j.putNextEntry(new java.util.jar.JarEntry(name));
                    Files.copy(file, j);
                    j.closeEntry();
                }
            }
        }
    }

    /** The archives in {@code cds} whose names start with {@code prefix}. */
    private static List<Path> archives(Path cds, String prefix) throws IOException {
        if (!Files.isDirectory(cds)) {
            return List.of();
        }
        try (Stream<Path> s = Files.list(cds)) {
            return s.filter(p -> p.getFileName().toString().startsWith(prefix)).sorted().toList();
        }
    }

    /** A jar with only a manifest: Main-Class psdkit's, Class-Path this test's class path. */
    private static void writeLauncherJar(Path jar) throws IOException {
        Manifest m = new Manifest();
        Attributes a = m.getMainAttributes();
        a.put(Attributes.Name.MANIFEST_VERSION, "1.0");
        a.put(Attributes.Name.MAIN_CLASS, Main.class.getName());
        StringBuilder cp = new StringBuilder();
        for (String e : System.getProperty("java.class.path").split(File.pathSeparator)) {
            if (!e.isEmpty()) {
                cp.append(cp.length() == 0 ? "" : " ").append(Path.of(e).toAbsolutePath().toUri());
            }
        }
        a.put(Attributes.Name.CLASS_PATH, cp.toString());
        try (OutputStream o = Files.newOutputStream(jar); JarOutputStream j = new JarOutputStream(o, m)) {
            j.flush();
        }
    }

    private Run run(Map<String, String> env, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("/bin/bash", root.resolve("bin/psdkit").toString()));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(root.toFile());
        Path javaBin = Path.of(System.getProperty("java.home"), "bin");
        pb.environment().put("PATH", javaBin + File.pathSeparator + System.getenv().getOrDefault("PATH", ""));
        pb.environment().put("PSDKIT_JAVA_OPTS", "-Xmx256m");
        pb.environment().remove("PSDKIT_CDS");
        pb.environment().putAll(env);
        Path out = root.resolve("stdout.txt");
        Path err = root.resolve("stderr.txt");
        Process p = pb.redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        assertTrue(p.waitFor(180, TimeUnit.SECONDS), "launcher timed out");
        return new Run(p.exitValue(), Files.readString(out), Files.readString(err));
    }
}
