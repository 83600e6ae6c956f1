package org.psdkit.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link KernelValues#radialValues} (points feature-major, a tile of points per feature) gives the values of
 * {@link KernelValues#values} (one point's array at a time) bit for bit: the squared distance adds (x_j − t_j)² over
 * j in the same order; SMO's kernel rows depend on it (its path is pinned by {@code SmoPathTest}).
 */
class RadialValuesTest {

    @Test
    void sameBitsAsTheRowWisePass() {
        Random rnd = new Random(11);
        for (Kernel k : new Kernel[] {new GaussianKernel(0.7), new LaplacianKernel(1.3), new GaussianKernel(3)}) {
            for (int d : new int[] {1, 2, 10, 13}) {
                int m = 700; // more than two tiles, and ranges that start and end inside a tile
                double[][] pts = new double[m][d];
                for (double[] p : pts) {
                    for (int j = 0; j < d; j++) {
                        p[j] = rnd.nextGaussian() * (j + 1);
                    }
                }
                pts[5] = pts[4].clone(); // a zero distance
                double[] cols = new double[d * m];
                for (int b = 0; b < m; b++) {
                    for (int j = 0; j < d; j++) {
                        cols[j * m + b] = pts[b][j];
                    }
                }
                for (int[] range : new int[][] {{0, m}, {3, 517}, {256, 512}, {699, 700}, {10, 10}}) {
                    double[] x = pts[rnd.nextInt(m)];
                    double[] want = new double[m];
                    double[] got = new double[m];
                    KernelValues.values(k, x, pts, null, range[0], range[1], want);
                    KernelValues.radialValues(k, x, cols, m, range[0], range[1], got);
                    for (int b = 0; b < m; b++) {
                        assertEquals(Double.doubleToLongBits(want[b]), Double.doubleToLongBits(got[b]),
                                k.spec() + ", d = " + d + ", entry " + b);
                    }
                }
            }
        }
    }

    @Test
    void refusesOtherKernelsAndShapes() {
        double[] cols = new double[6];
        assertThrows(IllegalArgumentException.class,
                () -> KernelValues.radialValues(LinearKernel.INSTANCE, new double[2], cols, 3, 0, 3, new double[3]));
        assertThrows(IllegalArgumentException.class,
                () -> KernelValues.radialValues(new GaussianKernel(1), new double[3], cols, 3, 0, 3, new double[3]));
    }
}
