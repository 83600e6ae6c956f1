package org.psdkit.experiments;

import java.util.Map;
import org.psdkit.density.DensityModel;
import org.psdkit.linalg.Matrix;

/**
 * The test log-likelihood column of the density reproductions. A model that is not positive at some test points
 * (PNM can be negative away from its training points, Marteau-Ferey, Bach &amp; Rudi 2020, Fig. 1) has no finite
 * log-likelihood: the row then carries {@code test_nonpositive}, the number of such test points, instead of −∞ or
 * NaN.
 */
final class TestLikelihood {
    private TestLikelihood() {
    }

    /**
     * Puts {@code test_loglik} (the mean log-density at the test points, minus {@code logShift}) into the row when every
     * test point has a finite log-density, else {@code test_nonpositive} (how many have none).
     *
     * @return whether the log-likelihood was finite (and put)
     */
    static boolean put(Map<String, Object> row, String key, DensityModel m, Matrix test, double logShift) {
        double[] l = m.logDensity(test);
        int bad = 0;
        double s = 0;
        for (double v : l) {
            if (Double.isFinite(v)) {
                s += v;
            } else {
                bad++;
            }
        }
        if (bad > 0 || !Double.isFinite(logShift)) {
            if (bad > 0) {
                row.put("test_nonpositive", bad);
            }
            return false;
        }
        row.put(key, s / l.length - logShift);
        return true;
    }
}
