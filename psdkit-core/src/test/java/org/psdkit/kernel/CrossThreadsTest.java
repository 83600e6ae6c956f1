package org.psdkit.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;
import org.psdkit.linalg.Matrix;
import org.psdkit.linalg.Threads;

/**
 * A cross-kernel matrix computed on two threads equals the one-thread matrix bit for bit: while the column blocks
 * run in parallel, each block's dgemm runs on one OpenBLAS thread ({@link InnerProductBlocks#run}). Without that
 * cap OpenBLAS split each 5000-row block product between its own threads, and the rows at the split (2,500) were
 * summed by its edge kernels, e.g. 1,127 of the 5,000,000 entries below differed in their last bits.
 */
class CrossThreadsTest {

    @Test
    void crossKernelDoesNotDependOnTheThreadCount() {
        assumeTrue(Threads.available() >= 2, "needs two processors");
        Random r = new Random(7);
        int n = 5000;
        int m = 1000;
        int d = 10;
        Matrix x = Matrix.zeros(n, d);
        Matrix z = Matrix.zeros(m, d);
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < d; j++) {
                x.set(i, j, r.nextGaussian());
            }
        }
        for (int i = 0; i < m; i++) {
            for (int j = 0; j < d; j++) {
                z.set(i, j, r.nextGaussian());
            }
        }
        Kernel k = new GaussianKernel(2.0);
        int before = Threads.get();
        int old = ParallelColumns.swapOverride(0);
        try {
            Threads.set(1);
            double[] one = k.cross(x, z).data();
            Threads.set(2);
            double[] two = k.cross(x, z).data();
            int differing = 0;
            for (int i = 0; i < one.length; i++) {
                if (Double.doubleToRawLongBits(one[i]) != Double.doubleToRawLongBits(two[i])) {
                    differing++;
                }
            }
            assertEquals(0, differing, "entries of the 2-thread cross kernel that differ from the 1-thread one");
        } finally {
            Threads.set(before);
            ParallelColumns.swapOverride(old);
        }
    }
}
