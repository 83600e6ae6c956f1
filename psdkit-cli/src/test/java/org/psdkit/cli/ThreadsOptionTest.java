package org.psdkit.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.psdkit.linalg.Threads;

/** {@code --threads N}: one inherited option, accepted by every command, checked, and applied to the library. */
class ThreadsOptionTest {

    @Test
    void everyCommandTakesThreadsAndZeroIsABadInput(@TempDir Path dir) {
        StringBuilder sb = new StringBuilder("a,b,y\n");
        Random r = new Random(1);
        for (int i = 0; i < 40; i++) {
            double a = r.nextGaussian();
            double b = r.nextGaussian();
            sb.append(a).append(',').append(b).append(',').append(Math.sin(a) + b).append('\n');
        }
        Path data = TestFiles.write(dir, "d.csv", sb.toString());
        int before = Threads.get();
        try {
            CliRun ok = CliRun.run("fit", "krr", "--train", data.toString(), "--threads", "1", "--out",
                    dir.resolve("m.json").toString());
            assertEquals(0, ok.status(), ok.err());
            assertEquals(1, Threads.get());
            CliRun root = CliRun.run("--threads", "2", "fit", "krr", "--train", data.toString(), "--out",
                    dir.resolve("m2.json").toString());
            assertEquals(0, root.status(), root.err());
            assertEquals(2, Threads.get());
            CliRun bad = CliRun.run("fit", "krr", "--train", data.toString(), "--threads", "0", "--out",
                    dir.resolve("m3.json").toString());
            assertEquals(2, bad.status());
            assertTrue(bad.err().contains("psdkit: error: --threads must be >= 1, got 0"), bad.err());
            for (String[] cmd : new String[][] {{"sdp", "--help"}, {"bench", "krr", "--help"},
                    {"reproduce", "--help"}, {"predict", "--help"}, {"cv", "--help"}}) {
                CliRun h = CliRun.run(cmd);
                assertTrue((h.out() + h.err()).contains("--threads"), String.join(" ", cmd));
            }
        } finally {
            Threads.set(before);
        }
    }
}
