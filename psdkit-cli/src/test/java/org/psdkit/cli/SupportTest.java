package org.psdkit.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.psdkit.cli.bench.BenchKrrCommand;
import org.psdkit.cli.cv.Grid;
import org.psdkit.linalg.Linalg;
import org.psdkit.linalg.Matrix;

class SupportTest {
    @TempDir
    Path dir;

    @Test
    void gridParsingAndCombinations() {
        var g = Grid.parse("sigma=0.1,1; kernel=polynomial(degree=2, offset=1),gaussian(sigma=1)", "--grid");
        assertEquals(List.of("0.1", "1"), g.get("sigma"));
        assertEquals(List.of("polynomial(degree=2, offset=1)", "gaussian(sigma=1)"), g.get("kernel"));
        List<Map<String, String>> pts = Grid.points(g);
        assertEquals(4, pts.size());
        assertEquals(Map.of("sigma", "0.1", "kernel", "gaussian(sigma=1)"), pts.get(1));
        assertEquals(1, Grid.points(Grid.parse(null, "--grid")).size());
        assertThrows(IllegalArgumentException.class, () -> Grid.parse("sigma", "--grid"));
        assertThrows(IllegalArgumentException.class, () -> Grid.parse("sigma=1,,2", "--grid"));
        assertThrows(IllegalArgumentException.class, () -> Grid.parse("a=1;a=2", "--grid"));
    }
}
