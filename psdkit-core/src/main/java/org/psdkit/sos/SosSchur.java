package org.psdkit.sos;

import org.psdkit.linalg.Linalg;
import org.psdkit.linalg.Matrix;
import org.psdkit.optim.sdp.SchurAssembly;

/**
 * The Schur complement M_ij = ⟨F_i, X F_j Z⁻¹⟩ of the Kernel SoS SDP (2) of Bagnell &amp; Farahmand (2015) in closed
 * form, the third {@link SchurAssembly} beside the general double and double-double assemblies of
 * {@code optim.sdp}. Variables y = (t, α_1, …, α_n); blocks as in {@link KernelSosSolver}.
 *
 * <p>Block 1 (order n + 1), with a = WᵀXe, b = WᵀZ⁻¹e, P = WᵀXW, Q = WᵀZ⁻¹W: M = a bᵀ + b aᵀ + (Z⁻¹)_ee P + X_ee Q
 * (α–α), a (Z⁻¹)_ee + X_ee b (α–t), X_ee (Z⁻¹)_ee (t–t). Block 2 (F_l = e_l g_lᵀ + g_l e_lᵀ):
 * M_ij = (GX)_ij (GZ⁻¹)_ji + (GXG)_ij (Z⁻¹)_ji + X_ij (GZ⁻¹G)_ji + (GX)_ji (GZ⁻¹)_ij. Eight GEMMs of order n in all.
 * The products G X₂ and G Z₂⁻¹ of the last assembly are kept: the direction's dX reuses them.
 */
final class SosSchur implements SchurAssembly<double[], double[]> {

    private final int n;
    private final int n1;
    private final int m;
    /** W, (n+1)×n column-major: column l is w_l. */
    private final double[] w;
    /** G, n×n column-major (symmetric). */
    private final double[] g;
    private double[] gx;
    private double[] gz;

    SosSchur(double[] w, double[] g, int n) {
        this.n = n;
        this.n1 = n + 1;
        this.m = n + 1;
        this.w = w;
        this.g = g;
    }

    /** M at X and Z⁻¹ (blocks dense column-major, orders n + 1 and n), m×m column-major, symmetric. */
    @Override
    public double[] assemble(double[][] x, double[][] zi) {
        double[] mm = new double[m * m];
        borderBlock(x[0], zi[0], mm);
        gramBlock(x[1], zi[1], mm);
        symmetrize(m, mm);
        return mm;
    }

    /** G X₂ of the last {@link #assemble}. */
    double[] gx() {
        return gx;
    }

    /** G Z₂⁻¹ of the last {@link #assemble}. */
    double[] gz() {
        return gz;
    }

    /** Block 1's terms (it sets every entry it touches). */
    private void borderBlock(double[] x1, double[] z1, double[] mm) {
        double[] xw = mul(n1, n1, n, x1, false, w, false);
        double[] zw = mul(n1, n1, n, z1, false, w, false);
        double[] pp = mul(n, n1, n, w, true, xw, false);
        double[] qq = mul(n, n1, n, w, true, zw, false);
        double xe = x1[n + n * n1];
        double ze = z1[n + n * n1];
        mm[0] = xe * ze;
        for (int l = 0; l < n; l++) {
            double al = xw[n + l * n1];
            double bl = zw[n + l * n1];
            double v = al * ze + xe * bl;
            mm[1 + l] = v;
            mm[(1 + l) * m] = v;
        }
        for (int j = 0; j < n; j++) {
            double aj = xw[n + j * n1];
            double bj = zw[n + j * n1];
            int col = (1 + j) * m + 1;
            for (int i = 0; i < n; i++) {
                double ai = xw[n + i * n1];
                double bi = zw[n + i * n1];
                mm[col + i] = ai * bj + bi * aj + ze * pp[i + j * n] + xe * qq[i + j * n];
            }
        }
    }

    /** Block 2's terms, added to the α–α part. */
    private void gramBlock(double[] x2, double[] z2, double[] mm) {
        double[] gxm = mul(n, n, n, g, false, x2, false);
        double[] gxg = mul(n, n, n, gxm, false, g, false);
        double[] gzm = mul(n, n, n, g, false, z2, false);
        double[] gzg = mul(n, n, n, gzm, false, g, false);
        gx = gxm;
        gz = gzm;
        for (int j = 0; j < n; j++) {
            int col = (1 + j) * m + 1;
            for (int i = 0; i < n; i++) {
                int ij = i + j * n;
                int ji = j + i * n;
                mm[col + i] += gxm[ij] * gzm[ji] + gxg[ij] * z2[ji] + x2[ij] * gzg[ji] + gxm[ji] * gzm[ij];
            }
        }
    }

    /** The product op(A) op(B) of column-major arrays (rows × inner times inner × cols). */
    static double[] mul(int rows, int inner, int cols, double[] a, boolean ta, double[] b, boolean tb) {
        Matrix ma = ta ? Matrix.wrap(inner, rows, a) : Matrix.wrap(rows, inner, a);
        Matrix mb = tb ? Matrix.wrap(cols, inner, b) : Matrix.wrap(inner, cols, b);
        return Linalg.gemm(1.0, ma, ta, mb, tb).data();
    }

    /** a ← (a + aᵀ)/2 for an s×s column-major array. */
    static void symmetrize(int s, double[] a) {
        for (int j = 0; j < s; j++) {
            for (int i = j + 1; i < s; i++) {
                double v = 0.5 * (a[i + j * s] + a[j + i * s]);
                a[i + j * s] = v;
                a[j + i * s] = v;
            }
        }
    }
}
