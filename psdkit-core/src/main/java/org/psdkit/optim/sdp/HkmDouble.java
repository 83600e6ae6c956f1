package org.psdkit.optim.sdp;

import java.util.function.Supplier;
import org.psdkit.linalg.Cholesky;
import org.psdkit.linalg.LinalgException;

/**
 * The parts of the HKM direction (Helmberg, Rendl, Vanderbei &amp; Wolkowicz 1996; Kojima, Shindoh &amp; Hara 1997)
 * that are one rule in double precision whatever the structure of the constraint matrices, written once for the
 * general iteration ({@link SdpSolver}) and the Kernel SoS iteration ({@code org.psdkit.sos}). An iterate is an array
 * of blocks (dense n×n column-major, or the diagonal of a diagonal block); A(·) and its adjoint stay with the caller,
 * which knows the structure. The double-double iteration ({@link DdSdpSolver}) states the same rules in its own
 * arithmetic.
 */
public final class HkmDouble {

    private HkmDouble() {
    }

    /** ⟨A, C⟩ = Σ_blocks Σ_k a_k c_k, summed block by block in storage order. */
    public static double inner(double[][] a, double[][] c) {
        double s = 0;
        for (int b = 0; b < a.length; b++) {
            double[] x = a[b];
            double[] y = c[b];
            for (int k = 0; k < x.length; k++) {
                s += x[k] * y[k];
            }
        }
        return s;
    }

    /** h₀ = r_p + A(X R_d Z⁻¹), the part of the Schur right-hand side shared by both directions; in place on A(·). */
    public static double[] rhsBase(double[] rp, double[] aXrdzi) {
        for (int i = 0; i < rp.length; i++) {
            aXrdzi[i] += rp[i];
        }
        return aXrdzi;
    }

    /** The Schur right-hand side h₀ − A(R_c Z⁻¹) of the direction with centring term R_c Z⁻¹. */
    public static double[] schurRhs(double[] h0, double[] aRczi) {
        double[] rhs = new double[h0.length];
        for (int i = 0; i < rhs.length; i++) {
            rhs[i] = h0[i] - aRczi[i];
        }
        return rhs;
    }

    /** The predictor's centring term R_c Z⁻¹ = −X (affine scaling, σ = 0). */
    public static double[][] predictorRhs(double[][] x) {
        double[][] r = new double[x.length][];
        for (int b = 0; b < x.length; b++) {
            r[b] = new double[x[b].length];
            for (int k = 0; k < r[b].length; k++) {
                r[b][k] = -x[b][k];
            }
        }
        return r;
    }

    /**
     * One block of the centred term R_c Z⁻¹ = σμ Z⁻¹ − X − T, with T = dXa dZa Z⁻¹ (Mehrotra 1992's second-order
     * term) or null for σμ Z⁻¹ − X.
     */
    public static double[] centredRhs(double sigmaMu, double[] zi, double[] x, double[] t) {
        double[] r = new double[x.length];
        if (t == null) {
            for (int k = 0; k < r.length; k++) {
                r[k] = sigmaMu * zi[k] - x[k];
            }
        } else {
            for (int k = 0; k < r.length; k++) {
                r[k] = sigmaMu * zi[k] - x[k] - t[k];
            }
        }
        return r;
    }

    /** ⟨X + ap dXa, Z + ad dZa⟩ / n, the complementarity after the predictor's step, summed entry by entry. */
    public static double affineMu(double[][] x, double[][] z, double[][] dxa, double[][] dza, double ap, double ad,
                                  int n) {
        double muAff = 0;
        for (int b = 0; b < x.length; b++) {
            for (int k = 0; k < x[b].length; k++) {
                muAff += (x[b][k] + ap * dxa[b][k]) * (z[b][k] + ad * dza[b][k]);
            }
        }
        return muAff / n;
    }

    /** r_p − A(dX): how far a direction misses the primal residual it must remove. */
    public static double[] primalMiss(double[] rp, double[] aDx) {
        double[] res = new double[rp.length];
        for (int i = 0; i < res.length; i++) {
            res[i] = rp[i] - aDx[i];
        }
        return res;
    }

    /**
     * The least-norm correction dX += Σ w_i A_i with ⟨A_i, A_j⟩ w = r_p − A(dX), which restores A(dX) = r_p when
     * rounding lost it (X Z⁻¹ ill-conditioned near the optimum). It applies when ‖r_p − A(dX)‖ exceeds
     * {@link IpmSettings#refineThreshold()}·(1 + ‖r_p‖). The Gram matrix ⟨A_i, A_j⟩ is factored on first use; when
     * it is singular (linearly dependent A_i) the directions are kept unprojected from then on.
     */
    public static final class LeastNormCorrection {
        private final Supplier<Cholesky> gram;
        private final double threshold;
        private Cholesky factor;
        private boolean failed;

        /**
         * @param gram      the Cholesky factor of ⟨A_i, A_j⟩ (may throw {@link LinalgException}); called once
         * @param threshold {@link IpmSettings#refineThreshold()}
         */
        public LeastNormCorrection(Supplier<Cholesky> gram, double threshold) {
            this.gram = gram;
            this.threshold = threshold;
        }

        /**
         * The weights w of the correction for the miss {@code res} = r_p − A(dX) (norms given in the caller's
         * summation), or null when none applies.
         */
        public double[] weights(double[] res, double resNorm, double rpNorm) {
            if (!(resNorm > threshold * (1 + rpNorm)) || failed) {
                return null;
            }
            try {
                if (factor == null) {
                    factor = gram.get();
                }
                return factor.solve(res);
            } catch (LinalgException e) {
                failed = true;
                return null;
            }
        }
    }
}
