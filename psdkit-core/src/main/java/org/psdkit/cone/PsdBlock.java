package org.psdkit.cone;

import org.psdkit.linalg.Matrix;
import org.psdkit.optim.PsdDualTerm;

/**
 * A PSD model f(x) = Φ(x)ᵀAΦ(x), A ⪰ 0, with Ω(A) = λ₁‖A‖_* + (λ₂/2)‖A‖_F² (Marteau-Ferey, Bach and Rudi 2020, Lemma 5).
 * With V the training
 * features, R(A) = diag(VᵀAV) and R^*β = V Diag(β) Vᵀ, so g_b(β) = ‖[−V Diag(β)Vᵀ − λ₁I]₊‖_F²/(2λ₂) with primal point
 * A = [−V Diag(β)Vᵀ − λ₁I]₊/λ₂ (Thm. 2's ‖[V Diag(α)Vᵀ + λ₁I]₋‖² read as the negative part's magnitude; checked
 * against a brute-force primal in the tests). Evaluation is delegated to {@link PsdDualTerm}.
 */
public final class PsdBlock implements Block, AutoCloseable {

    private final Features features;
    private final PsdDualTerm term;
    private final double[] grad;

    public PsdBlock(Features features, double lambda1, double lambda2) {
        this.features = features;
        if (features instanceof SharedFeatures s) {
            // shared single-precision columns: the blocked term, no r×n copy per block
            this.term = PsdDualTerm.blocked(s.columns(), s.norms2(), s.gramMax(), lambda1, lambda2);
            this.grad = new double[s.columns().cols()];
            return;
        }
        Matrix v = features.trainingFeatures();
        this.term = new PsdDualTerm(v, lambda1, lambda2);
        this.grad = new double[v.cols()];
    }

    @Override
    public double evaluate(double[] beta, double[] values) {
        double g = term.valueAndGradient(beta, grad);
        for (int i = 0; i < grad.length; i++) {
            values[i] = -grad[i];
        }
        return g;
    }

    @Override
    public double lastRegulariser() {
        return term.regulariser();
    }

    @Override
    public double lipschitz() {
        return term.lipschitz();
    }

    @Override
    public ScalarFunction function(double[] beta) {
        term.evaluate(beta);
        return features.sumOfSquares(term.primalFactor());
    }

    @Override
    public void close() {
        term.close();
    }
}
