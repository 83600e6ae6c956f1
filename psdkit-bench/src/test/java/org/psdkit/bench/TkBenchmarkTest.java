package org.psdkit.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TkBenchmarkTest {
    @TempDir
    Path dir;

    /** Two noisy classes separated along x1 + x2. */
    Path data(int n) throws IOException {
        Random r = new Random(7);
        StringBuilder sb = new StringBuilder("x1,x2,class\n");
        for (int i = 0; i < n; i++) {
            double a = r.nextDouble();
            double b = r.nextDouble();
            boolean pos = a + b + 0.3 * r.nextGaussian() > 1;
            sb.append(String.format(Locale.ROOT, "%.6f,%.6f,%s%n", a, b, pos ? "yes" : "no"));
        }
        return Files.writeString(dir.resolve("two.csv"), sb.toString());
    }

    @Test
    void timesEveryRunAndReportsTheMedians() throws IOException {
        List<TkBenchmark.Run> runs = new ArrayList<>();
        TkBenchmark.Result res = TkBenchmark.run(new TkBenchmark.Options(data(50), 2, 1, 0.1, 0.1, 1, true), null,
                runs::add);
        assertEquals(List.of(-1, 0, 1), runs.stream().map(TkBenchmark.Run::run).toList());
        assertEquals("two.csv", res.data());
        assertEquals(40, res.trainRows());
        assertEquals(2, res.features());
        assertEquals(0.5 * (runs.get(1).tkSeconds() + runs.get(2).tkSeconds()), res.tkSeconds(), 1e-15);
        assertTrue(res.gaussianSvmSeconds() > 0 && res.simpleMklSeconds() > 0, res.toString());
        assertEquals(res.tkSeconds() / res.gaussianSvmSeconds(), res.ratioTkOverGaussianSvm());
        assertTrue(res.tkIterations() > 0 && !res.tkKernel().isEmpty(), res.toString());

        TkBenchmark.Result noMkl = TkBenchmark.run(new TkBenchmark.Options(data(50), 1, 0, 0.1, 0.1, 1, false), null);
        assertTrue(Double.isNaN(noMkl.simpleMklSeconds()));
    }

    @Test
    void badOptionsAreRejected() {
        Path f = dir.resolve("x.csv");
        assertThrows(IllegalArgumentException.class, () -> new TkBenchmark.Options(f, 0, 0, 0.1, 0.1, 1, true));
        assertThrows(IllegalArgumentException.class, () -> new TkBenchmark.Options(f, 1, 0, 0, 0.1, 1, true));
    }
}
