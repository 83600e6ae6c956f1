package org.psdkit.classify.mkl;

import java.util.List;
import org.psdkit.kernel.TessellatedKernel.Orthant;
import org.psdkit.kernel.TessellatedKernel;
import org.psdkit.linalg.Matrix;
import org.psdkit.optim.sdp.LinExpr;
import org.psdkit.optim.sdp.SdpModel;
import org.psdkit.optim.sdp.SdpResult;
import org.psdkit.optim.sdp.SdpStatus;

/**
 * Kernel learning as a semidefinite program, for small training sets (the LMI is (m+1)×(m+1)):
 * <ul>
 *   <li>{@link #tessellated}: Colbert &amp; Peet's (11) as written — min t over t, γ, ν ≥ 0, δ ≥ 0, P ⪰ 0,
 *       tr P ≤ 1 subject to [[G(P), e + ν − δ + γy], [(e + ν − δ + γy)ᵀ, t − (2/(mλ)) δᵀe]] ⪰ 0 with
 *       G(P)_ij = k_P(x_i, x_j) y_i y_j.</li>
 *   <li>{@link #lanckriet}: (4) over a library K_1..K_l with free weights μ, plus the trace normalisation
 *       tr(Σ μ_i K_i) = c of Lanckriet et al. (JMLR 2004, their (17)); the paper's (4) omits it, without it the
 *       problem has no finite optimum in general (scaling μ up drives t down).</li>
 * </ul>
 * By the Schur complement and LP duality the optimal t equals max_α 2αᵀe − αᵀGα over 0 ≤ α ≤ C, αᵀy = 0 with
 * C = 1/(mλ): twice the soft-margin SVM dual (2), so t* / 2 is the value {@link TkLearner} and {@link SimpleMkl}
 * minimise.
 */
public final class KernelSdp {

    private KernelSdp() {
    }

    /**
     * Outcome.
     *
     * @param t       optimal t
     * @param status  solver status
     * @param p       learned P (tessellated) or null
     * @param mu      learned weights (Lanckriet) or null
     * @param result  solver diagnostics (iterations, seconds, gap)
     */
    public record Result(double t, SdpStatus status, Matrix p, double[] mu, SdpResult result) {

        /** t/2, the SVM dual value (2) at the learned kernel. */
        public double svmDual() {
            return t / 2;
        }
    }

    /** C = 1/(mλ) ⇔ λ = 1/(mC). */
    public static double lambdaForC(int m, double c) {
        return 1.0 / (m * c);
    }

    /** Problem (11) for the tessellated kernel of degree d on [−ε, 1+ε]ⁿ. */
    public static Result tessellated(Matrix x, double[] y, int degree, double epsilon, Orthant orthant,
                                     double lambda) {
        int m = x.rows();
        check(m, y, lambda);
        int n = x.cols();
        int q = TessellatedKernel.monomialCount(n, degree);
        int dim = 2 * q;
        SdpModel model = new SdpModel();
        SdpModel.MatrixVar p = model.psdMatrix("P", dim);
        model.lessEqual(p.inner(Matrix.identity(dim)), 1.0);
        Border bd = border(model, m, y, lambda);
        SdpModel.Lmi lmi = bd.lmi();
        for (int k = 0; k < dim; k++) {
            for (int l = k; l < dim; l++) {
                Matrix e = Matrix.zeros(dim, dim);
                e.set(k, l, 1);
                e.set(l, k, 1);
                Matrix g = new TessellatedKernel(n, degree, -epsilon, 1 + epsilon, e, orthant).gram(x);
                lmi.addMatrix(p.entry(k, l), embed(g, y));
            }
        }
        SdpModel.Solution s = model.minimize(LinExpr.of(bd.t()));
        Matrix pv = s.value(p);
        return new Result(s.objective(), s.status(), pv, null, s.result());
    }

    /** Problem (4) over the given Gram matrices with tr(Σ μ_i K_i) = traceC. */
    public static Result lanckriet(List<Matrix> grams, double[] y, double lambda, double traceC) {
        int m = y.length;
        check(m, y, lambda);
        if (grams.isEmpty()) {
            throw new IllegalArgumentException("Lanckriet SDP needs at least one kernel");
        }
        if (!(traceC > 0)) {
            throw new IllegalArgumentException("trace constant must be positive, got " + traceC);
        }
        SdpModel model = new SdpModel();
        SdpModel.Var[] mu = model.scalars("mu", grams.size());
        LinExpr tr = LinExpr.constant(0);
        Border bd = border(model, m, y, lambda);
        SdpModel.Lmi lmi = bd.lmi();
        for (int i = 0; i < grams.size(); i++) {
            Matrix g = grams.get(i);
            if (g.rows() != m || g.cols() != m) {
                throw new IllegalArgumentException("Gram matrix " + i + " is " + g.rows() + "x" + g.cols()
                        + ", expected " + m + "x" + m);
            }
            lmi.addMatrix(mu[i], embed(g, y));
            tr = tr.plus(g.trace(), mu[i]);
        }
        model.equal(tr, traceC);
        SdpModel.Solution s = model.minimize(LinExpr.of(bd.t()));
        double[] w = new double[mu.length];
        for (int i = 0; i < w.length; i++) {
            w[i] = s.value(mu[i]);
        }
        return new Result(s.objective(), s.status(), null, w, s.result());
    }

    private record Border(SdpModel.Lmi lmi, SdpModel.Var t) {
    }

    private static void check(int m, double[] y, double lambda) {
        if (y.length != m) {
            throw new IllegalArgumentException("labels length " + y.length + " differs from " + m);
        }
        if (!(lambda > 0) || Double.isInfinite(lambda)) {
            throw new IllegalArgumentException("lambda must be positive and finite, got " + lambda);
        }
    }

    /** The border of the LMI: variables t, γ, ν ≥ 0, δ ≥ 0 and the constant e. */
    private static Border border(SdpModel model, int m, double[] y, double lambda) {
        SdpModel.Var t = model.scalar("t");
        SdpModel.Var gamma = model.scalar("gamma");
        SdpModel.Lmi lmi = model.lmi(m + 1);
        lmi.add(t, m, m, 1.0);
        double twoC = 2.0 / (m * lambda);
        for (int i = 0; i < m; i++) {
            SdpModel.Var nu = model.nonNegative("nu" + i);
            SdpModel.Var delta = model.nonNegative("delta" + i);
            lmi.constant(i, m, 1.0);
            lmi.add(nu, i, m, 1.0);
            lmi.add(delta, i, m, -1.0);
            lmi.add(delta, m, m, -twoC);
            lmi.add(gamma, i, m, y[i]);
        }
        return new Border(lmi, t);
    }

    /** diag(y) K diag(y) in the top-left m×m block of an (m+1)×(m+1) matrix. */
    private static Matrix embed(Matrix k, double[] y) {
        int m = y.length;
        Matrix out = Matrix.zeros(m + 1, m + 1);
        for (int j = 0; j < m; j++) {
            for (int i = 0; i < m; i++) {
                out.set(i, j, k.get(i, j) * y[i] * y[j]);
            }
        }
        return out;
    }
}
