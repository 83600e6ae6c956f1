package org.psdkit.cli.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.psdkit.cli.CliRun;

/** {@code bench krr-scale} on a tiny size: its rows and option checks. */
class BenchKrrScaleCliTest {
    @TempDir
    Path dir;

    @Test
    void tinyRunReportsNystromAndExact() {
        CliRun r = CliRun.run("bench", "krr-scale", "--configs", "300:300,400:40", "--test", "100", "--exact-max-n",
                "400", "--cg-tol", "1e-9", "--dir", dir.toString(), "--json");
        assertEquals(0, r.status(), r.err());
        JsonNode j = r.json();
        assertEquals("krr-scale", j.get("benchmark").asText());
        assertEquals(2, j.get("results").size());
        JsonNode all = j.get("results").get(0);
        // 300 anchors of 300 rows: exact KRR
        assertEquals(1.0, all.get("rmseRatioVsExact").asDouble(), 1e-6);
        JsonNode some = j.get("results").get(1);
        assertTrue(some.get("iterations").asInt() > 0 && some.get("residual").asDouble() <= 1e-9, some.toString());
    }

    @Test
    void curvesWriteTheCsvAndBothFigures() throws Exception {
        Path out = dir.resolve("curves");
        CliRun r = CliRun.run("bench", "krr-scale", "--curves", out.toString(), "--sizes", "200,400",
                "--anchors-list", "20,40", "--fixed-n", "300", "--fixed-n-anchors", "10,40,500", "--test", "50",
                "--exact-max-n", "300", "--dir", dir.toString(), "--json");
        assertEquals(0, r.status(), r.err());
        // (200,20) (200,40) (300,10) (300,40) (400,20) (400,40); m = 500 > n = 300 is left out
        assertEquals(6, r.json().get("results").size());
        java.util.List<String> lines = java.nio.file.Files.readAllLines(out.resolve("krr-scale-curves.csv"));
        assertEquals(org.psdkit.bench.KrrScaleCurves.HEADER, lines.get(0));
        assertEquals(7, lines.size(), String.join("\n", lines));
        assertTrue(lines.get(1).startsWith("200,20,"), lines.get(1));
        assertTrue(lines.get(6).startsWith("400,40,"), lines.get(6));
        // exact KRR only where n <= --exact-max-n, and once per n (the same numbers in both rows of n = 300)
        String[] a = lines.get(3).split(",", -1);
        String[] b = lines.get(4).split(",", -1);
        assertTrue(!a[10].isEmpty() && a[10].equals(b[10]), lines.get(3) + " / " + lines.get(4));
        assertTrue(lines.get(5).split(",", -1)[10].isEmpty(), lines.get(5));
        for (String png : new String[] {"krr-scale-vs-n.png", "krr-scale-vs-m.png"}) {
            java.awt.image.BufferedImage img = javax.imageio.ImageIO.read(out.resolve(png).toFile());
            assertTrue(img != null && img.getWidth() > 1000 && img.getHeight() > 400, png);
        }
    }

    @Test
    void curvesRefuseABadSize() {
        CliRun r = CliRun.run("bench", "krr-scale", "--curves", dir.resolve("c").toString(), "--sizes", "1000,1");
        assertEquals(2, r.status());
        assertTrue(r.err().contains("--sizes"), r.err());
    }

    @Test
    void badConfigsNameTheFlag() {
        CliRun r = CliRun.run("bench", "krr-scale", "--configs", "100:200");
        assertEquals(2, r.status());
        assertTrue(r.err().contains("--configs"), r.err());
    }
}
