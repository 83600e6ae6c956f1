package org.psdkit.experiments;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The full protocol of Marteau-Ferey, Bach &amp; Rudi (2020), Fig. 1 (top row): about a minute, so tagged "slow" and
 * left out of the default test run.
 */
@Tag("slow")
class Density1dSlowTest {

    @TempDir
    Path dir;

    @Test
    void thePsdModelIsANonNegativeDensityWherePnmGoesNegative() throws Exception {
        Density1d.Result r = Density1d.run(new Density1d.Options(1, 7, dir), null);
        assertEquals(6, r.table().size());
        Map<String, Object> pnm = r.table().get(0);
        Map<String, Object> psd = r.table().get(3);
        Map<String, Object> truth = r.table().get(5);
        assertEquals("PNM", pnm.get("model"));
        assertEquals("PSD", psd.get("model"));
        assertTrue((double) pnm.get("negative_fraction") > 0, pnm.toString());
        // negative at some test points: their count instead of a log-likelihood of −∞
        assertTrue((int) pnm.get("test_nonpositive") > 0, pnm.toString());
        assertTrue(!pnm.containsKey("test_loglik"), pnm.toString());
        assertEquals(0.0, (double) psd.get("negative_fraction"), psd.toString());
        assertEquals(1.0, (double) psd.get("integral"), 1e-6);
        double gap = (double) truth.get("test_loglik") - (double) psd.get("test_loglik");
        assertTrue(gap >= 0 && gap < 0.25, "PSD test log-likelihood " + gap + " below the truth's");
        assertTrue(Files.size(r.png()) > 1000);
    }
}
