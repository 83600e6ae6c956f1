package org.psdkit.classify.mkl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.psdkit.kernel.GaussianKernel;
import org.psdkit.kernel.TessellatedKernel.Orthant;
import org.psdkit.kernel.TkGram;
import org.psdkit.linalg.Linalg;
import org.psdkit.linalg.Matrix;
import org.psdkit.optim.sdp.SdpStatus;
import org.psdkit.optim.smo.KernelRows;
import org.psdkit.optim.smo.Smo;

class KernelSdpTest {

    /** SMO tolerance for reference values. */
    static final double TIGHT = 1e-9;
    /**
     * Relative agreement of the two optimal values: the SDP stops at a relative gap of about 1e-8 and Frank-Wolfe at
     * a gap of {@link #TIGHT}, so both values are within ~1e-8 of the common optimum (measured: 1e-9 apart).
     */
    static final double SAME_VALUE = 1e-7;

    static Matrix points(int m, int n, Random rnd) {
        Matrix x = Matrix.zeros(m, n);
        for (int i = 0; i < m * n; i++) {
            x.data()[i] = rnd.nextDouble();
        }
        return x;
    }

    static double[] labels(Matrix x, Random rnd) {
        double[] y = new double[x.rows()];
        for (int i = 0; i < y.length; i++) {
            y[i] = Math.sin(6 * x.get(i, 0)) + 0.4 * x.get(i, x.cols() - 1) + 0.3 * rnd.nextGaussian() > 0 ? 1 : -1;
        }
        return y;
    }

    static boolean solved(SdpStatus s) {
        return s == SdpStatus.OPTIMAL || s == SdpStatus.NEAR_OPTIMAL;
    }

    @Test
    void directMethodReachesTheOptimumOfSdpEleven() {
        Random rnd = new Random(12);
        int m = 30;
        Matrix x = points(m, 2, rnd);
        double[] y = labels(x, rnd);
        double c = 3.0;
        KernelSdp.Result sdp = KernelSdp.tessellated(x, y, 0, 0.1, Orthant.LOWER, KernelSdp.lambdaForC(m, c));
        assertTrue(solved(sdp.status()), sdp.status().toString());
        TkLearner.Result fw = TkLearner.fit(x, y, new TkLearner.Options(0, 0.1, Orthant.LOWER, c, 1.0, TIGHT, 2000,
                TIGHT));
        assertEquals(sdp.svmDual(), fw.objective(), SAME_VALUE * sdp.svmDual());
        // the SDP's P is feasible and gives the same SVM value when plugged into the SVM
        Matrix p = sdp.p();
        assertTrue(p.trace() <= 1 + 1e-6);
        assertTrue(Linalg.eigvalsh(p)[0] >= -1e-6);
        double j = Smo.solve(KernelRows.dense(new TkGram(x, 0, -0.1, 1.1, Orthant.LOWER).gram(p)), y, c, TIGHT,
                null).dual();
        assertEquals(sdp.svmDual(), j, 1e-4 * j);
    }

    @Test
    void directMethodMatchesSdpElevenWithDegreeOne() {
        Random rnd = new Random(13);
        int m = 20;
        Matrix x = points(m, 1, rnd);
        double[] y = labels(x, rnd);
        double c = 10.0;
        KernelSdp.Result sdp = KernelSdp.tessellated(x, y, 1, 0.2, Orthant.LOWER, KernelSdp.lambdaForC(m, c));
        assertTrue(solved(sdp.status()), sdp.status().toString());
        TkLearner.Result fw = TkLearner.fit(x, y, new TkLearner.Options(1, 0.2, Orthant.LOWER, c, 1.0, TIGHT, 2000,
                TIGHT));
        assertEquals(sdp.svmDual(), fw.objective(), SAME_VALUE * sdp.svmDual());
        assertTrue(fw.objective() >= sdp.svmDual() * (1 - 1e-4)); // the SDP value is the minimum
    }

    @Test
    void lanckrietWithOneKernelIsTwiceTheSvmDual() {
        Random rnd = new Random(14);
        int m = 25;
        Matrix x = points(m, 2, rnd);
        double[] y = labels(x, rnd);
        double c = 2.0;
        Matrix k = new GaussianKernel(0.5).gram(x);
        double trace = k.trace();
        KernelSdp.Result r = KernelSdp.lanckriet(List.of(k), y, KernelSdp.lambdaForC(m, c), trace);
        assertTrue(solved(r.status()));
        assertEquals(1.0, r.mu()[0], 1e-6);
        double j = Smo.solve(KernelRows.dense(k), y, c, TIGHT, null).dual();
        assertEquals(2 * j, r.t(), 1e-4 * r.t());
        // with a second kernel the optimum can only go down
        Matrix k2 = new GaussianKernel(0.1).gram(x);
        k2.scaleInPlace(trace / k2.trace());
        KernelSdp.Result r2 = KernelSdp.lanckriet(List.of(k, k2), y, KernelSdp.lambdaForC(m, c), trace);
        assertTrue(solved(r2.status()));
        assertTrue(r2.t() <= r.t() * (1 + 1e-6));
    }
}
