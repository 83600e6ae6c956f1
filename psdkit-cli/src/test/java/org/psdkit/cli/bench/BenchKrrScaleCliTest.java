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
    void badConfigsNameTheFlag() {
        CliRun r = CliRun.run("bench", "krr-scale", "--configs", "100:200");
        assertEquals(2, r.status());
        assertTrue(r.err().contains("--configs"), r.err());
    }
}
