package org.psdkit.experiments.plot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FigureTest {

    @TempDir
    Path dir;

    @Test
    void figureRendersPanelsWithData() throws Exception {
        Figure f = new Figure("title", 2).panelSize(300, 200);
        Panel p = f.panel("a").xLabel("x").yLabel("y");
        double[] x = {1, 2, 3};
        p.band(x, new double[] {0, 1, 2}, new double[] {2, 3, 4}, "band");
        p.line(x, new double[] {1, 2, 3}, "line");
        p.scatter(x, new double[] {1, Double.NaN, 3}, "pts");
        f.panel("b").logX().logY().line(new double[] {0.1, 1, 10}, new double[] {1, 10, 100}, null);
        Path out = dir.resolve("f.png");
        f.save(out);
        BufferedImage img = ImageIO.read(out.toFile());
        assertEquals(600, img.getWidth());
        assertTrue(img.getHeight() > 200);
        // the line colour (second palette entry; the band took the first) appears in the first panel
        int want = Panel.PALETTE[1].getRGB() & 0xffffff;
        boolean found = false;
        for (int i = 0; i < 300 && !found; i++) {
            for (int j = 0; j < img.getHeight() && !found; j++) {
                found = (img.getRGB(i, j) & 0xffffff) == want;
            }
        }
        assertTrue(found, "the line series was not drawn");
        try (var s = Files.list(dir)) {
            assertEquals(1, s.count(), "no temporary file may remain");
        }
    }

    @Test
    void pdfWhenTheNameSaysSoAndSvgIsRefused() throws Exception {
        Figure f = new Figure("title", 1);
        f.panel("a").xLabel("x").yLabel("y").line(new double[] {0, 1}, new double[] {0, 1}, "line");
        Path pdf = dir.resolve("f.PDF");
        f.save(pdf);
        byte[] b = Files.readAllBytes(pdf);
        assertTrue(new String(b, 0, 5, StandardCharsets.ISO_8859_1).startsWith("%PDF-"));
        assertEquals(Figure.Format.PNG, Figure.format(Path.of("x.png")));
        assertEquals(Figure.Format.PNG, Figure.format(Path.of("x")));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> f.save(dir.resolve("f.svg")));
        assertTrue(e.getMessage().contains("SVG"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> f.panel("b").legend("middle"));
    }

    @Test
    void anEmptyPanelStillRenders() {
        Figure f = new Figure("", 1).panelSize(200, 150);
        f.panel("nothing");
        BufferedImage img = f.render();
        assertEquals(200, img.getWidth());
        assertEquals(150, img.getHeight());
    }

    @Test
    void aDashedLineIsCutIntoDashesWhateverItsSampling() {
        // 101 points 1 pixel apart on a 100-pixel line: dashes of 8 px every 13 px
        java.util.List<double[]> pts = new java.util.ArrayList<>();
        for (int i = 0; i <= 100; i++) {
            pts.add(new double[] {i, 0});
        }
        java.util.List<double[][]> d = Panel.dashes(pts, 1, 1);
        assertEquals(8, d.size());
        for (double[][] dash : d.subList(0, 7)) {
            assertEquals(8, dash[dash.length - 1][0] - dash[0][0], 1e-9);
        }
        assertEquals(13, d.get(1)[0][0] - d.get(0)[0][0], 1e-9);
    }

    @Test
    void theLegendGoesToTheEmptiestCorner() {
        java.util.List<double[]> pts = java.util.List.of(new double[] {0.9, 0.9}, new double[] {0.1, 0.9},
                new double[] {0.9, 0.1});
        assertEquals(org.knowm.xchart.style.Styler.LegendPosition.InsideSW, Panel.emptiestCorner(pts));
        assertEquals(org.knowm.xchart.style.Styler.LegendPosition.InsideNE,
                Panel.emptiestCorner(java.util.List.of()));
    }
}
