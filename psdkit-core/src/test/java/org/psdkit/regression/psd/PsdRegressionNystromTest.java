package org.psdkit.regression.psd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.psdkit.kernel.GaussianKernel;
import org.psdkit.linalg.Matrix;
import org.psdkit.psd.Anchors;
import org.psdkit.psd.PsdModel;
import org.psdkit.psd.PsdOptions;

/** PSD regression's Nyström variant: with every training point as anchor it is the exact model. */
class PsdRegressionNystromTest {

    private static Matrix data(int n, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        Matrix x = Matrix.zeros(n, 2);
        for (int i = 0; i < n; i++) {
            x.set(i, 0, r.nextDouble() * 4 - 2);
            x.set(i, 1, r.nextDouble() * 4 - 2);
        }
        return x;
    }

    @Test
    void psdRegressionWithEveryPointAsAnchorIsTheExactModel() {
        Matrix x = data(60, 4);
        double[] y = new double[60];
        for (int i = 0; i < 60; i++) {
            y[i] = Math.pow(Math.sin(x.get(i, 0)), 2) + 0.1 * x.get(i, 1) * x.get(i, 1);
        }
        GaussianKernel k = new GaussianKernel(0.7);
        PsdOptions o = PsdOptions.of(1e-3, 1e-3).withTolerance(1e-10).withMaxIterations(20000);
        PsdModel exact = PsdRegression.fit(k, x, y, o);
        int[] perm = Anchors.select(k, x, 59, Anchors.Method.UNIFORM, 3);
        int[] all = Arrays.copyOf(perm, 60);
        boolean[] seen = new boolean[60];
        for (int i = 0; i < 59; i++) {
            seen[perm[i]] = true;
        }
        for (int i = 0; i < 60; i++) {
            if (!seen[i]) {
                all[59] = i;
            }
        }
        PsdModel nys = PsdRegression.fit(k, x, x.selectRows(all), y, o, null);
        assertEquals(exact.diagnostics().featureRank(), nys.diagnostics().featureRank());
        assertEquals(60, nys.diagnostics().anchors());
        assertEquals(exact.diagnostics().objective(), nys.diagnostics().objective(),
                1e-7 * Math.abs(exact.diagnostics().objective()));
        double[] a = exact.predict(x).col(0);
        double[] b = nys.predict(x).col(0);
        for (int i = 0; i < 60; i++) {
            assertEquals(a[i], b[i], 1e-5 * (1 + Math.abs(a[i])));
        }
        PsdModel few = PsdRegression.fit(k, x, x.selectRows(Arrays.copyOf(perm, 15)), y, o, null);
        assertEquals(15, few.diagnostics().anchors());
        assertTrue(few.diagnostics().featureRank() <= 15);
    }
}
