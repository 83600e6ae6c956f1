package org.psdkit.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.psdkit.cli.use.PredictCommand;
import org.psdkit.linalg.Threads;

/**
 * A plain predict line runs without picocli ({@link PredictCommand#direct}); it must behave exactly as picocli's
 * run of the same line (same status, messages and output bytes), and every other line must go to picocli.
 */
class PredictDirectTest {

    @TempDir
    static Path dir;

    static Path model;
    static Path data;

    @BeforeAll
    static void fit() {
        Progress.setQuiet(true);
        StringBuilder csv = new StringBuilder("x1,x2,y\n");
        java.util.Random r = new java.util.Random(7);
        for (int i = 0; i < 60; i++) {
            double a = r.nextGaussian();
            double b = r.nextGaussian();
            csv.append(a).append(',').append(b).append(',').append(Math.sin(a) + 0.5 * b).append('\n');
        }
        data = TestFiles.write(dir, "train.csv", csv.toString());
        model = dir.resolve("krr.json");
        CliRun f = CliRun.run("fit", "krr", "--train", data.toString(), "--kernel", "gaussian(sigma=1)", "--lambda",
                "0.01", "--out", model.toString());
        assertEquals(0, f.status(), f.err());
    }

    @Test
    void plainLinesAreReadDirectly() {
        PredictCommand.Direct d = PredictCommand.direct("predict", "--model", "m.json", "--data", "d.csv", "--out",
                "p.csv");
        assertNotNull(d);
        assertEquals(0, d.threads());
        PredictCommand.Direct e = PredictCommand.direct("predict", "--out=p.csv", "--json", "--threads", "3",
                "--data=a=b.csv", "--model", "m.json");
        assertNotNull(e);
        assertEquals(3, e.threads());
        assertNotNull(PredictCommand.direct("predict", "--threads=1", "--model", "m", "--data", "d", "--out", "o"));
    }

    @Test
    void everyOtherLineGoesToPicocli() {
        String[][] others = {
            {"predict", "--model", "m", "--data", "d"},
            {"predict", "--model", "m", "--data", "d", "--out"},
            {"predict", "--model", "m", "--model", "m", "--data", "d", "--out", "o"},
            {"predict", "--model", "m", "--data", "d", "--out", "o", "--json", "--json"},
            {"predict", "--model", "m", "--data", "d", "--out", "o", "--help"},
            {"predict", "--model", "m", "--data", "d", "--out", "o", "-h"},
            {"predict", "--model", "m", "--data", "d", "--out", "o", "--version"},
            {"predict", "--model", "m", "--data", "d", "--out", "o", "--weight", "w"},
            {"predict", "--model", "m", "--data", "d", "--out", "o", "extra"},
            {"predict", "--model", "m", "--data", "d", "--out", "@args.txt"},
            {"predict", "@args.txt", "--model", "m", "--data", "d", "--out", "o"},
            {"predict", "--model", "-m", "--data", "d", "--out", "o"},
            {"predict", "--model=", "--data", "d", "--out", "o", "--json"},
            {"predict", "--model", "m", "--data", "d", "--out", "o", "--threads", "0"},
            {"predict", "--model", "m", "--data", "d", "--out", "o", "--threads", "two"},
            {"predict", "--model", "m", "--data", "d", "--out", "o", "--threads", "-1"},
            {"predict", "--model", "m", "--data", "d", "--out", "o", "--threads", "99999999999"},
            {"predict", "--model", "m", "--data", "d", "--out", "o", "--threads", "1", "--threads", "1"},
            {"predict", "--model", "m", "--data", "d\u0000", "--out", "o"},
            {"--threads", "1", "predict", "--model", "m", "--data", "d", "--out", "o"},
            {"eval", "--model", "m", "--data", "d", "--out", "o"},
        };
        for (String[] a : others) {
            assertNull(PredictCommand.direct(a), String.join(" ", a));
        }
    }

    @Test
    void directAndPicocliRunsAgree() throws Exception {
        Path out = dir.resolve("pred.csv");
        Path noDir = dir.resolve("missing-folder").resolve("p.csv");
        Path bad = TestFiles.write(dir, "bad.csv", "x1,y\n1,2\n");
        Path broken = TestFiles.write(dir, "broken.json", "{\"format\": ");
        List<String[]> lines = new ArrayList<>();
        lines.add(new String[] {"predict", "--model", model.toString(), "--data", data.toString(), "--out",
            out.toString()});
        lines.add(new String[] {"predict", "--json", "--data=" + data, "--out", out.toString(), "--model",
            model.toString(), "--threads", "1"});
        lines.add(new String[] {"predict", "--model", dir.resolve("none.json").toString(), "--data", data.toString(),
            "--out", out.toString()});
        lines.add(new String[] {"predict", "--model", broken.toString(), "--data", data.toString(), "--out",
            out.toString()});
        lines.add(new String[] {"predict", "--model", model.toString(), "--data", bad.toString(), "--out",
            out.toString()});
        lines.add(new String[] {"predict", "--model", model.toString(), "--data", data.toString(), "--out",
            model.toString()});
        lines.add(new String[] {"predict", "--model", model.toString(), "--data", data.toString(), "--out",
            noDir.toString()});
        int threads = Threads.get();
        try {
            for (int k = 0; k < lines.size(); k++) {
                String[] a = lines.get(k);
                assertNotNull(PredictCommand.direct(a), String.join(" ", a));
                Files.deleteIfExists(out);
                CliRun viaPicocli = CliRun.run(Main::executeWithPicocli, a);
                byte[] picocliBytes = Files.exists(out) ? Files.readAllBytes(out) : null;
                Threads.set(threads);
                Files.deleteIfExists(out);
                CliRun direct = CliRun.run(Main::execute, a);
                byte[] directBytes = Files.exists(out) ? Files.readAllBytes(out) : null;
                Threads.set(threads);
                String what = String.join(" ", a);
                assertEquals(viaPicocli.status(), direct.status(), what);
                assertEquals(withoutSeconds(viaPicocli.out()), withoutSeconds(direct.out()), what);
                assertEquals(withoutSeconds(viaPicocli.err()), withoutSeconds(direct.err()), what);
                assertArrayEquals(picocliBytes, directBytes, what);
                if (k < 2) { // the two good lines
                    assertEquals(0, direct.status(), direct.err());
                    assertNotNull(directBytes);
                } else {
                    assertEquals(Main.EXIT_BAD_INPUT, direct.status(), what + ": " + direct.err());
                    assertTrue(direct.err().startsWith("psdkit: error: "), direct.err());
                    assertFalse(direct.err().contains("\tat "), direct.err());
                }
            }
        } finally {
            Threads.set(threads);
        }
    }

    /** The report with its {@code seconds} entry (a time, different on each run) left out. */
    private static String withoutSeconds(String s) {
        return s.replaceAll("\"seconds\" ?: ?[0-9.eE+-]+,?", "").replaceAll("(?m)^\\s*seconds: .*\\n", "");
    }
}
