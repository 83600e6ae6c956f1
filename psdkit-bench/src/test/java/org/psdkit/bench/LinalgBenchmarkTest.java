package org.psdkit.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.psdkit.optim.ProgressListener;

/** The benchmark's plumbing on tiny sizes (its timings are not checked: speed is shown by running it). */
class LinalgBenchmarkTest {

    @Test
    void measuresOneRowPerOperationWithBaselinesUpToTheLimit() {
        LinalgBenchmark.Options o = new LinalgBenchmark.Options(new int[] {20, 40}, new int[] {10, 30, 40}, 1, 20, 60,
                3, true, 5);
        List<LinalgBenchmark.Row> streamed = new ArrayList<>();
        List<ProgressListener.Event> events = new ArrayList<>();
        LinalgBenchmark.Result res = LinalgBenchmark.run(o, events::add, streamed::add);
        List<LinalgBenchmark.Row> rows = res.rows();
        // 3 ops × 2 sizes + 3 workspace sizes + 2 Gram rows
        assertEquals(11, rows.size());
        assertEquals(rows, streamed, "every row is handed on as it is measured");
        for (LinalgBenchmark.Row r : rows) {
            assertTrue(r.seconds() > 0 && Double.isFinite(r.gflops()), r.toString());
            if (r.n() == 40 && !r.op().startsWith("eigh-workspace")) {
                assertTrue(!r.hasBaseline() && Double.isNaN(r.baselineSeconds()), "baseline skipped above baselineMaxN");
            } else {
                assertTrue(r.baselineSeconds() > 0 && r.speedup() > 0, r.toString());
            }
        }
        LinalgBenchmark.Row gram = rows.get(rows.size() - 1);
        assertEquals("gram-gaussian", gram.op());
        assertTrue(gram.note().contains("max |difference|"), gram.note());
        assertTrue(res.machine().blasThreads() >= 1 && res.machine().cores() >= 1);
        // one start and one end per phase (2 sizes × 3 ops + 3 workspace sizes + the Gram matrix), ending at the total
        assertEquals(20, events.size());
        ProgressListener.Event last = events.get(events.size() - 1);
        assertEquals(10, last.total());
        assertEquals(1.0, last.fraction());
    }

    @Test
    void badOptionsAreRejectedNamingTheParameter() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new LinalgBenchmark.Options(new int[] {0}, new int[] {5}, 1, 10, 10, 2, false, 1));
        assertTrue(e.getMessage().startsWith("sizes:"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> new LinalgBenchmark.Options(new int[] {10}, new int[] {5}, 0, 10, 10, 2, false, 1));
        assertEquals("repeats must be >= 1, got 0", e.getMessage());
        assertThrows(IllegalArgumentException.class,
                () -> new LinalgBenchmark.Options(new int[] {10}, new int[] {0}, 1, 10, 10, 2, false, 1));
        assertThrows(IllegalArgumentException.class,
                () -> new LinalgBenchmark.Options(new int[] {10}, new int[] {5}, 1, 10, 1, 2, true, 1));
    }
}
