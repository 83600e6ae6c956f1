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

    @Test
    void plainJavaCholeskyBaselineSolvesTheSystem() {
        Random r = new Random(3);
        int n = 30;
        Matrix g = Matrix.zeros(n, n);
        for (int k = 0; k < n * n; k++) {
            g.data()[k] = r.nextGaussian();
        }
        Matrix a = Linalg.syrk(g, true);
        double[] y = new double[n];
        for (int i = 0; i < n; i++) {
            y[i] = r.nextGaussian();
        }
        double[] x = BenchKrrCommand.plainJavaCholeskySolve(a, 0.5, y);
        Matrix shifted = a.copy();
        shifted.addToDiagonal(0.5);
        double[] back = shifted.times(x);
        for (int i = 0; i < n; i++) {
            assertEquals(y[i], back[i], 1e-9);
        }
    }
}
