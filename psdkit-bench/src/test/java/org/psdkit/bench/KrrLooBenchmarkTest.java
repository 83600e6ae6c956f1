package org.psdkit.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.psdkit.kernel.Kernels;

class KrrLooBenchmarkTest {

    /** The profile times every part and its two eigendecompositions give the same G_ii along the path. */
    @Test
    void profileTimesEveryPartAndBothEigenRoutesAgree() {
        KrrLooBenchmark.Phases p = KrrLooBenchmark.profile(KrrBenchmarkTest.data(120, 3, 5), 100,
                Kernels.gaussian(1), KrrLooBenchmark.logspace(1e-4, 10, 5), 1, 1);
        assertEquals(100, p.n());
        assertEquals(5, p.lambdas());
        assertTrue(p.gram() > 0 && p.cholesky() > 0 && p.dsyevd() > 0 && p.dsyevr() > 0 && p.products() > 0
                && p.loop() > 0, p.toString());
        assertEquals(p.gram() + p.cholesky(), p.fit(), 1e-15);
        assertTrue(p.maxDiagonalGap() < 1e-9, p.toString());
    }
}
