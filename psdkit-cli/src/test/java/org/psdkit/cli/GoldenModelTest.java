package org.psdkit.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.psdkit.linalg.Matrix;

/** Model files of every released format version must load forever and predict the same numbers. */
class GoldenModelTest {
    @TempDir
    Path dir;

    @Test
    void svrVersion1() throws Exception {
        Path file = TestFiles.resource(dir, "golden/svr-v1.json");
        LoadedModel m = ModelKinds.load(file);
        assertEquals("svr", m.type());
        double[][] raw = {{1, 2}, {3, -2}, {0, 4}};
        double[] p = m.predict(Matrix.of(raw)).col(0);
        double[][] sv = {{0, 0}, {1, -1}, {-0.5, 0.5}};
        double[] coef = {0.3, -0.2, 0.7};
        for (int t = 0; t < raw.length; t++) {
            // f(x) = b + Σ β_i exp(−‖u − s_i‖² / (2·1.5²)) on u = ((a − 1)/2, (b − 2)/4), b = 0.5
            double u = (raw[t][0] - 1) / 2;
            double v = (raw[t][1] - 2) / 4;
            double f = 0.5;
            for (int i = 0; i < 3; i++) {
                double d2 = (u - sv[i][0]) * (u - sv[i][0]) + (v - sv[i][1]) * (v - sv[i][1]);
                f += coef[i] * Math.exp(-d2 / (2 * 1.5 * 1.5));
            }
            assertEquals(f, p[t], 1e-14);
        }
    }

    @Test
    void ridgeVersion1ThroughPredictCommand() throws Exception {
        Path file = TestFiles.resource(dir, "golden/ridge-v1.json");
        Path data = TestFiles.write(dir, "in.csv", "b,a,y\n-1,0,0\n1,10,0\n0,5,0\n");
        Path out = dir.resolve("pred.csv");
        CliRun r = CliRun.run("predict", "--model", file.toString(), "--data", data.toString(), "--out",
                out.toString());
        assertEquals(0, r.status(), r.err());
        List<String> lines = Files.readAllLines(out);
        assertEquals("prediction", lines.get(0));
        // minmax: a' = a/10, b' = (b + 1)/2; f = 1.25 + 2a' − 3b'
        assertEquals(1.25, Double.parseDouble(lines.get(1)), 1e-15);
        assertEquals(1.25 + 2 - 3, Double.parseDouble(lines.get(2)), 1e-15);
        assertEquals(1.25 + 1 - 1.5, Double.parseDouble(lines.get(3)), 1e-15);
    }
}
