package org.psdkit.cli.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.awt.image.BufferedImage;
import java.nio.file.Path;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.psdkit.cli.CliRun;
import org.psdkit.cli.Progress;

class DemoTest {
    @TempDir
    Path dir;

    @Test
    void krrPartRunsFromJarDataAndWritesAPlot() throws Exception {
        Progress.setQuiet(true);
        CliRun r = CliRun.run("demo", "--part", "krr", "--out-dir", dir.toString(), "--json");
        assertEquals(0, r.status(), r.err());
        JsonNode krr = r.json().get("demo").get("krr");
        // yacht hydrodynamics is nearly noiseless: a tuned Gaussian KRR explains > 99 % of the test variance and
        // beats linear ridge (R² ≈ 0.66 on this set) by far
        assertTrue(krr.get("testR2").asDouble() > 0.99, krr.toString());
        assertTrue(krr.get("testRmse").asDouble() < krr.get("linearRidgeTestRmse").asDouble() / 5, krr.toString());
        BufferedImage img = ImageIO.read(Path.of(krr.get("plot").asText()).toFile());
        assertTrue(img.getWidth() >= 1000 && img.getHeight() >= 400);
        CliRun bad = CliRun.run("demo", "--part", "nope", "--out-dir", dir.toString());
        assertEquals(2, bad.status());
    }

    /** {@code demo --help} names every part that {@code --part} takes. */
    @Test
    void helpNamesEveryPart() {
        String help = new picocli.CommandLine(new DemoCommand()).getUsageMessage().replaceAll("\\s+", " ");
        for (DemoPart p : DemoCommand.PARTS) {
            assertTrue(help.contains(p.id() + " ("), p.id() + " missing from: " + help);
        }
    }
}
