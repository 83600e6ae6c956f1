package org.psdkit.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code --anchors/--anchor-method/--seed} on the NCM/PNM/GLM baselines, regression and density. */
class BaselineNystromCliTest {
    @TempDir
    Path dir;

    private Path csv() throws Exception {
        Random r = new Random(3);
        StringBuilder sb = new StringBuilder("x,y\n");
        for (int i = 0; i < 60; i++) {
            double x = 4 * r.nextDouble() - 2;
            sb.append(x).append(',').append(Math.exp(Math.sin(2 * x)) + 0.1 * r.nextGaussian()).append('\n');
        }
        return TestFiles.write(dir, "d.csv", sb.toString());
    }

    @Test
    void everyBaselineTakesAnchorsAndStoresThemAsItsPoints() throws Exception {
        Path data = csv();
        String[][] cmds = {{"ncm"}, {"pnm"}, {"glm"}, {"ncm-density", "--no-target"},
            {"pnm-density", "--no-target"}, {"glm-density", "--no-target", "--base", "box(a=-3,b=3)"}};
        for (String[] c : cmds) {
            Path model = dir.resolve(c[0] + ".json");
            String[] common = {"fit", c[0], "--train", data.toString(), "--out", model.toString(), "--kernel",
                "gaussian(sigma=0.5)", "--max-iter", "300", "--anchors", "15", "--anchor-method", "leverage",
                "--seed", "4", "--json"};
            String[] args = java.util.Arrays.copyOf(common, common.length + c.length - 1);
            System.arraycopy(c, 1, args, common.length, c.length - 1);
            CliRun r = CliRun.run(args);
            assertEquals(0, r.status(), c[0] + ": " + r.err());
            assertEquals(15, r.json().get("anchors").asInt(), c[0] + ": " + r.out());
            CliRun again = CliRun.run(args);
            assertEquals(0, again.status(), again.err());
            CliRun p = CliRun.run("predict", "--model", model.toString(), "--data", data.toString(),
                    "--out", dir.resolve(c[0] + ".pred.csv").toString());
            assertEquals(0, p.status(), p.err());
            String doc = Files.readString(model);
            assertTrue(doc.contains("\"anchor_method\""), c[0]);
        }
    }

    @Test
    void rankThresholdIsRefusedWhereNoEigenDecompositionIsCut() throws Exception {
        Path data = csv();
        String[][] refused = {{"ncm", "--anchors", "10"}, {"glm", "--anchors", "10"}, {"pnm"},
            {"ncm-density", "--no-target", "--anchors", "10"}};
        for (String[] c : refused) {
            Path out = dir.resolve("bad.json");
            String[] common = {"fit", c[0], "--train", data.toString(), "--out", out.toString(), "--rank-threshold",
                "1e-9"};
            String[] args = java.util.Arrays.copyOf(common, common.length + c.length - 1);
            System.arraycopy(c, 1, args, common.length, c.length - 1);
            CliRun r = CliRun.run(args);
            assertEquals(2, r.status(), c[0] + ": " + r.err());
            assertTrue(r.err().startsWith("psdkit: error: --rank-threshold"), r.err());
            assertFalse(Files.exists(out));
        }
        CliRun neg = CliRun.run("fit", "pnm-density", "--train", data.toString(), "--no-target", "--out",
                dir.resolve("neg.json").toString(), "--anchors", "-1");
        assertEquals(2, neg.status());
        assertTrue(neg.err().contains("--anchors must be >= 0"), neg.err());
    }
}
