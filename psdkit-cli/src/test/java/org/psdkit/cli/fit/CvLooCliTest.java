package org.psdkit.cli.fit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.psdkit.cli.CliRun;
import org.psdkit.data.CsvReader;
import org.psdkit.data.Dataset;
import org.psdkit.kernel.Kernels;
import org.psdkit.regression.KrrLoo;

/** {@code cv krr --loo}: the leave-one-out shortcut over the lambda grid, per kernel. */
class CvLooCliTest {
    @TempDir
    Path dir;

    @Test
    void looReportsTheLibraryPathAndItsBestPoint() throws IOException {
        Random r = new Random(5);
        StringBuilder b = new StringBuilder("a,b,y\n");
        for (int i = 0; i < 80; i++) {
            double a = r.nextGaussian();
            double c = r.nextGaussian();
            b.append(String.format(Locale.ROOT, "%.6f,%.6f,%.6f%n", a, c, Math.sin(2 * a) + 0.3 * c
                    + 0.1 * r.nextGaussian()));
        }
        Path train = dir.resolve("t.csv");
        Files.writeString(train, b.toString());
        CliRun run = CliRun.run("cv", "krr", "--train", train.toString(), "--loo", "--kernel", "gaussian(sigma=1)",
                "--grid", "sigma=0.5,1;lambda=1e-3,1e-2,1e-1,1", "--json");
        assertEquals(0, run.status(), run.err());
        JsonNode j = run.json();
        assertEquals("leave-one-out", j.get("protocol").asText());
        assertEquals(8, j.get("grid").size());
        Dataset ds = CsvReader.read(train, CsvReader.Options.regression());
        double[] lambdas = {1e-3, 1e-2, 1e-1, 1};
        KrrLoo.Path p = KrrLoo.exact(Kernels.parse("gaussian(sigma=0.5)"), ds.x(), ds.y(), lambdas);
        double best = Double.POSITIVE_INFINITY;
        for (int l = 0; l < 4; l++) {
            JsonNode row = j.get("grid").get(l);
            assertEquals(Math.sqrt(p.looMse()[l]), row.get("rmse").asDouble(), 1e-12);
            assertEquals(p.gcv()[l], row.get("gcv").asDouble(), 1e-12);
        }
        for (JsonNode row : j.get("grid")) {
            best = Math.min(best, row.get("rmse").asDouble());
        }
        assertEquals(best, j.get("rmse").asDouble(), 0.0);

        CliRun ny = CliRun.run("cv", "krr", "--train", train.toString(), "--loo", "--anchors", "20",
                "--grid", "lambda=1e-2,1e-1", "--json");
        assertEquals(0, ny.status(), ny.err());
        assertEquals(2, ny.json().get("grid").size());

        CliRun centred = CliRun.run("cv", "krr", "--train", train.toString(), "--loo", "-P", "center=true",
                "--grid", "lambda=1e-2,1e-1");
        assertEquals(2, centred.status(), centred.err());
        assertTrue(centred.err().contains("--loo"), centred.err());
        CliRun svr = CliRun.run("cv", "ridge", "--train", train.toString(), "--loo", "--grid", "lambda=1,2");
        assertEquals(2, svr.status(), svr.err());
    }
}
