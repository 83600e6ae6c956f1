package org.psdkit.cone;

/**
 * One parameter block of a vector-valued model in the dual formulation: a scalar function f_b of the inputs,
 * parametrised either linearly (an RKHS element with ridge penalty) or as a PSD model (A ⪰ 0 with the
 * elastic-net spectral penalty). In the dual the block only sees β_b ∈ ℝⁿ, the combination Σ_t D_{t,b} α_t of the
 * dual variables of the outputs it contributes to, and contributes g_b(β_b) = Ω_b^*(−R_b^* β_b), where R_b maps the
 * block's parameter to its values at the training points.
 */
public interface Block extends AutoCloseable {

    /**
     * Evaluates g_b(β) and writes the block's primal values f_b(x_i) at the primal point ∇Ω_b^*(−R_b^*β)
     * into {@code values}. Note ∇g_b(β) = −values.
     *
     * @return g_b(β)
     */
    double evaluate(double[] beta, double[] values);

    /** Ω_b at the primal point of the last {@link #evaluate} call. */
    double lastRegulariser();

    /** A Lipschitz constant of ∇g_b. */
    double lipschitz();

    /** The fitted scalar function at the primal point for β. */
    ScalarFunction function(double[] beta);

    /** Releases native buffers, if any. */
    @Override
    default void close() {
    }
}
