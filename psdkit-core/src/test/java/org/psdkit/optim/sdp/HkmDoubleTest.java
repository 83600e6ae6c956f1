package org.psdkit.optim.sdp;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.psdkit.linalg.Linalg;
import org.psdkit.linalg.LinalgException;
import org.psdkit.linalg.Matrix;

/** The double-precision HKM rules shared by the general and the Kernel SoS iterations. */
class HkmDoubleTest {

    @Test
    void rightHandSides() {
        double[][] x = {{4, 1, 1, 3}, {2, 5}};
        double[][] zi = {{1, 0, 0, 1}, {0.5, 0.25}};
        assertArrayEquals(new double[] {-4, -1, -1, -3}, HkmDouble.predictorRhs(x)[0]);
        assertArrayEquals(new double[] {-2, -5}, HkmDouble.predictorRhs(x)[1]);
        assertArrayEquals(new double[] {-2, -1, -1, -1}, HkmDouble.centredRhs(2, zi[0], x[0], null));
        assertArrayEquals(new double[] {-3, -1, -2, -1}, HkmDouble.centredRhs(2, zi[0], x[0],
                new double[] {1, 0, 1, 0}));
        assertArrayEquals(new double[] {4, 7}, HkmDouble.rhsBase(new double[] {1, 2}, new double[] {3, 5}));
        assertArrayEquals(new double[] {-2, -3}, HkmDouble.schurRhs(new double[] {1, 2}, new double[] {3, 5}));
        assertArrayEquals(new double[] {-2, -3}, HkmDouble.primalMiss(new double[] {1, 2}, new double[] {3, 5}));
        assertEquals(4 * 1 + 1 * 0 + 1 * 0 + 3 * 1 + 2 * 0.5 + 5 * 0.25, HkmDouble.inner(x, zi));
        // ⟨X + ½ dX, Z + 2 dZ⟩ / 3 with dX = X, dZ = Z: (1.5 · 3) ⟨X, Z⟩ / 3
        assertEquals(1.5 * 3 * HkmDouble.inner(x, zi) / 3, HkmDouble.affineMu(x, zi, x, zi, 0.5, 2, 3), 1e-12);
    }

    @Test
    void leastNormCorrectionSolvesTheGramSystemAboveTheThreshold() {
        AtomicInteger factored = new AtomicInteger();
        HkmDouble.LeastNormCorrection c = new HkmDouble.LeastNormCorrection(() -> {
            factored.incrementAndGet();
            return Linalg.choleskyStrict(Matrix.wrap(2, 2, new double[] {4, 0, 0, 2}));
        }, 1e-12);
        assertNull(c.weights(new double[] {1e-14, 0}, 1e-14, 1.0), "below the threshold: no correction");
        assertEquals(0, factored.get(), "the Gram matrix is factored on first use only");
        assertArrayEquals(new double[] {0.25, 1.0}, c.weights(new double[] {1, 2}, Math.sqrt(5), 1.0), 1e-15);
        c.weights(new double[] {1, 2}, Math.sqrt(5), 1.0);
        assertEquals(1, factored.get());
    }

    @Test
    void aSingularGramMatrixSwitchesTheCorrectionOff() {
        AtomicInteger tries = new AtomicInteger();
        HkmDouble.LeastNormCorrection c = new HkmDouble.LeastNormCorrection(() -> {
            tries.incrementAndGet();
            throw new LinalgException("not positive definite");
        }, 1e-12);
        assertNull(c.weights(new double[] {1, 2}, Math.sqrt(5), 1.0));
        assertNull(c.weights(new double[] {1, 2}, Math.sqrt(5), 1.0));
        assertEquals(1, tries.get(), "not retried after a failure");
    }
}
