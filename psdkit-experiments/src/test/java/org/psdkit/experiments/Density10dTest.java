package org.psdkit.experiments;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * App. E at a toy size: with σ = 1 and λ = 1e-4 the GLM's Monte-Carlo normaliser (10 000 draws of N(0, 25 I) in
 * 10-D, none near the data) is contradicted by the independent estimate in every fold, so the GLM row reports the
 * failure instead of an integral of +∞ and a held-out log-likelihood above the truth's; the other models are
 * unaffected.
 */
class Density10dTest {
    @TempDir
    Path dir;

    @Test
    void aModelWhoseEveryGridPointFailsIsARowWithTheFailures() throws Exception {
        Density10d.Result r = Density10d.run(new Density10d.Options(1, 20, 2, "gaussian(mu=0,sd=5)",
                new double[] {1}, new double[] {1e-4}, 150, 1e-2, 20, dir), null);
        assertEquals(6, r.table().size());
        Map<String, Object> glm = r.table().get(3);
        assertEquals("GLM", glm.get("model"));
        assertFalse(glm.containsKey("test_loglik"), glm.toString());
        assertFalse(glm.containsKey("cv_loglik"), glm.toString());
        String failures = (String) glm.get("failures");
        assertTrue(failures.startsWith("1 of 1 grid points failed in cross-validation and were left out: sigma=1, "
                + "lambda=1e-4: glm density (lambda 0.000100): the Monte-Carlo normaliser Z of eq. 33 is unreliable"),
                failures);
        for (Map<String, Object> row : r.table()) {
            for (Object v : row.values()) {
                assertFalse(v instanceof Double d && Double.isInfinite(d), row.toString());
            }
        }
        Map<String, Object> psd = r.table().get(1);
        assertEquals("PSD", psd.get("model"));
        assertFalse(psd.containsKey("failures"), psd.toString());
        assertTrue(Double.isFinite((Double) psd.get("test_loglik")), psd.toString());
    }

    /**
     * One iteration per CV fit keeps g small enough for the normaliser to hold, so GLM's grid point is chosen; the
     * final fit, run to convergence, is refused: the row keeps the choice and its CV score, with the failure and no
     * test numbers (the run used to end with exit 1 there).
     */
    @Test
    void aFinalFitThatFailsIsARowWithTheChoiceAndTheFailure() throws Exception {
        Density10d.Result r = Density10d.run(new Density10d.Options(1, 20, 2, "gaussian(mu=0,sd=5)",
                new double[] {0.5}, new double[] {1e-3}, 150, 1e-2, 1, dir), null);
        Map<String, Object> glm = r.table().get(3);
        assertEquals("GLM", glm.get("model"));
        assertEquals(0.5, (Double) glm.get("sigma"));
        assertEquals(1e-3, (Double) glm.get("lambda"));
        assertTrue(Double.isFinite((Double) glm.get("cv_loglik")), glm.toString());
        assertFalse(glm.containsKey("test_loglik"), glm.toString());
        String failures = (String) glm.get("failures");
        assertTrue(failures.startsWith("the final fit at sigma=0.5, lambda=0.001 failed: glm density (lambda "
                + "0.00100): the Monte-Carlo normaliser Z of eq. 33 is unreliable"), failures);
    }
}
