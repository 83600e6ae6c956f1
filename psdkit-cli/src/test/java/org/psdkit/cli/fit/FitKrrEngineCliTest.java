package org.psdkit.cli.fit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.psdkit.cli.CliRun;
import org.psdkit.cli.Progress;
import org.psdkit.cli.TestFiles;

/**
 * {@code fit krr --engine}: without Spark on the classpath (psdkit-cli's own tests) {@code --engine spark} is exit 2
 * with a message on how to get Spark; option mistakes are exit 2 before any engine is looked for. The Spark path
 * itself is tested in psdkit-spark and, through the command line, in psdkit-spark-submit.
 */
class FitKrrEngineCliTest {
    @TempDir
    static Path dir;
    static Path boston;

    @BeforeAll
    static void data() {
        boston = TestFiles.resource(dir, "data/boston.csv");
        Progress.setQuiet(true);
    }

    /** Progress's quiet switch is static: give the classes that run next in this JVM their default back. */
    @org.junit.jupiter.api.AfterAll
    static void loud() {
        Progress.setQuiet(System.getenv("PSDKIT_QUIET") != null);
    }

    private static CliRun fit(String... extra) {
        String[] base = {"fit", "krr", "--train", boston.toString(), "--out", dir.resolve("m.json").toString()};
        String[] args = java.util.Arrays.copyOf(base, base.length + extra.length);
        System.arraycopy(extra, 0, args, base.length, extra.length);
        return CliRun.run(args);
    }

    @Test
    void sparkWithoutTheSparkRuntimeSaysHowToGetIt() {
        CliRun r = fit("--anchors", "20", "--engine", "spark");
        assertEquals(2, r.status(), r.err());
        assertTrue(r.err().startsWith("psdkit: error: --engine spark needs the Spark runtime on the classpath: "
                + "run it with spark-submit"), r.err());
        assertTrue(r.err().contains("docs/scale.md"), r.err());
        assertFalse(r.err().contains("\tat "), r.err());
        assertFalse(Files.exists(dir.resolve("m.json")));
    }

    @Test
    void densityWithoutTheSparkRuntimeSaysHowToGetIt() {
        CliRun r = CliRun.run("fit", "density", "--train", boston.toString(), "--out",
                dir.resolve("d.json").toString(), "--anchors", "20", "--engine", "spark");
        assertEquals(2, r.status(), r.err());
        assertTrue(r.err().startsWith("psdkit: error: --engine spark needs the Spark runtime"), r.err());
        CliRun none = CliRun.run("fit", "density", "--train", boston.toString(), "--out",
                dir.resolve("d.json").toString(), "--engine", "spark");
        assertEquals(2, none.status(), none.err());
        assertTrue(none.err().contains("--engine spark needs --anchors"), none.err());
    }

    @Test
    void benchSparkWithoutTheSparkRuntimeSaysHowToGetIt() {
        CliRun r = CliRun.run("bench", "spark", "--n", "100");
        assertEquals(2, r.status(), r.err());
        assertTrue(r.err().startsWith("psdkit: error: --engine spark needs the Spark runtime"), r.err());
    }

    @Test
    void optionMistakesNameTheFlag() {
        CliRun noAnchors = fit("--engine", "spark");
        assertEquals(2, noAnchors.status());
        assertTrue(noAnchors.err().contains("--engine spark needs --anchors"), noAnchors.err());
        CliRun badEngine = fit("--anchors", "20", "--engine", "flink");
        assertEquals(2, badEngine.status());
        assertTrue(badEngine.err().contains("--engine: 'flink' is not local or spark"), badEngine.err());
        CliRun masterLocal = fit("--anchors", "20", "--master", "local[2]");
        assertEquals(2, masterLocal.status());
        assertTrue(masterLocal.err().contains("--master local[2]: applies to --engine spark only"),
                masterLocal.err());
        CliRun kmeans = fit("--anchors", "20", "--engine", "spark", "--anchor-method", "kmeans++");
        assertEquals(2, kmeans.status());
        assertTrue(kmeans.err().contains("--anchor-method kmeans++"), kmeans.err());
    }

    @Test
    void localIsTheDefaultEngine() {
        CliRun r = fit("--anchors", "20", "--engine", "local", "--json");
        assertEquals(0, r.status(), r.err());
        assertEquals(20, r.json().get("anchors").asInt());
    }
}
