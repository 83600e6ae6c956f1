package org.psdkit.optim.sdp;

/** Progress of {@link SdpSolver}, called once per iteration. */
@FunctionalInterface
public interface SdpListener {
    /**
     * @param iteration           1-based iteration number
     * @param primalObjective     ⟨C, X⟩
     * @param dualObjective       bᵀy
     * @param primalInfeasibility ‖A(X) − b‖/(1 + ‖b‖)
     * @param dualInfeasibility   ‖C − Z − Σ y_i A_i‖_F/(1 + ‖C‖_F)
     * @param mu                  ⟨X, Z⟩ / n
     */
    void onIteration(int iteration, double primalObjective, double dualObjective, double primalInfeasibility,
                     double dualInfeasibility, double mu);
}
