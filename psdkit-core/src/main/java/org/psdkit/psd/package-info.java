/**
 * PSD models for non-negative functions (Marteau-Ferey, Bach and Rudi 2020): f(x) = Σ B_ij k(x,x_i) k(x,x_j), B ⪰ 0.
 *
 * <p>Conventions (shared with the CLI so results compare across tools): squared loss (1/(2n)) Σ (f(x_i) − y_i)²;
 * regulariser λ₁ Tr A + (λ₂/2)‖A‖²_F on A ⪰ 0 (the paper's λ(‖A‖_* + c‖A‖²_F) is λ₁ = λ, λ₂ = 2λc,
 * {@link org.psdkit.psd.PsdOptions#paper}); Gaussian kernel exp(−‖x − x'‖²/(2σ²)). The model's {@code objective} is
 * the primal value at the returned B, its {@code dualityGap} that minus the dual value.
 *
 * <p>Training: {@link org.psdkit.psd.EmpiricalFeatureMap} (economy eigen-decomposition of K, App. B.4 Remark 5) →
 * {@link org.psdkit.optim.PsdDualTerm} (the smooth dual term of eq. 10, whose sign we fixed against a brute-force
 * primal solver: the primal point is [−V Diag(α)Vᵀ − λ₁I]₊/λ₂) → {@link org.psdkit.optim.Fista} → B = RRᵀ (eq. 11) in
 * {@link org.psdkit.psd.PsdModel}, evaluated as ‖Rᵀv(x)‖² so that f ≥ 0 in floating point.
 *
 * <p>Baselines of App. D: {@link org.psdkit.regression.psd.Baselines} (NCM, PNM, GLM). {@code org.psdkit.experiments.Example2}
 * (module psdkit-experiments) documents that the paper's Example 2, as printed, uses a target wider than the kernel
 * (NCM then does fine) and reproduces the intended behaviour with a narrower target.
 */
package org.psdkit.psd;
