package org.psdkit.cli.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.psdkit.bench.GeneratedFiles;
import org.psdkit.cli.CliRun;

/**
 * The folders the benchmarks write their generated data into ({@code bench krr-scale --dir}, {@code bench psd-scale
 * --dir}, {@code bench svm --data-dir}): the files are written atomically, a re-run replaces the benchmark's own
 * files, and a file of the same name that a benchmark did not write is refused before any work (exit 2, naming it),
 * where it used to be overwritten.
 */
class BenchDirCliTest {
    @TempDir
    Path dir;

    private Map<String, String> snapshot() throws IOException {
        Map<String, String> m = new TreeMap<>();
        try (Stream<Path> s = Files.list(dir)) {
            for (Path p : s.toList()) {
                m.put(p.getFileName().toString(), Files.isDirectory(p) ? "<dir>" : Files.readString(p));
            }
        }
        return m;
    }

    private void refused(String file, String option, String... args) throws IOException {
        Map<String, String> before = snapshot();
        CliRun r = CliRun.run(args);
        assertEquals(2, r.status(), r.err());
        List<String> msgs = r.err().lines().filter(l -> l.startsWith("psdkit:")).toList();
        assertEquals(1, msgs.size(), r.err());
        assertTrue(msgs.get(0).startsWith("psdkit: error: " + option + " " + dir + ": " + dir.resolve(file)
                + " exists and was not written there by a psdkit benchmark"), msgs.get(0));
        assertFalse(r.err().contains("\tat "), r.err());
        assertEquals(before, snapshot(), "the folder changed");
    }

    private CliRun krrScale() {
        return CliRun.run("bench", "krr-scale", "--configs", "200:20", "--test", "30", "--exact-max-n", "0",
                "--dir", dir.toString(), "--json");
    }

    @Test
    void krrScaleReplacesItsOwnFilesOnARerunAndRefusesOthers() throws IOException {
        CliRun first = krrScale();
        assertEquals(0, first.status(), first.err());
        Map<String, String> after = snapshot();
        assertEquals(List.of(GeneratedFiles.MANIFEST, "krr-scale-test-200.csv", "krr-scale-train-200.csv"),
                List.copyOf(after.keySet()), "the data and the record, no temporary file");
        assertEquals(201, after.get("krr-scale-train-200.csv").lines().count());
        CliRun again = krrScale();
        assertEquals(0, again.status(), again.err());
        assertEquals(after.get("krr-scale-train-200.csv"), Files.readString(dir.resolve("krr-scale-train-200.csv")));
        // the user's own file of that name (here: the benchmark's file, edited) is not overwritten
        Files.writeString(dir.resolve("krr-scale-test-200.csv"), "my,own\n1,2\n");
        refused("krr-scale-test-200.csv", "--dir", "bench", "krr-scale", "--configs", "200:20", "--test", "30",
                "--exact-max-n", "0", "--dir", dir.toString(), "--json");
    }

    @Test
    void psdScaleAndSvmRefuseAFileTheyDidNotWrite() throws IOException {
        Files.writeString(dir.resolve("psd-scale-300.csv"), "x1\n0.5\n");
        refused("psd-scale-300.csv", "--dir", "bench", "psd-scale", "--cases", "none", "--n", "300", "--anchors",
                "20", "--dir", dir.toString(), "--json");
        Files.writeString(dir.resolve("svm-test.csv"), "x1,y\n0.5,1\n");
        refused("svm-test.csv", "--data-dir", "bench", "svm", "--sizes", "10", "--data-dir", dir.toString(),
                "--json");
    }

    @Test
    void aDirThatIsNoDirectoryIsRefused() {
        for (String cmd : new String[] {"krr-scale", "psd-scale"}) {
            CliRun r = CliRun.run("bench", cmd, "--dir", dir.resolve("missing").toString());
            assertEquals(2, r.status(), r.err());
            assertTrue(r.err().contains("--dir: " + dir.resolve("missing") + " is not a directory"), r.err());
        }
    }
}
