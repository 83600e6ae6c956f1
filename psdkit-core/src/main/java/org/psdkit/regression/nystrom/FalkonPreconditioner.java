package org.psdkit.regression.nystrom;

import org.psdkit.linalg.Cholesky;
import org.psdkit.linalg.Linalg;
import org.psdkit.linalg.Matrix;
import org.psdkit.linalg.internal.OnThread;

/**
 * B = n^{-1/2} L⁻ᵀ L_A⁻ᵀ (Falkon's T⁻¹A⁻¹ with T = Lᵀ, A = L_Aᵀ), L_A L_Aᵀ = LᵀL/m + λ_F I, λ_F = λ/n.
 */
final class FalkonPreconditioner {
    private final Matrix l;
    private final Matrix la;

    FalkonPreconditioner(Matrix l, double lambdaF, int m) {
        this.l = l;
        Matrix ltl = Linalg.syrk(l, true); // LᵀL
        ltl.scaleInPlace(1.0 / m);
        ltl.addToDiagonal(lambdaF);
        this.la = Linalg.cholesky(ltl).lower();
    }

    /** Bᵀv = n^{-1/2} L_A⁻¹ L⁻¹ v. */
    double[] leftApply(double[] v, double n) {
        double[] t = OnThread.solveLower(l, false, v);
        t = OnThread.solveLower(la, false, t);
        double s = 1 / Math.sqrt(n);
        for (int j = 0; j < t.length; j++) {
            t[j] *= s;
        }
        return t;
    }

    /** β = B⁻¹α = n^{1/2} L_Aᵀ Lᵀ α (the strict upper triangles of L and L_A are zero). */
    double[] rightInverse(double[] alpha, double n) {
        double[] t = OnThread.gemv(la, true, OnThread.gemv(l, true, alpha));
        double s = Math.sqrt(n);
        for (int j = 0; j < t.length; j++) {
            t[j] *= s;
        }
        return t;
    }

    /** Bβ = n^{-1/2} L⁻ᵀ L_A⁻ᵀ β. */
    double[] rightApply(double[] beta, double n) {
        double[] t = OnThread.solveLower(la, true, beta);
        t = OnThread.solveLower(l, true, t);
        double s = 1 / Math.sqrt(n);
        for (int j = 0; j < t.length; j++) {
            t[j] *= s;
        }
        return t;
    }

    double[] operator(KnmOperator p, Matrix kmm, double[] beta, double lambda, double n) {
        return leftApply(NystromKrr.applyH(p, kmm, rightApply(beta, n), lambda), n);
    }

    /** The m×m factors of a solve for one λ: Falkon's B and, with a Gram matrix, the Cholesky factor of H̃. */
    static final class Factors {
        final FalkonPreconditioner pc;
        final Matrix sChol;

        Factors(FalkonPreconditioner pc, Matrix sChol) {
            this.pc = pc;
            this.sChol = sChol;
        }
    }

    /** Computes {@link Factors} (three m³/3 factorisations and products: computed once per λ and reused). */
    static Factors factors(Matrix kmm, Cholesky kmmChol, Matrix gram, double lambda, double n) {
        int m = kmm.rows();
        FalkonPreconditioner pc = new FalkonPreconditioner(kmmChol.lower(), lambda / n, m);
        Matrix sChol = null;
        if (gram != null) {
            Matrix h = kmm.scale(lambda).plus(gram);
            try {
                sChol = Linalg.cholesky(h).lower();
            } catch (org.psdkit.linalg.LinalgException e) {
                sChol = null; // H̃ beyond the jitter ladder: Falkon's preconditioner alone (more iterations, same α)
            }
        }
        return new Factors(pc, sChol);
    }
}
