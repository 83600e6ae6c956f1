package org.psdkit.sos;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Random;
import org.junit.jupiter.api.Test;

/** The closed-form Schur complement of the Kernel SoS LMI against ⟨F_i, X F_j Z⁻¹⟩ formed from dense F_i. */
class SosSchurTest {

    private static double[] product(int s, double[] a, double[] b) {
        double[] c = new double[s * s];
        for (int j = 0; j < s; j++) {
            for (int k = 0; k < s; k++) {
                double bkj = b[k + j * s];
                for (int i = 0; i < s; i++) {
                    c[i + j * s] += a[i + k * s] * bkj;
                }
            }
        }
        return c;
    }

    private static double trace(int s, double[] a) {
        double t = 0;
        for (int i = 0; i < s; i++) {
            t += a[i + i * s];
        }
        return t;
    }

    /** A random symmetric positive definite s×s matrix. */
    private static double[] spd(int s, Random r) {
        double[] b = new double[s * s];
        for (int k = 0; k < b.length; k++) {
            b[k] = r.nextGaussian();
        }
        double[] a = new double[s * s];
        for (int j = 0; j < s; j++) {
            for (int i = 0; i < s; i++) {
                double v = i == j ? s : 0;
                for (int k = 0; k < s; k++) {
                    v += b[i + k * s] * b[j + k * s];
                }
                a[i + j * s] = v;
            }
        }
        return a;
    }

    /** The dense blocks of F_0 … F_n (F_0 = F_t = e eᵀ; F_l = e w_lᵀ + w_l eᵀ and e_l g_lᵀ + g_l e_lᵀ). */
    private static double[][][] constraints(int n, double[] w, double[] g) {
        int n1 = n + 1;
        double[][][] f = new double[n + 1][][];
        f[0] = new double[][] {new double[n1 * n1], new double[n * n]};
        f[0][0][n + n * n1] = 1;
        for (int l = 0; l < n; l++) {
            double[] b1 = new double[n1 * n1];
            double[] b2 = new double[n * n];
            for (int k = 0; k < n1; k++) {
                b1[n + k * n1] += w[k + l * n1];
                b1[k + n * n1] += w[k + l * n1];
            }
            for (int k = 0; k < n; k++) {
                b2[l + k * n] += g[k + l * n];
                b2[k + l * n] += g[k + l * n];
            }
            f[l + 1] = new double[][] {b1, b2};
        }
        return f;
    }

    @Test
    void closedFormMatchesTheDefinition() {
        int n = 7;
        Random r = new Random(29);
        double[] w = new double[(n + 1) * n];
        for (int k = 0; k < w.length; k++) {
            w[k] = r.nextGaussian();
        }
        double[] g = spd(n, r);
        double[][] x = {spd(n + 1, r), spd(n, r)};
        double[][] zi = {spd(n + 1, r), spd(n, r)};
        SosSchur schur = new SosSchur(w, g, n);
        double[] mm = schur.assemble(x, zi);
        double[][][] f = constraints(n, w, g);
        int m = n + 1;
        int[] size = {n + 1, n};
        for (int i = 0; i < m; i++) {
            for (int j = 0; j < m; j++) {
                double expected = 0;
                for (int b = 0; b < 2; b++) {
                    int s = size[b];
                    expected += trace(s, product(s, f[i][b], product(s, x[b], product(s, f[j][b], zi[b]))));
                }
                assertEquals(expected, mm[i + j * m], 1e-9 * (1 + Math.abs(expected)), "M(" + i + ", " + j + ")");
            }
        }
        // the products kept for the direction: G X₂ and G Z₂⁻¹
        double[] gx = product(n, g, x[1]);
        double[] gz = product(n, g, zi[1]);
        for (int k = 0; k < n * n; k++) {
            assertEquals(gx[k], schur.gx()[k], 1e-9 * (1 + Math.abs(gx[k])));
            assertEquals(gz[k], schur.gz()[k], 1e-9 * (1 + Math.abs(gz[k])));
        }
    }
}
