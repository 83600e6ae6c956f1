package org.psdkit.experiments;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.psdkit.optim.ProgressListener;

class ConeReproductionsTest {

    @TempDir
    Path dir;

    @Test
    void heteroReturnsOneRowPerMethodWritesTheFiguresAndReportsProgress() throws Exception {
        List<ProgressListener.Event> events = new ArrayList<>();
        ConeReproductions.HeteroResult r = ConeReproductions.hetero(new ConeReproductions.HeteroOptions(30, 200,
                new double[] {0.2}, new double[] {0.01}, 2, dir), events::add);
        assertEquals(List.of("pnm", "ncm", "glm", "psd"), r.table().stream().map(m -> m.get("model")).toList());
        for (Map<String, Object> row : r.table()) {
            assertTrue((double) row.get("test_nll") < 3, row.toString());
            assertTrue((double) row.get("min_variance_grid") > 0, row.toString());
        }
        assertTrue(r.trueModelTestNll() > 1 && r.trueModelTestNll() < 2, "true NLL " + r.trueModelTestNll());
        assertEquals(dir.resolve("hetero.png"), r.png());
        for (String f : new String[] {"hetero.png", "hetero-pnm.png", "hetero-ncm.png", "hetero-glm.png",
            "hetero-psd.png"}) {
            assertTrue(Files.size(dir.resolve(f)) > 1000, f);
        }
        // a start and an end event per cross-validation
        assertEquals(8, events.size());
        assertEquals("cv pnm", events.get(0).task());
        assertEquals(1, events.get(1).step());
    }

    @Test
    void optionsNameTheParameterNotAFlag() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new ConeReproductions.QuantileOptions(30, 10, new double[] {-1}, new double[] {0.1}, 2, dir));
        assertEquals("sigmas must be > 0, got -1.0", e.getMessage());
    }
}
