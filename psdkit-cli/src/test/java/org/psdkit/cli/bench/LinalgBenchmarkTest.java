package org.psdkit.cli.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.psdkit.cli.CliRun;

/** The benchmark's plumbing on tiny sizes (its timings are not checked: speed is shown by running it). */
class LinalgBenchmarkTest {

    @Test
    void printsOneRowPerOperationWithBaselinesUpToTheLimit() {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        LinalgBenchmark.Options o = new LinalgBenchmark.Options(new int[] {20, 40}, new int[] {10, 30, 40}, 1, 20, 60, 3, true, 5);
        List<LinalgBenchmark.Row> rows = new LinalgBenchmark(o, new PrintStream(buf, true, StandardCharsets.UTF_8))
                .run();
        String text = buf.toString(StandardCharsets.UTF_8);
        // 3 ops × 2 sizes + 3 workspace sizes + 2 Gram rows
        assertEquals(11, rows.size());
        for (LinalgBenchmark.Row r : rows) {
            assertTrue(r.seconds() > 0 && Double.isFinite(r.gflops()), r.toString());
            if (r.n() == 40 && !r.op().startsWith("eigh-workspace")) {
                assertTrue(Double.isNaN(r.baselineSeconds()), "baseline skipped above --baseline-max-n");
            } else {
                assertTrue(r.baselineSeconds() > 0, r.toString());
            }
        }
        assertTrue(text.contains("skipped (n > --baseline-max-n 20)"), text);
        assertTrue(text.contains("max |difference|"), text);
    }

    @Test
    void badOptionsAreRejected() {
        assertThrows(IllegalArgumentException.class,
                () -> new LinalgBenchmark.Options(new int[] {0}, new int[] {5}, 1, 10, 10, 2, false, 1));
        assertThrows(IllegalArgumentException.class,
                () -> new LinalgBenchmark.Options(new int[] {10}, new int[] {5}, 0, 10, 10, 2, false, 1));
        CliRun r = CliRun.run("bench", "linalg", "--repeats", "0");
        assertEquals(2, r.status(), r.err());
        assertTrue(r.err().contains("--repeats must be >= 1"), r.err());
    }
}
