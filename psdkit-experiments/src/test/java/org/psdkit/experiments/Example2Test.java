package org.psdkit.experiments;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class Example2Test {

    @Test
    void ncmErrorStaysAboveAConstantWhilePsdErrorGoesToZero() {
        double prevPsd = Double.POSITIVE_INFINITY;
        for (int n : new int[] {10, 40, 160}) {
            Example2.Row r = Example2.fit(Example2.NARROW, n, 500).row(); // any α ≥ 0 obeys the bound
            // f(x) ≥ e^{−x²} f(0) for a symmetric NCM: at x = ±1 the error is at least about 0.15
            assertTrue(r.ncmError() > 0.15, "NCM error " + r);
            assertTrue(r.psdError() < prevPsd / 2, "PSD error must keep falling: " + r);
            prevPsd = r.psdError();
        }
        assertTrue(prevPsd < 2e-4, "PSD error at n = 160: " + prevPsd);
    }

    @Test
    void asPrintedInThePaperTheTargetIsWiderThanTheKernelAndNcmDoesFine() {
        Example2.Row r = Example2.fit(Example2.PAPER, 20, 3000).row();
        assertTrue(r.ncmError() < 2e-3, "NCM error " + r);
    }
}
